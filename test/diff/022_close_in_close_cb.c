// SPDX-License-Identifier: MIT
/* uv_close called from a close callback: the new close callback runs in
 * the next loop iteration, after the rest of the current batch.
 * Chain: a -> b -> d (each closes the next from its close callback). */
#include "diff.h"

static uv_timer_t a, b, c, d;
static uv_check_t iter_counter;
static int iteration;

static void on_check(uv_check_t *h) {
  (void) h;
  iteration++;
}

static void on_close_plain(uv_handle_t *h) {
  say("close %s after check #%d", (const char *) uv_handle_get_data(h), iteration);
}

static void on_close_d(uv_handle_t *h) {
  on_close_plain(h);
  uv_close((uv_handle_t *) &iter_counter, NULL);
  say("  d's close cb closed the counter");
}

static void on_close_b(uv_handle_t *h) {
  on_close_plain(h);
  uv_close((uv_handle_t *) &d, on_close_d);
  say("  b's close cb closed d");
}

static void on_close_a(uv_handle_t *h) {
  on_close_plain(h);
  uv_close((uv_handle_t *) &b, on_close_b);
  say("  a's close cb closed b");
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_check_init(&loop, &iter_counter) == 0);
  CHECK(uv_check_start(&iter_counter, on_check) == 0);
  uv_unref((uv_handle_t *) &iter_counter);
  CHECK(uv_timer_init(&loop, &a) == 0);
  CHECK(uv_timer_init(&loop, &b) == 0);
  CHECK(uv_timer_init(&loop, &c) == 0);
  CHECK(uv_timer_init(&loop, &d) == 0);
  uv_handle_set_data((uv_handle_t *) &a, "a");
  uv_handle_set_data((uv_handle_t *) &b, "b");
  uv_handle_set_data((uv_handle_t *) &c, "c");
  uv_handle_set_data((uv_handle_t *) &d, "d");

  uv_close((uv_handle_t *) &a, on_close_a);
  uv_close((uv_handle_t *) &c, on_close_plain);
  say("closed a, c; alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("alive=%d", uv_loop_alive(&loop));
  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
