// SPDX-License-Identifier: MIT
/* Smoke tests: a loop's life cycle with nothing, and with one handle. */
#include "suites.h"

static void empty_loop(void** state) {
  (void)state;
  uv_loop_t loop;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_loop_alive(&loop), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_ONCE), 0);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_int_equal(uv_loop_close(&loop), 0);
}

static int fired;
static void count_timer_cb(uv_timer_t* t) {
  (void)t;
  fired++;
}

static void one_timer(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  fired = close_calls = 0;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_timer_start(&t, count_timer_cb, 1, 0), 0);
  assert_int_equal(uv_loop_alive(&loop), 1);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(fired, 1);
  uv_close((uv_handle_t*)&t, count_close_cb);
  assert_int_equal(close_calls, 0); /* close callbacks run in the loop */
  finish_loop(&loop);
  assert_int_equal(close_calls, 1);
}

int run_smoke_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(empty_loop),
      cmocka_unit_test(one_timer),
  };
  return cmocka_run_group_tests_name("smoke", tests, NULL, NULL);
}
