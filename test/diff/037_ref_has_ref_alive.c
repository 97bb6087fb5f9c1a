// SPDX-License-Identifier: MIT
/* uv_ref / uv_unref / uv_has_ref / uv_loop_alive bookkeeping, including
 * repeated ref/unref calls and closing handles. */
#include "diff.h"

static uv_idle_t idle;
static uv_timer_t timer;
static uv_check_t chk;

static void on_idle(uv_idle_t *h) { (void) h; }
static void on_check(uv_check_t *h) { (void) h; }
static void on_timer(uv_timer_t *h) { (void) h; }

static void on_close(uv_handle_t *h) {
  say("close cb %s: alive=%d", uv_handle_type_name(uv_handle_get_type(h)),
      uv_loop_alive(uv_handle_get_loop(h)));
}

static void state(uv_loop_t *loop, const char *what) {
  say("%-28s idle(ref=%d act=%d) timer(ref=%d act=%d) alive=%d", what,
      uv_has_ref((uv_handle_t *) &idle), uv_is_active((uv_handle_t *) &idle),
      uv_has_ref((uv_handle_t *) &timer), uv_is_active((uv_handle_t *) &timer),
      uv_loop_alive(loop));
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  state(&loop, "after init");

  CHECK(uv_idle_start(&idle, on_idle) == 0);
  state(&loop, "idle started");
  uv_unref((uv_handle_t *) &idle);
  state(&loop, "idle unref");
  uv_unref((uv_handle_t *) &idle);
  state(&loop, "idle unref twice");
  uv_ref((uv_handle_t *) &idle);
  state(&loop, "idle ref once");
  uv_ref((uv_handle_t *) &idle);
  state(&loop, "idle ref twice");
  CHECK(uv_idle_stop(&idle) == 0);
  state(&loop, "idle stopped");

  uv_unref((uv_handle_t *) &timer);
  state(&loop, "timer unref before start");
  CHECK(uv_timer_start(&timer, on_timer, 1000, 0) == 0);
  state(&loop, "timer started (unref'd)");
  uv_ref((uv_handle_t *) &timer);
  state(&loop, "timer ref'd while active");
  CHECK(uv_timer_stop(&timer) == 0);
  state(&loop, "timer stopped");

  CHECK(uv_check_start(&chk, on_check) == 0);
  uv_unref((uv_handle_t *) &chk);
  say("check unref'd and active: alive=%d", uv_loop_alive(&loop));
  uv_close((uv_handle_t *) &chk, on_close);
  say("unref'd check closing: alive=%d", uv_loop_alive(&loop));
  uv_close((uv_handle_t *) &idle, on_close);
  say("idle closing: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_NOWAIT);
  say("after run: alive=%d", uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
