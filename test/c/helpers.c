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
