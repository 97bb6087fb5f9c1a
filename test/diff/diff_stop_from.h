// SPDX-License-Identifier: MIT
/*
 * diff_stop_from.h -- the scenario of 025 to 030, one per kind of callback
 * uv_stop is called from.  A scenario defines STOP_IN as "timer", "idle",
 * "prepare", "check", "async" or "close" and includes this file (alone).
 *
 * uv_stop does not cut the current iteration short: the remaining phases
 * still run (the poll does not block), then uv_run returns with the loop
 * still alive.  A follow-up UV_RUN_NOWAIT shows the loop carries on
 * normally.
 */
#ifndef PHASELOOP_TEST_DIFF_STOP_FROM_H
#define PHASELOOP_TEST_DIFF_STOP_FROM_H

#include "diff.h"

#ifndef STOP_IN
#error "define STOP_IN (the callback uv_stop is called from) before including diff_stop_from.h"
#endif

static uv_loop_t loop;
static uv_timer_t t1, t2;
static uv_idle_t idle;
static uv_prepare_t prep;
static uv_check_t chk;
static uv_async_t async;
static uv_timer_t victim;
static int stopped;

static void maybe_stop(const char *where) {
  if (!stopped && strcmp(where, STOP_IN) == 0) {
    stopped = 1;
    uv_stop(&loop);
    say("  uv_stop() in %s, backend_timeout=%d", where, uv_backend_timeout(&loop));
  }
}

static void on_t1(uv_timer_t *h) { (void) h; say("  timer t1"); maybe_stop("timer"); }
static void on_t2(uv_timer_t *h) { (void) h; say("  timer t2"); }
static void on_idle(uv_idle_t *h) { (void) h; say("  idle"); maybe_stop("idle"); }
static void on_prep(uv_prepare_t *h) { (void) h; say("  prepare"); maybe_stop("prepare"); }
static void on_chk(uv_check_t *h) { (void) h; say("  check"); maybe_stop("check"); }
static void on_async(uv_async_t *h) { (void) h; say("  async"); maybe_stop("async"); }
static void on_victim_close(uv_handle_t *h) { (void) h; say("  close cb"); maybe_stop("close"); }

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t1) == 0);
  CHECK(uv_timer_init(&loop, &t2) == 0);
  CHECK(uv_timer_init(&loop, &victim) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_async_init(&loop, &async, on_async) == 0);

  CHECK(uv_timer_start(&t1, on_t1, 0, 0) == 0);
  CHECK(uv_timer_start(&t2, on_t2, 0, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_prepare_start(&prep, on_prep) == 0);
  CHECK(uv_check_start(&chk, on_chk) == 0);
  CHECK(uv_async_send(&async) == 0);
  uv_close((uv_handle_t *) &victim, on_victim_close);

  say("first run");
  run_say(&loop, UV_RUN_DEFAULT);
  say("stopped=%d alive=%d", stopped, uv_loop_alive(&loop));
  say("second run");
  run_say(&loop, UV_RUN_NOWAIT);
  finish(&loop);
  return 0;
}

#endif
