// SPDX-License-Identifier: MIT
#pragma once
/// Loop statistics beyond libuv's metrics: time and passes per phase,
/// callbacks per phase, the slowest callback, and how late timers ran
/// against their due time (loop lag, as Node's monitorEventLoopDelay
/// reports it). A loop_stats is a hook: attach it with loop::add_hook().
///
/// PHASELOOP_STATS=1 in the environment attaches one to every loop a
/// process opens (libphaseloop and the drop-in libuv.so.1 alike) and
/// prints each loop's table to stderr when the process exits.

#include <cstdint>
#include <cstdio>

#include "phaseloop/hooks.hpp"

namespace phaseloop {

class loop_stats : public hook {
 public:
  /// What one phase cost. Times in nanoseconds of the monotonic clock.
  struct phase_totals {
    std::uint64_t passes = 0;     ///< times the phase ran
    std::uint64_t ns = 0;         ///< time inside it, callbacks included
    std::uint64_t callbacks = 0;  ///< callbacks it made
  };
  /// The longest callback seen (ns == 0: none yet).
  struct callback_record {
    std::uint64_t ns = 0;
    callback_kind kind = callback_kind::timer;
    phase which = phase::timers;
    std::uint64_t iteration = 0;
  };
  /// Timer lag in loop milliseconds: loop time at the callback minus the
  /// timer's due time, over every timer callback.
  struct lag_summary {
    std::uint64_t samples = 0;
    std::uint64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
  };

  const phase_totals& totals(phase p) const noexcept { return phases_[static_cast<int>(p)]; }
  const callback_record& slowest() const noexcept { return slowest_; }
  lag_summary timer_lag() const noexcept;
  /// The highest iteration number seen.
  std::uint64_t iterations() const noexcept { return iterations_; }
  /// Prints the table under a one-line `title`. Not while the loop runs on
  /// another thread.
  void print(std::FILE* out, const char* title) const;

  void phase_enter(loop&, const phase_event& e) override;
  void phase_exit(loop&, const phase_event& e) override;
  void callback_enter(loop&, const callback_event& e) override;
  void callback_exit(loop&, const callback_event& e) override;

 private:
  static constexpr int exact_ms = 1024;  // lags below this are counted per ms
  static constexpr int log_buckets = 54;  // then one bucket per power of two
  static constexpr int max_depth = 16;    // callbacks inside callbacks

  phase_totals phases_[phase_count] = {};
  callback_record slowest_;
  std::uint64_t iterations_ = 0;
  std::uint64_t phase_start_ns_ = 0;
  std::uint64_t callback_start_ns_[max_depth] = {};
  int depth_ = 0;
  std::uint64_t lag_exact_[exact_ms] = {};
  std::uint64_t lag_log_[log_buckets] = {};
  std::uint64_t lag_samples_ = 0;
  std::uint64_t lag_max_ = 0;
  std::uint64_t lag_at_(std::uint64_t rank) const noexcept;
};

}  // namespace phaseloop
