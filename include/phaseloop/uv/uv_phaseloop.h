// SPDX-License-Identifier: MIT
/* phaseloop's C extensions to libuv's API: phase hooks, the tracer, and the
 * phase-order profile. Not part of uv.h, so a libuv program stays portable;
 * include this header only where you want phaseloop's extras. */
#ifndef PHASELOOP_UV_PHASELOOP_H
#define PHASELOOP_UV_PHASELOOP_H

#include <stdint.h>
#include <stdio.h>

#include "uv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The phases of one iteration (values match phaseloop::phase). */
typedef enum {
  PHASELOOP_PHASE_TIMERS = 0,
  PHASELOOP_PHASE_PENDING = 1,
  PHASELOOP_PHASE_IDLE = 2,
  PHASELOOP_PHASE_PREPARE = 3,
  PHASELOOP_PHASE_POLL = 4,
  PHASELOOP_PHASE_CHECK = 5,
  PHASELOOP_PHASE_CLOSING = 6
} phaseloop_phase;

/* Which callback a callback event is about. */
typedef enum {
  PHASELOOP_CB_TIMER, PHASELOOP_CB_IDLE, PHASELOOP_CB_PREPARE, PHASELOOP_CB_CHECK,
  PHASELOOP_CB_ASYNC, PHASELOOP_CB_SIGNAL, PHASELOOP_CB_CLOSE, PHASELOOP_CB_WORK_DONE,
  PHASELOOP_CB_PENDING, PHASELOOP_CB_IO, PHASELOOP_CB_FS, PHASELOOP_CB_DNS, PHASELOOP_CB_RANDOM
} phaseloop_callback_kind;

/* Which libuv a loop behaves as: its phase order and the other behaviours
 * that changed between versions (phaseloop/types.hpp tells each). */
typedef enum {
  PHASELOOP_PROFILE_LIBUV_1_44 = 0, /* timers first in each iteration */
  PHASELOOP_PROFILE_LIBUV_1_45 = 1, /* timers after poll; libuv 1.45 to 1.47 */
  PHASELOOP_PROFILE_LIBUV_1_48 = 2, /* + uv_pipe_connect checks the name */
  PHASELOOP_PROFILE_LIBUV_1_49 = 3, /* + UDP SO_REUSEPORT, exact abstract names */
  PHASELOOP_PROFILE_LIBUV_1_50 = 4, /* + worker thread names, ... */
  PHASELOOP_PROFILE_LIBUV_1_51 = 5, /* + NaN and infinite file times */
  PHASELOOP_PROFILE_LIBUV_1_52 = 6, /* + nanosecond file times, ... */
  PHASELOOP_PROFILE_LIBUV_1_53 = 7  /* + no reading bit, ... (the newest) */
} phaseloop_profile;

typedef struct {
  phaseloop_phase phase;
  int before_loop;      /* the timers pass libuv >= 1.45 runs before iteration 1 */
  uint64_t iteration;   /* 1-based iteration count */
  uint64_t now;         /* loop time, ms */
  int timeout;          /* poll phase: its timeout in ms (-1: none) */
} phaseloop_phase_event;

typedef struct {
  phaseloop_phase phase;
  phaseloop_callback_kind kind;
  uint64_t iteration;
  uint64_t now;
  uv_handle_t* handle;  /* the handle called back, or NULL */
  uv_req_t* req;        /* the request completed, or NULL */
} phaseloop_callback_event;

/* A hook: zero-initialize it (phaseloop_hook_t h = {0};), fill in the
 * functions you need (others NULL) and `arg`, then add
 * it to a loop. The memory is the caller's and must stay valid (and not
 * move) until the hook is removed. All calls happen on the loop's thread. */
typedef struct phaseloop_hook_s {
  void (*phase_enter)(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg);
  void (*phase_exit)(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg);
  void (*callback_enter)(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg);
  void (*callback_exit)(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg);
  void* arg;
  void* phaseloop_private_[8]; /* phaseloop's; do not touch */
} phaseloop_hook_t;

/* Attaches `hook` to `loop`; 0, or UV_EINVAL if it is already attached. */
UV_EXTERN int phaseloop_hook_add(uv_loop_t* loop, phaseloop_hook_t* hook);
/* Detaches it (also from inside a hook call); 0, or UV_EINVAL if not attached. */
UV_EXTERN int phaseloop_hook_remove(uv_loop_t* loop, phaseloop_hook_t* hook);

/* Chooses the phase order of `loop`; may be changed between runs.
 * UV_EINVAL for a NULL loop or an unknown profile. */
UV_EXTERN int phaseloop_loop_set_profile(uv_loop_t* loop, phaseloop_profile profile);
UV_EXTERN phaseloop_profile phaseloop_loop_get_profile(const uv_loop_t* loop);
/* How uv_now() moves (see phaseloop::clock_mode). REAL: the monotonic
 * clock, as libuv. MANUAL: only phaseloop_loop_advance() moves it; no timer
 * makes poll wait. MANUAL_JUMP: as MANUAL, and when poll would wait for a
 * timer with no request in flight and no I/O ready, time jumps to it. */
typedef enum {
  PHASELOOP_CLOCK_REAL = 0,
  PHASELOOP_CLOCK_MANUAL = 1,
  PHASELOOP_CLOCK_MANUAL_JUMP = 2
} phaseloop_clock;

/* Chooses the clock of `loop`; time never goes back. UV_EINVAL for a NULL
 * loop or an unknown clock. Loop thread only. */
UV_EXTERN int phaseloop_loop_set_clock(uv_loop_t* loop, phaseloop_clock clock);
UV_EXTERN phaseloop_clock phaseloop_loop_get_clock(const uv_loop_t* loop);
/* Moves a manual clock `ms` forward; UV_EINVAL on a real clock. */
UV_EXTERN int phaseloop_loop_advance(uv_loop_t* loop, uint64_t ms);

/* Iterations started so far. */
UV_EXTERN uint64_t phaseloop_loop_iteration(const uv_loop_t* loop);
/* "timers", "pending", ... */
UV_EXTERN const char* phaseloop_phase_name(phaseloop_phase phase);

/* The tracer: a hook printing a phase-by-phase trace of a run to `out`. */
typedef struct phaseloop_tracer_s phaseloop_tracer_t;
/* NULL on allocation failure. `verbose` also prints phases without callbacks. */
UV_EXTERN phaseloop_tracer_t* phaseloop_tracer_new(FILE* out, int verbose);
/* Names a handle or request in the trace (the label is not copied). */
UV_EXTERN void phaseloop_tracer_name(phaseloop_tracer_t* t, const void* object, const char* label);
UV_EXTERN void phaseloop_tracer_attach(phaseloop_tracer_t* t, uv_loop_t* loop);
UV_EXTERN void phaseloop_tracer_detach(phaseloop_tracer_t* t, uv_loop_t* loop);
/* Frees a detached tracer. */
UV_EXTERN void phaseloop_tracer_free(phaseloop_tracer_t* t);

/* Loop statistics beyond uv_metrics_info (PHASELOOP_STATS=1 prints them for
 * every loop): a hook counting, per phase, its passes, the time inside it
 * and its callbacks; the slowest callback; and timer lag -- loop time at a
 * timer's callback minus its due time, as Node's monitorEventLoopDelay --
 * as percentiles. Times in nanoseconds of the monotonic clock, lag in loop
 * milliseconds. */
typedef struct phaseloop_metrics_s phaseloop_metrics_t;
typedef struct {
  uint64_t passes;
  uint64_t ns;
  uint64_t callbacks;
} phaseloop_phase_totals_t;
typedef struct {
  uint64_t iterations;                  /* the highest iteration seen */
  phaseloop_phase_totals_t phase[7];    /* indexed by phaseloop_phase */
  uint64_t slowest_ns;                  /* 0: no callback yet */
  phaseloop_callback_kind slowest_kind;
  phaseloop_phase slowest_phase;
  uint64_t slowest_iteration;
  uint64_t lag_samples;                 /* timer callbacks measured */
  uint64_t lag_p50_ms, lag_p90_ms, lag_p99_ms, lag_max_ms;
} phaseloop_metrics_info_t;
/* NULL on allocation failure. */
UV_EXTERN phaseloop_metrics_t* phaseloop_metrics_new(void);
/* UV_EINVAL for NULL arguments, or metrics attached to a loop already. */
UV_EXTERN int phaseloop_metrics_attach(phaseloop_metrics_t* m, uv_loop_t* loop);
/* UV_EINVAL for NULL arguments, or metrics not attached to `loop`. */
UV_EXTERN int phaseloop_metrics_detach(phaseloop_metrics_t* m, uv_loop_t* loop);
/* What was counted so far (not while the loop runs on another thread). */
UV_EXTERN int phaseloop_metrics_get(const phaseloop_metrics_t* m, phaseloop_metrics_info_t* info);
/* The table PHASELOOP_STATS prints, under a one-line title. */
UV_EXTERN int phaseloop_metrics_print(const phaseloop_metrics_t* m, FILE* out, const char* title);
/* Frees detached metrics. */
UV_EXTERN void phaseloop_metrics_free(phaseloop_metrics_t* m);

#ifdef __cplusplus
}
#endif

#endif /* PHASELOOP_UV_PHASELOOP_H */
