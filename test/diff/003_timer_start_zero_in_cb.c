// SPDX-License-Identifier: MIT
/* A timer started with timeout 0 from inside a timer callback.
 * An unref'd prepare handle counts loop iterations, so the trace shows
 * whether the new timer ran in the same timers pass or a later iteration. */
#include "diff.h"

static uv_timer_t a, b, c;
static uv_prepare_t iter_counter;
static int iteration;

static void on_prepare(uv_prepare_t *p) {
  (void) p;
  iteration++;
}

static void on_c(uv_timer_t *t) {
  (void) t;
  say("c fired in iteration %d", iteration);
}

static void on_b(uv_timer_t *t) {
  (void) t;
  say("b fired in iteration %d", iteration);
}

static void on_a(uv_timer_t *t) {
  (void) t;
  say("a fired in iteration %d", iteration);
  CHECK(uv_timer_start(&b, on_b, 0, 0) == 0);
  say("a started b (timeout 0)");
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_prepare_init(&loop, &iter_counter) == 0);
  CHECK(uv_prepare_start(&iter_counter, on_prepare) == 0);
  uv_unref((uv_handle_t *) &iter_counter);

  CHECK(uv_timer_init(&loop, &a) == 0);
  CHECK(uv_timer_init(&loop, &b) == 0);
  CHECK(uv_timer_init(&loop, &c) == 0);
  /* c has the same (zero) timeout as a but was started after it. */
  CHECK(uv_timer_start(&a, on_a, 0, 0) == 0);
  CHECK(uv_timer_start(&c, on_c, 0, 0) == 0);

  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
