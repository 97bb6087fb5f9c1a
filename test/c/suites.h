// SPDX-License-Identifier: MIT
/* The CMocka groups of test/c/c_api_tests and the helpers they share.
 *
 * Each test/c/<name>_test.c defines one group and exposes it here as
 * run_<name>_tests(), which returns cmocka_run_group_tests()'s result (the
 * number of failed tests); main.c runs them all. */
#ifndef PHASELOOP_TEST_C_SUITES_H
#define PHASELOOP_TEST_C_SUITES_H

/* CMocka needs these before <cmocka.h>. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "uv.h"

int run_smoke_tests(void);
int run_errors_tests(void);
int run_strerror_tests(void);
int run_data_tests(void);
int run_ext_tests(void);
int run_threads_tests(void);
int run_misc_tests(void);
int run_fs_tests(void);
int run_os_tests(void);

/* Closes every handle of `loop` not yet closing (without callbacks), runs
 * the loop until the closes are finished, and asserts uv_run() returned 0
 * and uv_loop_close() == 0. Tests close their own handles first; this is
 * the common ending. */
void finish_loop(uv_loop_t* loop);

/* Closes `h` if it is not closing yet; a walk callback. */
void close_walk_cb(uv_handle_t* h, void* arg);

/* Close callbacks counted: count_close_cb adds one to close_calls; a
 * group's setup resets it with reset_close_calls (a cmocka setup). */
extern int close_calls;
void count_close_cb(uv_handle_t* h);
int reset_close_calls(void** state);

/* Callbacks that do nothing, for handles that only need to be started. */
void nop_timer_cb(uv_timer_t* h);
void nop_idle_cb(uv_idle_t* h);
void nop_prepare_cb(uv_prepare_t* h);
void nop_check_cb(uv_check_t* h);
void nop_async_cb(uv_async_t* h);
void nop_signal_cb(uv_signal_t* h, int signum);

#endif /* PHASELOOP_TEST_C_SUITES_H */
