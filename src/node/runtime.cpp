// SPDX-License-Identifier: MIT
// The Node layer's runtime: the nextTick and microtask queues, native
// callbacks and their drain, and setImmediate. Timers are in timers.cpp.

#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "node/timer_list.hpp"
#include "phaseloop/node.hpp"

namespace phaseloop::node {

// ---- modes --------------------------------------------------------------

const char* mode_name(mode m) noexcept {
  switch (m) {
    case mode::node10: return "node10";
    case mode::node11: return "node11";
    case mode::current: return "node";
  }
  return "?";
}

bool parse_mode(std::string_view name, mode& out) noexcept {
  for (mode m : {mode::node10, mode::node11, mode::current}) {
    if (name == mode_name(m)) {
      out = m;
      return true;
    }
  }
  return false;
}

phaseloop::profile loop_profile(mode m) noexcept {
  // The libuv each Node was released on: 10.24.1 on 1.34.2, 11.15.0 on
  // 1.27.0 (both timers first), 20.20.2 on 1.46.0 (timers after the
  // closing phase).
  return profile_of(m == mode::node10 ? libuv_version{1, 34, 2}
                    : m == mode::node11 ? libuv_version{1, 27, 0}
                                        : libuv_version{1, 46, 0});
}

bool has_queue_microtask(mode m) noexcept { return m != mode::node10; }

double clamp_delay(double after) noexcept {
  // Written so that NaN fails the test too.
  if (!(after >= 1 && after <= timeout_max)) return 1;
  return after;
}

const char* event_kind_name(event_kind k) noexcept {
  switch (k) {
    case event_kind::native: return "native";
    case event_kind::timeout: return "timeout";
    case event_kind::immediate: return "immediate";
    case event_kind::tick: return "tick";
    case event_kind::microtask: return "microtask";
    case event_kind::drain: return "drain";
  }
  return "?";
}

// ---- the runtime ------------------------------------------------------------


runtime::runtime(phaseloop::loop& l, mode m) : loop_(&l), mode_(m) {
  l.set_order(loop_profile(m));
  // Node 20.11.1 and later turn libuv's io_uring off (file requests and
  // epoll batching) unless UV_USE_IO_URING is set; so does this mode,
  // unless that or PHASELOOP_IO_URING is set or the loop was told.
  if (m == mode::current && l.io_uring() == io_uring_use::automatic && std::getenv("UV_USE_IO_URING") == nullptr &&
      std::getenv("PHASELOOP_IO_URING") == nullptr) {
    l.set_io_uring(io_uring_use::off);
  }
  // Node 14.10 and later configure their loop with libuv's idle-time
  // metric (for performance.eventLoopUtilization()), and with it a poll
  // that is to wait first looks without waiting and reads the clock: a
  // timer that came due while callbacks ran ends the poll at once, where a
  // loop without the metric would sleep for the whole timeout.
  if (m == mode::current) l.enable_idle_time_metric();

  // Node keeps one check handle started for the life of the environment,
  // unreferenced: immediates alone decide whether the loop stays alive,
  // through the idle handle below, which also keeps poll from blocking
  // while immediates wait.
  check_ = new phaseloop::check(l);
  check_->data = this;
  check_->start([](phaseloop::check* c) {
    auto* rt = static_cast<runtime*>(c->data);
    // Node 20 runs its native immediates first, in a callback scope of
    // their own: after a failed native callback, that scope's drain runs
    // the ticks and microtasks it left waiting, before any immediate.
    if (std::exchange(rt->drain_at_check_, false)) rt->call({[](void*) {}, nullptr}, "native immediates");
    if (rt->immediates_.empty()) return;
    rt->call({[](void* a) { static_cast<runtime*>(a)->process_immediates_(); }, rt},
             "immediates", false);
  });
  check_->unref();
  idle_ = new phaseloop::idle(l);

  if (m != mode::node10) {
    // Node 11 and later: one core timer for all timer lists, unreferenced
    // until a referenced timeout exists.
    core_timer_ = new phaseloop::timer(l);
    core_timer_->data = this;
    core_timer_->unref();
  }
  next_expiry_ = std::numeric_limits<double>::infinity();
}

runtime::~runtime() {
  while (immediate* i = immediates_.front()) i->clear();
  while (!lists_.empty()) {
    timer_list* l = lists_.back();
    while (timeout* t = l->timeouts.front()) t->clear();
  }
  close_and_delete(check_);
  close_and_delete(idle_);
  close_and_delete(core_timer_);
  // Let the close callbacks run so that nothing leaks. Other handles of the
  // loop are the caller's business; NOWAIT never blocks on them.
  loop_->run(run_mode::nowait);
}

void runtime::emit_(bool enter, event_kind k, const void* obj, const char* label) {
  const event e{k, obj, label};
  if (enter) observer_->enter(*this, e);
  else observer_->exit(*this, e);
}

void runtime::next_tick(task t) { ticks_.push(t); }

void runtime::queue_microtask(task t) { micro_.push(t); }

void runtime::run_microtasks() {
  // A microtask queued by a microtask runs in this same checkpoint.
  while (!micro_.empty()) {
    const task t = micro_.pop();
    if (observer_) {
      observed_(event_kind::microtask, t.arg, [t] { t.fn(t.arg); });
    } else {
      t.fn(t.arg);
    }
    // A microtask that threw does not end the checkpoint.
    threw_ = false;
  }
}

void runtime::drain() {
  if (queues_empty() && rejections_ == nullptr) return;
  if (observer_) emit_(true, event_kind::drain, nullptr);
  drain_cut_ = false;
  // Node's processTicksAndRejections: every tick (ticks queued by ticks
  // included), then every microtask; again while ticks were queued by the
  // microtasks, or while the rejection report queued more work.
  do {
    while (!ticks_.empty()) {
      const task t = ticks_.pop();
      if (observer_) {
        observed_(event_kind::tick, t.arg, [t] { t.fn(t.arg); });
      } else {
        t.fn(t.arg);
      }
      if (threw_) {
        // The exception left processTicksAndRejections: the rest waits for
        // the next drain (in node mode, the check phase's; see call()).
        threw_ = false;
        drain_cut_ = true;
        if (mode_ == mode::current) drain_at_check_ = true;
        if (observer_) emit_(false, event_kind::drain, nullptr);
        return;
      }
    }
    run_microtasks();
  } while (!ticks_.empty() ||
           (rejections_ && rejections_(*this, rejections_arg_) && !(threw_ && mode_ != mode::node10)));
  if (threw_) {
    // An 'unhandledRejection' listener threw: the exception left
    // processTicksAndRejections as a tick's does. (Node 10's timers call
    // their processing again at once, which drains again: its report went
    // on above.) Either way it is handled: the next native callback
    // drains as usual.
    threw_ = false;
    if (mode_ == mode::current) drain_at_check_ = true;
  }
  if (observer_) emit_(false, event_kind::drain, nullptr);
}

void runtime::call(task t, const char* label, bool drain_if_threw) {
  ++depth_;
  if (observer_) emit_(true, event_kind::native, t.arg, label);
  t.fn(t.arg);
  const bool threw = std::exchange(threw_, false);
  if (observer_) emit_(false, event_kind::native, t.arg, label);
  // Only the outermost native callback drains (Node's InternalCallbackScope
  // skips the drain when callbacks are nested).
  if (--depth_ == 0) {
    if (drain_if_threw || !threw) drain();
    else if (mode_ == mode::current) drain_at_check_ = true;
  }
}

int runtime::run_main(task main) {
  // Node 10 and 11 drain after the main module at the end of Module.runMain,
  // which an exception of the main script leaves before: when a listener
  // took it ('uncaughtException'), the ticks and microtasks the script
  // queued wait for the first callback from the loop (after the first
  // timer or the first pass of immediates). Node 12+ drains at once.
  call(main, "main", mode_ == mode::current);
  return loop_->run(run_mode::default_);
}

double runtime::now() noexcept {
  loop_->update_time();
  return static_cast<double>(loop_->now());
}

// ---- immediates ---------------------------------------------------------------

immediate::~immediate() { clear(); }

void immediate::start(callback cb) noexcept {
  if (pending_) return;
  cb_ = cb;
  pending_ = true;
  rt_->immediates_.push_back(*this);
  if (refed_) rt_->ref_immediate_(true);
}

void immediate::clear() noexcept {
  if (!pending_) return;
  pending_ = false;
  // On the runtime's queue, or on a check pass's list when cleared by an
  // immediate that ran before it in the same pass.
  list::unlink(*this);
  if (refed_) rt_->ref_immediate_(false);
}

void immediate::ref() noexcept {
  if (refed_) return;
  refed_ = true;
  if (pending_) rt_->ref_immediate_(true);
}

void immediate::unref() noexcept {
  if (!refed_) return;
  refed_ = false;
  if (pending_) rt_->ref_immediate_(false);
}

void runtime::ref_immediate_(bool up) {
  // The idle handle runs while referenced immediates wait: it keeps the
  // loop alive and poll from blocking, so the check phase comes promptly.
  if (up) {
    if (immediate_refs_++ == 0) idle_->start([](phaseloop::idle*) {});
  } else {
    if (--immediate_refs_ == 0) idle_->stop();
  }
}

void runtime::process_immediates_() {
  // The queue is taken whole: immediates queued by these callbacks run in
  // the next check phase.
  immediate::list pass;
  pass.splice_back(immediates_);
  bool ran_one = false;
  bool last_threw = false;
  for (;;) {
    while (immediate* i = pass.front()) {
      if (ran_one && mode_ != mode::node10) {
        // Node 11+: nextTicks and microtasks run between immediates (the last
        // one's are drained when the native callback returns). They may clear
        // immediates of this pass, so the next one is chosen afterwards.
        drain();
        i = pass.front();
        if (i == nullptr) break;
      }
      ran_one = true;
      pass.erase(*i);
      i->pending_ = false;
      if (i->refed_) ref_immediate_(false);
      // The callback may free `i`.
      if (observer_) {
        observed_(event_kind::immediate, i, [i] { i->cb_(i); });
      } else {
        i->cb_(i);
      }
      // After an exception Node runs the rest of the pass anew: the next
      // immediate without a drain before it.
      last_threw = std::exchange(threw_, false);
      if (last_threw) ran_one = false;
    }
    // Node 11+ call the pass again while it did not end normally: when the
    // last immediate threw, that call takes the immediates queued since
    // (by the 'uncaughtException' listener, say), in this same check phase,
    // the first without a drain before it. Node 10 leaves them for the next.
    if (!last_threw || mode_ == mode::node10 || immediates_.empty()) break;
    pass.splice_back(immediates_);
    last_threw = false;
  }
  // When the last immediate of the pass threw, Node 10's native callback
  // failed and does not drain: the ticks and microtasks wait for the next
  // callback (a timer, say). Node 11+ drains all the same.
  if (last_threw && mode_ == mode::node10) threw_ = true;
}

}  // namespace phaseloop::node
