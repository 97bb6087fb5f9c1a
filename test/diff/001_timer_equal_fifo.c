// SPDX-License-Identifier: MIT
/* Timers with equal timeouts fire in the order they were started,
 * regardless of the order in which they were initialised. */
#include "diff.h"

static uv_timer_t timers[5];

static void on_timer(uv_timer_t *t) {
  say("timer %d", (int) (t - timers));
  CHECK(uv_is_active((uv_handle_t *) t) == 0);
}

int main(void) {
  static const int order[5] = { 3, 1, 4, 0, 2 };
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 5; i++)
    CHECK(uv_timer_init(&loop, &timers[i]) == 0);

  for (i = 0; i < 5; i++) {
    say("start timer %d (timeout 7)", order[i]);
    CHECK(uv_timer_start(&timers[order[i]], on_timer, 7, 0) == 0);
  }

  run_say(&loop, UV_RUN_DEFAULT);

  /* Same again with zero timeouts. */
  for (i = 4; i >= 0; i--) {
    say("start timer %d (timeout 0)", i);
    CHECK(uv_timer_start(&timers[i], on_timer, 0, 0) == 0);
  }
  run_say(&loop, UV_RUN_DEFAULT);

  finish(&loop);
  return 0;
}
