// SPDX-License-Identifier: MIT
/* Timers with positive timeouts started from inside a timer callback are
 * ordered by due time and then by start order. */
#include "diff.h"

static uv_timer_t first, x, y, z, late;

static void on_named(uv_timer_t *t) {
  say("fire %s", (const char *) uv_handle_get_data((uv_handle_t *) t));
}

static void on_first(uv_timer_t *t) {
  (void) t;
  say("fire first");
  /* y and z share a timeout: start order decides. x is shorter. */
  CHECK(uv_timer_start(&y, on_named, 6, 0) == 0);
  CHECK(uv_timer_start(&z, on_named, 6, 0) == 0);
  CHECK(uv_timer_start(&x, on_named, 3, 0) == 0);
  CHECK(uv_timer_start(&late, on_named, 40, 0) == 0);
  say("first started y(6) z(6) x(3) late(40); due_in y=%d z=%d x=%d late=%d",
      (int) uv_timer_get_due_in(&y), (int) uv_timer_get_due_in(&z),
      (int) uv_timer_get_due_in(&x), (int) uv_timer_get_due_in(&late));
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &first) == 0);
  CHECK(uv_timer_init(&loop, &x) == 0);
  CHECK(uv_timer_init(&loop, &y) == 0);
  CHECK(uv_timer_init(&loop, &z) == 0);
  CHECK(uv_timer_init(&loop, &late) == 0);
  uv_handle_set_data((uv_handle_t *) &x, "x");
  uv_handle_set_data((uv_handle_t *) &y, "y");
  uv_handle_set_data((uv_handle_t *) &z, "z");
  uv_handle_set_data((uv_handle_t *) &late, "late");

  CHECK(uv_timer_start(&first, on_first, 1, 0) == 0);

  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
