// SPDX-License-Identifier: MIT
/* A repeating timer fires N times and then stops itself; a second
 * repeating timer is stopped from the outside via uv_close. */
#include "diff.h"

static uv_timer_t rep, other;
static int rep_count, other_count;

static void on_other(uv_timer_t *t) {
  (void) t;
  other_count++;
}

static void on_rep(uv_timer_t *t) {
  rep_count++;
  say("rep #%d active=%d repeat=%d", rep_count, uv_is_active((uv_handle_t *) t),
      (int) uv_timer_get_repeat(t));
  if (rep_count == 5) {
    CHECK(uv_timer_stop(t) == 0);
    say("rep stopped, active=%d", uv_is_active((uv_handle_t *) t));
    uv_close((uv_handle_t *) &other, NULL);
  }
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &rep) == 0);
  CHECK(uv_timer_init(&loop, &other) == 0);
  say("repeat before start = %d", (int) uv_timer_get_repeat(&rep));
  CHECK(uv_timer_start(&rep, on_rep, 1, 2) == 0);
  CHECK(uv_timer_start(&other, on_other, 1000, 1000) == 0);
  say("repeat after start = %d", (int) uv_timer_get_repeat(&rep));

  run_say(&loop, UV_RUN_DEFAULT);
  say("rep fired %d times, other fired %d times", rep_count, other_count);
  say("repeat after stop = %d", (int) uv_timer_get_repeat(&rep));
  finish(&loop);
  return 0;
}
