#pragma once
/// A hook that prints a human-readable, phase-by-phase trace of a run:
///
///   [iter 2 t=+10ms] timers   {
///   [iter 2 t=+10ms]   timer "t1" callback
///   [iter 2 t=+10ms] timers   }
///
/// Phases in which nothing was called back are folded into one line
/// ("idle prepare check: -") unless `verbose` is set. Loop times are printed
/// relative to the first traced event so that traces are comparable.

#include <cstdio>

#include "phaseloop/hooks.hpp"

namespace phaseloop {

class tracer : public hook {
 public:
  /// Writes to `out` (not owned). Loop thread only.
  explicit tracer(std::FILE* out = stdout, bool verbose = false) noexcept
      : out_(out), verbose_(verbose) {}

  /// Gives a handle or request a name to print instead of its kind alone.
  /// Up to 64 names; the pointers are identities only.
  void name(const void* object, const char* label) noexcept;

  void phase_enter(loop&, const phase_event&) override;
  void phase_exit(loop&, const phase_event&) override;
  void callback_enter(loop&, const callback_event&) override;
  void callback_exit(loop&, const callback_event&) override;

 private:
  const char* label_of(const void* object) const noexcept;
  void prefix(const loop& l, std::uint64_t iteration, std::uint64_t now);
  void flush_quiet(const loop& l);

  std::FILE* out_;
  bool verbose_;
  bool have_base_ = false;
  std::uint64_t base_ = 0;
  int calls_in_phase_ = 0;
  bool phase_open_ = false;
  phase_event current_{};
  // Phases that made no callback, waiting to be printed on one line.
  char quiet_[96] = {};
  std::uint64_t quiet_iteration_ = 0;
  std::uint64_t quiet_now_ = 0;
  struct label {
    const void* object;
    const char* text;
  };
  label labels_[64] = {};
  int nlabels_ = 0;
};

}  // namespace phaseloop
