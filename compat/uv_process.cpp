// SPDX-License-Identifier: MIT
// libuv's process functions (uv_spawn, uv_process_kill, ...) over
// phaseloop::process, and uv_loop_fork. The option structs have libuv's
// layout on both sides, so they pass through as they are.

#include <cstddef>

#include "phaseloop/loop.hpp"
#include "phaseloop/process.hpp"
#include "phaseloop/stream.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

static_assert(fits<uv_process_t, pl::process>());
static_assert(pl::process::c_layout().exit_cb == offsetof(uv_process_t, exit_cb));
static_assert(pl::process::c_layout().pid == offsetof(uv_process_t, pid));

namespace {

static_assert(sizeof(pl::stdio_container) == sizeof(uv_stdio_container_t) &&
              offsetof(pl::stdio_container, flags) == offsetof(uv_stdio_container_t, flags) &&
              offsetof(pl::stdio_container, data) == offsetof(uv_stdio_container_t, data));
// Flag values are libuv's (compared as ints: the enums differ).
constexpr bool same(int a, int b) { return a == b; }
static_assert(same(pl::stdio_container::ignore, UV_IGNORE) && same(pl::stdio_container::create_pipe, UV_CREATE_PIPE) &&
              same(pl::stdio_container::inherit_fd, UV_INHERIT_FD) &&
              same(pl::stdio_container::inherit_stream, UV_INHERIT_STREAM) &&
              same(pl::stdio_container::readable_pipe, UV_READABLE_PIPE) &&
              same(pl::stdio_container::writable_pipe, UV_WRITABLE_PIPE) &&
              same(pl::stdio_container::nonblock_pipe, UV_NONBLOCK_PIPE));

using opts = pl::process_options;
static_assert(sizeof(opts) == sizeof(uv_process_options_t) &&
              offsetof(opts, on_exit) == offsetof(uv_process_options_t, exit_cb) &&
              offsetof(opts, file) == offsetof(uv_process_options_t, file) &&
              offsetof(opts, args) == offsetof(uv_process_options_t, args) &&
              offsetof(opts, env) == offsetof(uv_process_options_t, env) &&
              offsetof(opts, cwd) == offsetof(uv_process_options_t, cwd) &&
              offsetof(opts, flags) == offsetof(uv_process_options_t, flags) &&
              offsetof(opts, stdio_count) == offsetof(uv_process_options_t, stdio_count) &&
              offsetof(opts, stdio) == offsetof(uv_process_options_t, stdio) &&
              offsetof(opts, uid) == offsetof(uv_process_options_t, uid) &&
              offsetof(opts, gid) == offsetof(uv_process_options_t, gid));
static_assert(same(opts::set_uid, UV_PROCESS_SETUID) && same(opts::set_gid, UV_PROCESS_SETGID) &&
              same(opts::windows_verbatim_arguments, UV_PROCESS_WINDOWS_VERBATIM_ARGUMENTS) &&
              same(opts::detached, UV_PROCESS_DETACHED) && same(opts::windows_hide, UV_PROCESS_WINDOWS_HIDE) &&
              same(opts::windows_hide_console, UV_PROCESS_WINDOWS_HIDE_CONSOLE) &&
              same(opts::windows_hide_gui, UV_PROCESS_WINDOWS_HIDE_GUI));

}  // namespace

extern "C" {

int uv_spawn(uv_loop_t* loop, uv_process_t* handle, const uv_process_options_t* options) {
  // As libuv, the handle joins the loop whatever happens next: the caller
  // closes it after a failed spawn too.
  pl::process* p = construct<pl::process>(handle, L(loop));
  if (options == nullptr) return UV_EINVAL;
  return p->spawn(as<const opts>(options));
}

int uv_process_kill(uv_process_t* process, int signum) { return as<pl::process>(process).kill(signum); }
int uv_kill(int pid, int signum) { return pl::kill(pid, signum); }

uv_pid_t uv_process_get_pid(const uv_process_t* process) { return process->pid; }

int uv_loop_fork(uv_loop_t* loop) { return L(loop).after_fork(); }

}  // extern "C"
