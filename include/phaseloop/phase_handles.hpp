// SPDX-License-Identifier: MIT
#pragma once
/// Idle, prepare and check handles: run a callback once per loop iteration
/// in their phase (idle and prepare before poll, check right after it).
///
/// Drain rule, as libuv's: start() puts the handle at the head of its
/// phase's list, so callbacks run in the reverse order of their start()
/// calls; a phase moves its list aside before running it, so a handle
/// started during the pass first runs in the next iteration. An active idle
/// handle also makes poll non-blocking. The three kinds come from one
/// template, not three copies.

#include "phaseloop/handle.hpp"

namespace phaseloop {

template <handle_type K>
class phase_handle : public handle {
  static_assert(K == handle_type::idle || K == handle_type::prepare ||
                K == handle_type::check);

 public:
  /// Runs in this handle's phase, on the loop's thread.
  using callback = void (*)(phase_handle*);

  /// Joins `l` as an inactive handle. Loop thread only.
  explicit phase_handle(phaseloop::loop& l) noexcept : handle(l, K) {}

  /// Starts running `cb` every iteration. A no-op returning 0 if already
  /// active (the callback is not replaced, as in libuv); errc::invalid if
  /// `cb` is null or the handle is closing.
  int start(callback cb) noexcept;
  /// Stops the handle. Always succeeds.
  int stop() noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  void close_() noexcept { stop(); }

  callback cb_ = nullptr;

 public:
  /// The loop's list type for this phase (an implementation detail).
  using list = detail::ilist<phase_handle, &phase_handle::link_>;
};

/// Runs in the idle phase; while active, poll does not block.
using idle = phase_handle<handle_type::idle>;
/// Runs in the prepare phase, right before poll.
using prepare = phase_handle<handle_type::prepare>;
/// Runs in the check phase, right after poll.
using check = phase_handle<handle_type::check>;

extern template class phase_handle<handle_type::idle>;
extern template class phase_handle<handle_type::prepare>;
extern template class phase_handle<handle_type::check>;

}  // namespace phaseloop
