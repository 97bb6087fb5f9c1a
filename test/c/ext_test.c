// SPDX-License-Identifier: MIT
/* phaseloop's C extension API (uv_phaseloop.h): phase hooks, profiles,
 * iteration counts, phase names and the tracer. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suites.h"
#include "uv_phaseloop.h"

/* ---- a recorder of hook events ------------------------------------------- */

enum { EV_ENTER, EV_EXIT, EV_CB_ENTER, EV_CB_EXIT };

typedef struct {
  int what; /* EV_* */
  phaseloop_phase phase;
  int before_loop;
  uint64_t iteration;
  phaseloop_callback_kind kind;
  uv_handle_t* handle;
  uv_req_t* req;
} event;

typedef struct {
  event ev[256];
  int n;
} recorder;

static void rec_add(recorder* r, event e) {
  if (r->n < (int)(sizeof r->ev / sizeof r->ev[0])) r->ev[r->n++] = e;
}

static void rec_phase_enter(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg) {
  (void)loop;
  event x = {EV_ENTER, e->phase, e->before_loop, e->iteration, 0, NULL, NULL};
  rec_add(arg, x);
}

static void rec_phase_exit(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg) {
  (void)loop;
  event x = {EV_EXIT, e->phase, e->before_loop, e->iteration, 0, NULL, NULL};
  rec_add(arg, x);
}

static void rec_cb_enter(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg) {
  (void)loop;
  event x = {EV_CB_ENTER, e->phase, 0, e->iteration, e->kind, e->handle, e->req};
  rec_add(arg, x);
}

static void rec_cb_exit(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg) {
  (void)loop;
  event x = {EV_CB_EXIT, e->phase, 0, e->iteration, e->kind, e->handle, e->req};
  rec_add(arg, x);
}

static recorder rec;

static phaseloop_hook_t phase_recorder(void) {
  phaseloop_hook_t h;
  memset(&h, 0, sizeof h);
  h.phase_enter = rec_phase_enter;
  h.phase_exit = rec_phase_exit;
  h.arg = &rec;
  return h;
}

static int setup(void** state) {
  (void)state;
  close_calls = 0;
  memset(&rec, 0, sizeof rec);
  return 0;
}

/* Asserts that rec holds, for each phase of `order` (n of them), an enter
 * event followed by its exit, starting at index *at; moves *at past them. */
static void expect_phases(int* at, const phaseloop_phase* order, int n, int before_loop, uint64_t iteration) {
  for (int k = 0; k < n; k++) {
    assert_true(*at + 1 < rec.n);
    const event* en = &rec.ev[*at];
    const event* ex = &rec.ev[*at + 1];
    assert_int_equal(en->what, EV_ENTER);
    assert_int_equal(en->phase, order[k]);
    assert_int_equal(en->before_loop, before_loop);
    assert_int_equal(ex->what, EV_EXIT);
    assert_int_equal(ex->phase, order[k]);
    assert_int_equal(ex->before_loop, before_loop);
    if (!before_loop) {
      assert_int_equal(en->iteration, iteration);
      assert_int_equal(ex->iteration, iteration);
    }
    *at += 2;
  }
}

static const phaseloop_phase order_1_44[] = {
    PHASELOOP_PHASE_TIMERS,  PHASELOOP_PHASE_PENDING, PHASELOOP_PHASE_IDLE,    PHASELOOP_PHASE_PREPARE,
    PHASELOOP_PHASE_POLL,    PHASELOOP_PHASE_CHECK,   PHASELOOP_PHASE_CLOSING,
};
static const phaseloop_phase order_1_45[] = {
    PHASELOOP_PHASE_PENDING, PHASELOOP_PHASE_IDLE,    PHASELOOP_PHASE_PREPARE, PHASELOOP_PHASE_POLL,
    PHASELOOP_PHASE_CHECK,   PHASELOOP_PHASE_CLOSING, PHASELOOP_PHASE_TIMERS,
};
static const phaseloop_phase timers_only[] = {PHASELOOP_PHASE_TIMERS};

static int idle_calls;
static void stop_idle_cb(uv_idle_t* h) {
  idle_calls++;
  uv_idle_stop(h);
}
static void idle_cb(uv_idle_t* h) {
  (void)h;
  idle_calls++;
}

/* ---- hook_add / hook_remove ---------------------------------------------- */

static void hook_add_remove(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_loop_t other;
  phaseloop_hook_t h = {0};
  phaseloop_hook_t never = {0};
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_loop_init(&other), 0);
  assert_int_equal(phaseloop_hook_remove(&loop, &never), UV_EINVAL);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), UV_EINVAL);
  assert_int_equal(phaseloop_hook_add(&other, &h), UV_EINVAL); /* one loop at a time */
  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  assert_int_equal(phaseloop_hook_remove(&loop, &h), UV_EINVAL);
  /* A removed hook may be added again, to any loop. */
  assert_int_equal(phaseloop_hook_add(&other, &h), 0);
  assert_int_equal(phaseloop_hook_remove(&other, &h), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);
  /* A hook with no functions set is fine to run with. */
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  finish_loop(&loop);
  finish_loop(&other);
}

/* Removing a hook from a loop it is not attached to must fail and leave it
 * attached where it is. */
static void hook_remove_from_other_loop(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_loop_t other;
  uv_idle_t i;
  phaseloop_hook_t h = phase_recorder();
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_loop_init(&other), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);
  int rc = phaseloop_hook_remove(&other, &h);
  if (rc != UV_EINVAL) {
    /* `loop` cannot be run safely now; release both loops (neither looks
     * at its hooks when closed) so that only the failure is reported. */
    assert_int_equal(uv_loop_close(&loop), 0);
    assert_int_equal(uv_loop_close(&other), 0);
    fail_msg("phaseloop_hook_remove(other loop) = %d, expected UV_EINVAL (%d)", rc, UV_EINVAL);
  }
  /* Still attached to `loop`, and working. */
  assert_int_equal(phaseloop_hook_add(&loop, &h), UV_EINVAL);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_true(rec.n > 0);
  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  uv_close((uv_handle_t*)&i, NULL);
  finish_loop(&loop);
  finish_loop(&other);
}

/* ---- phase order per profile --------------------------------------------- */

static void profile_set_get(void** state) {
  (void)state;
  uv_loop_t loop;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_44), 0);
  assert_int_equal(phaseloop_loop_get_profile(&loop), PHASELOOP_PROFILE_LIBUV_1_44);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_45), 0);
  assert_int_equal(phaseloop_loop_get_profile(&loop), PHASELOOP_PROFILE_LIBUV_1_45);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_53), 0);
  assert_int_equal(phaseloop_loop_get_profile(&loop), PHASELOOP_PROFILE_LIBUV_1_53);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_45), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, (phaseloop_profile)8), UV_EINVAL);
  assert_int_equal(phaseloop_loop_set_profile(&loop, (phaseloop_profile)-1), UV_EINVAL);
  assert_int_equal(phaseloop_loop_set_profile(&loop, (phaseloop_profile)1000), UV_EINVAL);
  assert_int_equal(phaseloop_loop_get_profile(&loop), PHASELOOP_PROFILE_LIBUV_1_45); /* unchanged */
  finish_loop(&loop);
}

/* ---- the manual clock ---------------------------------------------------- */

static uint64_t fired_at;

static void record_time_cb(uv_timer_t* t) { fired_at = uv_now(t->loop); }

static void clock_manual_and_jump(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_get_clock(&loop), PHASELOOP_CLOCK_REAL);
  assert_int_equal(phaseloop_loop_advance(&loop, 1), UV_EINVAL);
  assert_int_equal(phaseloop_loop_set_clock(&loop, (phaseloop_clock)3), UV_EINVAL);
  assert_int_equal(phaseloop_loop_set_clock(NULL, PHASELOOP_CLOCK_MANUAL), UV_EINVAL);
  assert_int_equal(phaseloop_loop_advance(NULL, 1), UV_EINVAL);

  /* MANUAL: uv_update_time does not move uv_now; advancing does. */
  assert_int_equal(phaseloop_loop_set_clock(&loop, PHASELOOP_CLOCK_MANUAL), 0);
  assert_int_equal(phaseloop_loop_get_clock(&loop), PHASELOOP_CLOCK_MANUAL);
  const uint64_t t0 = uv_now(&loop);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_start(&t, record_time_cb, 500, 0), 0);
  uv_update_time(&loop);
  assert_true(uv_now(&loop) == t0);
  fired_at = 0;
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);
  assert_true(fired_at == 0);
  assert_int_equal(phaseloop_loop_advance(&loop, 500), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_true(fired_at == t0 + 500);

  /* MANUAL_JUMP: a week-long timer fires at once, at its due time. */
  assert_int_equal(phaseloop_loop_set_clock(&loop, PHASELOOP_CLOCK_MANUAL_JUMP), 0);
  assert_int_equal(uv_timer_start(&t, record_time_cb, 7ull * 24 * 3600 * 1000, 0), 0);
  const uint64_t start = uv_hrtime();
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_true(uv_hrtime() - start < 5000000000ull);
  assert_true(fired_at == t0 + 500 + 7ull * 24 * 3600 * 1000);
  uv_close((uv_handle_t*)&t, NULL);
  finish_loop(&loop);
}

static void phase_order_1_44(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  phaseloop_hook_t h = phase_recorder();
  idle_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_44), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);

  /* DEFAULT: one iteration (the idle callback stops the idle handle), no
   * timers pass before it. */
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(idle_calls, 1);
  int at = 0;
  expect_phases(&at, order_1_44, 7, 0, 1);
  assert_int_equal(at, rec.n);

  /* ONCE: 1.44 runs the timers again at the end of the iteration. */
  rec.n = 0;
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_ONCE), 0);
  at = 0;
  expect_phases(&at, order_1_44, 7, 0, 2);
  expect_phases(&at, timers_only, 1, 0, 2);
  assert_int_equal(at, rec.n);

  /* NOWAIT: one iteration, no extra pass. */
  rec.n = 0;
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  at = 0;
  expect_phases(&at, order_1_44, 7, 0, 3);
  assert_int_equal(at, rec.n);

  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  uv_close((uv_handle_t*)&i, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void phase_order_1_45(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  phaseloop_hook_t h = phase_recorder();
  idle_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_45), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);

  /* DEFAULT on a loop that is not alive: nothing runs, not even the timers
   * pass before the loop. */
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(rec.n, 0);
  assert_int_equal(phaseloop_loop_iteration(&loop), 0);

  /* DEFAULT when alive: a timers pass before the loop, then one iteration
   * with the timers last. */
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(idle_calls, 1);
  int at = 0;
  expect_phases(&at, timers_only, 1, 1, 0);
  expect_phases(&at, order_1_45, 7, 0, 1);
  assert_int_equal(at, rec.n);

  /* ONCE and NOWAIT: no pass before the loop. */
  rec.n = 0;
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_ONCE), 0);
  at = 0;
  expect_phases(&at, order_1_45, 7, 0, 2);
  assert_int_equal(at, rec.n);
  rec.n = 0;
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  at = 0;
  expect_phases(&at, order_1_45, 7, 0, 3);
  assert_int_equal(at, rec.n);

  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  uv_close((uv_handle_t*)&i, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

/* ---- callback events ------------------------------------------------------ */

static phaseloop_hook_t callback_recorder(void) {
  phaseloop_hook_t h;
  memset(&h, 0, sizeof h);
  h.callback_enter = rec_cb_enter;
  h.callback_exit = rec_cb_exit;
  h.arg = &rec;
  return h;
}

/* Each user callback checks that the hook has just announced it. */
static int announced_ok;
static void check_announced(phaseloop_callback_kind kind, uv_handle_t* handle, uv_req_t* req) {
  if (rec.n == 0) return;
  const event* e = &rec.ev[rec.n - 1];
  if (e->what == EV_CB_ENTER && e->kind == kind && e->handle == handle && e->req == req) announced_ok++;
}

static void cb_timer(uv_timer_t* t) {
  check_announced(PHASELOOP_CB_TIMER, (uv_handle_t*)t, NULL);
  uv_close((uv_handle_t*)t, NULL);
}
static void cb_idle(uv_idle_t* h) {
  check_announced(PHASELOOP_CB_IDLE, (uv_handle_t*)h, NULL);
  uv_idle_stop(h);
}
static void cb_prepare(uv_prepare_t* h) {
  check_announced(PHASELOOP_CB_PREPARE, (uv_handle_t*)h, NULL);
  uv_prepare_stop(h);
}
static void cb_check(uv_check_t* h) {
  check_announced(PHASELOOP_CB_CHECK, (uv_handle_t*)h, NULL);
  uv_check_stop(h);
}
static void cb_async(uv_async_t* h) {
  check_announced(PHASELOOP_CB_ASYNC, (uv_handle_t*)h, NULL);
  uv_close((uv_handle_t*)h, NULL);
}
static void cb_signal(uv_signal_t* h, int signum) {
  (void)signum;
  check_announced(PHASELOOP_CB_SIGNAL, (uv_handle_t*)h, NULL);
  uv_signal_stop(h);
}
static void cb_work(uv_work_t* req) { (void)req; }
static void cb_after(uv_work_t* req, int status) {
  (void)status;
  check_announced(PHASELOOP_CB_WORK_DONE, NULL, (uv_req_t*)req);
}
static void cb_close(uv_handle_t* h) {
  check_announced(PHASELOOP_CB_CLOSE, h, NULL);
  close_calls++;
}

/* Finds the callback-enter event for (kind, handle, req); asserts that its
 * exit follows, in the same phase, and returns the enter's phase. */
static phaseloop_phase find_callback(phaseloop_callback_kind kind, uv_handle_t* handle, uv_req_t* req) {
  for (int k = 0; k < rec.n; k++) {
    const event* e = &rec.ev[k];
    if (e->what != EV_CB_ENTER || e->kind != kind || e->handle != handle || e->req != req) continue;
    for (int j = k + 1; j < rec.n; j++) {
      const event* x = &rec.ev[j];
      if (x->what == EV_CB_EXIT && x->kind == kind && x->handle == handle && x->req == req) {
        assert_int_equal(x->phase, e->phase);
        return e->phase;
      }
    }
    fail_msg("callback kind %d: enter without exit", (int)kind);
  }
  fail_msg("callback kind %d: no event", (int)kind);
  return PHASELOOP_PHASE_TIMERS;
}

static void hook_callback_events(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  uv_idle_t i;
  uv_prepare_t p;
  uv_check_t c;
  uv_async_t a;
  uv_signal_t s;
  uv_work_t w;
  phaseloop_hook_t h = callback_recorder();
  announced_ok = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_prepare_init(&loop, &p), 0);
  assert_int_equal(uv_check_init(&loop, &c), 0);
  assert_int_equal(uv_async_init(&loop, &a, cb_async), 0);
  assert_int_equal(uv_signal_init(&loop, &s), 0);
  assert_int_equal(uv_timer_start(&t, cb_timer, 0, 0), 0);
  assert_int_equal(uv_idle_start(&i, cb_idle), 0);
  assert_int_equal(uv_prepare_start(&p, cb_prepare), 0);
  assert_int_equal(uv_check_start(&c, cb_check), 0);
  assert_int_equal(uv_signal_start(&s, cb_signal, SIGUSR2), 0);
  assert_int_equal(uv_queue_work(&loop, &w, cb_work, cb_after), 0);
  assert_int_equal(uv_async_send(&a), 0);
  assert_int_equal(raise(SIGUSR2), 0);
  /* Every callback stops or closes its handle: the run ends once the work
   * is done and the async send and the signal are delivered. */
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(announced_ok, 7);

  assert_int_equal(find_callback(PHASELOOP_CB_TIMER, (uv_handle_t*)&t, NULL), PHASELOOP_PHASE_TIMERS);
  assert_int_equal(find_callback(PHASELOOP_CB_IDLE, (uv_handle_t*)&i, NULL), PHASELOOP_PHASE_IDLE);
  assert_int_equal(find_callback(PHASELOOP_CB_PREPARE, (uv_handle_t*)&p, NULL), PHASELOOP_PHASE_PREPARE);
  assert_int_equal(find_callback(PHASELOOP_CB_CHECK, (uv_handle_t*)&c, NULL), PHASELOOP_PHASE_CHECK);
  assert_int_equal(find_callback(PHASELOOP_CB_ASYNC, (uv_handle_t*)&a, NULL), PHASELOOP_PHASE_POLL);
  assert_int_equal(find_callback(PHASELOOP_CB_SIGNAL, (uv_handle_t*)&s, NULL), PHASELOOP_PHASE_POLL);
  assert_int_equal(find_callback(PHASELOOP_CB_WORK_DONE, NULL, (uv_req_t*)&w), PHASELOOP_PHASE_POLL);

  /* Close callbacks: in the closing phase, with the handle. */
  rec.n = 0;
  uv_close((uv_handle_t*)&i, cb_close);
  uv_close((uv_handle_t*)&p, cb_close);
  uv_close((uv_handle_t*)&c, cb_close);
  uv_close((uv_handle_t*)&s, cb_close);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(close_calls, 4);
  assert_int_equal(find_callback(PHASELOOP_CB_CLOSE, (uv_handle_t*)&i, NULL), PHASELOOP_PHASE_CLOSING);
  assert_int_equal(find_callback(PHASELOOP_CB_CLOSE, (uv_handle_t*)&s, NULL), PHASELOOP_PHASE_CLOSING);
  assert_int_equal(announced_ok, 11);
  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  finish_loop(&loop);
}

/* ---- removing hooks from inside a hook call -------------------------------- */

typedef struct {
  uv_loop_t* loop;
  phaseloop_hook_t* self;
  phaseloop_hook_t* victim; /* removed at the first call, if set */
  int calls;
  int remove_rc;
} remover;

static void remover_phase_enter(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg) {
  (void)loop;
  (void)e;
  remover* r = arg;
  if (r->calls++ == 0) r->remove_rc = phaseloop_hook_remove(r->loop, r->victim ? r->victim : r->self);
}

static void hook_remove_self_in_callback(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  remover r = {&loop, NULL, NULL, 0, 1};
  phaseloop_hook_t h = {0};
  phaseloop_hook_t after = phase_recorder(); /* added after it: still called */
  h.phase_enter = remover_phase_enter;
  h.arg = &r;
  r.self = &h;
  idle_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &after), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);
  assert_int_equal(r.calls, 1);
  assert_int_equal(r.remove_rc, 0);
  assert_int_equal(idle_calls, 2);
  assert_int_equal(rec.n, 2 * 2 * 7); /* every phase of both runs */
  assert_int_equal(phaseloop_hook_remove(&loop, &h), UV_EINVAL);
  assert_int_equal(phaseloop_hook_remove(&loop, &after), 0);
  uv_close((uv_handle_t*)&i, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

/* Removal from a callback hook's enter call, and from a uv callback. */
static remover cb_remover;
static int cb_exit_calls;
static void remover_callback_enter(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg) {
  (void)loop;
  (void)e;
  remover* r = arg;
  if (r->calls++ == 0) r->remove_rc = phaseloop_hook_remove(r->loop, r->self);
}
static void remover_callback_exit(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg) {
  (void)loop;
  (void)e;
  (void)arg;
  cb_exit_calls++;
}

static phaseloop_hook_t* hook_to_remove;
static int remove_in_timer_rc;
static void removing_timer_cb(uv_timer_t* t) {
  remove_in_timer_rc = phaseloop_hook_remove(t->loop, hook_to_remove);
  uv_close((uv_handle_t*)t, count_close_cb);
}

static void hook_remove_from_callbacks(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  uv_idle_t i;
  phaseloop_hook_t self_remover = {0};
  phaseloop_hook_t recorder_hook = phase_recorder();
  idle_calls = cb_exit_calls = 0;
  remove_in_timer_rc = 1;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_44), 0);
  cb_remover = (remover){&loop, &self_remover, NULL, 0, 1};
  self_remover.callback_enter = remover_callback_enter;
  self_remover.callback_exit = remover_callback_exit;
  self_remover.arg = &cb_remover;
  hook_to_remove = &recorder_hook;
  assert_int_equal(phaseloop_hook_add(&loop, &self_remover), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &recorder_hook), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_timer_start(&t, removing_timer_cb, 0, 0), 0);
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_int_equal(idle_calls, 1);
  assert_int_equal(close_calls, 1);
  /* The self-remover saw one callback enter (the timer's) and no exit. */
  assert_int_equal(cb_remover.calls, 1);
  assert_int_equal(cb_remover.remove_rc, 0);
  assert_int_equal(cb_exit_calls, 0);
  /* The recorder was removed by the timer callback: it saw the timers
   * phase entered (1.44: the first phase) and nothing after. */
  assert_int_equal(remove_in_timer_rc, 0);
  assert_int_equal(rec.n, 1);
  assert_int_equal(rec.ev[0].what, EV_ENTER);
  assert_int_equal(rec.ev[0].phase, PHASELOOP_PHASE_TIMERS);
  assert_int_equal(phaseloop_hook_remove(&loop, &self_remover), UV_EINVAL);
  assert_int_equal(phaseloop_hook_remove(&loop, &recorder_hook), UV_EINVAL);
  uv_close((uv_handle_t*)&i, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 2);
}

/* A hook removes the hook added after it, in its first call: the removed
 * hook must never be called (its memory may be gone once removed). Runs in
 * a child process so that a crash is reported as a failure. */
static int victim_calls;
static void victim_phase_enter(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg) {
  (void)loop;
  (void)e;
  (void)arg;
  victim_calls++;
}

static int remove_next_scenario(void) {
  uv_loop_t loop;
  uv_idle_t i;
  phaseloop_hook_t a = {0};
  phaseloop_hook_t b = {0};
  remover r = {&loop, &a, &b, 0, 1};
  a.phase_enter = remover_phase_enter;
  a.arg = &r;
  b.phase_enter = victim_phase_enter;
  if (uv_loop_init(&loop) != 0) return 10;
  if (phaseloop_hook_add(&loop, &a) != 0 || phaseloop_hook_add(&loop, &b) != 0) return 11;
  uv_idle_init(&loop, &i);
  uv_idle_start(&i, idle_cb);
  uv_run(&loop, UV_RUN_NOWAIT);
  if (r.remove_rc != 0) return 12;
  if (victim_calls != 0) return 13;
  if (phaseloop_hook_remove(&loop, &a) != 0) return 14;
  uv_close((uv_handle_t*)&i, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  if (uv_loop_close(&loop) != 0) return 15;
  return 0;
}

static void hook_remove_other_in_callback(void** state) {
  (void)state;
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    /* CMocka's handlers would turn a crash into a failed test and go on
     * running the group in the child: let a crash kill the child instead,
     * and a hang too. */
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    signal(SIGILL, SIG_DFL);
    signal(SIGFPE, SIG_DFL);
    signal(SIGABRT, SIG_DFL);
    alarm(10);
    _exit(remove_next_scenario());
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status)) fail_msg("the loop crashed with signal %d", WTERMSIG(status));
  assert_true(WIFEXITED(status));
  if (WEXITSTATUS(status) == 13) fail_msg("the removed hook was called");
  if (WEXITSTATUS(status) != 0)
    fail_msg("the scenario failed: exit status %d (10-15: see remove_next_scenario; else a sanitizer)",
             WEXITSTATUS(status));
}

/* ---- uv_stop from a hook --------------------------------------------------- */

static int stop_calls;
static void stop_in_check(uv_loop_t* loop, const phaseloop_phase_event* e, void* arg) {
  (void)arg;
  if (e->phase == PHASELOOP_PHASE_CHECK) {
    stop_calls++;
    uv_stop(loop);
  }
}

static void hook_stops_loop(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  phaseloop_hook_t h = {0};
  h.phase_exit = stop_in_check;
  idle_calls = stop_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, idle_cb), 0); /* alive for ever */
  assert_int_equal(phaseloop_hook_add(&loop, &h), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 1); /* stopped, still alive */
  assert_int_equal(stop_calls, 1);
  assert_int_equal(idle_calls, 1);
  assert_int_equal(phaseloop_loop_iteration(&loop), 1);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 1); /* and again */
  assert_int_equal(stop_calls, 2);
  assert_int_equal(phaseloop_loop_iteration(&loop), 2);
  assert_int_equal(phaseloop_hook_remove(&loop, &h), 0);
  uv_close((uv_handle_t*)&i, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

/* ---- iterations and phase names ------------------------------------------- */

static void loop_iteration_counts(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  idle_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_iteration(&loop), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0); /* not alive: no iteration */
  assert_int_equal(phaseloop_loop_iteration(&loop), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);
  assert_int_equal(phaseloop_loop_iteration(&loop), 1);
  assert_int_equal(uv_run(&loop, UV_RUN_ONCE), 1);
  assert_int_equal(phaseloop_loop_iteration(&loop), 2);
  for (int k = 0; k < 5; k++) uv_run(&loop, UV_RUN_NOWAIT);
  assert_int_equal(phaseloop_loop_iteration(&loop), 7);
  assert_int_equal(idle_calls, 7);
  uv_close((uv_handle_t*)&i, count_close_cb);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0); /* one more, to close */
  assert_int_equal(phaseloop_loop_iteration(&loop), 8);
  assert_int_equal(close_calls, 1);
  assert_int_equal(uv_loop_close(&loop), 0);
}

static void phase_names(void** state) {
  (void)state;
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_TIMERS), "timers");
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_PENDING), "pending");
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_IDLE), "idle");
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_PREPARE), "prepare");
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_POLL), "poll");
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_CHECK), "check");
  assert_string_equal(phaseloop_phase_name(PHASELOOP_PHASE_CLOSING), "closing");
  assert_null(phaseloop_phase_name((phaseloop_phase)7));
  assert_null(phaseloop_phase_name((phaseloop_phase)100));
  assert_null(phaseloop_phase_name((phaseloop_phase)-1));
}

/* ---- the tracer ------------------------------------------------------------ */

static char* read_all(FILE* f) {
  fflush(f);
  long len = ftell(f);
  assert_true(len >= 0);
  char* text = malloc((size_t)len + 1);
  assert_non_null(text);
  rewind(f);
  size_t n = fread(text, 1, (size_t)len, f);
  text[n] = '\0';
  fseek(f, 0, SEEK_END);
  return text;
}

static void tracer_cb_timer(uv_timer_t* t) { uv_close((uv_handle_t*)t, count_close_cb); }
static void tracer_cb_work(uv_work_t* req) { (void)req; }
static void tracer_cb_after(uv_work_t* req, int status) {
  (void)req;
  (void)status;
}

static void tracer_trace(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t named;
  uv_timer_t anonymous;
  uv_idle_t i;
  uv_work_t w;
  FILE* f = tmpfile();
  assert_non_null(f);
  phaseloop_tracer_t* tr = phaseloop_tracer_new(f, 0);
  assert_non_null(tr);
  idle_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_44), 0);
  assert_int_equal(uv_timer_init(&loop, &named), 0);
  assert_int_equal(uv_timer_init(&loop, &anonymous), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  phaseloop_tracer_name(tr, &named, "tick");
  phaseloop_tracer_name(tr, &i, "spinner");
  phaseloop_tracer_name(tr, &w, "job");
  assert_int_equal(uv_timer_start(&named, tracer_cb_timer, 0, 0), 0);
  assert_int_equal(uv_timer_start(&anonymous, tracer_cb_timer, 0, 0), 0);
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  phaseloop_tracer_attach(tr, &loop);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_int_equal(close_calls, 2);
  assert_int_equal(uv_queue_work(&loop, &w, tracer_cb_work, tracer_cb_after), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  phaseloop_tracer_detach(tr, &loop);

  char* text = read_all(f);
  assert_non_null(strstr(text, "[iter 1 "));
  assert_non_null(strstr(text, "timers {\n"));
  assert_non_null(strstr(text, "  timer \"tick\"\n"));
  assert_non_null(strstr(text, "  timer (timer)\n")); /* unnamed: its type */
  assert_non_null(strstr(text, "timers }\n"));
  assert_non_null(strstr(text, "idle {\n"));
  assert_non_null(strstr(text, "  idle \"spinner\"\n"));
  assert_non_null(strstr(text, "closing {\n"));
  assert_non_null(strstr(text, "  close \"tick\"\n"));
  assert_non_null(strstr(text, "  close (timer)\n"));
  assert_non_null(strstr(text, "  work done \"job\"\n"));
  assert_non_null(strstr(text, "no callbacks")); /* quiet phases folded */
  /* 1.44 order: the timer callback comes before the idle one. */
  assert_true(strstr(text, "timer \"tick\"") < strstr(text, "idle \"spinner\""));
  long size_after_detach = ftell(f);
  free(text);

  /* Detached: further runs print nothing. */
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  fflush(f);
  fseek(f, 0, SEEK_END);
  assert_int_equal(ftell(f), size_after_detach);
  phaseloop_tracer_free(tr);
  fclose(f);
  uv_close((uv_handle_t*)&i, NULL);
  finish_loop(&loop);
}

static void tracer_verbose(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  FILE* f = tmpfile();
  assert_non_null(f);
  phaseloop_tracer_t* tr = phaseloop_tracer_new(f, 1);
  assert_non_null(tr);
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_loop_set_profile(&loop, PHASELOOP_PROFILE_LIBUV_1_45), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, stop_idle_cb), 0);
  phaseloop_tracer_attach(tr, &loop);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  phaseloop_tracer_detach(tr, &loop);
  phaseloop_tracer_free(tr);
  char* text = read_all(f);
  /* Verbose: every phase, entered and left, the pass before the loop too. */
  assert_non_null(strstr(text, "(before loop) timers enter\n"));
  const char* names[] = {"pending", "idle", "prepare", "poll", "check", "closing", "timers"};
  const char* prev = text;
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    char line[64];
    snprintf(line, sizeof line, "] %s enter\n", names[k]);
    const char* p = strstr(prev, line);
    if (p == NULL) fail_msg("no \"%s enter\" after the previous phase in:\n%s", names[k], text);
    prev = p + 1;
  }
  assert_non_null(strstr(text, "  idle (idle)\n"));
  assert_non_null(strstr(text, "check exit\n"));
  assert_null(strstr(text, "no callbacks"));
  free(text);
  fclose(f);
  uv_close((uv_handle_t*)&i, NULL);
  finish_loop(&loop);
}

/* phaseloop_metrics_*: per phase counts, the slowest callback, timer lag
 * measured on a manual clock (a timer due at 10 ms run at 25 ms is 15 ms
 * late), and the attach rules. */
static void on_lag_timer(uv_timer_t* t) { (void)t; }
static void idle_noop_cb(uv_idle_t* h) { (void)h; }
static void metrics_api(void** state) {
  (void)state;
  uv_loop_t loop, other;
  uv_timer_t t;
  uv_idle_t i;
  phaseloop_metrics_info_t info;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_loop_init(&other), 0);
  phaseloop_metrics_t* m = phaseloop_metrics_new();
  assert_non_null(m);
  assert_int_equal(phaseloop_metrics_attach(NULL, &loop), UV_EINVAL);
  assert_int_equal(phaseloop_metrics_attach(m, &loop), 0);
  assert_int_equal(phaseloop_metrics_attach(m, &loop), UV_EINVAL);
  assert_int_equal(phaseloop_metrics_attach(m, &other), UV_EINVAL);
  assert_int_equal(phaseloop_metrics_get(m, NULL), UV_EINVAL);

  assert_int_equal(phaseloop_loop_set_clock(&loop, PHASELOOP_CLOCK_MANUAL), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_start(&t, on_lag_timer, 10, 0), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_idle_start(&i, idle_noop_cb), 0);
  assert_int_equal(phaseloop_loop_advance(&loop, 25), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);

  assert_int_equal(phaseloop_metrics_get(m, &info), 0);
  assert_true(info.iterations == 2);
  assert_true(info.phase[PHASELOOP_PHASE_TIMERS].callbacks == 1);
  assert_true(info.phase[PHASELOOP_PHASE_IDLE].callbacks == 2);
  assert_true(info.phase[PHASELOOP_PHASE_IDLE].passes == 2);
  assert_true(info.phase[PHASELOOP_PHASE_POLL].passes == 2);
  assert_true(info.phase[PHASELOOP_PHASE_CHECK].callbacks == 0);
  assert_true(info.slowest_ns > 0);
  assert_true(info.lag_samples == 1);
  assert_true(info.lag_p50_ms == 15 && info.lag_max_ms == 15);

  char* text = NULL;
  size_t size = 0;
  FILE* f = open_memstream(&text, &size);
  assert_non_null(f);
  assert_int_equal(phaseloop_metrics_print(m, f, "title here"), 0);
  fclose(f);
  assert_non_null(strstr(text, "title here"));
  assert_non_null(strstr(text, "idle"));
  free(text);

  assert_int_equal(phaseloop_metrics_detach(m, &other), UV_EINVAL);
  assert_int_equal(phaseloop_metrics_detach(m, &loop), 0);
  assert_int_equal(phaseloop_metrics_detach(m, &loop), UV_EINVAL);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 1);  /* not counted any more */
  assert_int_equal(phaseloop_metrics_get(m, &info), 0);
  assert_true(info.iterations == 2);
  phaseloop_metrics_free(m);
  uv_close((uv_handle_t*)&t, NULL);
  uv_close((uv_handle_t*)&i, NULL);
  finish_loop(&loop);
  finish_loop(&other);
}

int run_ext_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(hook_add_remove, setup),
      cmocka_unit_test_setup(hook_remove_from_other_loop, setup),
      cmocka_unit_test_setup(profile_set_get, setup),
      cmocka_unit_test_setup(phase_order_1_44, setup),
      cmocka_unit_test_setup(phase_order_1_45, setup),
      cmocka_unit_test_setup(hook_callback_events, setup),
      cmocka_unit_test_setup(hook_remove_self_in_callback, setup),
      cmocka_unit_test_setup(hook_remove_from_callbacks, setup),
      cmocka_unit_test_setup(hook_remove_other_in_callback, setup),
      cmocka_unit_test_setup(hook_stops_loop, setup),
      cmocka_unit_test_setup(loop_iteration_counts, setup),
      cmocka_unit_test_setup(phase_names, setup),
      cmocka_unit_test_setup(clock_manual_and_jump, setup),
      cmocka_unit_test_setup(tracer_trace, setup),
      cmocka_unit_test_setup(tracer_verbose, setup),
      cmocka_unit_test_setup(metrics_api, setup),
  };
  return cmocka_run_group_tests_name("ext", tests, NULL, NULL);
}
