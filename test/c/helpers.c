// SPDX-License-Identifier: MIT
/* Helpers shared by the groups (see suites.h). */
#include "suites.h"

void close_walk_cb(uv_handle_t* h, void* arg) {
  (void)arg;
  if (!uv_is_closing(h)) uv_close(h, NULL);
}

void finish_loop(uv_loop_t* loop) {
  uv_walk(loop, close_walk_cb, NULL);
  assert_int_equal(uv_run(loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(uv_loop_close(loop), 0);
}

int close_calls;
void count_close_cb(uv_handle_t* h) {
  (void)h;
  close_calls++;
}
int reset_close_calls(void** state) {
  (void)state;
  close_calls = 0;
  return 0;
}

void nop_timer_cb(uv_timer_t* h) { (void)h; }
void nop_idle_cb(uv_idle_t* h) { (void)h; }
void nop_prepare_cb(uv_prepare_t* h) { (void)h; }
void nop_check_cb(uv_check_t* h) { (void)h; }
void nop_async_cb(uv_async_t* h) { (void)h; }
void nop_signal_cb(uv_signal_t* h, int signum) {
  (void)h;
  (void)signum;
}
