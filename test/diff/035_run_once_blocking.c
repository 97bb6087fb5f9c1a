// SPDX-License-Identifier: MIT
/* UV_RUN_ONCE blocks in the poll phase for the nearest timer and returns
 * after running it, leaving later timers alone; with an idle handle
 * active it does not block at all.  The near timer is started from a
 * prepare callback so that it cannot already be due when the iteration's
 * first timers phase runs. */
#include "diff.h"

static uv_timer_t near_t, far_t;
static uv_idle_t idle;
static uv_prepare_t prep;
static int idle_calls;

static void on_timer(uv_timer_t *h) {
  say("  timer %s", (const char *) uv_handle_get_data((uv_handle_t *) h));
}

static void on_prepare(uv_prepare_t *h) {
  say("  prepare starts near (20ms)");
  CHECK(uv_timer_start(&near_t, on_timer, 20, 0) == 0);
  CHECK(uv_prepare_stop(h) == 0);
}

static void on_idle(uv_idle_t *h) {
  (void) h;
  idle_calls++;
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &near_t) == 0);
  CHECK(uv_timer_init(&loop, &far_t) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  uv_handle_set_data((uv_handle_t *) &near_t, "near");
  uv_handle_set_data((uv_handle_t *) &far_t, "far");

  CHECK(uv_timer_start(&far_t, on_timer, 30000, 0) == 0);
  CHECK(uv_prepare_start(&prep, on_prepare) == 0);
  say("ONCE with a far timer (30s); prepare adds a near one:");
  run_say(&loop, UV_RUN_ONCE);
  say("near active=%d far active=%d", uv_is_active((uv_handle_t *) &near_t),
      uv_is_active((uv_handle_t *) &far_t));

  CHECK(uv_idle_start(&idle, on_idle) == 0);
  say("ONCE with idle active and far pending:");
  run_say(&loop, UV_RUN_ONCE);
  say("idle_calls=%d far active=%d", idle_calls, uv_is_active((uv_handle_t *) &far_t));
  CHECK(uv_idle_stop(&idle) == 0);

  CHECK(uv_timer_start(&far_t, on_timer, 20, 0) == 0);
  say("ONCE again, far restarted at 20ms (only timer):");
  run_say(&loop, UV_RUN_ONCE);
  say("far active=%d alive=%d", uv_is_active((uv_handle_t *) &far_t),
      uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
