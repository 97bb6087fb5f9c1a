// SPDX-License-Identifier: MIT
/* Closing active timer/idle/prepare/check/async handles stops them at
 * once: none of their callbacks run, and flags change immediately. */
#include "diff.h"

static uv_timer_t timer;
static uv_idle_t idle;
static uv_prepare_t prep;
static uv_check_t chk;
static uv_async_t async;
static int callbacks;

static void on_timer(uv_timer_t *h) { (void) h; callbacks++; say("timer cb (unexpected)"); }
static void on_idle(uv_idle_t *h) { (void) h; callbacks++; say("idle cb (unexpected)"); }
static void on_prep(uv_prepare_t *h) { (void) h; callbacks++; say("prepare cb (unexpected)"); }
static void on_chk(uv_check_t *h) { (void) h; callbacks++; say("check cb (unexpected)"); }
static void on_async(uv_async_t *h) { (void) h; callbacks++; say("async cb (unexpected)"); }

static void on_close(uv_handle_t *h) {
  say("close cb %s: active=%d closing=%d has_ref=%d",
      uv_handle_type_name(uv_handle_get_type(h)), uv_is_active(h),
      uv_is_closing(h), uv_has_ref(h));
}

static void show(const char *when, uv_handle_t *h) {
  say("%s %s: active=%d closing=%d has_ref=%d", when,
      uv_handle_type_name(uv_handle_get_type(h)), uv_is_active(h),
      uv_is_closing(h), uv_has_ref(h));
}

int main(void) {
  uv_loop_t loop;
  uv_handle_t *all[5];
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_async_init(&loop, &async, on_async) == 0);
  all[0] = (uv_handle_t *) &timer;
  all[1] = (uv_handle_t *) &idle;
  all[2] = (uv_handle_t *) &prep;
  all[3] = (uv_handle_t *) &chk;
  all[4] = (uv_handle_t *) &async;

  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_prepare_start(&prep, on_prep) == 0);
  CHECK(uv_check_start(&chk, on_chk) == 0);
  CHECK(uv_async_send(&async) == 0);

  for (i = 0; i < 5; i++)
    show("before close", all[i]);
  for (i = 0; i < 5; i++)
    uv_close(all[i], on_close);
  for (i = 0; i < 5; i++)
    show("after close", all[i]);
  say("alive=%d", uv_loop_alive(&loop));

  run_say(&loop, UV_RUN_DEFAULT);
  say("callbacks=%d alive=%d", callbacks, uv_loop_alive(&loop));
  for (i = 0; i < 5; i++)
    show("after run", all[i]);
  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
