// SPDX-License-Identifier: MIT
#pragma once
/// Signal handles: run a callback on the loop's thread when the process
/// receives a signal. The process-wide handler only writes a note to the
/// loop's signal pipe; callbacks run in the poll phase, after the other
/// I/O callbacks of the same poll.
///
/// Several handles may watch one signal, on one loop or several; each gets
/// the callback. A one-shot handle stops itself right after its first
/// callback returns; when every watcher of a signal is one-shot, the
/// signal's default disposition is restored as soon as it is caught.

#include <cstddef>
#include "phaseloop/handle.hpp"

namespace phaseloop {

class signal;
/// Runs in the poll phase, on the loop's thread, with the signal number.
using signal_cb = void (*)(signal*, int signum);

class signal : public handle {
 public:
  /// Joins `l` as an inactive handle. Loop thread only.
  explicit signal(phaseloop::loop& l) noexcept;

  /// Starts watching `signum` (restarting if watching another). errc::invalid
  /// for a null callback (libuv accepts it and would call it), a signal
  /// number out of range or one that cannot be caught, or a closing handle.
  int start(signal_cb cb, int signum) noexcept;
  /// As start(), but stops after the first delivery.
  int start_oneshot(signal_cb cb, int signum) noexcept;
  /// Stops watching. Always succeeds.
  int stop() noexcept;
  /// The signal being watched, 0 if none. (libuv: `signum`.)
  int signum() const noexcept { return signum_; }

  /// Offsets of the fields libuv's uv_signal_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t signum, signal_cb; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  friend struct detail::signal_registry;
  int start_watch_(signal_cb cb, int signum, bool oneshot) noexcept;
  void close_() noexcept { stop(); }
  // A close must wait until every signal noted in the pipe for this handle
  // has been read back, or the reader would touch a finished handle.
  bool has_undelivered_() const noexcept { return caught_ != dispatched_; }

  enum : std::uint32_t { oneshot_flag = 0x02000000 };  // libuv's UV_SIGNAL_ONE_SHOT

  // Ordered so that cb_ and signum_ sit at offsets 96 and 104, where C
  // programs read libuv's public `signal_cb` and `signum`.
  signal_cb cb_ = nullptr;
  int signum_ = 0;
  unsigned caught_ = 0;       // notes written by the handler (under its lock)
  unsigned dispatched_ = 0;   // notes read by the loop

 public:
  /// The process-wide watcher list type (an implementation detail).
  using list = detail::ilist<signal, &signal::link_>;  // the process-wide watchers of one signal
};

}  // namespace phaseloop
