// SPDX-License-Identifier: MIT
/* Handles closing themselves from their own callbacks: a repeating timer,
 * an idle and a check handle.  Close callbacks run at the end of the same
 * iteration, in reverse order of the uv_close calls. */
#include "diff.h"

static uv_timer_t t;
static uv_idle_t idle;
static uv_check_t chk;
static uv_prepare_t prep;
static int t_n, idle_n, chk_n;

static void on_close(uv_handle_t *h) {
  say("  close cb %s", uv_handle_type_name(uv_handle_get_type(h)));
}

static void on_timer(uv_timer_t *h) {
  t_n++;
  say("  timer #%d", t_n);
  uv_close((uv_handle_t *) h, on_close);
  say("  timer closed itself: active=%d closing=%d", uv_is_active((uv_handle_t *) h),
      uv_is_closing((uv_handle_t *) h));
}

static void on_idle(uv_idle_t *h) {
  idle_n++;
  say("  idle #%d", idle_n);
  uv_close((uv_handle_t *) h, on_close);
}

static void on_prep(uv_prepare_t *h) {
  (void) h;
  say("  prepare");
}

static void on_check(uv_check_t *h) {
  chk_n++;
  say("  check #%d", chk_n);
  uv_close((uv_handle_t *) h, on_close);
  uv_close((uv_handle_t *) &prep, on_close);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_timer_start(&t, on_timer, 0, 1) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_check_start(&chk, on_check) == 0);
  CHECK(uv_prepare_start(&prep, on_prep) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("counts: timer=%d idle=%d check=%d", t_n, idle_n, chk_n);
  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
