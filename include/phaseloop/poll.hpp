// SPDX-License-Identifier: MIT
#pragma once
/// Poll handles: watch a descriptor the caller owns (a socket, a pipe, a
/// terminal) for readiness, as libuv's uv_poll_t. The handle never reads,
/// writes or closes the fd; it only says when the fd is ready.
///
/// The callback runs in the poll phase. Watching starts when the poll phase
/// next waits (registration is deferred, as in libuv). An fd the kernel
/// reports in error stops the handle and gets one callback with
/// errc::bad_fd (libuv's UV_EBADF) and no events.

#include <cstddef>
#include "phaseloop/detail/poller.hpp"
#include "phaseloop/handle.hpp"

namespace phaseloop {

class poll;
/// Runs in the poll phase with 0 and the ready events (poll::readable...),
/// or with a negative error code and no events.
using poll_cb = void (*)(poll*, int status, int events);

class poll : public handle {
 public:
  /// Event bits; the values are libuv's `uv_poll_event`.
  enum : int {
    readable = 1,     ///< data to read (or a connection to accept)
    writable = 2,     ///< room to write
    disconnect = 4,   ///< the peer shut down its write side
    prioritized = 8,  ///< urgent (out-of-band) data
  };

  /// Readies `fd` for a poll handle: errc for an fd this loop already
  /// watches (-EEXIST) or one epoll cannot watch (a regular file: -EPERM);
  /// otherwise makes the fd non-blocking and returns 0. Call it, and only
  /// on success construct the handle. Loop thread only.
  static int prepare_fd(phaseloop::loop& l, int fd) noexcept;

  /// Joins `l` as an inactive handle watching nothing on `fd`. Loop thread
  /// only.
  poll(phaseloop::loop& l, int fd) noexcept;

  /// Watches for `events` (replacing what was watched), calling `cb` in the
  /// poll phase. 0 events stops the handle. errc::invalid for unknown bits
  /// or a closing handle (libuv asserts), -EEXIST when another watcher of
  /// this loop already owns the fd.
  int start(int events, poll_cb cb) noexcept;
  /// Stops watching. Always 0 (errc::invalid on a closing handle, where
  /// libuv asserts).
  int stop() noexcept;
  /// The watched descriptor.
  int fd() const noexcept { return watcher_.fd; }

  /// Offsets of the fields libuv's uv_poll_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t poll_cb; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class phaseloop::handle;
  static void io_(phaseloop::loop& l, detail::io_watcher& w, unsigned events);
  void stop_watch_() noexcept;
  void close_() noexcept { stop_watch_(); }

  // Ordered so that cb_ sits at offset 96, where C programs read libuv's
  // public `poll_cb`; the watcher fills the private bytes after it.
  poll_cb cb_ = nullptr;
  detail::io_watcher watcher_;
};

}  // namespace phaseloop
