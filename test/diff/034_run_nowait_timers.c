// SPDX-License-Identifier: MIT
/* UV_RUN_NOWAIT with due, repeating and far-away timers. */
#include "diff.h"

static uv_timer_t due, rep, far_t;
static int due_n, rep_n, far_n;

static void on_due(uv_timer_t *h) { (void) h; due_n++; say("  due"); }
static void on_rep(uv_timer_t *h) { (void) h; rep_n++; say("  rep"); }
static void on_far(uv_timer_t *h) { (void) h; far_n++; say("  far"); }

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &due) == 0);
  CHECK(uv_timer_init(&loop, &rep) == 0);
  CHECK(uv_timer_init(&loop, &far_t) == 0);

  CHECK(uv_timer_start(&due, on_due, 0, 0) == 0);
  say("one due timer:");
  run_say(&loop, UV_RUN_NOWAIT);

  CHECK(uv_timer_start(&rep, on_rep, 0, 10000) == 0);
  say("repeating timer due now (repeat 10s):");
  run_say(&loop, UV_RUN_NOWAIT);
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_timer_stop(&rep) == 0);

  CHECK(uv_timer_start(&far_t, on_far, 10000, 0) == 0);
  say("far timer only:");
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_timer_start(&due, on_due, 0, 0) == 0);
  say("far timer plus due timer:");
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_timer_stop(&far_t) == 0);

  say("due=%d rep=%d far=%d", due_n, rep_n, far_n);
  finish(&loop);
  return 0;
}
