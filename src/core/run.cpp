// SPDX-License-Identifier: MIT
// loop::run and the phases it calls, in libuv's order.
//
// run() is the iteration, one plain call per phase; each phase picks its
// pass compiled with or without hook calls, so an unhooked loop pays one
// predictable branch per phase.
//
// The functions every iteration, timer and stream request runs (here, in
// loop.cpp, timer.cpp, handle.cpp, stream.cpp, epoll.cpp and compat's
// uv_write family) are [[gnu::hot]]: GCC puts them in .text.hot, which
// the linker lays out together, so that a loop waking from a sleep
// touches a few pages of the library's code instead of one per source
// file (docs/performance-notes.md, "What a wake-up touches"). The
// passes below are templates, instantiated for the hooked loop too: they
// stay in .text, where this file's instantiations lie side by side (hot,
// the hooked copies came between the others and the wake-up touched more
// pages, not fewer).

#include <pthread.h>

#include <climits>
#include <cstdlib>

#include "core/chaos.hpp"
#include "core/internal.hpp"
#include "core/loop_impl.hpp"
#include "core/fatal.hpp"
#include "phaseloop/stream.hpp"
#include "phaseloop/udp.hpp"

namespace phaseloop {

std::uint64_t detail::spin_window_ns() noexcept {
  static const std::uint64_t ns = [] {
    constexpr std::uint64_t fallback = 50;
    const char* v = std::getenv("PHASELOOP_SPIN_US");
    if (v == nullptr || *v == '\0') return fallback * 1000;
    char* end = nullptr;
    const unsigned long us = std::strtoul(v, &end, 10);
    if (*end != '\0' || v[0] == '-') return fallback * 1000;
    return (us > 10000 ? 10000 : us) * std::uint64_t{1000};
  }();
  return ns;
}

// ---- the hooked or unhooked pass of each phase ---------------------------
// Inlined into run() (their only caller): an unhooked iteration makes no
// call to pick a pass.

[[gnu::always_inline]] inline void loop::run_timers_(bool before_loop) {
  if (!hooked()) [[likely]] timers_pass_<false>(before_loop); else timers_pass_<true>(before_loop);
}
[[gnu::always_inline]] inline void loop::run_pending_() {
  if (!hooked()) [[likely]] pending_pass_<false>(); else pending_pass_<true>();
}
[[gnu::always_inline]] inline void loop::run_idle_() {
  if (!hooked()) [[likely]] list_pass_<false, handle_type::idle>(idles_);
  else list_pass_<true, handle_type::idle>(idles_);
}
[[gnu::always_inline]] inline void loop::run_prepare_() {
  if (!hooked()) [[likely]] list_pass_<false, handle_type::prepare>(prepares_);
  else list_pass_<true, handle_type::prepare>(prepares_);
}
[[gnu::always_inline]] inline void loop::run_poll_(int timeout) {
  if (!hooked()) [[likely]] poll_phase_<false>(timeout); else poll_phase_<true>(timeout);
}
[[gnu::always_inline]] inline void loop::run_check_() {
  if (!hooked()) [[likely]] list_pass_<false, handle_type::check>(checks_);
  else list_pass_<true, handle_type::check>(checks_);
}
[[gnu::always_inline]] inline void loop::run_closing_() {
  if (!hooked()) [[likely]] closing_pass_<false>(); else closing_pass_<true>();
}

[[gnu::hot]] int loop::run(run_mode mode) {
  wakeup_.set_runner(static_cast<std::uint32_t>(pthread_self()));
  // However run() ends (a callback may throw), a send made from here on
  // writes to the eventfd.
  struct leave {
    loop& l;
    ~leave() { l.wakeup_.leave_awake(); }
  } const leaving{*this};
  bool alive_now = alive();
  if (!alive_now) tick_time_();

  const behaviour& b = behaves();
  const bool newest = b.timers_after_closing;

  // libuv >= 1.45 kept one timers pass before the first iteration of a
  // DEFAULT run, so that code written for the old order still sees due
  // timers first (>= 1.46 skips it when the loop is not alive or stopped).
  if (newest && mode == run_mode::default_ && alive_now && !stop_flag_) {
    tick_time_();
    run_timers_(true);
  }

  while (alive_now && !stop_flag_) {
    ++iteration_;
    if (!newest) {
      tick_time_();
      run_timers_(false);
    }

    // Poll may only block if nothing was runnable before the pending and
    // idle phases ran (ONCE must not sleep past pending work).
    const bool can_sleep = pending_.empty() && idles_.empty();

    run_pending_();
    run_idle_();
    run_prepare_();

    int timeout = 0;
    if ((mode == run_mode::once && can_sleep) || mode == run_mode::default_)
      timeout = poll_timeout_();
    ++polls_;
    run_poll_(timeout);

    // Callbacks that poll deferred (write completions and the like) run a
    // bounded number of extra passes so that they cannot starve the loop.
    for (int i = 0; i < 8 && !pending_.empty(); i++) run_pending_();

    run_check_();
    run_closing_();

    // 1.44 runs timers again at the end of a ONCE iteration to guarantee
    // progress; >= 1.45 runs them here in every mode, after poll.
    if (newest || mode == run_mode::once) {
      tick_time_();
      run_timers_(false);
    }

    alive_now = alive();
    if (mode == run_mode::once || mode == run_mode::nowait) break;
  }

  // A conditional store: does not dirty the cache line when not stopped.
  if (stop_flag_) stop_flag_ = false;
  return alive_now ? 1 : 0;
}

std::uint64_t loop::idle_time() const noexcept {
  // Another thread may ask while poll waits: count the wait so far too.
  // Total first: if the wait ends between the two reads, the answer misses
  // it (and a later call sees it) rather than counting it twice.
  const std::uint64_t total = idle_time_ns_.load(std::memory_order_relaxed);
  const std::uint64_t start = wait_start_ns_.load(std::memory_order_relaxed);
  return start != 0 ? total + (hrtime() - start) : total;
}

[[gnu::hot]] bool loop::alive() const noexcept {
  return active_handles_ > 0 || active_reqs_ > 0 || !pending_.empty() || closing_ != nullptr;
}

[[gnu::hot]] int loop::poll_timeout_() const noexcept {
  if (stop_flag_) return 0;
  if (active_handles_ == 0 && active_reqs_ == 0) return 0;
  if (!pending_.empty() || !idles_.empty() || closing_ != nullptr) return 0;
  const timer* t = timers_.top();
  if (t == nullptr) return -1;
  if (t->due_ <= time_) return 0;
  // A manual clock: waiting does not bring the timer closer.
  if (clock_ == clock_mode::manual) [[unlikely]] return -1;
  std::uint64_t diff = t->due_ - time_;
  return diff > INT_MAX ? INT_MAX : static_cast<int>(diff);
}

// Until the poll phase has told the kernel about every watched fd (and
// handed it the ring's requests), waiting on the backend fd from outside
// could miss events: report 0 (as libuv).
int loop::backend_timeout() const noexcept {
  return poller_.has_changes() || before_poll_ != nullptr ? 0 : poll_timeout_();
}

// ---- hooks ---------------------------------------------------------------

void loop::stop_hook_() {
  each_hook_([this](hook& k) { k.stopped(*this); });
}

void loop::request_hook_(req& r, handle* h) {
  const request_event e{&r, h, iteration_, time_};
  each_hook_([&](hook& k) { k.request_started(*this, e); });
}

void loop::job_hook_(const req& r, unsigned worker, std::uint64_t began_ns, std::uint64_t run_ns) {
  const job_event e{&r, worker, began_ns, run_ns, iteration_};
  each_hook_([&](hook& k) { k.job_ran(*this, e); });
}

void loop::send_hook_(async& a) {
  long thread = 0;
  const std::uint64_t sent = a.take_send_stamp_(thread);
  if (sent == 0) return;  // sent before a hook was attached
  const send_event e{&a, sent, thread, iteration_};
  each_hook_([&](hook& k) { k.async_sent(*this, e); });
}

std::size_t loop::pending_callbacks() const noexcept {
  std::size_t n = 0;
  for (const detail::io_watcher* w = pending_.front(); w != nullptr; w = pending_.next(*w)) n++;
  return n;
}

void loop::phase_hook_(bool enter, phase p, bool before_loop, int timeout) {
  const phase_event e{p, before_loop, iteration_, time_, timeout};
  each_hook_([&](hook& k) {
    if (enter) k.phase_enter(*this, e); else k.phase_exit(*this, e);
  });
}

// ---- timers --------------------------------------------------------------

template <bool H>
void loop::timers_pass_(bool before_loop) {
  if constexpr (H) phase_hook_(true, phase::timers, before_loop, 0);
  auto fire = [this](timer* t) {
    t->again();  // a repeating timer is re-armed before its callback runs
    callback_<H>(phase::timers, callback_kind::timer, t, nullptr, [t] { t->cb_(t); });
  };
  if (!behaves().timers_collected_then_run) {
    // Before 1.48 the pass takes one due timer at a time against the loop's
    // time as it is then, so a timer re-armed inside its callback runs again
    // in the same pass once it is due: with timeout 0, or when the callback
    // moved the loop's time on (uv_update_time).
    for (timer* t; (t = timers_.top()) != nullptr && t->due_ <= time_;) {
      t->stop();
      fire(t);
    }
  } else {
    // >= 1.48 collects every expired timer first, then runs them: a timer
    // re-armed during the pass waits for the next one.
    timer::ready_list ready;
    for (timer* t; (t = timers_.top()) != nullptr && t->due_ <= time_;) {
      t->stop();
      ready.push_back(*t);
    }
    while (timer* t = ready.pop_front()) fire(t);
  }
  if constexpr (H) phase_hook_(false, phase::timers, before_loop, 0);
}

// ---- pending -------------------------------------------------------------

template <bool H>
void loop::pending_pass_() {
  if constexpr (H) phase_hook_(true, phase::pending, false, 0);
  // The queue is moved aside first: what is queued during the pass waits.
  watcher_list queue;
  queue.splice_back(pending_);
  while (detail::io_watcher* w = queue.pop_front())
    callback_<H>(phase::pending, callback_kind::pending, nullptr, nullptr,
                 [&] { w->cb(*this, *w, detail::io_writable | detail::io_fed); });
  if constexpr (H) phase_hook_(false, phase::pending, false, 0);
}

// ---- idle, prepare, check ------------------------------------------------

template <bool H, handle_type K>
void loop::list_pass_(typename phase_handle<K>::list& list) {
  constexpr phase p = K == handle_type::idle      ? phase::idle
                      : K == handle_type::prepare ? phase::prepare
                                                  : phase::check;
  constexpr callback_kind kind = K == handle_type::idle      ? callback_kind::idle
                                 : K == handle_type::prepare ? callback_kind::prepare
                                                             : callback_kind::check;
  if constexpr (H) phase_hook_(true, p, false, 0);
  // Set the list aside; each handle goes back to the live list just before
  // its callback, so handles started during the pass wait for the next one.
  typename phase_handle<K>::list pass;
  pass.splice_back(list);
  while (phase_handle<K>* h = pass.move_front_to_back_of(list))
    callback_<H>(p, kind, h, nullptr, [h] { h->cb_(h); });
  if constexpr (H) phase_hook_(false, p, false, 0);
}

// ---- poll ----------------------------------------------------------------

template <bool H>
void loop::dispatch_io_(detail::io_watcher& w, unsigned events) {
  w.cb(*this, w, events);
}

// The phase: the poller's changes go to the kernel, then rounds of a wait
// (wait_: the backend's batch, or a send found without one) and its
// dispatch (dispatch_) until something was delivered or the timeout is
// over.
struct loop::poll_round {
  int timeout;       // of this round's wait
  int remaining;     // what the phase may wait in all
  int user_timeout;  // after a first look (peek)
  std::uint64_t base = 0;
  bool peek = false;    // this round looks first, without waiting
  bool peeked = false;  // the round just waited was such a look
  bool looked = false;  // a spin's find was looked at without waiting
};

template <bool H>
void loop::poll_phase_(int timeout) {
  if constexpr (H) phase_hook_(true, phase::poll, false, timeout);
  timeout = flush_watches_<H>(timeout);

  // A jumping manual clock looks for I/O without waiting and, finding none
  // with no request in flight, moves time to the timer poll would wait for;
  // chaos mode may sleep longer (odd_timeout_).
  bool jump = false;
  if (odd_clock_ && timeout > 0) [[unlikely]] timeout = odd_timeout_(timeout, jump);
  const int given = timeout;  // what the exit hook reports
  poll_round r{timeout, timeout, timeout};
  r.base = time_;
  // With the idle-time metric, libuv >= 1.45 first looks without waiting;
  // what that finds counts as events that were waiting.
  r.peek = idle_metric_ && behaves().idle_metric_peeks && timeout != 0;
  if (r.peek) r.timeout = 0;

  detail::io_event events[max_batch_];
  int full_batches = 48;  // bound on back-to-back re-polls of a full buffer
  int wait_failures = 0;
  for (;;) {
    bool posted = false;
    const int n = wait_(r, events, posted);
    if (n < 0 && n != -EINTR) [[unlikely]] {
      // The kernel's epoll_wait fails only with EINTR, or for a bug
      // (EBADF, EFAULT, EINVAL): wait again, and give up with the call
      // named if it keeps failing (docs/design.md, "When a system call
      // fails").
      if (++wait_failures == detail::transient_tries) detail::fatal("epoll_wait", -n, "the loop cannot poll");
      continue;
    }
    const batch_end end = n > 0 || posted ? dispatch_<H>(events, n, posted, r.peeked) : batch_end::nothing;
    if (end == batch_end::signals) break;  // let the loop cycle now
    if (end == batch_end::delivered) {
      if (n == max_batch_ && --full_batches != 0) {
        r.timeout = 0;
        continue;
      }
      break;
    }
    if (posted) break;  // the send was delivered
    // Nothing delivered: a timeout of 0 ends the phase, -1 waits again, a
    // positive one waits for what is left of it.
    if (r.timeout == 0) {
      if (jump) jump_to_next_timer_();
      break;
    }
    if (r.timeout == -1) continue;
    const std::uint64_t spent = time_ - r.base;
    if (spent >= static_cast<std::uint64_t>(r.remaining)) break;
    r.timeout = r.remaining - static_cast<int>(spent);
  }

  if constexpr (H) phase_hook_(false, phase::poll, false, given);
}

// Hands the kernel the poller's changes and the parts' work; returns the
// timeout poll may wait now.
template <bool H>
[[gnu::always_inline]] inline int loop::flush_watches_(int timeout) {
  // A watcher the kernel refuses for good gets its callback with the
  // error; the loop's own descriptors cannot do without their watch.
  struct refusals {
    loop* l;
    bool called;
  } refused{this, false};
  poller_.flush(
      [](detail::io_watcher& w, int err, void* arg) {
        auto& r = *static_cast<refusals*>(arg);
        if (r.l->wakeup_.is_watcher(w) || &w == &r.l->signal_watcher_)
          detail::fatal("epoll_ctl", -err, "the loop's own descriptor cannot be watched");
        r.called = true;
        r.l->template dispatch_io_<H>(w, detail::refused_events(-err));
      },
      &refused);
  // Such a callback may have closed a handle, stopped the loop or started
  // a timer, which the timeout, reckoned before it, does not know: it is
  // reckoned again, and the shorter one holds. And a watch the kernel
  // refused for want of memory is tried again by the next flush: until
  // then its fd is not watched, so the wait may not be long
  // (docs/design.md, "When a system call fails").
  if (refused.called && timeout != 0) [[unlikely]] {
    const int now = poll_timeout_();
    if (now >= 0 && (timeout < 0 || now < timeout)) timeout = now;
  }
  if (poller_.retrying() && (timeout < 0 || timeout > 1)) [[unlikely]] timeout = 1;
  if (detail::loop_part* p = before_poll_) {
    before_poll_ = nullptr;
    p->before_poll();
  }
  return timeout;
}

// One round's wait (or look) for a batch of events; the batch's size or a
// negative error. `posted`: a send was found waiting for a pass, which
// this round delivers whether or not the batch has the eventfd's event.
[[gnu::always_inline]] inline int loop::wait_(poll_round& r, detail::io_event* events, bool& posted) {
  const bool measure = idle_metric_ && r.timeout != 0;
  if (measure) wait_start_ns_.store(hrtime(), std::memory_order_relaxed);
  poll_wait_ = r.timeout;
  int n = 0;
  const bool own_only = poller_.count() == base_watchers_ + (spin_part_ != nullptr);
  // Sends from other threads made while the loop was awake wrote to no
  // descriptor: the stack and the lists tell of them.
  posted = wakeup_.take_round();
  if (r.timeout != 0) {
    // Waiting on the eventfd and the signal pipe alone (sends from other
    // threads, the pool, signals), and on the io_uring ring's descriptor
    // if the loop has one, may spin first (wakeup::prepare_wait).
    const std::uint64_t window = detail::wakeup::spin_window(own_only, spin_part_, r.timeout);
    const bool spun = wakeup_.prepare_wait(posted, window, spin_part_);
    // A send seen above wrote to no descriptor: its handle is taken by
    // this round's pass, and the poll only looks (without waiting) at
    // what else is ready -- not at all when only the loop's own
    // descriptors are watched and nothing was written to them.
    if (!posted || !own_only || wakeup_.own_ready(spin_part_)) {
      wakeup_.clear_hint();
      const std::uint64_t before = window != 0 && !spun ? hrtime() : 0;
      // A spin that found a write and no send may have found the mark of
      // a write whose event an earlier wait took: look without waiting
      // (once), and spin again if there is nothing.
      const bool look = spun && !posted && !r.looked;
      r.looked |= look;
      n = poller_.wait(posted || look ? 0 : r.timeout, events, max_batch_, block_sigprof_);
      if (before != 0) wakeup_.waited(n > 0 && hrtime() - before < window);
    }
  } else if (!own_only || wakeup_.own_ready(spin_part_)) {
    // Looking without waiting at the loop's own descriptors alone, when
    // none was written to since the last look and the ring's completion
    // queue is empty, would find nothing: the system call is skipped
    // (libuv skips it when nothing at all is watched). A write or
    // completion that races with the test is seen by the next poll, as if
    // it had come just after this one.
    wakeup_.clear_hint();
    n = poller_.wait(0, events, max_batch_, block_sigprof_);
  }
  wakeup_.set_awake(own_only);
  if (measure) {
    const std::uint64_t start = wait_start_ns_.exchange(0, std::memory_order_relaxed);
    idle_time_ns_.fetch_add(hrtime() - start, std::memory_order_relaxed);
  }
  tick_time_();
  r.peeked = r.peek;
  if (r.peek) {
    r.peek = false;
    r.timeout = r.user_timeout;
  }
  return n;
}

// Calls the batch's watchers (and the async pass for a send found without
// the eventfd's event); what the round delivered.
template <bool H>
[[gnu::always_inline]] inline loop::batch_end loop::dispatch_(detail::io_event* events, int n, bool posted, bool peeked) {
  // Chaos mode attaches a hook (chaos::presence): only the hooked copy asks.
  if constexpr (H) {
    if (chaos_ != nullptr && n >= 0) n = chaos_batch_(events, n, posted);
  }
  if (posted) {
    // One pass over the async handles per poll: the batch's if it has the
    // eventfd (a write landed too), else this one, ahead of the batch. A
    // send made by a callback of this poll then waits for the next, as
    // ever. (Here the poller watches three descriptors at most: the scan
    // is short.)
    bool in_batch = false;
    for (int i = 0; i < n; i++) in_batch |= events[i].fd == wakeup_.watcher().fd;
    if (!in_batch) {
      dispatch_io_<H>(wakeup_.watcher(), detail::io_readable);
      events_handled_++;
    }
  }
  if (n <= 0) return batch_end::nothing;
  bool have_signals = false;
  int delivered = 0;
  for (int i = 0; i < n; i++) {
    detail::io_watcher* w = poller_.watcher(events[i].fd);
    if (w == nullptr) continue;  // unwatched by an earlier callback
    if (w->wanted == 0) [[unlikely]] {
      // Disarmed since the flush (poller::disarm) and ready anyway: the
      // kernel forgets it now, or a wait would find it again at once, and
      // again, with nothing to deliver.
      poller_.unwatch(*w, 0);
      continue;
    }
    unsigned ev = events[i].events & (w->wanted | detail::io_error | detail::io_hangup);
    // An error or hang-up alone is reported as the events the watcher
    // asked for, so that a reader sees its read fail (libuv < 1.53).
    if ((ev == detail::io_error || ev == detail::io_hangup) && !behaves().error_alone_is_quiet)
      ev |= w->wanted & (detail::io_readable | detail::io_writable | detail::io_read_hangup | detail::io_priority);
    if (ev == 0) continue;
    // Signals are dispatched after every other callback of the batch.
    if (w == &signal_watcher_) {
      have_signals = true;
    } else {
      dispatch_io_<H>(*w, ev);
      // A write whose send a pass took already woke this wait for nothing
      // (wakeup::found): libuv has no such wake-up.
      if (wakeup_.is_watcher(*w) && !wakeup_.found()) continue;
    }
    delivered++;
  }
  poller_.end_batch();
  events_handled_ += static_cast<unsigned>(delivered);
  if (peeked) events_waiting_ += static_cast<unsigned>(delivered);
  if (have_signals) {
    dispatch_io_<H>(signal_watcher_, detail::io_readable);
    return batch_end::signals;
  }
  return delivered != 0 ? batch_end::delivered : batch_end::nothing;
}

int loop::odd_timeout_(int timeout, bool& jump) noexcept {
  if (clock_ == clock_mode::manual_jump) {
    jump = active_reqs_ == 0;
    return jump ? 0 : -1;
  }
  return chaos_ != nullptr && clock_ == clock_mode::real ? chaos_->late_poll(timeout) : timeout;
}

void loop::jump_to_next_timer_() noexcept {
  if (const timer* t = timers_.top(); t != nullptr && t->due_ > time_) time_ = t->due_;
}

// ---- closing -------------------------------------------------------------

template <bool H>
void loop::closing_pass_() {
  if constexpr (H) phase_hook_(true, phase::closing, false, 0);
  // Closed async handles may still be on the lists of pending ones.
  // A pending handle closed before any pass saw it: its send woke libuv's
  // poll, so it ends the next poll here as well.
  wakeup_.sweep_closed();
  handle* p = closing_;
  closing_ = nullptr;
  while (p) {
    handle* next = p->next_closing_;
    // A signal handle with notes still in the pipe goes back on the list;
    // the poll phase must read them before the handle may be finished.
    if (p->type_ == handle_type::signal && static_cast<signal*>(p)->has_undelivered_()) {
      make_close_pending_(*p);
    } else {
      p->flags_ = (p->flags_ & ~handle::ref_flag) | handle::closed_flag;
      // Sends still queued are canceled; their callbacks come first.
      if (p->type_ == handle_type::udp) static_cast<udp*>(p)->finish_close_();
      // A stream's connect, writes and shutdown still queued are canceled
      // here, before its close callback (libuv's uv__stream_destroy).
      if (p->type_ == handle_type::tcp || p->type_ == handle_type::named_pipe ||
          p->type_ == handle_type::tty)
        static_cast<stream*>(p)->finish_close_();
      // (A process whose spawn failed may already be off the list.)
      decltype(handles_)::unlink(*p);
      if (close_cb cb = p->close_cb_)
        callback_<H>(phase::closing, callback_kind::close, p, nullptr, [p, cb] { cb(p); });
    }
    p = next;
  }
  if constexpr (H) phase_hook_(false, phase::closing, false, 0);
}

void loop::make_close_pending_(handle& h) noexcept {
  h.next_closing_ = closing_;
  closing_ = &h;
}

}  // namespace phaseloop
