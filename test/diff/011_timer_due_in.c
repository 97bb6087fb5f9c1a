// SPDX-License-Identifier: MIT
/* uv_timer_get_due_in in various states.  No uv_update_time is done
 * between starting and querying, so the values are exact. */
#include "diff.h"

static uv_timer_t t, r;
static int fired;

static void on_t(uv_timer_t *h) {
  say("t fired, due_in=%d", (int) uv_timer_get_due_in(h));
  fired++;
}

static void on_r(uv_timer_t *h) {
  say("r fired, due_in=%d", (int) uv_timer_get_due_in(h));
  CHECK(uv_timer_stop(h) == 0);
  say("r stopped in cb, due_in=%d", (int) uv_timer_get_due_in(h));
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_init(&loop, &r) == 0);

  say("fresh timer due_in=%d", (int) uv_timer_get_due_in(&t));
  CHECK(uv_timer_start(&t, on_t, 100, 0) == 0);
  say("started(100) due_in=%d", (int) uv_timer_get_due_in(&t));
  CHECK(uv_timer_start(&t, on_t, 250, 0) == 0);
  say("restarted(250) due_in=%d", (int) uv_timer_get_due_in(&t));
  CHECK(uv_timer_stop(&t) == 0);
  say("stopped, due_in=%d active=%d", (int) uv_timer_get_due_in(&t),
      uv_is_active((uv_handle_t *) &t));
  CHECK(uv_timer_start(&t, on_t, 0, 0) == 0);
  say("started(0) due_in=%d", (int) uv_timer_get_due_in(&t));
  CHECK(uv_timer_start(&r, on_r, 1, 25) == 0);
  say("r started(1, repeat 25) due_in=%d", (int) uv_timer_get_due_in(&r));

  run_say(&loop, UV_RUN_DEFAULT);
  say("t fired %d times", fired);
  finish(&loop);
  return 0;
}
