// SPDX-License-Identifier: MIT
#pragma once
// What each profile does: one named flag per behaviour that changed between
// the libuv versions phaseloop follows (the rows of docs/design.md's
// profile table), each set from the version that changed it, in one place.
// The library reads a loop's behaviour by name (loop::behaves()), never by
// comparing profiles: a new libuv version is one more profile, its rows
// here, and the code of what it changed.

#include <cstdint>

#include "phaseloop/types.hpp"

namespace phaseloop {

/// When file requests go through io_uring for a loop left at
/// io_uring_use::automatic.
enum class uring_files : std::uint8_t {
  never,                 ///< libuv 1.44 had no io_uring
  unless_env_off,        ///< 1.45-1.48: unless $UV_USE_IO_URING is 0
  asked_unless_env_off,  ///< 1.49: when the loop asked, unless $UV_USE_IO_URING is 0
  asked_and_env_on,      ///< 1.50+: when the loop asked and $UV_USE_IO_URING is positive
};

/// When the poll hands its epoll_ctl calls to io_uring in batches, for a
/// loop left at io_uring_use::automatic.
enum class uring_batching : std::uint8_t {
  never,           ///< 1.44
  unless_env_off,  ///< 1.45-1.49: unless $UV_USE_IO_URING is 0
  always,          ///< 1.50+
};

// (64 bytes a row, one cache line: a loop finds its row with a shift.)
struct alignas(64) behaviour {
  // ---- libuv 1.45 (and 1.46's refinements)
  /// Timers run after the closing phase, and a DEFAULT run has one timers
  /// pass before its first iteration (PR #3927; before, every iteration
  /// starts with the timers and ONCE runs them again at its end).
  bool timers_after_closing;
  /// With the idle-time metric, the poll first looks without waiting, and
  /// what it finds counts as events that were waiting.
  bool idle_metric_peeks;
  /// A stream's write attempt goes on to the next queued requests, up to
  /// 32 more (PR #3728).
  bool writes_go_on;
  /// The shutting bit (0x100) is kept in a stream's flags (1.44 only, PR
  /// #3705 removed it).
  bool keeps_shutting_bit;
  /// Constrained memory from the process's own cgroup (v1 or v2),
  /// UINT64_MAX for "no limit" (PRs #3744, #3753); 1.44 reads cgroup v1's
  /// root limit only.
  bool memory_from_own_cgroup;
  /// io_uring for file requests and for the poll's epoll_ctl calls.
  uring_files files_through_uring;
  uring_batching epoll_batching;
  /// ftruncate is one of the requests the ring takes (1.45-1.48's set has
  /// no ftruncate; 1.44, which had no io_uring, takes the newest set).
  bool uring_ftruncate;
  /// A listening stream accepts one connection a readiness and tells the
  /// connection callback nothing of an accept that failed (PR #3696;
  /// before, it accepted until EAGAIN and passed the errors on).
  bool accepts_one;

  // ---- libuv 1.48 (and 1.47's changes: the 1.45 profile is 1.45/1.46)
  /// Expired timers are collected first, then run: one re-armed inside its
  /// callback waits for the next pass (PR #4250).
  bool timers_collected_then_run;
  /// A TCP connect to an IPv6 link-local address without a scope id gets
  /// the scope of the machine's first link-local address (1.47, PR #4107).
  bool link_local_gets_scope;
  /// uv_pipe_connect goes through connect2's checks: an empty name fails
  /// with EINVAL in the callback (PR #4202).
  bool pipe_connect_checks;

  // ---- libuv 1.49
  /// An abstract pipe name needs no room for a NUL, and bind2 of an empty
  /// name (length 0) lets Linux pick an abstract one; before, EINVAL (PR
  /// #4499).
  bool abstract_name_exact;
  /// uv_udp_bind takes UV_UDP_REUSEPORT (PR #4419).
  bool udp_bind_reuseport;
  /// uv_loop_configure takes UV_LOOP_USE_IO_URING_SQPOLL.
  bool sqpoll_option;
  /// copyfile gives the destination the source's access and modification
  /// times (before it copies the bytes, whose writing then sets the
  /// modification time again) and, where it may, its owner (PR #4396).
  bool copyfile_times_and_owner;
  /// Closing the terminal whose settings the first set_mode saved puts
  /// them back and forgets them (PR #4399).
  bool tty_close_restores;

  // ---- libuv 1.50
  /// Threadpool workers are named "libuv-worker" (PR #4664).
  bool workers_named;
  /// A pipe's getsockname/getpeername refuse a size of 0 (issue #4610).
  bool pipe_name_size_zero_invalid;

  // ---- libuv 1.51
  /// File times: NaN leaves a time as it is, infinity is now (PR #4702).
  bool file_times_nan_infinity;
  /// A tty's mode 3 (UV_TTY_MODE_RAW_VT, PR #4688) is raw mode on Unix;
  /// before, 3 was a mode libuv did not know (below).
  bool tty_raw_vt;

  // ---- libuv 1.52
  /// File times keep nanoseconds; before, cut to microseconds (PR #4951).
  bool file_times_nanoseconds;
  /// A process handle whose spawn failed leaves the loop's list (PR #4980).
  bool failed_spawn_unlisted;
  /// A stream reads on readiness or error only; a hang-up with nothing
  /// readable is its end of file (PR #4997; before, a hang-up after a
  /// short read was).
  bool reads_on_readiness;
  /// Constrained memory also from RLIMIT_AS and RLIMIT_DATA (1.52.1, PR
  /// #4899).
  bool memory_from_rlimits;
  /// ftruncate through io_uring passes the length where the kernel reads
  /// it (1.49.1 to 1.51 put it where it reads a count: EINVAL unless 0).
  bool uring_ftruncate_length;
  /// A UDP socket's error also reads its error queue after the receive:
  /// each queued error (IP_RECVERR) a receive callback with the offender's
  /// address and udp_linux_recverr, and an empty queue one callback of
  /// nread 0 and no address (PR #4902).
  bool udp_reads_error_queue;

  // ---- libuv 1.53
  /// No reading bit (0x1000) in a stream's flags: a stream reads while it
  /// has a read callback, which end of file and read errors clear (PR
  /// #5048).
  bool no_reading_bit;
  /// A read hang-up (EPOLLRDHUP) alone counts as the peer gone.
  bool read_hangup_ends_stream;
  /// An error or hang-up reported alone no longer wakes a watcher's read
  /// and write callbacks as if ready (PR #3250). Instead a poll handle adds
  /// the events it asked for to every callback that comes with an error or
  /// a hang-up (PR #5186), and a UDP socket's error makes it receive and
  /// send.
  bool error_alone_is_quiet;
  /// A reaped child's bit (0x01000000); kill() then reports ESRCH (PR
  /// #3539).
  bool reaped_bit;
  /// Children by posix_spawn where it can (PR #3520).
  bool children_by_posix_spawn;
  /// The async eventfd is never read: a send on the loop's thread after a
  /// poll's wait wakes the next poll even when a pass called its handle in
  /// between.
  bool eventfd_never_read;
  /// uv_wtf8_length_as_utf16 of invalid text is UV_EINVAL, not -1.
  bool wtf8_invalid_is_einval;
  /// A UDP send of no buffer, or of more than 2^20, is EINVAL.
  bool udp_send_checks_buffers;
  /// uv_try_write2 checks the handle to send as uv_write2 does (PR #5035).
  bool try_write2_checks_handle;
  /// A server whose uv_accept failed listens again (before, one that had
  /// left the connection waiting past its callback never did).
  bool failed_accept_listens;
  /// A tty mode libuv does not know is EINVAL; before, it was taken,
  /// with the terminal's settings as in normal mode.
  bool tty_mode_checked;
  /// copyfile copies the times if it can: a refusal no longer fails it.
  bool copyfile_times_best_effort;
  /// UV_EFTYPE has Linux's number.
  bool eftype_as_linux;
};

/// The behaviour of profile `p`: the table itself.
constexpr behaviour behaviour_for(profile p) noexcept {
  const auto since = [p](profile v) { return static_cast<int>(p) >= static_cast<int>(v); };
  behaviour b{};
  b.timers_after_closing = since(profile::libuv_1_45);
  b.idle_metric_peeks = since(profile::libuv_1_45);
  b.writes_go_on = since(profile::libuv_1_45);
  b.keeps_shutting_bit = !since(profile::libuv_1_45);
  b.memory_from_own_cgroup = since(profile::libuv_1_45);
  b.files_through_uring = since(profile::libuv_1_50)   ? uring_files::asked_and_env_on
                          : since(profile::libuv_1_49) ? uring_files::asked_unless_env_off
                          : since(profile::libuv_1_45) ? uring_files::unless_env_off
                                                       : uring_files::never;
  b.epoll_batching = since(profile::libuv_1_50)   ? uring_batching::always
                     : since(profile::libuv_1_45) ? uring_batching::unless_env_off
                                                  : uring_batching::never;
  b.uring_ftruncate = !since(profile::libuv_1_45) || since(profile::libuv_1_49);
  b.accepts_one = since(profile::libuv_1_45);

  b.timers_collected_then_run = since(profile::libuv_1_48);
  b.link_local_gets_scope = since(profile::libuv_1_48);
  b.pipe_connect_checks = since(profile::libuv_1_48);

  b.abstract_name_exact = since(profile::libuv_1_49);
  b.udp_bind_reuseport = since(profile::libuv_1_49);
  b.sqpoll_option = since(profile::libuv_1_49);
  b.copyfile_times_and_owner = since(profile::libuv_1_49);
  b.tty_close_restores = since(profile::libuv_1_49);

  b.workers_named = since(profile::libuv_1_50);
  b.pipe_name_size_zero_invalid = since(profile::libuv_1_50);

  b.file_times_nan_infinity = since(profile::libuv_1_51);
  b.tty_raw_vt = since(profile::libuv_1_51);

  b.file_times_nanoseconds = since(profile::libuv_1_52);
  b.failed_spawn_unlisted = since(profile::libuv_1_52);
  b.reads_on_readiness = since(profile::libuv_1_52);
  b.memory_from_rlimits = since(profile::libuv_1_52);
  b.uring_ftruncate_length = since(profile::libuv_1_52);
  b.udp_reads_error_queue = since(profile::libuv_1_52);

  b.no_reading_bit = since(profile::libuv_1_53);
  b.read_hangup_ends_stream = since(profile::libuv_1_53);
  b.error_alone_is_quiet = since(profile::libuv_1_53);
  b.reaped_bit = since(profile::libuv_1_53);
  b.children_by_posix_spawn = since(profile::libuv_1_53);
  b.eventfd_never_read = since(profile::libuv_1_53);
  b.wtf8_invalid_is_einval = since(profile::libuv_1_53);
  b.udp_send_checks_buffers = since(profile::libuv_1_53);
  b.try_write2_checks_handle = since(profile::libuv_1_53);
  b.failed_accept_listens = since(profile::libuv_1_53);
  b.tty_mode_checked = since(profile::libuv_1_53);
  b.copyfile_times_best_effort = since(profile::libuv_1_53);
  b.eftype_as_linux = since(profile::libuv_1_53);
  return b;
}

namespace detail {
// Hidden: each library or program that reads the table has its own copy
// and reads it directly, not through a GOT entry (a page more touched on
// each loop iteration).
[[gnu::visibility("hidden")]] inline constexpr behaviour behaviours[] = {
    behaviour_for(profile::libuv_1_44), behaviour_for(profile::libuv_1_45),
    behaviour_for(profile::libuv_1_48), behaviour_for(profile::libuv_1_49),
    behaviour_for(profile::libuv_1_50), behaviour_for(profile::libuv_1_51),
    behaviour_for(profile::libuv_1_52), behaviour_for(profile::libuv_1_53),
};
static_assert(sizeof behaviours / sizeof behaviours[0] == static_cast<int>(profile::newest) + 1,
              "one row per profile");
}  // namespace detail

/// The behaviour of profile `p`, from the table.
constexpr const behaviour& behaviour_of(profile p) noexcept {
  return detail::behaviours[static_cast<int>(p)];
}
static_assert(sizeof(behaviour) == 64, "a row a loop finds with a shift");

}  // namespace phaseloop
