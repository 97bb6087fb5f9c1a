// SPDX-License-Identifier: MIT
// Timers. A started timer sits in the loop's heap ordered by (due, start
// sequence); the timers phase (run.cpp) takes expired ones off the heap.

#include "phaseloop/loop.hpp"

namespace phaseloop {

timer::timer(phaseloop::loop& l) noexcept : handle(l, handle_type::timer) {}

[[gnu::hot]] int timer::start(timer_cb cb, std::uint64_t timeout, std::uint64_t repeat) noexcept {
  if (cb == nullptr || is_closing()) return errc::invalid;
  stop();
  std::uint64_t due = loop_->time_ + timeout;
  if (due < timeout) due = UINT64_MAX;  // saturate instead of wrapping
  cb_ = cb;
  due_ = due;
  repeat_ = repeat;
  seq_ = loop_->timer_seq_++;
  loop_->timers_.insert(*this);
  start_();
  return 0;
}

[[gnu::hot]] int timer::stop() noexcept {
  if (is_active()) {
    loop_->timers_.remove(*this);
    stop_();
  } else {
    // Collected by a timers pass (profile libuv_1_45) but not yet run.
    ready_list::unlink(*this);
  }
  return 0;
}

[[gnu::hot]] int timer::again() noexcept {
  if (cb_ == nullptr) return errc::invalid;
  if (repeat_ != 0) start(cb_, repeat_, repeat_);
  return 0;
}

std::uint64_t timer::due_in() const noexcept {
  return loop_->time_ >= due_ ? 0 : due_ - loop_->time_;
}

}  // namespace phaseloop
