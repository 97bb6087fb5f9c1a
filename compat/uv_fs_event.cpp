// SPDX-License-Identifier: MIT
// libuv's file system watchers over phaseloop::fs_event (inotify) and
// phaseloop::fs_poll (stat polling). The C++ handles are constructed inside
// the caller's uv_fs_event_t / uv_fs_poll_t, keeping `data`; the public
// `path` of uv_fs_event_t sits at libuv's offset (checked below).

#include <cstddef>
#include <new>

#include "phaseloop/fs_event.hpp"
#include "phaseloop/fs_poll.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

// fs_event publishes where it keeps libuv's fields (c_layout()).
static_assert(sizeof(pl::fs_event) <= sizeof(uv_fs_event_t) && alignof(pl::fs_event) <= alignof(uv_fs_event_t));
static_assert(pl::fs_event_rename == UV_RENAME && pl::fs_event_change == UV_CHANGE);
static_assert(pl::fs_event::c_layout().path == offsetof(uv_fs_event_t, path));

namespace {


pl::fs_event& E(uv_fs_event_t* h) { return as<pl::fs_event>(h); }

}  // namespace

extern "C" {

int uv_fs_event_init(uv_loop_t* loop, uv_fs_event_t* handle) {
  construct<pl::fs_event>(handle, L(loop));
  return 0;
}

int uv_fs_event_start(uv_fs_event_t* handle, uv_fs_event_cb cb, const char* path, unsigned int flags) {
  return E(handle).start(cb_cast<pl::fs_event_cb>(cb), path, flags);
}

int uv_fs_event_stop(uv_fs_event_t* handle) { return E(handle).stop(); }

int uv_fs_event_getpath(uv_fs_event_t* handle, char* buffer, size_t* size) {
  return E(handle).getpath(buffer, size);
}

}  // extern "C"

// ---- fs_poll ----------------------------------------------------------------

static_assert(sizeof(pl::fs_poll) <= sizeof(uv_fs_poll_t) && alignof(pl::fs_poll) <= alignof(uv_fs_poll_t));

extern "C" {

int uv_fs_poll_init(uv_loop_t* loop, uv_fs_poll_t* handle) {
  construct<pl::fs_poll>(handle, L(loop));
  return 0;
}

int uv_fs_poll_start(uv_fs_poll_t* handle, uv_fs_poll_cb poll_cb, const char* path, unsigned int interval) {
  return as<pl::fs_poll>(handle).start(cb_cast<pl::fs_poll_cb>(poll_cb), path, interval);
}

int uv_fs_poll_stop(uv_fs_poll_t* handle) { return as<pl::fs_poll>(handle).stop(); }

int uv_fs_poll_getpath(uv_fs_poll_t* handle, char* buffer, size_t* size) {
  return as<pl::fs_poll>(handle).getpath(buffer, size);
}

}  // extern "C"
