// SPDX-License-Identifier: MIT
/* Phase order within an iteration, driven with UV_RUN_ONCE:
 * timers -> idle -> prepare -> (poll) -> check -> close callbacks. */
#include "diff.h"

static uv_timer_t timer;
static uv_idle_t idle;
static uv_prepare_t prepare;
static uv_check_t check;
static uv_timer_t victim;
static int check_calls;

static void on_timer(uv_timer_t *h) { (void) h; say("  timer"); }
static void on_idle(uv_idle_t *h) { (void) h; say("  idle"); }
static void on_prepare(uv_prepare_t *h) { (void) h; say("  prepare"); }
static void on_close(uv_handle_t *h) { (void) h; say("  close cb"); }

static void on_check(uv_check_t *h) {
  (void) h;
  say("  check");
  check_calls++;
  if (check_calls == 2)
    uv_close((uv_handle_t *) &victim, on_close);
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_timer_init(&loop, &victim) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);

  /* Started in reverse phase order on purpose. */
  CHECK(uv_check_start(&check, on_check) == 0);
  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);

  for (i = 1; i <= 3; i++) {
    say("iteration %d", i);
    run_say(&loop, UV_RUN_ONCE);
  }

  CHECK(uv_idle_stop(&idle) == 0);
  CHECK(uv_prepare_stop(&prepare) == 0);
  CHECK(uv_check_stop(&check) == 0);
  say("all stopped, alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_ONCE);
  finish(&loop);
  return 0;
}
