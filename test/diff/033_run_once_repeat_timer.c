// SPDX-License-Identifier: MIT
/* UV_RUN_ONCE with timers.  In the reference implementation ONCE runs
 * due timers at the start of the iteration and again after the poll, so
 * a repeating timer that is due at once can fire twice in a single call. */
#include "diff.h"

static uv_timer_t rep, single;
static int rep_count, single_count;

static void on_rep(uv_timer_t *h) { (void) h; rep_count++; say("  rep #%d", rep_count); }
static void on_single(uv_timer_t *h) { (void) h; single_count++; say("  single"); }

int main(void) {
  uv_loop_t loop;
  int r;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &rep) == 0);
  CHECK(uv_timer_init(&loop, &single) == 0);

  say("repeating timer due now (repeat 5):");
  CHECK(uv_timer_start(&rep, on_rep, 0, 5) == 0);
  r = uv_run(&loop, UV_RUN_ONCE);
  say("uv_run(ONCE) = %d, rep_count=%d", r, rep_count);
  CHECK(uv_timer_stop(&rep) == 0);

  say("single timer in 5ms, nothing else:");
  CHECK(uv_timer_start(&single, on_single, 5, 0) == 0);
  r = uv_run(&loop, UV_RUN_ONCE);
  say("uv_run(ONCE) = %d, single_count=%d", r, single_count);

  say("single timer due now:");
  CHECK(uv_timer_start(&single, on_single, 0, 0) == 0);
  r = uv_run(&loop, UV_RUN_ONCE);
  say("uv_run(ONCE) = %d, single_count=%d", r, single_count);

  finish(&loop);
  return 0;
}
