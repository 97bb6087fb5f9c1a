#pragma once
/// Basic vocabulary of phaseloop: handle and request kinds, run modes,
/// phase-order profiles, the phases themselves, and error codes.
/// Numeric values match libuv's so that the C compatibility layer is a cast.

#include <cerrno>
#include <cstdint>

#include "phaseloop/errors.h"

namespace phaseloop {

class loop;
class handle;

/// The kind of a handle; values are libuv's `uv_handle_type`.
enum class handle_type : int {
  unknown = 0,
  async = 1,
  check = 2,
  fs_event = 3,
  fs_poll = 4,
  generic = 5,  ///< libuv's UV_HANDLE
  idle = 6,
  named_pipe = 7,
  poll = 8,
  prepare = 9,
  process = 10,
  stream = 11,
  tcp = 12,
  timer = 13,
  tty = 14,
  udp = 15,
  signal = 16,
  file = 17,
};

/// The kind of a request; values are libuv's `uv_req_type`.
enum class req_type : int {
  unknown = 0,
  generic = 1,  ///< libuv's UV_REQ
  connect = 2,
  write = 3,
  shutdown = 4,
  udp_send = 5,
  fs = 6,
  work = 7,
  getaddrinfo = 8,
  getnameinfo = 9,
  random = 10,
};

/// How long `loop::run` runs; values are libuv's `uv_run_mode`.
enum class run_mode : int {
  default_ = 0,  ///< until nothing keeps the loop alive, or stop()
  once = 1,      ///< one iteration, blocking in poll if there is nothing to do
  nowait = 2,    ///< one iteration, never blocking
};

/// Which libuv's iteration order a loop follows.
enum class profile : int {
  /// libuv 1.44 (Debian 12): every iteration starts with the timers; ONCE
  /// runs them a second time at the end of the iteration.
  libuv_1_44 = 0,
  /// libuv >= 1.45, with the 1.46 and 1.48 refinements: timers run after
  /// the closing phase; DEFAULT runs one timers pass before the first
  /// iteration when the loop is alive and not stopped; expired timers are
  /// collected first and then run, so one re-armed with timeout 0 inside its
  /// callback waits for the next pass.
  libuv_1_45 = 1,
  newest = libuv_1_45,
};

/// How a loop's time (loop::now()) moves; see loop::set_clock().
enum class clock_mode : std::uint8_t {
  /// The monotonic clock in milliseconds, as libuv.
  real = 0,
  /// Time moves only by loop::advance(). No timer makes the poll phase
  /// wait: it waits for I/O alone, or not at all when a timer is due.
  manual = 1,
  /// As manual; and when the poll phase would wait for a timer while no
  /// request is in flight and no I/O is ready, time jumps to that timer's
  /// due time instead, so timer-driven code runs at once. With requests
  /// in flight, poll waits for I/O (their completions) first.
  manual_jump = 2,
};

/// The phases of one loop iteration, in the order libuv >= 1.45 runs them
/// (1.44 runs `timers` first instead of last; see docs/design.md).
enum class phase : std::uint8_t {
  timers = 0,
  pending = 1,
  idle = 2,
  prepare = 3,
  poll = 4,
  check = 5,
  closing = 6,
};

/// Number of distinct phases.
inline constexpr int phase_count = 7;

/// Short lowercase name of a phase ("timers", "pending", ...).
const char* phase_name(phase p) noexcept;
/// libuv's name of a handle type ("timer", "idle", ...), or nullptr.
const char* handle_type_name(handle_type t) noexcept;
/// libuv's name of a request type ("work", "fs", ...), or nullptr.
const char* req_type_name(req_type t) noexcept;

/// Error codes are negative errno values, as libuv's; phaseloop/errors.h
/// lists them all (PHASELOOP_E*). These are the ones the core returns most;
/// every code is known to `error_name`/`error_message`.
namespace errc {
inline constexpr int ok = 0;
inline constexpr int busy = PHASELOOP_EBUSY;
inline constexpr int invalid = PHASELOOP_EINVAL;
inline constexpr int canceled = PHASELOOP_ECANCELED;
inline constexpr int no_memory = PHASELOOP_ENOMEM;
inline constexpr int again = PHASELOOP_EAGAIN;
inline constexpr int not_supported = PHASELOOP_ENOTSUP;
inline constexpr int no_such_process = PHASELOOP_ESRCH;
inline constexpr int eof = PHASELOOP_EOF;
}  // namespace errc

/// libuv's short name of an error code ("EINVAL", "EOF", ...). For codes
/// libuv does not know, returns nullptr (the C layer formats a fallback).
const char* error_name(int code) noexcept;
/// libuv's message for an error code ("invalid argument", ...), or nullptr.
const char* error_message(int code) noexcept;
/// Maps a positive errno to phaseloop's (libuv's) negative error code.
inline constexpr int from_errno(int e) noexcept { return e <= 0 ? e : -e; }

}  // namespace phaseloop
