// SPDX-License-Identifier: MIT
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

/// The kind of a handle. The values are libuv's `uv_handle_type`, in its
/// order from 0 (unknown) to 17 (file).
enum class handle_type : int {
  unknown, async, check, fs_event, fs_poll,
  generic,  ///< libuv's UV_HANDLE
  idle, named_pipe, poll, prepare, process, stream, tcp, timer, tty, udp, signal,
  file,  ///< what guess_handle() says of a regular file
};

/// The kind of a request. The values are libuv's `uv_req_type`, in its
/// order from 0 (unknown) to 10 (random).
enum class req_type : int {
  unknown,
  generic,  ///< libuv's UV_REQ
  connect, write, shutdown, udp_send, fs, work, getaddrinfo, getnameinfo, random,
};

/// How long `loop::run` runs; values are libuv's `uv_run_mode`.
enum class run_mode : int {
  default_ = 0,  ///< until nothing keeps the loop alive, or stop()
  once = 1,      ///< one iteration, blocking in poll if there is nothing to do
  nowait = 2,    ///< one iteration, never blocking
};

/// Which libuv a loop behaves as: its iteration order and every other
/// behaviour that changed between the libuv versions phaseloop follows. A
/// profile is named after the version that introduced its difference and
/// holds the differences of every profile before it; the values are
/// ordered. What each one does is a row of named flags in behaviour.hpp
/// (loop::behaves()), which is where the library reads it.
enum class profile : int {
  /// libuv 1.44 (Debian 12): every iteration starts with the timers; ONCE
  /// runs them a second time at the end of the iteration.
  libuv_1_44 = 0,
  /// libuv 1.45 to 1.47, with the 1.46 refinements: timers run after the
  /// closing phase; DEFAULT runs one timers pass before the first iteration
  /// when the loop is alive and not stopped. As in 1.44, a timers pass
  /// takes one due timer at a time, so a timer re-armed inside its callback
  /// runs again in the same pass once it is due (Node 20, on libuv 1.46,
  /// shows it).
  /// A stream's write attempt goes on to the next queued requests (up to
  /// 32 more); the shutting bit (0x100) is no longer kept in the handle's
  /// flags; the constrained memory is read from the process's own cgroup
  /// (v1 or v2), UINT64_MAX when it sets no limit.
  libuv_1_45 = 1,
  /// libuv 1.48: expired timers are collected first and then run, so one
  /// re-armed inside its callback waits for the next pass (PR #4250);
  /// uv_pipe_connect() goes through connect2's checks, so an empty name
  /// fails with EINVAL (in the connect callback) instead of trying to
  /// connect.
  libuv_1_48 = 2,
  /// libuv 1.49: a UDP bind accepts SO_REUSEPORT (UV_UDP_REUSEPORT); an
  /// abstract socket's name is reported in exactly its length (no room for
  /// a terminating NUL is asked for). With io_uring (io_uring_use), ftruncate
  /// goes through the ring too, asked for as 1.49.1 to 1.51 ask: the kernel
  /// refuses any length but 0 (EINVAL).
  libuv_1_49 = 3,
  /// libuv 1.50 (Debian 13): threadpool workers are named "libuv-worker";
  /// a pipe's getsockname/getpeername refuse a null buffer or size, or a
  /// size of 0, with EINVAL.
  libuv_1_50 = 4,
  /// libuv 1.51: file times accept NaN (left as they are) and infinity
  /// (now).
  libuv_1_51 = 5,
  /// libuv 1.52: ftruncate through io_uring works; file times keep
  /// nanoseconds (no longer cut to
  /// microseconds); a process handle whose spawn failed is not left in the
  /// loop's handle list; the constrained memory also honours RLIMIT_AS and
  /// RLIMIT_DATA (1.52.1). A stream reads on readiness or error only, and
  /// a hang-up reported with no data to read is its end of file (before, a
  /// hang-up after a short read was, even with data still readable).
  libuv_1_52 = 6,
  /// libuv 1.53: the reading bit (0x1000) is no longer kept in a stream's
  /// flags (a stream reads while it has a read callback, which end of file
  /// and read errors clear); an error or hang-up reported alone no longer
  /// wakes a watcher's read and write callbacks as if ready. The eventfd
  /// of async sends is never read: a send on the loop's thread after a
  /// poll's wait wakes the next poll even when a pass called its handle
  /// in between (before, that pass read the write).
  libuv_1_53 = 7,
  newest = libuv_1_53,
};

/// "libuv-1.44", "libuv-1.45", ...; nullptr for a value that is no profile.
const char* profile_name(profile p) noexcept;

/// A libuv version.
struct libuv_version {
  int major;
  int minor;
  int patch;
};

/// The profile of a libuv version: the newest profile not newer than it
/// (1.47 -> libuv_1_45). Versions before 1.44 get libuv_1_44.
constexpr profile profile_of(libuv_version v) noexcept {
  if (v.major != 1) return v.major > 1 ? profile::newest : profile::libuv_1_44;
  if (v.minor >= 53) return profile::libuv_1_53;
  if (v.minor >= 52) return profile::libuv_1_52;
  if (v.minor >= 51) return profile::libuv_1_51;
  if (v.minor >= 50) return profile::libuv_1_50;
  if (v.minor >= 49) return profile::libuv_1_49;
  if (v.minor >= 48) return profile::libuv_1_48;
  if (v.minor >= 45) return profile::libuv_1_45;
  return profile::libuv_1_44;
}

/// Reads a libuv version as $PHASELOOP_PROFILE and `phaseloop trace
/// --profile` take it: "libuv-1.50.0", "1.50", "libuv-1.44" (a version
/// without a patch level is X.Y.0, but 1.44 is 1.44.2). False for
/// anything else.
bool parse_libuv_version(const char* text, libuv_version& out) noexcept;

/// Whether phaseloop has a profile for `v`: libuv 1.44 to 1.53.
bool known_libuv_version(libuv_version v) noexcept;

/// The libuv version this build behaves as when $PHASELOOP_PROFILE is not
/// set: configure's --with-profile, by default the version of the system's
/// libuv (the one the drop-in replaces), else 1.44.2. The installed uv.h's
/// UV_VERSION_* say the same.
libuv_version configured_version() noexcept;

/// The libuv version this process behaves as: the one $PHASELOOP_PROFILE
/// names ("libuv-1.50.0", "1.50", "libuv-1.44"; a version without a patch
/// level is X.Y.0, but 1.44 is 1.44.2, Debian 12's), else
/// configured_version().
/// uv_version() reports it. Read at each call.
libuv_version process_version() noexcept;
/// The profile loops made by C++ code take: that of $PHASELOOP_PROFILE's
/// version, else the newest. (The C API's loops take
/// profile_of(process_version()).)
profile process_profile() noexcept;

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

/// Whether a loop's asynchronous file requests go through io_uring (a ring
/// the loop owns) or the threadpool; see loop::set_io_uring().
enum class io_uring_use : std::uint8_t {
  /// As the loop's libuv version does: libuv_1_44 never; libuv_1_45 and
  /// libuv_1_48 unless $UV_USE_IO_URING is 0; libuv_1_49 when the loop
  /// was asked (loop::ask_io_uring, uv_loop_configure's
  /// UV_LOOP_USE_IO_URING_SQPOLL) and $UV_USE_IO_URING is unset or not 0;
  /// libuv_1_50 to libuv_1_53 when it was asked and $UV_USE_IO_URING is a
  /// positive number. ($UV_USE_IO_URING is read once per process.)
  /// $PHASELOOP_IO_URING=on or off overrides the profile for every loop
  /// left at automatic.
  automatic = 0,
  /// Always, where the kernel allows it.
  on = 1,
  /// Never: the threadpool.
  off = 2,
  /// As `on`, with the ring polled by a kernel thread (IORING_SETUP_SQPOLL,
  /// idle after 10 ms, as libuv's ring): lower latency for requests the
  /// kernel hands to its workers (stat), for a thread that spins while
  /// requests come; slower for reads and opens the kernel does at once.
  /// bench/fs-io.sh measures both.
  sqpoll = 3,
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
inline constexpr int bad_fd = PHASELOOP_EBADF;
}  // namespace errc

/// libuv's short name of an error code ("EINVAL", "EOF", ...). For codes
/// libuv does not know, returns nullptr (the C layer formats a fallback).
const char* error_name(int code) noexcept;
/// libuv's message for an error code ("invalid argument", ...), or nullptr.
const char* error_message(int code) noexcept;
/// The libuv 1.x minor version that named the code: 0 for the codes 1.44
/// has, 45 for ENODATA, ...; -1 for a code libuv does not name.
int error_since(int code) noexcept;
/// Maps a positive errno to phaseloop's (libuv's) negative error code.
inline constexpr int from_errno(int e) noexcept { return e <= 0 ? e : -e; }

}  // namespace phaseloop
