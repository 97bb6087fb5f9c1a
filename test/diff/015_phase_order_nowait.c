// SPDX-License-Identifier: MIT
/* Phase order with UV_RUN_NOWAIT, including a repeating timer and a
 * handle closed from the prepare phase. */
#include "diff.h"

static uv_timer_t timer;
static uv_prepare_t prepare;
static uv_check_t check;
static uv_idle_t spare;
static int prepare_calls;

static void on_timer(uv_timer_t *h) { (void) h; say("  timer"); }
static void on_check(uv_check_t *h) { (void) h; say("  check"); }
static void on_close(uv_handle_t *h) { (void) h; say("  close cb (spare)"); }

static void on_prepare(uv_prepare_t *h) {
  (void) h;
  prepare_calls++;
  say("  prepare");
  if (prepare_calls == 1)
    uv_close((uv_handle_t *) &spare, on_close);
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);
  CHECK(uv_idle_init(&loop, &spare) == 0);

  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  CHECK(uv_check_start(&check, on_check) == 0);
  /* Due immediately, then every 10 seconds (never again in this test). */
  CHECK(uv_timer_start(&timer, on_timer, 0, 10000) == 0);

  for (i = 1; i <= 3; i++) {
    say("iteration %d", i);
    run_say(&loop, UV_RUN_NOWAIT);
  }
  finish(&loop);
  return 0;
}
