// SPDX-License-Identifier: MIT
#pragma once
// Private to the library: a loop's chaos mode (include/phaseloop/chaos.hpp).
// One generator per kind, so that the choices of one kind do not move when
// another kind is switched off or makes more or fewer draws; every choice
// is drawn whether or not it will perturb, so that a limit (only the first
// N perturbations) leaves the earlier ones as they were. A loop with chaos
// off has no chaos object: each place that could choose tests one pointer.
//
// Threads: the loop's thread.

#include <cstddef>
#include <cstdint>

#include "phaseloop/chaos.hpp"
#include "phaseloop/detail/poller.hpp"
#include "phaseloop/hooks.hpp"

namespace phaseloop {
class loop;
namespace detail {

class chaos {
 public:
  chaos(loop& l, const chaos_options& o) noexcept;

  const chaos_options& options() const noexcept { return opts_; }
  /// A hook that does nothing, attached while chaos mode is on: the loop
  /// then runs its phases' hooked copies, and only those ask chaos mode
  /// about a poll batch (the plain copies pay nothing for it).
  hook& presence() noexcept { return presence_; }

  /// A number in [0, n) from kind k's generator (n > 0).
  std::uint64_t below(chaos_kind k, std::uint64_t n) noexcept;
  /// True one time in `n` (drawn from k's generator).
  bool one_in(chaos_kind k, std::uint64_t n) noexcept { return below(k, n) == 0; }
  /// Whether a choice of kind k that would perturb may: the kind is on and
  /// the limit is not reached. When it may, it is counted and the hooks
  /// are told (a, b as chaos_event says).
  bool take(chaos_kind k, handle* h, std::int64_t a, std::int64_t b) noexcept;

  // ---- the choices, each for one place in the loop ----
  /// A stream read offered `len` bytes: how many it may take (>= 1).
  /// `whole` is 0 on a TCP stream, which may be cut anywhere; on a pipe,
  /// a local socket or a terminal, the bytes waiting: a cut there is one
  /// page (PIPE_BUF), and only when more than a page waits.
  std::size_t read_size(handle* h, std::size_t len, std::size_t whole) noexcept;
  /// A stream write of `len` bytes: how many the kernel may take (>= 1).
  std::size_t write_size(handle* h, std::size_t len) noexcept;
  /// Whether a call of `which` (1 accept, 2 read, 3 write) says EAGAIN
  /// without being made.
  bool spurious_eagain(handle* h, int which) noexcept;
  /// The loop time an update may set when the clock reads `real` (ms);
  /// never below `last`, the time before.
  std::uint64_t clock(std::uint64_t real, std::uint64_t last) noexcept;
  /// The timeout (ms, > 0) poll waits when the timers ask for `timeout`.
  int late_poll(int timeout) noexcept;
  /// How long a worker is to wait before it runs a request being
  /// submitted (us; 0: not at all).
  unsigned pool_delay_us() noexcept;

  /// The descriptors a wait reported (`n` of them, n <= max_reported):
  /// reported_last() answers from them until the next wait's come.
  void reported(const io_event* events, int n) noexcept;
  /// Whether the last wait given to reported() reported `fd`.
  bool reported_last(int fd) const noexcept;
  /// The most descriptors one wait reports.
  static constexpr int max_reported = 1024;

 private:
  loop& loop_;
  chaos_options opts_;
  std::uint64_t state_[chaos_kinds];
  std::uint64_t made_ = 0;  // perturbations so far
  int last_[max_reported];  // the last wait's descriptors, sorted
  int last_n_ = 0;
  hook presence_;
};

/// $PHASELOOP_CHAOS for loop `l`, the process's n-th to open: the options
/// with a seed of the loop's own (the same for the n-th loop of every
/// run). False when the variable is unset, empty or not valid (that is
/// reported once on stderr, and chaos stays off).
bool chaos_from_env(unsigned n, chaos_options& out) noexcept;

}  // namespace detail
}  // namespace phaseloop
