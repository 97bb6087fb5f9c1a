// SPDX-License-Identifier: MIT
// loop_stats: per-phase time and passes, callbacks per phase, the slowest
// callback, and a histogram of timer lag (exact per millisecond below one
// second, then one bucket per power of two).

#include "phaseloop/stats.hpp"

#include <bit>

#include "phaseloop/loop.hpp"
#include "phaseloop/timer.hpp"

namespace phaseloop {

void loop_stats::phase_enter(loop&, const phase_event& e) {
  if (e.iteration > iterations_) iterations_ = e.iteration;
  phase_start_ns_ = loop::hrtime();
}

void loop_stats::phase_exit(loop&, const phase_event& e) {
  phase_totals& t = phases_[static_cast<int>(e.which)];
  t.passes++;
  t.ns += loop::hrtime() - phase_start_ns_;
}

void loop_stats::callback_enter(loop& l, const callback_event& e) {
  // Callbacks the loop made; one made inside another (a request completed
  // inside the pending callback) is part of it.
  if (depth_ == 0) phases_[static_cast<int>(e.which)].callbacks++;
  if (e.kind == callback_kind::timer && e.handle != nullptr) {
    const auto* t = static_cast<const timer*>(e.handle);
    const std::uint64_t lag = l.now() > t->due() ? l.now() - t->due() : 0;
    if (lag < exact_ms) lag_exact_[lag]++;
    else lag_log_[std::bit_width(lag) - 1]++;  // 2^k <= lag < 2^(k+1)
    lag_samples_++;
    if (lag > lag_max_) lag_max_ = lag;
  }
  if (depth_ < max_depth) callback_start_ns_[depth_] = loop::hrtime();
  depth_++;
}

void loop_stats::callback_exit(loop&, const callback_event& e) {
  if (depth_ == 0) return;  // attached while a callback was running
  depth_--;
  if (depth_ >= max_depth) return;
  const std::uint64_t ns = loop::hrtime() - callback_start_ns_[depth_];
  if (ns > slowest_.ns) slowest_ = callback_record{ns, e.kind, e.which, e.iteration};
}

// The lag of the sample of the given rank (0-based, in ascending order).
// Above the exact range a bucket answers with its lower bound.
std::uint64_t loop_stats::lag_at_(std::uint64_t rank) const noexcept {
  std::uint64_t seen = 0;
  for (int ms = 0; ms < exact_ms; ms++) {
    seen += lag_exact_[ms];
    if (seen > rank) return static_cast<std::uint64_t>(ms);
  }
  for (int k = 0; k < log_buckets; k++) {
    seen += lag_log_[k];
    if (seen > rank) return std::uint64_t{1} << k;
  }
  return lag_max_;
}

loop_stats::lag_summary loop_stats::timer_lag() const noexcept {
  lag_summary s;
  s.samples = lag_samples_;
  if (lag_samples_ == 0) return s;
  // Nearest rank: the smallest value with at least p% of the samples at or
  // below it.
  auto pct = [&](std::uint64_t p) { return lag_at_((lag_samples_ * p + 99) / 100 - 1); };
  s.p50 = pct(50);
  s.p90 = pct(90);
  s.p99 = pct(99);
  s.max = lag_max_;
  return s;
}

void loop_stats::print(std::FILE* out, const char* title) const {
  std::uint64_t total_ns = 0;
  for (const phase_totals& t : phases_) total_ns += t.ns;
  std::fprintf(out, "%s: %llu iterations, %.3f ms in phases\n", title,
               static_cast<unsigned long long>(iterations_), static_cast<double>(total_ns) / 1e6);
  std::fprintf(out, "  %-8s %10s %12s %7s %10s\n", "phase", "passes", "time (ms)", "share", "callbacks");
  for (int i = 0; i < phase_count; i++) {
    const phase_totals& t = phases_[i];
    const double share = total_ns == 0 ? 0.0 : 100.0 * static_cast<double>(t.ns) / static_cast<double>(total_ns);
    std::fprintf(out, "  %-8s %10llu %12.3f %6.1f%% %10llu\n", phase_name(static_cast<phase>(i)),
                 static_cast<unsigned long long>(t.passes), static_cast<double>(t.ns) / 1e6, share,
                 static_cast<unsigned long long>(t.callbacks));
  }
  if (slowest_.ns != 0)
    std::fprintf(out, "  slowest callback: %.3f ms, %s in the %s phase, iteration %llu\n",
                 static_cast<double>(slowest_.ns) / 1e6, callback_kind_name(slowest_.kind),
                 phase_name(slowest_.which), static_cast<unsigned long long>(slowest_.iteration));
  const lag_summary lag = timer_lag();
  if (lag.samples != 0)
    std::fprintf(out, "  timer lag (ms, %llu timers): p50 %llu, p90 %llu, p99 %llu, max %llu\n",
                 static_cast<unsigned long long>(lag.samples), static_cast<unsigned long long>(lag.p50),
                 static_cast<unsigned long long>(lag.p90), static_cast<unsigned long long>(lag.p99),
                 static_cast<unsigned long long>(lag.max));
}

}  // namespace phaseloop
