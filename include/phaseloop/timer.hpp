// SPDX-License-Identifier: MIT
#pragma once
/// Timers: run a callback in the timers phase once the loop time reaches
/// start time + timeout, then every `repeat` ms if repeat is non-zero.
///
/// Order: timers are due in (due time, start sequence) order, so timers with
/// equal due times run in the order they were started (FIFO). A timer needs
/// no allocation: its heap node lives inside it.

#include <cstdint>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/detail/pairing_heap.hpp"
#include "phaseloop/handle.hpp"

namespace phaseloop {

class timer;
/// Runs in the timers phase, on the loop's thread.
using timer_cb = void (*)(timer*);

class timer : public handle {
 public:
  /// Joins `l` as an inactive timer. Loop thread only.
  explicit timer(phaseloop::loop& l) noexcept;

  /// Starts (or restarts) the timer: due at now() + timeout, then every
  /// `repeat` ms (0: once). Returns errc::invalid when `cb` is null or the
  /// handle is closing.
  int start(timer_cb cb, std::uint64_t timeout, std::uint64_t repeat) noexcept;
  /// Stops the timer; the callback will not run. Always succeeds.
  int stop() noexcept;
  /// Restarts a repeating timer with its repeat as timeout; a no-op for a
  /// non-repeating one. errc::invalid if the timer was never started.
  int again() noexcept;
  /// Sets the repeat interval; takes effect at the next (re)start.
  void set_repeat(std::uint64_t repeat) noexcept { repeat_ = repeat; }
  /// The repeat interval in ms.
  std::uint64_t repeat() const noexcept { return repeat_; }
  /// Milliseconds until due, 0 if due or expired (relative to loop time).
  std::uint64_t due_in() const noexcept;
  /// The callback given to the last start(), or nullptr.
  timer_cb callback() const noexcept { return cb_; }
  /// Absolute loop time (ms) when the timer is due.
  std::uint64_t due() const noexcept { return due_; }

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  struct order {
    bool operator()(const timer& a, const timer& b) const noexcept {
      return a.due_ < b.due_ || (a.due_ == b.due_ && a.seq_ < b.seq_);
    }
  };
  void close_() noexcept { stop(); }

  timer_cb cb_ = nullptr;
  detail::heap_node<timer> node_;  // the loop's heap
  std::uint64_t due_ = 0;
  std::uint64_t repeat_ = 0;
  std::uint64_t seq_ = 0;

 public:
  /// The loop's timer heap type (an implementation detail of `loop`).
  using heap = detail::pairing_heap<timer, &timer::node_, order>;
  /// A timers pass's list of collected timers (an implementation detail).
  using ready_list = detail::ilist<timer, &timer::link_>;  // a timers pass's expired timers
};

}  // namespace phaseloop
