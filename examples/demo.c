// SPDX-License-Identifier: MIT
/* phaseloop-demo: one small libuv program, run twice with phaseloop's
 * tracer attached: once in libuv 1.44's phase order (Debian's libuv, Node
 * 10/11) and once in libuv >= 1.45's (Node 20). The trace shows, phase by
 * phase, which callback ran where, and where the two orders differ.
 *
 * The program: a timer and an idle handle are started before the run; the
 * idle callback starts a check handle and a 0 ms timer; the check callback
 * stops itself; the 0 ms timer closes everything. Under 1.44 that timer
 * runs at the start of iteration 2; under >= 1.45, at the end of iteration
 * 1. Plain libuv API, plus uv_phaseloop.h for the tracer. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "uv.h"
#include "uv_phaseloop.h"

typedef struct {
  uv_timer_t t_start, t_zero;
  uv_idle_t idle;
  uv_check_t check;
} demo_t;

static void say(const char* what) {
  printf("    >> %s\n", what);
  fflush(stdout);
}

static void on_close(uv_handle_t* h) { (void)h; }

static void on_timer(uv_timer_t* t) { say((const char*)t->data); }

static void on_check(uv_check_t* c) {
  say("check: stop myself");
  uv_check_stop(c);
}

static void on_zero_timer(uv_timer_t* t) {
  demo_t* d = (demo_t*)((char*)t - offsetof(demo_t, t_zero));
  say("0 ms timer started from idle: closing everything");
  uv_close((uv_handle_t*)&d->t_start, on_close);
  uv_close((uv_handle_t*)&d->t_zero, on_close);
  uv_close((uv_handle_t*)&d->idle, on_close);
  uv_close((uv_handle_t*)&d->check, on_close);
}

static void on_idle(uv_idle_t* i) {
  demo_t* d = i->data;
  say("idle: start a 0 ms timer and a check handle");
  uv_idle_stop(i);
  uv_timer_start(&d->t_zero, on_zero_timer, 0, 0);
  uv_check_start(&d->check, on_check);
}

static int run(phaseloop_profile profile, const char* title) {
  uv_loop_t loop;
  demo_t d;
  memset(&d, 0, sizeof d);
  if (uv_loop_init(&loop) != 0) return 1;
  phaseloop_loop_set_profile(&loop, profile);

  phaseloop_tracer_t* tr = phaseloop_tracer_new(stdout, 0);
  if (tr == NULL) return 1;
  phaseloop_tracer_name(tr, &d.t_start, "t_start");
  phaseloop_tracer_name(tr, &d.t_zero, "t_zero");
  phaseloop_tracer_name(tr, &d.idle, "idle");
  phaseloop_tracer_name(tr, &d.check, "check");

  uv_timer_init(&loop, &d.t_start);
  uv_timer_init(&loop, &d.t_zero);
  uv_idle_init(&loop, &d.idle);
  uv_check_init(&loop, &d.check);
  d.idle.data = d.check.data = &d;
  d.t_start.data = "0 ms timer started before uv_run";
  uv_timer_start(&d.t_start, on_timer, 0, 0);
  uv_idle_start(&d.idle, on_idle);

  printf("== %s ==\n", title);
  phaseloop_tracer_attach(tr, &loop);
  uv_run(&loop, UV_RUN_DEFAULT);
  phaseloop_tracer_detach(tr, &loop);
  phaseloop_tracer_free(tr);
  int r = uv_loop_close(&loop);
  printf("uv_loop_close: %s\n\n", r == 0 ? "0" : uv_err_name(r));
  return r == 0 ? 0 : 1;
}

int main(void) {
  int bad = 0;
  bad |= run(PHASELOOP_PROFILE_LIBUV_1_44, "libuv 1.44 order (timers first in each iteration)");
  bad |= run(PHASELOOP_PROFILE_LIBUV_1_45, "libuv >= 1.45 order (timers after poll)");
  return bad;
}
