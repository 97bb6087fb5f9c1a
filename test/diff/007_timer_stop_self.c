// SPDX-License-Identifier: MIT
/* A repeating timer stops itself from its own callback; a one-shot timer
 * calls uv_timer_stop on itself (already inactive). */
#include "diff.h"

static uv_timer_t rep, one;
static int count;

static void on_one(uv_timer_t *t) {
  say("one fired, active=%d", uv_is_active((uv_handle_t *) t));
  say("stop(one) = %s", rc_name(uv_timer_stop(t)));
  say("stop(one) again = %s", rc_name(uv_timer_stop(t)));
}

static void on_rep(uv_timer_t *t) {
  count++;
  say("rep #%d active=%d", count, uv_is_active((uv_handle_t *) t));
  if (count == 3) {
    say("stop(rep) = %s", rc_name(uv_timer_stop(t)));
    say("rep active=%d has_ref=%d", uv_is_active((uv_handle_t *) t),
        uv_has_ref((uv_handle_t *) t));
    CHECK(uv_timer_start(&one, on_one, 1, 0) == 0);
  }
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &rep) == 0);
  CHECK(uv_timer_init(&loop, &one) == 0);
  say("stop(never started) = %s", rc_name(uv_timer_stop(&rep)));
  CHECK(uv_timer_start(&rep, on_rep, 1, 1) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("rep fired %d times", count);
  finish(&loop);
  return 0;
}
