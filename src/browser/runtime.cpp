// SPDX-License-Identifier: MIT
// The browser layer's runtime: the turn of the HTML processing model, task
// queues and their selection, the microtask checkpoint, rendering updates,
// idle periods, MessagePorts and the compound mutation microtask. DOM
// timers are in timers.cpp.

#include <algorithm>
#include <cmath>
#include <limits>

#include "phaseloop/browser.hpp"

namespace phaseloop::browser {

namespace {

constexpr double never = std::numeric_limits<double>::infinity();

// Closes a core handle the runtime allocated, freeing it once closed.
template <class H>
void close_and_delete(H* h) {
  if (h == nullptr) return;
  h->close([](handle* c) { delete static_cast<H*>(c); });
}

bool idle_timeout_later(const auto& a, const auto& b) {
  return a.due > b.due || (a.due == b.due && a.seq > b.seq);
}

}  // namespace

const char* source_name(source s) noexcept {
  switch (s) {
    case source::timer: return "timer";
    case source::posted_message: return "posted-message";
    case source::networking: return "networking";
    case source::user_interaction: return "user-interaction";
    case source::dom_manipulation: return "dom-manipulation";
    case source::idle_task: return "idle-task";
  }
  return "?";
}

const char* timer_rules_name(timer_rules r) noexcept {
  return r == timer_rules::chromium ? "chromium" : "spec";
}

const char* event_kind_name(event_kind k) noexcept {
  switch (k) {
    case event_kind::task: return "task";
    case event_kind::microtask_checkpoint: return "microtask-checkpoint";
    case event_kind::microtask: return "microtask";
    case event_kind::rendering: return "rendering";
    case event_kind::animation_frame: return "animation-frame";
    case event_kind::idle_period: return "idle-period";
    case event_kind::idle_callback: return "idle-callback";
  }
  return "?";
}

double idle_deadline::time_remaining() const noexcept {
  const double left = deadline - rt->now();
  return std::clamp(left, 0.0, idle_period_cap);
}

// ---- the runtime ----------------------------------------------------------------

runtime::runtime(phaseloop::loop& l, const options& o)
    : loop_(&l), opts_(o), origin_ns_(phaseloop::loop::hrtime()) {
  frame_interval_ = 1000.0 / (o.frame_rate > 0 ? o.frame_rate : 60.0);
  // The turn runs in the check phase; an idle handle keeps poll from
  // blocking while something is runnable; a core timer wakes the loop when
  // the next thing falls due (real clock only: a virtual clock jumps).
  check_ = new phaseloop::check(l);
  check_->data = this;
  idle_ = new phaseloop::idle(l);
  wake_ = new phaseloop::timer(l);
  wake_->data = this;
}

runtime::~runtime() {
  // Timers outlive the runtime as inert objects: their clear() sees them
  // inactive and never touches the runtime again.
  while (dom_timer* t = timers_.top()) unlink_timer_(*t);
  while (dom_timer* t = timer_queue_.front()) unlink_timer_(*t);
  close_and_delete(check_);
  close_and_delete(idle_);
  close_and_delete(wake_);
  loop_->run(run_mode::nowait);
}

double runtime::now() const noexcept {
  if (opts_.virtual_clock) return vnow_;
  return static_cast<double>(phaseloop::loop::hrtime() - origin_ns_) / 1e6;
}

int runtime::advance(double ms) noexcept {
  if (!opts_.virtual_clock || !(ms >= 0)) return static_cast<int>(errc::invalid);
  vnow_ += ms;
  if (!in_turn_) reschedule_();
  return 0;
}

void runtime::emit_(bool enter, event_kind k, source s, const char* label, double deadline) {
  const event e{k, s, label, now(), deadline};
  if (enter) observer_->enter(*this, e);
  else observer_->exit(*this, e);
}

std::size_t runtime::tasks_waiting(source s) const noexcept {
  if (s == source::timer) {
    std::size_t n = 0;
    for (dom_timer* t = timer_queue_.front(); t; t = timer_queue_.next(*t)) n++;
    return n;
  }
  return queues_[static_cast<std::size_t>(s)].size();
}

// ---- tasks and microtasks ----------------------------------------------------------

void runtime::enqueue_(source s, task t, unsigned idle_id) {
  queues_[static_cast<std::size_t>(s)].push({t, order_++, idle_id});
  if (!in_turn_) reschedule_();
}

int runtime::post_task(source s, task t) {
  if (s == source::timer || t.fn == nullptr) return static_cast<int>(errc::invalid);
  enqueue_(s, t);
  return 0;
}

void runtime::queue_microtask(task t) {
  micro_.push(t);
  if (!in_turn_) reschedule_();
}

void runtime::microtask_checkpoint() {
  // The "performing a microtask checkpoint" flag: a checkpoint reached from
  // inside a microtask (script cleanup) returns at once.
  if (checkpointing_) return;
  if (micro_.empty() && checkpoint_end_ == nullptr) return;
  checkpointing_ = true;
  if (observer_) emit_(true, event_kind::microtask_checkpoint, current_src_, nullptr);
  const running outer = current_;
  // Microtasks queued by microtasks run in this same checkpoint.
  while (!micro_.empty()) {
    const task t = micro_.pop();
    current_ = running::microtask;
    if (observer_) emit_(true, event_kind::microtask, current_src_, nullptr);
    t.fn(t.arg);
    if (observer_) emit_(false, event_kind::microtask, current_src_, nullptr);
  }
  current_ = outer;
  if (checkpoint_end_) checkpoint_end_(*this, checkpoint_end_arg_);
  if (observer_) emit_(false, event_kind::microtask_checkpoint, current_src_, nullptr);
  checkpointing_ = false;
}

void runtime::call(task t) {
  ++depth_;
  t.fn(t.arg);
  // Only the outermost script drains ("clean up after running script":
  // the JavaScript execution context stack is empty again).
  if (--depth_ == 0) microtask_checkpoint();
  if (!in_turn_) reschedule_();
}

void runtime::run_task_(source s, const char* label, task t) {
  const double start = long_task_ ? now() : 0;
  current_ = running::task;
  current_src_ = s;
  ++depth_;
  if (observer_) emit_(true, event_kind::task, s, label);
  t.fn(t.arg);
  if (observer_) emit_(false, event_kind::task, s, label);
  --depth_;
  current_ = running::none;
  microtask_checkpoint();
  if (message_port* p = std::exchange(delivering_, nullptr)) p->after_delivery_();
  report_(start, false, s);
}

void runtime::report_(double start, bool rendering, source s) {
  if (long_task_ == nullptr) return;
  const double end = now();
  if (end - start > long_task_threshold) long_task_(*this, {start, end, rendering, s}, long_task_arg_);
}

int runtime::run_main(task main) {
  in_turn_ = true;
  // The parser runs a classic script as part of a networking task.
  run_task_(source::networking, "main", main);
  // The rest of the script's iteration: a rendering opportunity that came
  // while it ran is taken now, before any other task (oracle 004, 023).
  if (frame_due_(now())) update_rendering_();
  in_turn_ = false;
  reschedule_();
  return loop_->run(run_mode::default_);
}

// ---- selecting a task ---------------------------------------------------------------

bool runtime::head_order_(source s, std::uint64_t& order) {
  if (s == source::timer) {
    dom_timer* t = timer_queue_.front();
    if (t == nullptr) return false;
    order = t->enqueued_;
    return true;
  }
  auto& q = queues_[static_cast<std::size_t>(s)];
  // Withdrawn tasks (messages for a port that closed) are dropped here.
  while (!q.empty() && q.front().t.fn == nullptr && q.front().idle_id == 0) q.pop();
  if (q.empty()) return false;
  order = q.front().order;
  return true;
}

bool runtime::pick_(source& out) {
  if (opts_.policy == selection::round_robin) {
    for (std::size_t i = 0; i < source_count; i++) {
      const std::size_t k = (rr_next_ + i) % source_count;
      std::uint64_t o;
      if (head_order_(static_cast<source>(k), o)) {
        out = static_cast<source>(k);
        rr_next_ = k + 1;
        return true;
      }
    }
    return false;
  }
  // oldest_first: the queue whose head was queued first. Each queue is FIFO,
  // so one source's tasks can never pass each other.
  bool found = false;
  std::uint64_t best = 0;
  for (std::size_t k = 0; k < source_count; k++) {
    std::uint64_t o;
    if (head_order_(static_cast<source>(k), o) && (!found || o < best)) {
      found = true;
      best = o;
      out = static_cast<source>(k);
    }
  }
  return found;
}

bool runtime::run_one_task_() {
  source s;
  if (pick_(s)) {
    if (s == source::timer) {
      fire_timer_(*timer_queue_.front());
    } else {
      const queued q = queues_[static_cast<std::size_t>(s)].pop();
      if (q.idle_id != 0) idle_timeout_task_(q.idle_id);
      else run_task_(s, source_name(s), q.t);
    }
    return true;
  }
  // No task: an idle period in progress runs its next callback as one.
  if (in_idle_period_ && idle_callback_runnable_(now())) {
    run_idle_callback_();
    return true;
  }
  return false;
}

// ---- the turn -------------------------------------------------------------------------

void runtime::move_due_(double n) {
  // A timer joins the timer task queue when it falls due (in due order),
  // and counts as queued from then on (Chromium gives a ripe delayed task
  // its enqueue order when it moves to the work queue).
  while (dom_timer* t = timers_.top()) {
    if (t->due_ > n) break;
    timers_.remove(*t);
    enqueue_timer_(*t);
  }
  while (!idle_timeouts_.empty() && idle_timeouts_.front().due <= n) {
    std::pop_heap(idle_timeouts_.begin(), idle_timeouts_.end(),
                  [](const idle_timeout& a, const idle_timeout& b) { return idle_timeout_later(a, b); });
    const unsigned id = idle_timeouts_.back().id;
    idle_timeouts_.pop_back();
    // Only still-pending callbacks get a timeout task; cancel and normal
    // runs leave their entry behind, dropped here.
    const bool pending = idle_waiting_(id);
    if (pending) enqueue_(source::idle_task, {nullptr, nullptr}, id);
  }
}

void runtime::turn_() {
  in_turn_ = true;
  if (opts_.virtual_clock && opts_.auto_advance && !runnable_now_()) {
    // Nothing to do now: jump to the next due time instead of waiting.
    const double next = next_due_(vnow_);
    if (next != never && next > vnow_) vnow_ = next;
  }
  // Several HTML iterations per core iteration: a burst of tasks does not
  // pay one poll each. The loop gets control back when nothing is runnable
  // (time is never jumped inside a turn, so I/O gets its chance first).
  const unsigned n = opts_.iterations_per_turn > 0 ? opts_.iterations_per_turn : 1;
  for (unsigned i = 0; i < n; i++) {
    iteration_();
    if (!runnable_now_()) break;
  }
  in_turn_ = false;
  reschedule_();
}

void runtime::iteration_() {
  // The clock is read only where something depends on it: reading it is
  // a good part of a small task's cost.
  // 1-7: one task (the oldest of the chosen queue), then a checkpoint.
  if (!timers_.empty() || !idle_timeouts_.empty()) move_due_(now());
  const bool ran = run_one_task_();
  if (!ran) microtask_checkpoint();  // microtasks queued from outside any task
  // 8-11: update the rendering at a rendering opportunity.
  if (frame_scheduled_ && frame_due_(now())) {
    update_rendering_();
    return;
  }
  // 12: nothing left to do: an idle period.
  if (idle_pending_()) maybe_start_idle_period_(now());
}

bool runtime::runnable_now_() {
  for (std::size_t k = 0; k < source_count; k++) {
    if (!queues_[k].empty()) return true;
  }
  if (!timer_queue_.empty() || !micro_.empty()) return true;
  const double n = now();
  return next_due_(n) <= n;
}

double runtime::next_due_(double n) {
  double next = never;
  if (dom_timer* t = timers_.top()) next = t->due_;
  purge_idle_timeouts_();
  if (!idle_timeouts_.empty()) next = std::min(next, idle_timeouts_.front().due);
  if (frame_scheduled_) next = std::min(next, next_frame_);
  if (idle_pending_() && !(frame_urgent_ && frame_scheduled_)) {
    // Idle callbacks run now inside a period, else when the next period
    // may start: not before the last one's deadline.
    next = std::min(next, idle_callback_runnable_(n) ? n : std::max(n, idle_deadline_));
  }
  return next;
}

void runtime::reschedule_() {
  auto busy = [this](bool on) {
    if (on) {
      check_->start([](phaseloop::check* c) { static_cast<runtime*>(c->data)->turn_(); });
      idle_->start([](phaseloop::idle*) {});
    } else {
      check_->stop();
      idle_->stop();
    }
  };
  if (runnable_now_()) {
    wake_->stop();
    busy(true);
    return;
  }
  const double n = now();
  const double next = next_due_(n);
  if (next == never || (opts_.virtual_clock && !opts_.auto_advance)) {
    // Nothing pending, or a manual virtual clock: advance() wakes us.
    wake_->stop();
    busy(false);
    return;
  }
  if (opts_.virtual_clock) {
    busy(true);  // the next turn jumps to `next`
    return;
  }
  busy(false);
  const double wait = std::ceil(next - n);
  wake_->start([](phaseloop::timer* t) { static_cast<runtime*>(t->data)->reschedule_(); },
               wait < 1 ? 1 : static_cast<std::uint64_t>(wait), 0);
}

// ---- rendering ---------------------------------------------------------------------------

void runtime::schedule_frame_(double n) noexcept {
  // Rendering opportunities sit on the frame clock's grid (k * interval);
  // the next one is the first grid point after `n` and after the last frame.
  auto k = static_cast<std::uint64_t>(std::floor(n / frame_interval_ + 1e-9)) + 1;
  if (k < next_frame_index_) k = next_frame_index_;
  next_frame_index_ = k;
  next_frame_ = static_cast<double>(k) * frame_interval_;
  frame_scheduled_ = true;
}

unsigned runtime::request_animation_frame(frame_cb cb, void* arg) {
  const unsigned id = ++next_frame_id_;
  frame_pending_.push_back({id, cb, arg});
  // A frame asked for from outside an animation-frame callback is rendered
  // before the next idle period; one asked for by a callback (an animation
  // loop) leaves the time until the next frame idle.
  if (current_ != running::animation_frame) frame_urgent_ = true;
  if (!frame_scheduled_) {
    schedule_frame_(now());
    if (!in_turn_) reschedule_();
  }
  return id;
}

void runtime::cancel_animation_frame(unsigned id) noexcept {
  for (auto* list : {&frame_pending_, &frame_running_}) {
    for (frame_request& r : *list) {
      if (r.id == id) r.cb = nullptr;
    }
  }
}

void runtime::update_rendering_() {
  const double start = now();
  const double timestamp = next_frame_;  // the frame's time, as vsync gives it
  next_frame_index_++;
  frame_scheduled_ = false;
  frame_urgent_ = false;
  if (observer_) emit_(true, event_kind::rendering, current_src_, nullptr);
  // The callbacks present now run; the ones they request wait for the next
  // frame. Cancelling one that has not run yet still works.
  frame_running_.clear();
  std::swap(frame_running_, frame_pending_);
  for (std::size_t i = 0; i < frame_running_.size(); i++) {
    frame_request& r = frame_running_[i];
    if (r.cb == nullptr) continue;
    const frame_cb cb = r.cb;
    void* arg = r.arg;
    r.cb = nullptr;
    current_ = running::animation_frame;
    ++depth_;
    if (observer_) emit_(true, event_kind::animation_frame, current_src_, nullptr);
    cb(timestamp, arg);
    if (observer_) emit_(false, event_kind::animation_frame, current_src_, nullptr);
    --depth_;
    current_ = running::none;
    microtask_checkpoint();
  }
  frame_running_.clear();
  frames_++;
  if (!frame_pending_.empty()) schedule_frame_(now());
  if (observer_) emit_(false, event_kind::rendering, current_src_, nullptr);
  report_(start, true, source::timer);
}

// ---- idle periods -------------------------------------------------------------------------

unsigned runtime::request_idle_callback(idle_cb cb, void* arg, double timeout_ms) {
  const unsigned id = ++next_idle_id_;
  idle_requests_.push_back({id, cb, arg});
  if (timeout_ms > 0) {
    idle_timeouts_.push_back({now() + timeout_ms, idle_timeout_seq_++, id});
    std::push_heap(idle_timeouts_.begin(), idle_timeouts_.end(),
                   [](const idle_timeout& a, const idle_timeout& b) { return idle_timeout_later(a, b); });
  }
  if (!in_turn_) reschedule_();
  return id;
}

bool runtime::take_idle_(unsigned id, idle_request& out) noexcept {
  for (auto it = idle_requests_.begin(); it != idle_requests_.end(); ++it) {
    if (it->id == id) {
      out = *it;
      idle_requests_.erase(it);
      return true;
    }
  }
  for (std::size_t i = idle_runnable_head_; i < idle_runnable_.size(); i++) {
    if (idle_runnable_[i].id == id) {
      out = idle_runnable_[i];
      idle_runnable_.erase(idle_runnable_.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  }
  return false;
}

void runtime::cancel_idle_callback(unsigned id) noexcept {
  idle_request r;
  take_idle_(id, r);
}

void runtime::purge_idle_timeouts_() noexcept {
  // Drop timeouts whose callback already ran or was cancelled, so that a
  // stale timeout neither wakes nor keeps the loop alive.
  while (!idle_timeouts_.empty()) {
    if (idle_waiting_(idle_timeouts_.front().id)) return;
    std::pop_heap(idle_timeouts_.begin(), idle_timeouts_.end(),
                  [](const idle_timeout& a, const idle_timeout& b) { return idle_timeout_later(a, b); });
    idle_timeouts_.pop_back();
  }
}

bool runtime::idle_waiting_(unsigned id) const noexcept {
  for (const idle_request& r : idle_requests_) {
    if (r.id == id) return true;
  }
  for (std::size_t i = idle_runnable_head_; i < idle_runnable_.size(); i++) {
    if (idle_runnable_[i].id == id) return true;
  }
  return false;
}

bool runtime::idle_callback_runnable_(double n) const noexcept {
  return in_idle_period_ && idle_runnable_head_ < idle_runnable_.size() && n < idle_deadline_ &&
         !frame_due_(n);
}

void runtime::maybe_start_idle_period_(double n) {
  // HTML step 12: no runnable task, no microtask, no rendering opportunity.
  if (in_idle_period_ && idle_callback_runnable_(n)) return;
  in_idle_period_ = false;
  if (n < idle_deadline_) return;
  if (frame_urgent_ && frame_scheduled_) return;
  for (std::size_t k = 0; k < source_count; k++) {
    if (!queues_[k].empty()) return;
  }
  if (!timer_queue_.empty() || !micro_.empty()) return;
  dom_timer* first = timers_.top();
  if (first != nullptr && first->due_ <= n) return;
  // The deadline: 50 ms at most, and not past the next timer or frame.
  double deadline = n + idle_period_cap;
  if (first != nullptr) deadline = std::min(deadline, first->due_);
  if (frame_scheduled_) deadline = std::min(deadline, next_frame_);
  idle_deadline_ = deadline;
  in_idle_period_ = true;
  // Callbacks requested until now join the runnable list; ones requested
  // during this period wait for the next.
  if (idle_runnable_head_ == idle_runnable_.size()) {
    idle_runnable_.clear();
    idle_runnable_head_ = 0;
  }
  idle_runnable_.insert(idle_runnable_.end(), idle_requests_.begin(), idle_requests_.end());
  idle_requests_.clear();
  if (observer_) {
    emit_(true, event_kind::idle_period, current_src_, nullptr, deadline);
    emit_(false, event_kind::idle_period, current_src_, nullptr, deadline);
  }
}

void runtime::run_idle_callback_() {
  const idle_request r = idle_runnable_[idle_runnable_head_++];
  if (idle_runnable_head_ == idle_runnable_.size()) {
    idle_runnable_.clear();
    idle_runnable_head_ = 0;
  }
  const double start = now();
  current_ = running::idle_callback;
  current_src_ = source::idle_task;
  ++depth_;
  if (observer_) emit_(true, event_kind::idle_callback, source::idle_task, nullptr, idle_deadline_);
  r.cb(idle_deadline{this, idle_deadline_, false}, r.arg);
  if (observer_) emit_(false, event_kind::idle_callback, source::idle_task, nullptr, idle_deadline_);
  --depth_;
  current_ = running::none;
  microtask_checkpoint();
  report_(start, false, source::idle_task);
}

void runtime::idle_timeout_task_(unsigned id) {
  // requestIdleCallback's timeout: a task on the idle-task source that runs
  // the callback, if still pending, with no time left and didTimeout set.
  idle_request r;
  if (!take_idle_(id, r)) return;
  const double start = now();
  current_ = running::idle_callback;
  current_src_ = source::idle_task;
  ++depth_;
  if (observer_) emit_(true, event_kind::task, source::idle_task, "idle-timeout");
  r.cb(idle_deadline{this, start, true}, r.arg);
  if (observer_) emit_(false, event_kind::task, source::idle_task, "idle-timeout");
  --depth_;
  current_ = running::none;
  microtask_checkpoint();
  report_(start, false, source::idle_task);
}

// ---- MessageChannel ------------------------------------------------------------------------

message_channel::message_channel(runtime& rt) noexcept : port1(rt), port2(rt) {
  port1.other_ = &port2;
  port2.other_ = &port1;
}

message_port::~message_port() {
  close();
  // Tasks that would deliver to this port are withdrawn.
  rt_->queues_[static_cast<std::size_t>(source::posted_message)].for_each([this](runtime::queued& q) {
    if (q.t.arg == this) q.t.fn = nullptr;
  });
  if (rt_->delivering_ == this) rt_->delivering_ = nullptr;
}

void message_port::set_onmessage(handler h) noexcept {
  onmessage_ = h;
  start();
}

void message_port::start() {
  if (started_) return;
  started_ = true;
  if (!delivering_() && queued_ == 0) queue_delivery_(1);
}

bool message_port::delivering_() const noexcept { return rt_->delivering_ == this; }

void message_port::queue_delivery_(std::size_t n) {
  if (closed_ || !started_) return;
  const std::size_t waiting = inbox_.size() - inbox_head_;
  n = std::min(n, waiting > queued_ ? waiting - queued_ : 0);
  for (std::size_t i = 0; i < n; i++) {
    queued_++;
    rt_->enqueue_(source::posted_message, {[](void* p) { static_cast<message_port*>(p)->deliver_(); }, this});
  }
}

void message_port::close() noexcept {
  if (other_ != nullptr) other_->other_ = nullptr;
  other_ = nullptr;
  closed_ = true;
}

bool message_port::post_message(void* message) {
  message_port* to = other_;
  if (to == nullptr) return false;  // closed or disentangled: dropped
  to->inbox_.push_back(message);
  if (!to->delivering_() && to->queued_ == 0) to->queue_delivery_(1);
  return true;
}

void message_port::deliver_() {
  if (queued_ > 0) queued_--;
  if (closed_ || inbox_head_ == inbox_.size()) return;
  void* m = inbox_[inbox_head_++];
  if (inbox_head_ == inbox_.size()) {
    inbox_.clear();
    inbox_head_ = 0;
  }
  // The messages that arrive meanwhile get their tasks at the end of this
  // one (runtime::run_task_, after the checkpoint).
  rt_->delivering_ = this;
  if (onmessage_) onmessage_(this, m);
}

void message_port::after_delivery_() {
  // (runtime::run_task_ has cleared runtime::delivering_.)
  queue_delivery_(inbox_.size() - inbox_head_);
}

// ---- the compound mutation microtask ---------------------------------------------------------

mutation_notifier::~mutation_notifier() {
  for (mutation_observer* o : observers_) o->n_ = nullptr;
  // A queued notification is withdrawn (replaced by a no-op).
  rt_->micro_.for_each([this](task& t) {
    if (t.arg == this) t = {[](void*) {}, nullptr};
  });
}

void mutation_notifier::queue() {
  // "Queue a mutation observer microtask": at most one at a time.
  if (queued_) return;
  queued_ = true;
  rt_->queue_microtask({[](void* n) { static_cast<mutation_notifier*>(n)->notify_(); }, this});
}

void mutation_notifier::notify_() {
  // The DOM standard's "notify mutation observers": clear the flag, take a
  // copy of the observers, and hand each its records (taken and emptied)
  // in turn. Microtasks the callbacks queue run after all of them: the
  // checkpoint flag is set, so no checkpoint happens in between.
  queued_ = false;
  snapshot_ = observers_;
  for (std::size_t i = 0; i < snapshot_.size(); i++) {
    mutation_observer* o = snapshot_[i];
    if (o == nullptr || o->records_.empty()) continue;
    batch_.swap(o->records_);  // batch_ was empty: the observer's queue is now
    // The callback may destroy `o` (its destructor clears its slot here).
    o->cb_(o, batch_.data(), batch_.size());
    batch_.clear();
  }
  snapshot_.clear();
}

mutation_observer::mutation_observer(mutation_notifier& n, callback cb) : n_(&n), cb_(cb) {
  n.observers_.push_back(this);
}

mutation_observer::~mutation_observer() {
  if (n_ == nullptr) return;
  auto& v = n_->observers_;
  v.erase(std::remove(v.begin(), v.end(), this), v.end());
  std::replace(n_->snapshot_.begin(), n_->snapshot_.end(), this, static_cast<mutation_observer*>(nullptr));
}

void mutation_observer::enqueue_record(void* record) {
  records_.push_back(record);
  if (n_ != nullptr) n_->queue();
}

std::vector<void*> mutation_observer::take_records() {
  std::vector<void*> out;
  out.swap(records_);
  return out;
}

}  // namespace phaseloop::browser
