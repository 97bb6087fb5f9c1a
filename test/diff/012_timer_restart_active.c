// SPDX-License-Identifier: MIT
/* uv_timer_start on an already active timer restarts it: it gets a fresh
 * position among timers with the same due time. */
#include "diff.h"

static uv_timer_t a, b, c, d;

static int b_fires;

static void on_named(uv_timer_t *t) {
  say("fire %s", (const char *) uv_handle_get_data((uv_handle_t *) t));
  if (t == &b && ++b_fires == 2) {
    CHECK(uv_timer_stop(t) == 0);
    say("b stopped after two fires");
  }
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &a) == 0);
  CHECK(uv_timer_init(&loop, &b) == 0);
  CHECK(uv_timer_init(&loop, &c) == 0);
  CHECK(uv_timer_init(&loop, &d) == 0);
  uv_handle_set_data((uv_handle_t *) &a, "a");
  uv_handle_set_data((uv_handle_t *) &b, "b");
  uv_handle_set_data((uv_handle_t *) &c, "c");
  uv_handle_set_data((uv_handle_t *) &d, "d");

  CHECK(uv_timer_start(&a, on_named, 60, 0) == 0);
  CHECK(uv_timer_start(&b, on_named, 60, 0) == 0);
  CHECK(uv_timer_start(&c, on_named, 60, 0) == 0);
  rc = uv_timer_start(&a, on_named, 60, 0);
  say("restart a (same timeout) = %s, active=%d", rc_name(rc),
      uv_is_active((uv_handle_t *) &a));
  /* d is first started late, then restarted earlier than everything. */
  CHECK(uv_timer_start(&d, on_named, 500, 0) == 0);
  rc = uv_timer_start(&d, on_named, 5, 0);
  say("restart d (500 -> 5) = %s", rc_name(rc));
  /* b is restarted with a repeat so it fires twice. */
  rc = uv_timer_start(&b, on_named, 150, 100);
  say("restart b (150, repeat 100) = %s", rc_name(rc));

  run_say(&loop, UV_RUN_DEFAULT);
  say("b active=%d", uv_is_active((uv_handle_t *) &b));
  finish(&loop);
  return 0;
}
