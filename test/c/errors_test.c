// SPDX-License-Identifier: MIT
/* Error codes for bad input, as libuv's UV_E* values. Where libuv aborts
 * (starting a closing handle, closing a handle twice) phaseloop returns an
 * error or ignores the call instead; those tests check phaseloop's
 * documented behaviour. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"



/* ---- timers ------------------------------------------------------------ */

static void timer_start_null_cb(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_start(&t, NULL, 10, 0), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&t), 0);
  assert_int_equal(loop.active_handles, 0);
  assert_int_equal(uv_loop_alive(&loop), 0);
  uv_close((uv_handle_t*)&t, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void timer_again_never_started(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_again(&t), UV_EINVAL);
  /* A repeat value alone does not make it startable. */
  uv_timer_set_repeat(&t, 5);
  assert_int_equal(uv_timer_again(&t), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&t), 0);
  uv_close((uv_handle_t*)&t, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void loop_watcher_start_null_cb(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t i;
  uv_prepare_t p;
  uv_check_t c;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_prepare_init(&loop, &p), 0);
  assert_int_equal(uv_check_init(&loop, &c), 0);
  assert_int_equal(uv_idle_start(&i, NULL), UV_EINVAL);
  assert_int_equal(uv_prepare_start(&p, NULL), UV_EINVAL);
  assert_int_equal(uv_check_start(&c, NULL), UV_EINVAL);
  assert_int_equal(loop.active_handles, 0);
  uv_close((uv_handle_t*)&i, count_close_cb);
  uv_close((uv_handle_t*)&p, count_close_cb);
  uv_close((uv_handle_t*)&c, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 3);
}

/* ---- starting a closing handle: UV_EINVAL (libuv may abort) --------------- */

static void timer_start_closing(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  uv_close((uv_handle_t*)&t, count_close_cb);
  assert_int_equal(uv_timer_start(&t, nop_timer_cb, 0, 0), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&t), 0);
  assert_int_equal(loop.active_handles, 0);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void idle_start_closing(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_idle_t h;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_idle_init(&loop, &h), 0);
  uv_close((uv_handle_t*)&h, count_close_cb);
  assert_int_equal(uv_idle_start(&h, nop_idle_cb), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&h), 0);
  assert_int_equal(loop.active_handles, 0);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void prepare_start_closing(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_prepare_t h;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_prepare_init(&loop, &h), 0);
  /* Started, then closed: close stops it and it must not start again. */
  assert_int_equal(uv_prepare_start(&h, nop_prepare_cb), 0);
  uv_close((uv_handle_t*)&h, count_close_cb);
  assert_int_equal(uv_is_active((uv_handle_t*)&h), 0);
  assert_int_equal(uv_prepare_start(&h, nop_prepare_cb), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&h), 0);
  assert_int_equal(loop.active_handles, 0);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void check_start_closing(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_check_t h;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_check_init(&loop, &h), 0);
  uv_close((uv_handle_t*)&h, count_close_cb);
  assert_int_equal(uv_check_start(&h, nop_check_cb), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&h), 0);
  assert_int_equal(loop.active_handles, 0);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void signal_start_closing(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_signal_t h;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_signal_init(&loop, &h), 0);
  uv_close((uv_handle_t*)&h, count_close_cb);
  assert_int_equal(uv_signal_start(&h, nop_signal_cb, SIGUSR2), UV_EINVAL);
  assert_int_equal(uv_signal_start_oneshot(&h, nop_signal_cb, SIGUSR2), UV_EINVAL);
  assert_int_equal(uv_is_active((uv_handle_t*)&h), 0);
  assert_int_equal(h.signum, 0);
  assert_int_equal(loop.active_handles, 0);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

/* ---- signals ------------------------------------------------------------- */

static void signal_start_bad_signum(void** state) {
  (void)state;
  static const int bad[] = {0, -1, 65, 1000};
  uv_loop_t loop;
  uv_signal_t h;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_signal_init(&loop, &h), 0);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(uv_signal_start(&h, nop_signal_cb, bad[i]), UV_EINVAL);
    assert_int_equal(uv_signal_start_oneshot(&h, nop_signal_cb, bad[i]), UV_EINVAL);
    assert_int_equal(h.signum, 0);
    assert_int_equal(uv_is_active((uv_handle_t*)&h), 0);
  }
  assert_int_equal(loop.active_handles, 0);
  /* The highest real-time signal is a valid one. */
  assert_int_equal(uv_signal_start(&h, nop_signal_cb, SIGRTMAX), 0);
  assert_int_equal(h.signum, SIGRTMAX);
  assert_int_equal(uv_signal_stop(&h), 0);
  uv_close((uv_handle_t*)&h, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

/* ---- uv_loop_close: UV_EBUSY while anything remains ------------------------ */

static void loop_close_busy_handle(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  /* An initialized, never started handle already makes it busy. */
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  assert_int_equal(uv_timer_start(&t, nop_timer_cb, 1000, 0), 0);
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  assert_int_equal(uv_timer_stop(&t), 0);
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  /* A failed close leaves the loop usable. */
  assert_int_equal(uv_timer_start(&t, nop_timer_cb, 1000, 0), 0);
  uv_close((uv_handle_t*)&t, count_close_cb);
  /* Closing, but its close callback has not run yet. */
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(close_calls, 1);
  assert_int_equal(uv_loop_close(&loop), 0);
}

static uv_sem_t work_started;
static uv_sem_t work_release;
static int after_calls;
static int after_status;

static void blocking_work_cb(uv_work_t* req) {
  (void)req;
  uv_sem_post(&work_started);
  uv_sem_wait(&work_release);
}

static void record_after_cb(uv_work_t* req, int status) {
  (void)req;
  after_calls++;
  after_status = status;
}

static void loop_close_busy_work(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_work_t req;
  after_calls = 0;
  after_status = 1;
  assert_int_equal(uv_sem_init(&work_started, 0), 0);
  assert_int_equal(uv_sem_init(&work_release, 0), 0);
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_queue_work(&loop, &req, blocking_work_cb, record_after_cb), 0);
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  uv_sem_wait(&work_started); /* now running on a pool thread */
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  assert_int_equal(uv_loop_alive(&loop), 1);
  uv_sem_post(&work_release);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(after_calls, 1);
  assert_int_equal(after_status, 0);
  assert_int_equal(uv_loop_close(&loop), 0);
  uv_sem_destroy(&work_started);
  uv_sem_destroy(&work_release);
}

/* ---- uv_run, uv_loop_configure ------------------------------------------- */

static int timer_fired;
static void count_timer_cb(uv_timer_t* t) {
  (void)t;
  timer_fired++;
}

static void run_invalid_mode(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  timer_fired = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_run(&loop, (uv_run_mode)7), UV_EINVAL);
  assert_int_equal(uv_run(&loop, (uv_run_mode)-1), UV_EINVAL);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_start(&t, count_timer_cb, 0, 0), 0);
  assert_int_equal(uv_run(&loop, (uv_run_mode)7), UV_EINVAL);
  assert_int_equal(timer_fired, 0); /* nothing ran */
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(timer_fired, 1);
  uv_close((uv_handle_t*)&t, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

static void loop_configure_options(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  timer_fired = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_loop_configure(&loop, (uv_loop_option)99), UV_ENOSYS);
  assert_int_equal(uv_loop_configure(&loop, (uv_loop_option)-1), UV_ENOSYS);
  assert_int_equal(uv_loop_configure(&loop, UV_LOOP_BLOCK_SIGNAL, SIGUSR1), UV_EINVAL);
  assert_int_equal(uv_loop_configure(&loop, UV_LOOP_BLOCK_SIGNAL, SIGPROF), 0);
  assert_int_equal(uv_loop_configure(&loop, UV_METRICS_IDLE_TIME), 0);
  /* The configured loop still runs, and poll's wait is measured. */
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_start(&t, count_timer_cb, 20, 0), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(timer_fired, 1);
  assert_true(uv_metrics_idle_time(&loop) >= 5u * 1000 * 1000);
  uv_close((uv_handle_t*)&t, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

/* ---- threadpool requests ------------------------------------------------- */

static void noop_work_cb(uv_work_t* req) { (void)req; }

static void queue_work_null_cb(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_work_t req;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_queue_work(&loop, &req, NULL, record_after_cb), UV_EINVAL);
  assert_int_equal(uv_queue_work(&loop, &req, NULL, NULL), UV_EINVAL);
  assert_int_equal(uv_loop_alive(&loop), 0); /* nothing in flight */
  finish_loop(&loop);
}

static void cancel_non_cancellable(void** state) {
  (void)state;
  uv_write_t w;
  uv_connect_t c;
  uv_shutdown_t s;
  uv_req_t r;
  memset(&w, 0, sizeof w);
  memset(&c, 0, sizeof c);
  memset(&s, 0, sizeof s);
  memset(&r, 0, sizeof r);
  w.type = UV_WRITE;
  c.type = UV_CONNECT;
  s.type = UV_SHUTDOWN;
  r.type = UV_REQ;
  assert_int_equal(uv_cancel((uv_req_t*)&w), UV_EINVAL);
  assert_int_equal(uv_cancel((uv_req_t*)&c), UV_EINVAL);
  assert_int_equal(uv_cancel((uv_req_t*)&s), UV_EINVAL);
  assert_int_equal(uv_cancel(&r), UV_EINVAL);
}

/* The pool has two threads (main.c sets UV_THREADPOOL_SIZE=2): with both
 * blocked, a third request stays queued and can be cancelled. */
static int target_ran;
static void target_work_cb(uv_work_t* req) {
  (void)req;
  target_ran = 1;
}

static void cancel_work_states(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_work_t blockers[2];
  uv_work_t target;
  uv_work_t done;
  target_ran = 0;
  after_calls = 0;
  after_status = 1;
  assert_int_equal(uv_sem_init(&work_started, 0), 0);
  assert_int_equal(uv_sem_init(&work_release, 0), 0);
  assert_int_equal(uv_loop_init(&loop), 0);

  /* Finished work cannot be cancelled. */
  assert_int_equal(uv_queue_work(&loop, &done, noop_work_cb, record_after_cb), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(after_calls, 1);
  assert_int_equal(after_status, 0);
  assert_int_equal(uv_cancel((uv_req_t*)&done), UV_EBUSY);

  after_calls = 0;
  for (int i = 0; i < 2; i++)
    assert_int_equal(uv_queue_work(&loop, &blockers[i], blocking_work_cb, NULL), 0);
  uv_sem_wait(&work_started);
  uv_sem_wait(&work_started);
  assert_int_equal(uv_queue_work(&loop, &target, target_work_cb, record_after_cb), 0);
  assert_int_equal(uv_cancel((uv_req_t*)&blockers[0]), UV_EBUSY); /* running */
  assert_int_equal(uv_cancel((uv_req_t*)&target), 0);
  uv_sem_post(&work_release);
  uv_sem_post(&work_release);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(after_calls, 1);
  assert_int_equal(after_status, UV_ECANCELED);
  assert_int_equal(target_ran, 0);
  finish_loop(&loop);
  uv_sem_destroy(&work_started);
  uv_sem_destroy(&work_release);
}

/* ---- a second uv_close: a warning on stderr, otherwise ignored ------------ */

/* Runs `fn(arg)` with stderr redirected to a temporary file and copies
 * what was written into buf. */
static void capture_stderr(void (*fn)(void*), void* arg, char* buf, size_t len) {
  FILE* f = tmpfile();
  assert_non_null(f);
  fflush(stderr);
  int saved = dup(STDERR_FILENO);
  assert_true(saved >= 0);
  assert_true(dup2(fileno(f), STDERR_FILENO) >= 0);
  fn(arg);
  fflush(stderr);
  assert_true(dup2(saved, STDERR_FILENO) >= 0);
  close(saved);
  rewind(f);
  size_t n = fread(buf, 1, len - 1, f);
  buf[n] = '\0';
  fclose(f);
}

static void second_close(void* h) { uv_close((uv_handle_t*)h, count_close_cb); }

static void double_close(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  uv_idle_t i;
  char text[512];
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_timer_start(&t, nop_timer_cb, 1000, 0), 0);
  uv_close((uv_handle_t*)&t, count_close_cb);
  capture_stderr(second_close, &t, text, sizeof text);
  assert_non_null(strstr(text, "uv_close() called twice"));
  assert_int_equal(uv_is_closing((uv_handle_t*)&t), 1);
  /* A handle closed (callback run) and then closed again: also ignored. */
  uv_close((uv_handle_t*)&i, count_close_cb);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(close_calls, 2);
  capture_stderr(second_close, &i, text, sizeof text);
  assert_non_null(strstr(text, "uv_close() called twice"));
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(close_calls, 2); /* each close callback ran once */
  assert_int_equal(uv_loop_close(&loop), 0);
}

int run_errors_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(timer_start_null_cb, reset_close_calls),
      cmocka_unit_test_setup(timer_again_never_started, reset_close_calls),
      cmocka_unit_test_setup(loop_watcher_start_null_cb, reset_close_calls),
      cmocka_unit_test_setup(timer_start_closing, reset_close_calls),
      cmocka_unit_test_setup(idle_start_closing, reset_close_calls),
      cmocka_unit_test_setup(prepare_start_closing, reset_close_calls),
      cmocka_unit_test_setup(check_start_closing, reset_close_calls),
      cmocka_unit_test_setup(signal_start_closing, reset_close_calls),
      cmocka_unit_test_setup(signal_start_bad_signum, reset_close_calls),
      cmocka_unit_test_setup(loop_close_busy_handle, reset_close_calls),
      cmocka_unit_test_setup(loop_close_busy_work, reset_close_calls),
      cmocka_unit_test_setup(run_invalid_mode, reset_close_calls),
      cmocka_unit_test_setup(loop_configure_options, reset_close_calls),
      cmocka_unit_test_setup(queue_work_null_cb, reset_close_calls),
      cmocka_unit_test_setup(cancel_non_cancellable, reset_close_calls),
      cmocka_unit_test_setup(cancel_work_states, reset_close_calls),
      cmocka_unit_test_setup(double_close, reset_close_calls),
  };
  return cmocka_run_group_tests_name("errors", tests, NULL, NULL);
}
