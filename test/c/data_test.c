// SPDX-License-Identifier: MIT
/* uv.h's public fields as C code reads them: `data` kept across init (as
 * libuv keeps it), loop->active_handles, handle->type, handle->loop,
 * signal->signum, and the fields of a uv_work_t. */
#include <signal.h>
#include <string.h>

#include "suites.h"

static int marker;
static int other_marker;


static void loop_data_kept(void** state) {
  (void)state;
  uv_loop_t loop;
  memset(&loop, 0xA5, sizeof loop); /* garbage, as on the stack */
  loop.data = &marker;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_ptr_equal(loop.data, &marker);
  assert_ptr_equal(uv_loop_get_data(&loop), &marker);
  assert_int_equal(loop.active_handles, 0);
  uv_loop_set_data(&loop, &other_marker);
  assert_ptr_equal(loop.data, &other_marker);
  assert_int_equal(uv_run(&loop, UV_RUN_NOWAIT), 0);
  assert_ptr_equal(loop.data, &other_marker);
  assert_int_equal(uv_loop_close(&loop), 0);
  assert_ptr_equal(loop.data, &other_marker); /* kept after close too */
}

static void handle_data_kept_across_init(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  uv_idle_t i;
  uv_prepare_t p;
  uv_check_t c;
  uv_async_t a;
  uv_signal_t s;
  assert_int_equal(uv_loop_init(&loop), 0);
  memset(&t, 0xA5, sizeof t);
  memset(&i, 0xA5, sizeof i);
  memset(&p, 0xA5, sizeof p);
  memset(&c, 0xA5, sizeof c);
  memset(&a, 0xA5, sizeof a);
  memset(&s, 0xA5, sizeof s);
  t.data = &marker;
  i.data = &marker;
  p.data = &marker;
  c.data = &marker;
  a.data = &marker;
  s.data = &marker;
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_prepare_init(&loop, &p), 0);
  assert_int_equal(uv_check_init(&loop, &c), 0);
  assert_int_equal(uv_async_init(&loop, &a, nop_async_cb), 0);
  assert_int_equal(uv_signal_init(&loop, &s), 0);
  assert_ptr_equal(t.data, &marker);
  assert_ptr_equal(i.data, &marker);
  assert_ptr_equal(p.data, &marker);
  assert_ptr_equal(c.data, &marker);
  assert_ptr_equal(a.data, &marker);
  assert_ptr_equal(s.data, &marker);
  assert_ptr_equal(uv_handle_get_data((uv_handle_t*)&t), &marker);
  uv_handle_set_data((uv_handle_t*)&t, &other_marker);
  assert_ptr_equal(t.data, &other_marker);
  /* Starting does not touch it either. */
  assert_int_equal(uv_timer_start(&t, nop_timer_cb, 1000, 0), 0);
  assert_ptr_equal(t.data, &other_marker);
  uv_close((uv_handle_t*)&t, count_close_cb);
  uv_close((uv_handle_t*)&i, count_close_cb);
  uv_close((uv_handle_t*)&p, count_close_cb);
  uv_close((uv_handle_t*)&c, count_close_cb);
  uv_close((uv_handle_t*)&a, count_close_cb);
  uv_close((uv_handle_t*)&s, count_close_cb);
  finish_loop(&loop);
  assert_int_equal(close_calls, 6);
  assert_ptr_equal(t.data, &other_marker); /* and closing neither */
  assert_ptr_equal(s.data, &marker);
}

static void public_handle_fields(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_timer_t t;
  uv_idle_t i;
  uv_async_t a;
  uv_signal_t s;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_timer_init(&loop, &t), 0);
  assert_int_equal(uv_idle_init(&loop, &i), 0);
  assert_int_equal(uv_signal_init(&loop, &s), 0);
  assert_ptr_equal(t.loop, &loop);
  assert_ptr_equal(i.loop, &loop);
  assert_ptr_equal(s.loop, &loop);
  assert_int_equal(t.type, UV_TIMER);
  assert_int_equal(i.type, UV_IDLE);
  assert_int_equal(s.type, UV_SIGNAL);
  assert_int_equal(uv_handle_get_type((uv_handle_t*)&t), UV_TIMER);
  assert_ptr_equal(uv_handle_get_loop((uv_handle_t*)&i), &loop);
  assert_string_equal(uv_handle_type_name(t.type), "timer");
  assert_string_equal(uv_handle_type_name(s.type), "signal");

  /* active_handles counts handles that are active and referenced. */
  assert_int_equal(loop.active_handles, 0);
  assert_int_equal(uv_timer_start(&t, nop_timer_cb, 1000, 0), 0);
  assert_int_equal(loop.active_handles, 1);
  assert_int_equal(uv_idle_start(&i, nop_idle_cb), 0);
  assert_int_equal(loop.active_handles, 2);
  assert_int_equal(uv_idle_start(&i, nop_idle_cb), 0); /* already active */
  assert_int_equal(loop.active_handles, 2);
  uv_unref((uv_handle_t*)&t);
  assert_int_equal(loop.active_handles, 1);
  uv_unref((uv_handle_t*)&t);
  assert_int_equal(loop.active_handles, 1);
  uv_ref((uv_handle_t*)&t);
  assert_int_equal(loop.active_handles, 2);
  assert_int_equal(uv_idle_stop(&i), 0);
  assert_int_equal(loop.active_handles, 1);
  /* An async handle is active from init. */
  assert_int_equal(uv_async_init(&loop, &a, nop_async_cb), 0);
  assert_int_equal(a.type, UV_ASYNC);
  assert_int_equal(loop.active_handles, 2);
  uv_unref((uv_handle_t*)&a);
  assert_int_equal(loop.active_handles, 1);

  /* signum: 0 until started, the signal while watching, 0 once stopped. */
  assert_int_equal(s.signum, 0);
  assert_int_equal(uv_signal_start(&s, nop_signal_cb, SIGUSR1), 0);
  assert_int_equal(s.signum, SIGUSR1);
  assert_int_equal(loop.active_handles, 2);
  assert_int_equal(uv_signal_start(&s, nop_signal_cb, SIGUSR2), 0);
  assert_int_equal(s.signum, SIGUSR2);
  assert_int_equal(loop.active_handles, 2);
  assert_int_equal(uv_signal_stop(&s), 0);
  assert_int_equal(s.signum, 0);
  assert_int_equal(loop.active_handles, 1);

  /* A closing handle no longer counts. */
  uv_close((uv_handle_t*)&t, count_close_cb);
  assert_int_equal(loop.active_handles, 0);
  uv_close((uv_handle_t*)&i, count_close_cb);
  uv_close((uv_handle_t*)&a, count_close_cb);
  uv_close((uv_handle_t*)&s, count_close_cb);
  assert_int_equal(loop.active_handles, 0);
  finish_loop(&loop);
  assert_int_equal(close_calls, 4);
}

static int work_calls;
static void* seen_in_work;
static void* seen_in_after;
static uv_loop_t* loop_in_after;
static int status_in_after;

static void data_work_cb(uv_work_t* req) {
  work_calls++;
  seen_in_work = req->data;
}

static void data_after_cb(uv_work_t* req, int status) {
  seen_in_after = req->data;
  loop_in_after = req->loop;
  status_in_after = status;
}

static void work_req_fields(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_work_t req;
  work_calls = 0;
  seen_in_work = seen_in_after = NULL;
  loop_in_after = NULL;
  status_in_after = 1;
  assert_int_equal(uv_loop_init(&loop), 0);
  memset(&req, 0xA5, sizeof req);
  req.data = &marker;
  assert_int_equal(uv_queue_work(&loop, &req, data_work_cb, data_after_cb), 0);
  assert_ptr_equal(req.data, &marker);
  assert_ptr_equal(req.loop, &loop);
  assert_int_equal(req.type, UV_WORK);
  assert_int_equal(uv_req_get_type((uv_req_t*)&req), UV_WORK);
  assert_ptr_equal(uv_req_get_data((uv_req_t*)&req), &marker);
  assert_string_equal(uv_req_type_name(req.type), "work");
  assert_int_equal(uv_loop_alive(&loop), 1); /* the request keeps it alive */
  assert_int_equal(loop.active_handles, 0);  /* but it is not a handle */
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(work_calls, 1);
  assert_ptr_equal(seen_in_work, &marker);
  assert_ptr_equal(seen_in_after, &marker);
  assert_ptr_equal(loop_in_after, &loop);
  assert_int_equal(status_in_after, 0);
  assert_ptr_equal(req.data, &marker);
  finish_loop(&loop);
}

int run_data_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(loop_data_kept, reset_close_calls),
      cmocka_unit_test_setup(handle_data_kept_across_init, reset_close_calls),
      cmocka_unit_test_setup(public_handle_fields, reset_close_calls),
      cmocka_unit_test_setup(work_req_fields, reset_close_calls),
  };
  return cmocka_run_group_tests_name("data", tests, NULL, NULL);
}
