// SPDX-License-Identifier: MIT
// DOM timers (setTimeout, setInterval): the nesting level and its clamp,
// under Chromium's rules or the HTML standard's (docs/browser-mode.md has
// both, with sources).
//
// A timer waits in the runtime's heap by (due, start order) until it falls
// due; the turn then moves it onto the timer task queue, in due order, where
// it takes its place among the other sources' tasks. A zero delay skips the
// heap: the task is queued at once (Chromium posts setTimeout(0) as an
// immediate task since the 1 ms minimum was dropped).

#include <cmath>
#include <limits>

#include "phaseloop/browser.hpp"

namespace phaseloop::browser {

namespace {

int next_level(int level) {
  // Blink saturates (base::ClampAdd).
  return level == std::numeric_limits<int>::max() ? level : level + 1;
}

}  // namespace

dom_timer::~dom_timer() { clear(); }

void dom_timer::start(callback cb, double ms, bool repeat) noexcept {
  clear();
  cb_ = cb;
  repeat_ = repeat;
  // Negative and NaN delays are 0.
  if (!(ms > 0)) ms = 0;
  int level = rt_->nesting_for_new_timer_();
  if (rt_->opts_.timers == timer_rules::chromium) {
    // The clamp starts where the standard's does: a timer made at a level
    // > 5 (test/oracle/browser 008-010 show it in Chromium 156; the level
    // Blink's source compares, already incremented, is one more than the
    // standard's). Neither setTimeout(0) nor setInterval(0) is raised to
    // 1 ms (005, 010, 011).
    if (level > max_nesting_level && ms < min_nested_delay) ms = min_nested_delay;
    level = next_level(level);
  } else {
    // HTML timer initialization steps 10-13: test (> 5), then increment.
    if (level > max_nesting_level && ms < min_nested_delay) ms = min_nested_delay;
    level = next_level(level);
  }
  level_ = level;
  delay_ = ms;
  rt_->schedule_timer_(*this, rt_->now() + ms);
}

void dom_timer::clear() noexcept {
  if (state_ == state::idle) return;
  rt_->unlink_timer_(*this);
}

void runtime::unlink_timer_(dom_timer& t) noexcept {
  switch (t.state_) {
    case dom_timer::state::scheduled: timers_.remove(t); break;
    case dom_timer::state::queued: timer_queue_.erase(t); break;
    case dom_timer::state::running:
    case dom_timer::state::idle: break;
  }
  t.state_ = dom_timer::state::idle;
}

int runtime::nesting_for_new_timer_() const noexcept {
  if (!timer_running_) return 0;
  // HTML: only while the currently running task is the timer task itself.
  // Chromium keeps the level set until the callback's microtasks are done.
  if (opts_.timers == timer_rules::spec && current_ != running::task) return 0;
  return timer_level_;
}

void runtime::schedule_timer_(dom_timer& t, double due) {
  t.due_ = due;
  t.seq_ = timer_seq_++;
  if (t.delay_ == 0) {
    enqueue_timer_(t);
    if (!in_turn_) reschedule_();
    return;
  }
  t.state_ = dom_timer::state::scheduled;
  timers_.insert(t);
  if (!in_turn_) reschedule_();
}

void runtime::enqueue_timer_(dom_timer& t) {
  t.state_ = dom_timer::state::queued;
  t.enqueued_ = order_++;
  timer_queue_.push_back(t);
}

void runtime::fire_timer_(dom_timer& t) {
  timer_queue_.erase(t);
  const double start = now();
  const int level = t.level_;  // the level the callback runs at
  const bool chromium = opts_.timers == timer_rules::chromium;
  if (t.repeat_ && chromium) {
    // Blink re-arms a repeating timer before running it, drift-free (the
    // next multiple of the interval after now, counted from the due time),
    // and raises the level at each run: the run at level 6 grows the
    // interval to 4 ms (the 7th run is the first clamped, oracle 010), the
    // next run moving by the same amount.
    // A 0 ms interval is queued again at once, ahead of whatever its
    // callback queues (oracle 010).
    double next = t.delay_ > 0 ? t.due_ + (std::floor((start - t.due_) / t.delay_) + 1) * t.delay_ : start;
    if (t.level_ > max_nesting_level && t.delay_ < min_nested_delay) {
      next += min_nested_delay - t.delay_;
      t.delay_ = min_nested_delay;
    }
    t.level_ = next_level(t.level_);
    schedule_timer_(t, next);
  } else {
    // A one-shot timer is done before it runs: its callback may free it.
    t.state_ = t.repeat_ ? dom_timer::state::running : dom_timer::state::idle;
  }
  const dom_timer::callback cb = t.cb_;
  current_ = running::task;
  current_src_ = source::timer;
  timer_running_ = true;
  timer_level_ = level;
  ++depth_;
  if (observer_) emit_(true, event_kind::task, source::timer, "timer");
  cb(&t);
  if (observer_) emit_(false, event_kind::task, source::timer, "timer");
  --depth_;
  if (!chromium && t.repeat_ && t.state_ == dom_timer::state::running) {
    // HTML: the interval's task runs the timer initialization steps again,
    // from now, as a timer nested in itself. (An interval's callback may
    // clear it but not free it.)
    double ms = t.delay_;
    if (level > max_nesting_level && ms < min_nested_delay) ms = min_nested_delay;
    t.level_ = next_level(level);
    t.delay_ = ms;
    schedule_timer_(t, now() + ms);
  }
  current_ = running::none;
  if (!chromium) timer_running_ = false;
  microtask_checkpoint();
  timer_running_ = false;
  timer_level_ = 0;
  report_(start, false, source::timer);
}

}  // namespace phaseloop::browser
