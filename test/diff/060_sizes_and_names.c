// SPDX-License-Identifier: MIT
/* Structure sizes reported by uv_loop_size / uv_handle_size /
 * uv_req_size (they must agree with sizeof on the public types), and the
 * handle / request type names. */
#include "diff.h"

int main(void) {
  static const uv_handle_type types[] = {
    UV_ASYNC, UV_CHECK, UV_IDLE, UV_PREPARE, UV_SIGNAL, UV_TIMER, UV_HANDLE
  };
  size_t i;

  say("uv_loop_size() = %zu (sizeof %zu)", uv_loop_size(), sizeof(uv_loop_t));
  for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    say("uv_handle_size(%s) = %zu", uv_handle_type_name(types[i]),
        uv_handle_size(types[i]));
  say("sizeof(uv_timer_t)=%zu sizeof(uv_idle_t)=%zu sizeof(uv_async_t)=%zu "
      "sizeof(uv_signal_t)=%zu", sizeof(uv_timer_t), sizeof(uv_idle_t),
      sizeof(uv_async_t), sizeof(uv_signal_t));
  CHECK(uv_handle_size(UV_TIMER) == sizeof(uv_timer_t));
  CHECK(uv_handle_size(UV_SIGNAL) == sizeof(uv_signal_t));
  say("uv_req_size(work) = %zu (sizeof %zu)", uv_req_size(UV_WORK), sizeof(uv_work_t));
  say("uv_req_size(req) = %zu", uv_req_size(UV_REQ));
  say("uv_handle_size(UNKNOWN) == (size_t)-1: %d",
      uv_handle_size(UV_UNKNOWN_HANDLE) == (size_t) -1);
  say("uv_req_size(UNKNOWN) == (size_t)-1: %d", uv_req_size(UV_UNKNOWN_REQ) == (size_t) -1);

  for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    say("type %d -> %s", (int) types[i], uv_handle_type_name(types[i]));
  say("name(UV_FILE) = %s", uv_handle_type_name(UV_FILE));
  say("name(UV_UNKNOWN_HANDLE) is NULL: %d", uv_handle_type_name(UV_UNKNOWN_HANDLE) == NULL);
  say("name(UV_HANDLE_TYPE_MAX) is NULL: %d", uv_handle_type_name(UV_HANDLE_TYPE_MAX) == NULL);
  say("req name(UV_WORK) = %s", uv_req_type_name(UV_WORK));
  say("req name(UV_REQ) = %s", uv_req_type_name(UV_REQ));
  say("req name(UV_UNKNOWN_REQ) is NULL: %d", uv_req_type_name(UV_UNKNOWN_REQ) == NULL);
  say("done");
  return 0;
}
