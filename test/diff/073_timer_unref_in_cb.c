// SPDX-License-Identifier: MIT
/* A repeating timer that unrefs itself from its callback: the loop stops
 * running after that iteration although the timer is still active. */
#include "diff.h"

static uv_timer_t t;
static int n;

static void on_timer(uv_timer_t *h) {
  n++;
  say("tick %d", n);
  if (n == 3) {
    uv_unref((uv_handle_t *) h);
    say("unref'd itself: active=%d has_ref=%d alive=%d", uv_is_active((uv_handle_t *) h),
        uv_has_ref((uv_handle_t *) h), uv_loop_alive(uv_handle_get_loop((uv_handle_t *) h)));
  }
  if (n == 5) {
    CHECK(uv_timer_stop(h) == 0);
    say("stopped");
  }
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 1, 2) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("after run: n=%d active=%d alive=%d", n, uv_is_active((uv_handle_t *) &t),
      uv_loop_alive(&loop));
  uv_ref((uv_handle_t *) &t);
  say("ref'd again: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("after run: n=%d active=%d alive=%d", n, uv_is_active((uv_handle_t *) &t),
      uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
