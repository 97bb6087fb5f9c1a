// SPDX-License-Identifier: MIT
#pragma once
/// A hook that prints a human-readable, phase-by-phase trace of a run:
///
///   [iter 2 +10ms] timers {
///   [iter 2 +10ms]   timer "t1"
///   [iter 2 +10ms] timers }
///   [iter 2 +10ms] pending idle prepare poll(timeout 0) check: no callbacks
///
/// A phase that made callbacks is a block, one line per callback (with the
/// label given by name(), else the handle's type). Consecutive phases of one
/// iteration that made none are folded onto one line, printed when the next
/// callback or iteration comes or at flush(); `verbose` prints every phase
/// entry and exit instead. Loop times are relative to the first traced
/// event, so that traces of different runs compare.

#include <cstdio>

#include "phaseloop/hooks.hpp"

namespace phaseloop {

class tracer : public hook {
 public:
  /// Writes to `out` (not owned; null: stdout). Loop thread only.
  explicit tracer(std::FILE* out = stdout, bool verbose = false) noexcept
      : out_(out != nullptr ? out : stdout), verbose_(verbose) {}
  /// Prints the folded line of quiet phases still waiting, if any. Call it
  /// when a run returns (the C API's detach does). The destructor does not:
  /// the stream is not the tracer's and may be closed by then.
  void flush() noexcept;

  /// Gives a handle or request a name to print instead of its kind alone.
  /// Up to 64 names; the pointers are identities only.
  void name(const void* object, const char* label) noexcept;

  void phase_enter(loop&, const phase_event&) override;
  void phase_exit(loop&, const phase_event&) override;
  void callback_enter(loop&, const callback_event&) override;
  void callback_exit(loop&, const callback_event&) override;

 private:
  const char* label_of(const void* object) const noexcept;
  void prefix(std::uint64_t iteration, std::uint64_t now);

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
