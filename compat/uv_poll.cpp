// SPDX-License-Identifier: MIT
// libuv's poll handles (uv_poll_*) over phaseloop::poll.

#include <cstddef>
#include <new>

#include "phaseloop/loop.hpp"
#include "phaseloop/poll.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

// Layout checks for poll handles are in uv_stream.cpp.

namespace {

inline pl::poll& P(uv_poll_t* h) { return as<pl::poll>(h); }

}  // namespace

extern "C" {

int uv_poll_init(uv_loop_t* loop, uv_poll_t* handle, int fd) {
  if (int r = pl::poll::prepare_fd(L(loop), fd); r != 0) return r;
  construct<pl::poll>(handle, L(loop), fd);
  return 0;
}

int uv_poll_init_socket(uv_loop_t* loop, uv_poll_t* handle, uv_os_sock_t socket) {
  return uv_poll_init(loop, handle, socket);
}

int uv_poll_start(uv_poll_t* handle, int events, uv_poll_cb cb) {
  // C and C++ callbacks take a pointer to the same object.
  return P(handle).start(events, cb_cast<pl::poll_cb>(cb));
}

int uv_poll_stop(uv_poll_t* handle) { return P(handle).stop(); }

}  // extern "C"
