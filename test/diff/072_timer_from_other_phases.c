// SPDX-License-Identifier: MIT
/* Zero-timeout timers started from idle, prepare and check callbacks.
 * With UV_RUN_ONCE the reference runs due timers once more at the end of
 * the iteration; with UV_RUN_NOWAIT they wait for the next iteration. */
#include "diff.h"

static uv_timer_t t_idle, t_prep, t_check;
static uv_idle_t idle;
static uv_prepare_t prep;
static uv_check_t chk;
static int arm;

static void on_timer(uv_timer_t *h) {
  say("  timer %s", (const char *) uv_handle_get_data((uv_handle_t *) h));
}

static void on_idle(uv_idle_t *h) {
  (void) h;
  say("  idle");
  if (arm)
    CHECK(uv_timer_start(&t_idle, on_timer, 0, 0) == 0);
}

static void on_prep(uv_prepare_t *h) {
  (void) h;
  say("  prepare");
  if (arm)
    CHECK(uv_timer_start(&t_prep, on_timer, 0, 0) == 0);
}

static void on_check(uv_check_t *h) {
  (void) h;
  say("  check");
  if (arm)
    CHECK(uv_timer_start(&t_check, on_timer, 0, 0) == 0);
  arm = 0;
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t_idle) == 0);
  CHECK(uv_timer_init(&loop, &t_prep) == 0);
  CHECK(uv_timer_init(&loop, &t_check) == 0);
  uv_handle_set_data((uv_handle_t *) &t_idle, "from-idle");
  uv_handle_set_data((uv_handle_t *) &t_prep, "from-prepare");
  uv_handle_set_data((uv_handle_t *) &t_check, "from-check");
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_prepare_start(&prep, on_prep) == 0);
  CHECK(uv_check_start(&chk, on_check) == 0);

  say("ONCE, arming timers:");
  arm = 1;
  run_say(&loop, UV_RUN_ONCE);
  say("ONCE:");
  run_say(&loop, UV_RUN_ONCE);

  say("NOWAIT, arming timers:");
  arm = 1;
  run_say(&loop, UV_RUN_NOWAIT);
  say("NOWAIT:");
  run_say(&loop, UV_RUN_NOWAIT);
  say("NOWAIT:");
  run_say(&loop, UV_RUN_NOWAIT);
  finish(&loop);
  return 0;
}
