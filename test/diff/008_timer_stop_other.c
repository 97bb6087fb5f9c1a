// SPDX-License-Identifier: MIT
/* A timer callback stops another timer that is due in the same pass, and
 * restarts a third one further into the future. */
#include "diff.h"

static uv_timer_t a, b, c, d;

static void on_named(uv_timer_t *t) {
  say("fire %s", (const char *) uv_handle_get_data((uv_handle_t *) t));
}

static void on_a(uv_timer_t *t) {
  (void) t;
  say("fire a");
  int rc = uv_timer_stop(&b);
  say("a stops b: %s (b active=%d)", rc_name(rc),
      uv_is_active((uv_handle_t *) &b));
  CHECK(uv_timer_start(&c, on_named, 30, 0) == 0);
  say("a pushed c back by 30");
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &a) == 0);
  CHECK(uv_timer_init(&loop, &b) == 0);
  CHECK(uv_timer_init(&loop, &c) == 0);
  CHECK(uv_timer_init(&loop, &d) == 0);
  uv_handle_set_data((uv_handle_t *) &b, "b");
  uv_handle_set_data((uv_handle_t *) &c, "c");
  uv_handle_set_data((uv_handle_t *) &d, "d");

  /* All four are due at the same time: a runs first. */
  CHECK(uv_timer_start(&a, on_a, 2, 0) == 0);
  CHECK(uv_timer_start(&b, on_named, 2, 0) == 0);
  CHECK(uv_timer_start(&c, on_named, 2, 0) == 0);
  CHECK(uv_timer_start(&d, on_named, 2, 0) == 0);

  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
