// SPDX-License-Identifier: MIT
/* uv_timer_set_repeat while the timer is running: changing the repeat
 * inside the callback versus the re-arm that already happened. */
#include "diff.h"

static uv_timer_t t1, t2;
static int n1, n2;

static void on_t1(uv_timer_t *t) {
  n1++;
  say("t1 #%d repeat=%d active=%d due_in=%d", n1, (int) uv_timer_get_repeat(t),
      uv_is_active((uv_handle_t *) t), (int) uv_timer_get_due_in(t));
  if (n1 == 3) {
    uv_timer_set_repeat(t, 0);
    say("t1 set repeat 0 -> repeat=%d active=%d", (int) uv_timer_get_repeat(t),
        uv_is_active((uv_handle_t *) t));
  }
  if (n1 > 10)
    CHECK(uv_timer_stop(t) == 0);
}

static void on_t2(uv_timer_t *t) {
  n2++;
  say("t2 #%d repeat=%d active=%d", n2, (int) uv_timer_get_repeat(t),
      uv_is_active((uv_handle_t *) t));
  if (n2 == 1) {
    /* A one-shot timer given a repeat from inside its callback. */
    uv_timer_set_repeat(t, 3);
    say("t2 set repeat 3 -> active=%d", uv_is_active((uv_handle_t *) t));
  }
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t1) == 0);
  CHECK(uv_timer_init(&loop, &t2) == 0);
  CHECK(uv_timer_start(&t1, on_t1, 1, 2) == 0);
  uv_timer_set_repeat(&t1, 4);
  say("t1 repeat after set before first fire = %d", (int) uv_timer_get_repeat(&t1));
  run_say(&loop, UV_RUN_DEFAULT);
  say("t1 fired %d times", n1);

  CHECK(uv_timer_start(&t2, on_t2, 1, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("t2 fired %d times", n2);
  finish(&loop);
  return 0;
}
