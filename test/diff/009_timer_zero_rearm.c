// SPDX-License-Identifier: MIT
/* A one-shot timer re-arms itself with uv_timer_start(t, cb, 0, 0) from
 * its own callback, five times in total.  The iteration counter (an
 * unref'd prepare handle) reveals whether the re-armed timer runs again
 * within the same timers pass, and where a second zero timer that was
 * started before the first callback fits in. */
#include "diff.h"

static uv_timer_t self_rearm, witness;
static uv_prepare_t iter_counter;
static int iteration;
static int count;

static void on_prepare(uv_prepare_t *p) {
  (void) p;
  iteration++;
}

static void on_witness(uv_timer_t *t) {
  (void) t;
  say("witness fired in iteration %d", iteration);
}

static void on_self(uv_timer_t *t) {
  count++;
  say("self #%d in iteration %d", count, iteration);
  if (count < 5)
    CHECK(uv_timer_start(t, on_self, 0, 0) == 0);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_prepare_init(&loop, &iter_counter) == 0);
  CHECK(uv_prepare_start(&iter_counter, on_prepare) == 0);
  uv_unref((uv_handle_t *) &iter_counter);
  CHECK(uv_timer_init(&loop, &self_rearm) == 0);
  CHECK(uv_timer_init(&loop, &witness) == 0);

  CHECK(uv_timer_start(&self_rearm, on_self, 0, 0) == 0);
  /* Started after self_rearm with the same timeout. */
  CHECK(uv_timer_start(&witness, on_witness, 0, 0) == 0);

  run_say(&loop, UV_RUN_DEFAULT);
  say("self fired %d times", count);
  finish(&loop);
  return 0;
}
