// SPDX-License-Identifier: MIT
// Node's timers: timeouts grouped into lists by delay, as every Node version
// groups them. What differs is how the lists meet the loop:
//
// - node10: each list has its own core timer; when it fires, the list runs
//   every expired timeout in one native callback (no drain in between).
//   An unreferenced timeout leaves its list for a core timer of its own.
// - node11 and node: one core timer for all lists; the lists wait in a
//   priority queue by (expiry, id); the native callback drains nextTicks and
//   microtasks between lists and between the timeouts of one list.
//
// A timeout's countdown starts at the loop time read when it is inserted,
// and reading it refreshes the loop's clock (Node's getLibuvNow). A list
// checks its head against the `now` read when the native callback began, so
// a timeout inserted during the callback waits for a later one.

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "node/timer_list.hpp"
#include "phaseloop/node.hpp"

namespace phaseloop::node {

namespace {

// Node hands its (possibly fractional) milliseconds to libuv as integers.
std::uint64_t whole_ms(double ms) { return ms <= 0 ? 0 : static_cast<std::uint64_t>(ms); }

bool heap_less(const timer_list* a, const timer_list* b) {
  return a->expiry < b->expiry || (a->expiry == b->expiry && a->id < b->id);
}

}  // namespace

// ---- timeout ------------------------------------------------------------------

timeout::~timeout() { clear(); }

void timeout::start(callback cb, double after, bool repeat) noexcept {
  clear();
  cb_ = cb;
  after_ = clamp_delay(after);
  repeat_ = repeat;
  active_ = true;
  cleared_ = false;
  if (refed_) rt_->ref_timer_(true);
  if (!refed_ && rt_->mode_ == mode::node10) {
    rt_->make_own_timer_(*this, after_);
  } else {
    rt_->insert_(*this, rt_->now());
  }
}

void timeout::clear() noexcept {
  cleared_ = true;
  if (!active_) return;
  active_ = false;
  rt_->remove_(*this);
  if (refed_) rt_->ref_timer_(false);
}

void timeout::refresh() noexcept {
  if (cleared_ || cb_ == nullptr) return;
  if (!active_) {
    // A one-shot timeout that fired: it runs again.
    active_ = true;
    if (rt_->mode_ == mode::node11) refed_ = false;  // Node 11 loses its ref here
    if (refed_) rt_->ref_timer_(true);
    if (!refed_ && rt_->mode_ == mode::node10) {
      rt_->make_own_timer_(*this, after_);
    } else {
      rt_->insert_(*this, rt_->now());
    }
    return;
  }
  if (own_ != nullptr) {
    own_->start(own_->callback(), whole_ms(after_), 0);
    return;
  }
  // Back to the end of its list, counting from now.
  if (list_ != nullptr) {
    list_->timeouts.erase(*this);
    list_ = nullptr;
  }
  rt_->insert_(*this, rt_->now());
}

void timeout::ref() noexcept {
  if (refed_) return;
  refed_ = true;
  if (!active_) return;
  rt_->ref_timer_(true);
  if (own_ != nullptr) own_->ref();
}

void timeout::unref() noexcept {
  // Node 10: unref() of a one-shot timeout that has fired (or is firing)
  // unenrolls it, and refresh() does nothing after that.
  if (rt_->mode_ == mode::node10 && own_ == nullptr && !cleared_ && cb_ != nullptr) {
    // Node 10's unref() of a timeout without a handle of its own first reads
    // the clock (TimerWrap.now(), which updates the loop's time), even when
    // it then does nothing else: a timer due by then runs in this pass.
    rt_->now();
  }
  if (rt_->mode_ == mode::node10 && own_ == nullptr && !repeat_ && (running_ || !active_)) {
    // (A refresh() in its callback put it back in a list: out again. Node
    // 10 counts references per list, so there is no count to give back.)
    if (list_ != nullptr) {
      rt_->remove_(*this);
      active_ = false;
    }
    refed_ = false;
    cleared_ = true;
    return;
  }
  if (!refed_) return;
  refed_ = false;
  if (!active_) return;
  rt_->ref_timer_(false);
  if (rt_->mode_ != mode::node10 || running_) return;
  if (own_ != nullptr) {
    own_->unref();
    return;
  }
  // Node 10 moves an unreferenced timeout out of its list onto a core timer
  // of its own, due when the timeout would have been.
  double delay = idle_start_ + after_ - rt_->now();
  if (delay < 0) delay = 0;
  rt_->move_to_own_timer_(*this, delay);
}

// ---- lists --------------------------------------------------------------------

timer_list* runtime::find_list_(double msecs) const noexcept {
  auto it = std::lower_bound(lists_.begin(), lists_.end(), msecs,
                             [](const timer_list* l, double m) { return l->msecs < m; });
  return it != lists_.end() && (*it)->msecs == msecs ? *it : nullptr;
}

void runtime::insert_(timeout& t, double start) {
  t.idle_start_ = start;
  // Node 10 keys lists by the exact delay (1.7 and 1 are two lists); Node
  // 11+ by whole milliseconds.
  const double key = mode_ == mode::node10 ? t.after_ : std::trunc(t.after_);
  timer_list* l = find_list_(key);
  if (l == nullptr) {
    l = new timer_list(*this, key);
    lists_.insert(std::lower_bound(lists_.begin(), lists_.end(), key,
                                   [](const timer_list* x, double m) { return x->msecs < m; }),
                  l);
    if (mode_ == mode::node10) {
      l->core = new phaseloop::timer(*loop_);
      l->core->data = l;
      l->core->start(
          [](phaseloop::timer* c) {
            auto* list = static_cast<timer_list*>(c->data);
            runtime* rt = list->rt_;
            // Node 10's timer wrap calls its processing again while the last
            // call failed, with a fresh now, and each call ends with a drain:
            // after a tick's exception the list's timeouts due by then run
            // at once (one refreshed in its callback, say), then the rest of
            // the ticks. (A list that emptied is gone: its core timer is
            // closing, and only the drain is left.)
            do {
              if (c->is_closing()) {
                rt->drain();
                continue;
              }
              rt->drain_cut_ = false;
              rt->call({[](void* a) {
                         auto* x = static_cast<timer_list*>(a);
                         x->rt_->list_fired_(*x);
                       },
                       list},
                       "timers");
            } while (rt->drain_cut_);
          },
          whole_ms(key), 0);
    } else {
      l->expiry = start + key;
      l->id = next_list_id_++;
      heap_push_(*l);
      if (next_expiry_ > l->expiry) {
        schedule_(key);
        next_expiry_ = l->expiry;
      }
    }
  }
  l->timeouts.push_back(t);
  t.list_ = l;
}

void runtime::remove_(timeout& t) {
  if (t.own_ != nullptr) {
    close_and_delete(t.own_);
    t.own_ = nullptr;
    return;
  }
  timer_list* l = t.list_;
  if (l == nullptr) return;  // running: already off its list
  l->timeouts.erase(t);
  t.list_ = nullptr;
  if (l->timeouts.empty()) drop_list_(*l);
}

void runtime::drop_list_(timer_list& l) {
  if (!l.dropped) {
    auto it = std::find(lists_.begin(), lists_.end(), &l);
    if (it != lists_.end()) lists_.erase(it);
    if (mode_ != mode::node10) heap_erase_(l);
    l.dropped = true;
  }
  // A list whose timeouts are being run is freed when they are done.
  if (!l.busy) free_list_(l);
}

void runtime::free_list_(timer_list& l) {
  close_and_delete(l.core);
  delete &l;
}

void runtime::ref_timer_(bool up) {
  if (up) {
    if (timer_refs_++ == 0 && core_timer_ != nullptr) core_timer_->ref();
  } else {
    if (--timer_refs_ == 0 && core_timer_ != nullptr) core_timer_->unref();
  }
}

// ---- running timeouts ------------------------------------------------------------

void runtime::run_timeout_(timeout& t, double start) {
  t.running_ = true;
  if (observer_) {
    observed_(event_kind::timeout, &t, [&t] { t.cb_(&t); });
  } else {
    t.cb_(&t);
  }
  t.running_ = false;
  if (!t.active_) {
    // Cleared by its own callback (and not restarted).
    if (t.done_cb_) t.done_cb_(&t);
    return;
  }
  if (t.list_ != nullptr || t.own_ != nullptr) return;  // restarted or refreshed
  // Node 10 re-arms an interval once its callback has returned: one that
  // threw (a listener took the error) is not, and ends there.
  if (t.repeat_ && !(mode_ == mode::node10 && threw_)) {
    if (mode_ != mode::node10) {
      // Node 11+ counts from the time read before the callback. After a
      // callback longer than the interval, the loop's time is still that
      // time: Node 20's poll (idle-time metric) reads the clock and runs
      // the next one at once; Node 11's sleeps the whole interval first.
      insert_(t, start);
    } else if (!t.refed_) {
      // Node 10's unreferenced interval restarts its own core timer from
      // the time after the callback, too.
      loop_->update_time();
      make_own_timer_(t, t.after_);
    } else {
      // Node 10 also counts from before the callback, unless the callback
      // took a whole period: then the next run is 1 ms from now.
      const double took = now() - start;
      insert_(t, took >= t.after_ ? start + took - t.after_ + 1 : start);
    }
    return;
  }
  t.active_ = false;
  if (t.refed_) ref_timer_(false);
  if (t.done_cb_) t.done_cb_(&t);
}

void runtime::make_own_timer_(timeout& t, double delay, phaseloop::timer* reuse) {
  t.own_ = reuse != nullptr ? reuse : new phaseloop::timer(*loop_);
  t.own_->data = &t;
  t.own_->start(
      [](phaseloop::timer* c) {
        auto* to = static_cast<timeout*>(c->data);
        to->rt_->call({[](void* a) {
                         auto* x = static_cast<timeout*>(a);
                         x->rt_->own_fired_(*x);
                       },
                       to},
                      "timeout");
      },
      whole_ms(delay), 0);
  if (!t.refed_) t.own_->unref();
}

void runtime::move_to_own_timer_(timeout& t, double delay) {
  timer_list* l = t.list_;
  phaseloop::timer* reuse = nullptr;
  if (l != nullptr) {
    l->timeouts.erase(t);
    t.list_ = nullptr;
    if (l->timeouts.empty()) {
      // Node 10's reuse(): the emptied list's core timer, stopped, becomes
      // the timeout's own. Nothing is closed, so nothing keeps the loop
      // for another iteration (a closing handle would, and a due timeout
      // would run in it).
      if (!l->busy) {
        reuse = std::exchange(l->core, nullptr);
        if (reuse != nullptr) reuse->stop();
      }
      drop_list_(*l);
    }
  }
  make_own_timer_(t, delay, reuse);
}

void runtime::own_fired_(timeout& t) {
  // The own core timer is spent; a repeating timeout gets a fresh one from
  // run_timeout_, as Node 10 restarts its handle.
  close_and_delete(t.own_);
  t.own_ = nullptr;
  // Node 10 closes a one-shot timeout's own handle once it has run
  // (unrefdHandle): a refresh(), even in its callback, does nothing.
  if (mode_ == mode::node10 && !t.repeat_) t.cleared_ = true;
  run_timeout_(t, t.repeat_ ? now() : 0);
}

void runtime::list_fired_(timer_list& l) {
  const double now_ms = now();
  l.busy = true;
  while (timeout* t = l.timeouts.front()) {
    if (now_ms - t->idle_start_ < l.msecs) {
      // The rest of the list is not due yet: wait for its head.
      double remaining = l.msecs - (now() - t->idle_start_);
      if (remaining <= 0) remaining = 1;
      l.core->start(l.core->callback(), whole_ms(remaining), 0);
      l.busy = false;
      return;
    }
    l.timeouts.erase(*t);
    t->list_ = nullptr;
    run_timeout_(*t, t->repeat_ ? now() : now_ms);
  }
  l.busy = false;
  drop_list_(l);
}

void runtime::schedule_(double after) {
  core_timer_->start(
      [](phaseloop::timer* c) {
        auto* rt = static_cast<runtime*>(c->data);
        rt->call({[](void* a) { static_cast<runtime*>(a)->process_timers_(); }, rt}, "timers");
      },
      whole_ms(after), 0);
}

void runtime::process_timers_() {
  const double now_ms = now();
  next_expiry_ = std::numeric_limits<double>::infinity();
  bool ran_list = false;
  bool drained = false;
  double next = 0;  // Node's return value: +expiry (refed), -expiry, 0: none
  while (!heap_.empty()) {
    timer_list* l = heap_.front();
    if (l->expiry > now_ms) {
      next_expiry_ = l->expiry;
      next = timer_refs_ > 0 ? next_expiry_ : -next_expiry_;
      break;
    }
    if (ran_list && !drained) {
      drain();
      drained = true;
      continue;  // the drain may have changed which list is first
    }
    ran_list = true;
    drained = false;
    if (list_on_timeout_(*l, now_ms)) ran_list = false;
  }
  // Re-arm the core timer for the first list that is not due, measured
  // from the loop's cached time: what the callbacks' own reads of the clock
  // (a timer's start) left there. The loop's timers pass takes the core
  // timer again in the same pass if the drain after this moves the loop's
  // time past it (libuv before 1.48).
  if (next != 0) {
    const double d = std::trunc(std::abs(next)) - static_cast<double>(loop_->now());
    schedule_(d > 0 ? d : 1);
    if (next > 0) core_timer_->ref(); else core_timer_->unref();
  } else {
    core_timer_->unref();
  }
}

bool runtime::list_on_timeout_(timer_list& l, double now_ms) {
  l.busy = true;
  bool ran = false;
  bool threw = false;
  bool drained = false;
  while (timeout* t = l.timeouts.front()) {
    if (now_ms - t->idle_start_ < l.msecs) {
      // Not due yet: the list waits for its head, behind lists due earlier.
      l.expiry = std::max(t->idle_start_ + l.msecs, now_ms + 1);
      l.id = next_list_id_++;
      heap_down_(l.pos);
      l.busy = false;
      return threw;
    }
    if (ran && !drained) {
      drain();
      drained = true;
      continue;  // the drain may have cleared the head
    }
    ran = true;
    drained = false;
    l.timeouts.erase(*t);
    t->list_ = nullptr;
    run_timeout_(*t, t->repeat_ ? now() : now_ms);
    // After an exception Node calls processTimers again: the next timeout
    // (of this list, or the next list) runs without a drain before it.
    threw = std::exchange(threw_, false);
    if (threw) ran = false;
  }
  l.busy = false;
  drop_list_(l);
  return threw;
}

// ---- the lists' priority queue (node11+) -------------------------------------------

void runtime::heap_push_(timer_list& l) {
  l.pos = heap_.size();
  heap_.push_back(&l);
  heap_up_(l.pos);
}

void runtime::heap_erase_(timer_list& l) {
  const std::size_t i = l.pos;
  if (i >= heap_.size() || heap_[i] != &l) return;
  timer_list* last = heap_.back();
  heap_.pop_back();
  if (last == &l) return;
  heap_[i] = last;
  last->pos = i;
  heap_down_(i);
  heap_up_(last->pos);
}

void runtime::heap_up_(std::size_t i) {
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!heap_less(heap_[i], heap_[parent])) break;
    std::swap(heap_[i], heap_[parent]);
    heap_[i]->pos = i;
    heap_[parent]->pos = parent;
    i = parent;
  }
}

void runtime::heap_down_(std::size_t i) {
  const std::size_t n = heap_.size();
  for (;;) {
    std::size_t best = i;
    const std::size_t a = 2 * i + 1, b = a + 1;
    if (a < n && heap_less(heap_[a], heap_[best])) best = a;
    if (b < n && heap_less(heap_[b], heap_[best])) best = b;
    if (best == i) return;
    std::swap(heap_[i], heap_[best]);
    heap_[i]->pos = i;
    heap_[best]->pos = best;
    i = best;
  }
}

}  // namespace phaseloop::node
