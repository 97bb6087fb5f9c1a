// SPDX-License-Identifier: MIT
#pragma once
/// Child processes (libuv's uv_process_t): run a program with its standard
/// descriptors wired to pipes, to descriptors of this process, or to
/// /dev/null, and learn of its end on the loop.
///
/// How an exit is noticed, as in libuv on Linux: the first spawn starts an
/// internal SIGCHLD signal handle on the loop (unreferenced, hidden from
/// walk). Its callback runs in the poll phase, after the other I/O
/// callbacks of the same poll; it reaps every exited child of the loop with
/// waitpid(WNOHANG), then calls their exit callbacks in spawn order. Hooks
/// see an exit callback as callback_kind::signal with the process handle.
/// The signal handle stops when the loop's last process handle closes.
///
/// A spawned process handle is active, and keeps its loop alive, until its
/// exit callback is about to run. Closing it earlier only forgets the
/// child: no exit callback, and the child is neither killed nor reaped.
/// Every method is for the loop's thread only.

#include <cstddef>
#include <sys/types.h>

#include <cstdint>

#include "phaseloop/handle.hpp"

namespace phaseloop {

class process;
class signal;
class stream;

/// Runs in the poll phase once the child has ended: `exit_status` is its
/// exit code (0 when a signal ended it), `term_signal` the signal that
/// ended it (0 when it exited).
using exit_cb = void (*)(process*, std::int64_t exit_status, int term_signal);

/// How the child gets one descriptor (libuv's uv_stdio_container_t; same
/// layout and flag values).
struct stdio_container {
  enum : int {
    /// Not given. Descriptors 0-2 are opened on /dev/null instead.
    ignore = 0x00,
    /// A new socket pair: the child gets one end, `stream` (an unopened
    /// pipe handle) the other, once spawn() returns.
    create_pipe = 0x01,
    /// `fd` of this process, shared with the child.
    inherit_fd = 0x02,
    /// The descriptor of `stream` (a pipe, tcp or tty handle), shared.
    inherit_stream = 0x04,
    /// With create_pipe: the child reads, so `stream` is writable.
    readable_pipe = 0x10,
    /// With create_pipe: the child writes, so `stream` is readable.
    writable_pipe = 0x20,
    /// With create_pipe: accepted, and (as in libuv on Unix) without effect.
    nonblock_pipe = 0x40,
  };
  int flags = ignore;
  union {
    phaseloop::stream* stream;
    int fd;
  } data{};
};

/// What spawn() starts (libuv's uv_process_options_t; same layout).
struct process_options {
  enum : unsigned {
    set_uid = 1u << 0,                       ///< run as `uid`
    set_gid = 1u << 1,                       ///< run with group `gid`
    windows_verbatim_arguments = 1u << 2,    ///< Windows only: ignored
    detached = 1u << 3,                      ///< a session of its own (setsid)
    windows_hide = 1u << 4,                  ///< Windows only: ignored
    windows_hide_console = 1u << 5,          ///< Windows only: ignored
    windows_hide_gui = 1u << 6,              ///< Windows only: ignored
    windows_file_path_exact_name = 1u << 7,  ///< Windows only (libuv 1.48): ignored
  };
  /// Called when the child ends; may be null.
  exit_cb on_exit = nullptr;
  /// The program: a path if it has a '/', else looked up in the PATH of
  /// `env` (or of this process), as execvp does.
  const char* file = nullptr;
  /// argv, null-terminated; args[0] is conventionally the program name.
  char** args = nullptr;
  /// The child's environment, null-terminated; null: this process's.
  char** env = nullptr;
  /// The child's working directory; null: this process's.
  const char* cwd = nullptr;
  /// The flags above.
  unsigned flags = 0;
  /// Entries in `stdio`: the child's descriptors 0, 1, 2, ...
  int stdio_count = 0;
  stdio_container* stdio = nullptr;
  uid_t uid = 0;
  gid_t gid = 0;
};

class process : public handle {
 public:
  /// Joins `l` as an inactive handle. Loop thread only.
  explicit process(phaseloop::loop& l) noexcept;

  /// Starts the child. 0 once it runs the program. An error the child met
  /// before that (-ENOENT, -EACCES, a bad `cwd`, ...) is returned here,
  /// after the child has been reaped; the handle then stays inactive and
  /// gets no exit callback, but create_pipe streams are opened all the
  /// same (as in libuv). errc::invalid for options libuv asserts on (no
  /// file, unknown flags, a create_pipe stream that is not a pipe, no
  /// stream or fd to inherit) and for a handle already spawned or
  /// closing; -EBUSY when a create_pipe stream already has a descriptor.
  /// In every case the handle must still be closed. (From profile
  /// libuv_1_52 a handle whose spawn failed is taken off the loop's handle
  /// list, so that walk() no longer sees it.)
  int spawn(const process_options& o) noexcept;
  /// Sends `signum` to the child (libuv's uv_process_kill). -ESRCH when it
  /// was reaped already, or never started.
  int kill(int signum) noexcept;
  /// The child's process id, 0 before a successful spawn. (libuv: `pid`.)
  int pid() const noexcept { return pid_; }

  /// Offsets of the fields libuv's uv_process_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t exit_cb, pid; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  void close_() noexcept;
  int start_child_(const process_options& o) noexcept;
  // libuv 1.53's bit for a reaped child (UV_HANDLE_ESRCH).
  static constexpr std::uint32_t reaped_flag = 0x01000000;
  struct children;  // a loop's running children (src/io/process.cpp)
  // The loop's SIGCHLD callback: reaps and reports the loop's children.
  static void reap_(phaseloop::signal* s, int signum);

  // Ordered so that cb_ and pid_ sit at offsets 96 and 104, where C
  // programs read libuv's public `exit_cb` and `pid`.
  exit_cb cb_ = nullptr;
  int pid_ = 0;
  int status_ = 0;              // waitpid() status, once reaped

 public:
  /// The list type of a loop's running children (an implementation detail).
  using list = detail::ilist<process, &process::link_>;
};

/// kill(2) with libuv's error codes (libuv's uv_kill): -EINVAL for a bad
/// signal number, -ESRCH, -EPERM. Any thread.
int kill(int pid, int signum) noexcept;

}  // namespace phaseloop
