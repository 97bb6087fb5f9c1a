// SPDX-License-Identifier: MIT
#pragma once
/// The browser layer: the HTML Living Standard's window event loop on a
/// phaseloop loop -- task sources, the microtask checkpoint, rendering
/// opportunities with animation-frame callbacks, idle periods, DOM timers,
/// MessageChannel, long-task reports and a MutationObserver-style compound
/// microtask. docs/browser-mode.md describes the processing model as built.
///
/// One core loop iteration runs up to options::iterations_per_turn turns of
/// the HTML processing model (in the check phase, so hooks and the tracer
/// see them), returning to the loop early when nothing is runnable:
///
///   1. move due timers onto the timer task queue (due order)
///   2. pick a task queue (selection policy) and run its oldest task as the
///      "currently running task"; then a microtask checkpoint; report the
///      task if it was long (> 50 ms)
///   3. update the rendering, when a frame is due and one was requested:
///      the animation-frame callbacks present at the start of the pass, each
///      followed by a microtask checkpoint
///   4. no task ran and none is runnable, no microtask, no rendering: an
///      idle period -- start one, or run one idle callback of the current one
///
/// Time: the runtime has a clock of its own, in milliseconds since the
/// runtime was made (performance.now()). A real clock reads the monotonic
/// clock; a virtual clock moves only when told (advance()) or -- with
/// auto_advance -- when the loop has nothing runnable and would otherwise
/// wait: it then jumps to the next due time instead of sleeping, so tests
/// are deterministic and instant.
///
/// Threads: everything here is for the loop's thread only.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/detail/pairing_heap.hpp"
#include "phaseloop/detail/ring.hpp"
#include "phaseloop/loop.hpp"

namespace phaseloop::browser {

/// A piece of work: a function and its argument.
struct task {
  void (*fn)(void* arg);
  void* arg;
};

/// The task sources, each with a task queue of its own. Tasks of one
/// source always run in the order they were queued.
enum class source : std::uint8_t {
  timer,             ///< DOM timers (fed by dom_timer; not for post_task)
  posted_message,    ///< MessagePort messages
  networking,        ///< network and other I/O completions
  user_interaction,  ///< input events
  dom_manipulation,  ///< reactions to DOM changes
  idle_task,         ///< idle-callback timeouts (requestIdleCallback's `timeout`)
};
inline constexpr std::size_t source_count = 6;
/// "timer", "posted-message", ...
const char* source_name(source s) noexcept;

/// How the loop picks the next task queue (HTML leaves it to the user
/// agent, as long as one source's tasks stay in order).
enum class selection : std::uint8_t {
  /// The oldest task across all queues, by the time it was queued (a timer
  /// counts as queued when it became due). Chromium's SequenceManager picks
  /// among queues of one priority by this enqueue order. The default.
  oldest_first,
  /// The queues take turns, in source order, skipping empty ones.
  round_robin,
};

/// Which timer rules dom_timer follows.
enum class timer_rules : std::uint8_t {
  /// Chromium's DOMTimer (the default): a delay under 4 ms is raised to
  /// 4 ms when the timer is made at nesting level > 5, as in the standard
  /// (measured in Chromium 156: test/oracle/browser 008-010);
  /// no delay is raised to 1 ms; an interval's level grows at each run;
  /// the level stays
  /// set through the microtask checkpoint after a timer's callback; an
  /// interval is re-armed, drift-free, before its callback runs.
  chromium,
  /// The HTML standard's timer initialization steps: raised to 4 ms when
  /// the level is > 5, then incremented; only a timer task's own steps
  /// count as nested (not its microtasks); an interval is re-armed after
  /// its callback, from that moment.
  spec,
};
const char* timer_rules_name(timer_rules r) noexcept;

/// How a runtime is set up.
struct options {
  /// Rendering opportunities per second (the frame clock).
  double frame_rate = 60;
  /// Use a virtual clock (starts at 0; see the header comment).
  bool virtual_clock = false;
  /// Virtual clock: jump to the next due time when the loop would wait.
  /// When false, time moves only by advance().
  bool auto_advance = true;
  timer_rules timers = timer_rules::chromium;
  selection policy = selection::oldest_first;
  /// HTML event-loop iterations run per core loop iteration at most (at
  /// least 1). More means fewer polls for a burst of tasks; 1 gives every
  /// task a core iteration of its own.
  unsigned iterations_per_turn = 64;
};

/// The HTML timer constants.
inline constexpr int max_nesting_level = 5;       ///< the level the clamp keys on
inline constexpr double min_nested_delay = 4;     ///< ms, the clamp
inline constexpr double idle_period_cap = 50;     ///< ms, the longest idle period
inline constexpr double long_task_threshold = 50; ///< ms, tasks longer than this are reported

class runtime;

/// A DOM timer: what setTimeout and setInterval make. The caller owns the
/// memory; it must stay valid while active().
class dom_timer {
 public:
  using callback = void (*)(dom_timer*);

  /// Free for the caller.
  void* data = nullptr;

  explicit dom_timer(runtime& rt) noexcept : rt_(&rt) {}
  /// Clears the timer if it is still active.
  ~dom_timer();
  dom_timer(const dom_timer&) = delete;
  dom_timer& operator=(const dom_timer&) = delete;

  /// setTimeout (repeat false) or setInterval (repeat true), `ms` from now,
  /// adjusted by the runtime's timer_rules (negative is 0, the nesting
  /// clamp, ...). Starting an active timer restarts it.
  void start(callback cb, double ms, bool repeat) noexcept;
  /// clearTimeout / clearInterval: safe when inactive, from its own
  /// callback, and while it waits on the timer task queue.
  void clear() noexcept;

  /// True while scheduled, queued, or an interval.
  bool active() const noexcept { return state_ != state::idle; }
  /// The delay in use, after the rules adjusted it.
  double delay() const noexcept { return delay_; }
  /// Runtime time (ms) at which it is (or was last) due.
  double due() const noexcept { return due_; }
  /// The timer nesting level stored with the timer.
  int nesting_level() const noexcept { return level_; }
  bool repeating() const noexcept { return repeat_; }

 private:
  friend class runtime;
  enum class state : std::uint8_t { idle, scheduled, queued, running };
  struct order {
    bool operator()(const dom_timer& a, const dom_timer& b) const noexcept {
      return a.due_ < b.due_ || (a.due_ == b.due_ && a.seq_ < b.seq_);
    }
  };

  runtime* rt_;
  callback cb_ = nullptr;
  double delay_ = 0;
  double due_ = 0;
  std::uint64_t seq_ = 0;      // heap tie-break: start order
  std::uint64_t enqueued_ = 0; // enqueue order on the timer task queue
  int level_ = 0;
  bool repeat_ = false;
  state state_ = state::idle;
  detail::heap_node<dom_timer> heap_node_;
  detail::link<dom_timer> queue_node_;

 public:
  using heap = detail::pairing_heap<dom_timer, &dom_timer::heap_node_, order>;
  using queue = detail::ilist<dom_timer, &dom_timer::queue_node_>;
};

/// What requestIdleCallback's callback is given (IdleDeadline).
struct idle_deadline {
  runtime* rt;
  double deadline;    ///< runtime time (ms) the idle period ends
  bool did_timeout;   ///< called because its timeout expired
  /// max(0, deadline - now): never more than idle_period_cap.
  double time_remaining() const noexcept;
};

/// A MessagePort. Ports come in entangled pairs (message_channel).
class message_port {
 public:
  /// Receives one message (onmessage).
  using handler = void (*)(message_port* self, void* message);
  /// Free for the caller.
  void* data = nullptr;

  /// Closes the port; queued messages for it are dropped.
  ~message_port();
  message_port(const message_port&) = delete;
  message_port& operator=(const message_port&) = delete;

  /// Sets onmessage, which also starts the port (as the setter does).
  void set_onmessage(handler h) noexcept;
  /// Sets what receives the messages without starting the port (for
  /// addEventListener('message'), which needs start()).
  void set_handler(handler h) noexcept { onmessage_ = h; }
  /// Enables delivery of the messages that arrived before and after.
  void start();
  /// Disentangles both ports; later posts are dropped, and so are the
  /// messages this port received but has not delivered yet. (Those the
  /// other port received are still delivered.)
  void close() noexcept;
  /// Sends `message` to the entangled port. As Chromium reads a port's
  /// messages: a message that arrives at a started port with no delivery
  /// queued or running gets its task (posted-message source) at once; the
  /// others wait for the end of the port's next delivery task (after its
  /// handler and microtask checkpoint), which queues one task for each
  /// message waiting then -- so a task queued by a handler or its
  /// microtasks runs before the next message, and a message posted by a
  /// microtask to a port with a delivery queued waits behind messages
  /// already waiting elsewhere. False when the port is closed or
  /// disentangled: the message is dropped (and stays the caller's).
  bool post_message(void* message);
  message_port* entangled() const noexcept { return other_; }

 private:
  friend class message_channel;
  friend class runtime;
  explicit message_port(runtime& rt) noexcept : rt_(&rt) {}
  void deliver_();

  runtime* rt_;
  message_port* other_ = nullptr;
  handler onmessage_ = nullptr;
  std::vector<void*> inbox_;     // arrived messages, oldest at inbox_head_
  std::size_t inbox_head_ = 0;
  bool started_ = false;
  bool closed_ = false;
  unsigned queued_ = 0;           // delivery tasks queued, not run yet
  bool delivering_() const noexcept;  // its delivery task is running
  void queue_delivery_(std::size_t n);
  void after_delivery_();         // the end of its delivery task
};

/// new MessageChannel(): two entangled ports. Destroy it before the runtime.
class message_channel {
 public:
  explicit message_channel(runtime& rt) noexcept;
  message_port port1;
  message_port port2;
};

class mutation_observer;

/// A MutationObserver-style compound microtask, for C++ users: observers
/// collect records; the first record queues one microtask that, when run,
/// hands each observer its batch (the DOM standard's "notify mutation
/// observers"). One notifier per runtime models one agent. Destroy the
/// observers, then the notifier, before the runtime.
class mutation_notifier {
 public:
  explicit mutation_notifier(runtime& rt) noexcept : rt_(&rt) {}
  ~mutation_notifier();
  mutation_notifier(const mutation_notifier&) = delete;
  mutation_notifier& operator=(const mutation_notifier&) = delete;
  /// Queues the compound microtask unless it is already queued.
  void queue();
  bool queued() const noexcept { return queued_; }

 private:
  friend class mutation_observer;
  void notify_();

  runtime* rt_;
  std::vector<mutation_observer*> observers_;  // in creation order
  std::vector<mutation_observer*> snapshot_;   // the pass's copy, kept warm
  std::vector<void*> batch_;                   // the records being delivered, kept warm
  bool queued_ = false;
};

/// One observer: a record queue and a callback.
class mutation_observer {
 public:
  /// Called with the batch of records (never empty); the span is valid
  /// during the call only.
  using callback = void (*)(mutation_observer* self, void* const* records, std::size_t n);
  void* data = nullptr;

  /// Joins `n`'s observers (the order they are notified in).
  mutation_observer(mutation_notifier& n, callback cb);
  ~mutation_observer();
  mutation_observer(const mutation_observer&) = delete;
  mutation_observer& operator=(const mutation_observer&) = delete;

  /// Queues a record and the compound microtask ("queue a mutation record").
  void enqueue_record(void* record);
  /// takeRecords(): the pending records, now removed.
  std::vector<void*> take_records();
  /// disconnect(): drops pending records.
  void disconnect() noexcept { records_.clear(); }

 private:
  friend class mutation_notifier;
  mutation_notifier* n_;
  callback cb_;
  std::vector<void*> records_;
};

/// What the runtime is running (the "currently running task").
enum class running : std::uint8_t {
  none,             ///< between tasks
  task,             ///< a task of some source (or the main script)
  microtask,        ///< a microtask, inside a checkpoint
  animation_frame,  ///< an animation-frame callback
  idle_callback,    ///< an idle callback
};

/// What an observer is told.
enum class event_kind : std::uint8_t {
  task,                  ///< a task (source set), or the main script
  microtask_checkpoint,  ///< performing a microtask checkpoint
  microtask,             ///< one microtask
  rendering,             ///< update the rendering
  animation_frame,       ///< one animation-frame callback
  idle_period,           ///< an idle period started (enter and exit at once)
  idle_callback,         ///< one idle callback
};
const char* event_kind_name(event_kind k) noexcept;

struct event {
  event_kind kind;
  source src;          ///< for `task`
  const char* label;   ///< for `task`: "main", "timer", "message", ...; else nullptr
  double now;          ///< runtime time (ms)
  double deadline;     ///< for idle_period and idle_callback
};

/// Observes the browser layer (the --trace view). Core phases are seen
/// through loop hooks; this adds what happens inside one turn.
class observer {
 public:
  virtual ~observer() = default;
  virtual void enter(runtime&, const event&) {}
  virtual void exit(runtime&, const event&) {}
};

/// A long task report (Long Tasks API): a task or rendering update that
/// took more than long_task_threshold ms.
struct long_task {
  double start;
  double end;
  bool rendering;  ///< update the rendering rather than a task
  source src;      ///< the task's source, when not rendering
};

/// One window event loop on a phaseloop loop. The loop must outlive the
/// runtime; one runtime per loop.
class runtime {
 public:
  explicit runtime(phaseloop::loop& l, const options& o = {});
  /// Clears the timers, drops queued tasks, closes the core handles and runs
  /// the loop (NOWAIT) until their close callbacks are done.
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  phaseloop::loop& owner() const noexcept { return *loop_; }
  const options& config() const noexcept { return opts_; }

  // ---- time ----
  /// performance.now(): ms since the runtime was made (real or virtual).
  double now() const noexcept;
  /// Virtual clock: moves time forward by `ms` (a task "taking" that long,
  /// or a test moving time). 0, or errc::invalid on a real clock or ms < 0.
  int advance(double ms) noexcept;
  /// Time between rendering opportunities, ms.
  double frame_interval() const noexcept { return frame_interval_; }

  // ---- tasks and microtasks ----
  /// Queues a task on `s` (not source::timer: errc::invalid).
  int post_task(source s, task t);
  /// Queues a microtask (promise jobs, queueMicrotask).
  void queue_microtask(task t);
  std::size_t microtasks_waiting() const noexcept { return micro_.size(); }
  /// Performs a microtask checkpoint (a no-op while one is in progress:
  /// the "performing a microtask checkpoint" flag).
  void microtask_checkpoint();
  /// Runs `t` as a task boundary from native code: the call, then -- when
  /// no task or callback is already running -- a microtask checkpoint
  /// (HTML's "clean up after running script").
  void call(task t);
  /// What is running now.
  running current() const noexcept { return current_; }
  /// The source of the running task (meaningful when current() == task).
  source current_source() const noexcept { return current_src_; }
  /// Called at the end of every microtask checkpoint (HTML's "notify about
  /// rejected promises" step): the embedder reports unhandled rejections.
  using checkpoint_fn = void (*)(runtime&, void* arg);
  void on_checkpoint_end(checkpoint_fn fn, void* arg) noexcept {
    checkpoint_end_ = fn;
    checkpoint_end_arg_ = arg;
  }

  // ---- animation frames ----
  using frame_cb = void (*)(double timestamp, void* arg);
  /// requestAnimationFrame: returns the handle (> 0). Callbacks requested
  /// during a rendering update run in the next one.
  unsigned request_animation_frame(frame_cb cb, void* arg);
  /// cancelAnimationFrame: also works on callbacks of the update in
  /// progress that have not run yet. Unknown handles are ignored.
  void cancel_animation_frame(unsigned handle) noexcept;
  /// Rendering updates done so far.
  std::uint64_t frames() const noexcept { return frames_; }

  // ---- idle callbacks ----
  using idle_cb = void (*)(const idle_deadline&, void* arg);
  /// requestIdleCallback: returns the handle (> 0). `timeout_ms` > 0 makes
  /// it run (did_timeout) as an idle-task task once that much time passed.
  unsigned request_idle_callback(idle_cb cb, void* arg, double timeout_ms = 0);
  /// cancelIdleCallback. Unknown handles are ignored.
  void cancel_idle_callback(unsigned handle) noexcept;

  // ---- running ----
  /// Runs `main` as the main script (a task), then the loop until nothing
  /// is left to do or stop() is called. Returns loop::run's value.
  int run_main(task main);
  void stop() noexcept { loop_->stop(); }

  /// Attaches an observer (nullptr detaches). Not owned.
  void set_observer(observer* o) noexcept { observer_ = o; }
  /// Called for each long task (nullptr: none).
  using long_task_fn = void (*)(runtime&, const long_task&, void* arg);
  void on_long_task(long_task_fn fn, void* arg) noexcept {
    long_task_ = fn;
    long_task_arg_ = arg;
  }

  /// Tasks queued on `s` and not run yet.
  std::size_t tasks_waiting(source s) const noexcept;

 private:
  friend class dom_timer;
  friend class message_port;
  friend class mutation_notifier;
  friend struct idle_deadline;

  template <class T>
  using ring = detail::ring<T>;
  struct queued {
    task t;               // fn == nullptr and idle_id == 0: withdrawn
    std::uint64_t order;  // enqueue order, shared by all queues
    unsigned idle_id;     // idle_task source: an idle callback that timed out
  };
  struct frame_request {
    unsigned id;
    frame_cb cb;  // nullptr: cancelled
    void* arg;
  };
  struct idle_request {
    unsigned id;
    idle_cb cb;
    void* arg;
  };
  struct idle_timeout {
    double due;
    std::uint64_t seq;
    unsigned id;
  };

  // The turn (src/browser/runtime.cpp).
  void turn_();
  void iteration_();
  bool run_one_task_();
  bool pick_(source& s);
  bool head_order_(source s, std::uint64_t& order);
  void enqueue_(source s, task t, unsigned idle_id = 0);
  void run_task_(source s, const char* label, task t);
  void report_(double start, bool rendering, source s);
  bool frame_due_(double now) const noexcept { return frame_scheduled_ && now >= next_frame_; }
  void schedule_frame_(double now) noexcept;
  void update_rendering_();
  bool idle_pending_() const noexcept {
    return !idle_requests_.empty() || idle_runnable_head_ < idle_runnable_.size();
  }
  bool idle_callback_runnable_(double now) const noexcept;
  void run_idle_callback_();
  void maybe_start_idle_period_(double now);
  bool runnable_now_();
  double next_due_(double now);
  void reschedule_();
  void move_due_(double now);
  void emit_(bool enter, event_kind k, source s, const char* label, double deadline = 0);

  // Timers (src/browser/timers.cpp).
  void schedule_timer_(dom_timer& t, double due);
  void enqueue_timer_(dom_timer& t);
  void fire_timer_(dom_timer& t);
  void unlink_timer_(dom_timer& t) noexcept;
  int nesting_for_new_timer_() const noexcept;

  // Idle callbacks.
  void idle_timeout_task_(unsigned id);
  bool take_idle_(unsigned id, idle_request& out) noexcept;
  bool idle_waiting_(unsigned id) const noexcept;
  void purge_idle_timeouts_() noexcept;

  phaseloop::loop* loop_;
  options opts_;
  double frame_interval_;
  std::uint64_t origin_ns_;   // real clock: hrtime at construction
  double vnow_ = 0;           // virtual clock
  observer* observer_ = nullptr;
  long_task_fn long_task_ = nullptr;
  void* long_task_arg_ = nullptr;
  checkpoint_fn checkpoint_end_ = nullptr;
  void* checkpoint_end_arg_ = nullptr;

  // "Currently running task".
  running current_ = running::none;
  source current_src_ = source::timer;
  int depth_ = 0;                  // tasks/callbacks on the stack
  bool checkpointing_ = false;     // performing a microtask checkpoint
  int timer_level_ = 0;            // nesting level of the running timer task
  bool timer_running_ = false;     // a timer task (chromium: and its checkpoint) is running
  bool in_turn_ = false;           // inside turn_() or run_main's task: reschedule at the end

  // Queues.
  ring<queued> queues_[source_count];  // source::timer's stays empty: see timers_
  dom_timer::queue timer_queue_;       // due timers, in due order
  message_port* delivering_ = nullptr;  // whose delivery task is running
  ring<task> micro_;
  std::uint64_t order_ = 0;            // next enqueue order
  std::size_t rr_next_ = 0;            // round_robin: where the next search starts

  // Timers.
  dom_timer::heap timers_;
  std::uint64_t timer_seq_ = 0;

  // Rendering.
  std::vector<frame_request> frame_pending_;
  std::vector<frame_request> frame_running_;  // the update in progress
  unsigned next_frame_id_ = 0;
  double next_frame_ = 0;          // when the next rendering opportunity comes
  std::uint64_t next_frame_index_ = 0;  // next_frame_ = index * frame_interval_
  bool frame_scheduled_ = false;   // a rendering opportunity is wanted
  bool frame_urgent_ = false;      // requested outside a frame: no idle period first
  std::uint64_t frames_ = 0;

  // Idle periods.
  std::vector<idle_request> idle_requests_;  // "list of idle request callbacks"
  std::vector<idle_request> idle_runnable_;  // "list of runnable idle callbacks"
  std::size_t idle_runnable_head_ = 0;
  std::vector<idle_timeout> idle_timeouts_;  // min-heap by (due, seq)
  std::uint64_t idle_timeout_seq_ = 0;
  unsigned next_idle_id_ = 0;
  double idle_deadline_ = -1;      // the current (or last) idle period's end
  bool in_idle_period_ = false;

  // Core handles.
  phaseloop::check* check_ = nullptr;    // runs the turn
  phaseloop::idle* idle_ = nullptr;      // keeps poll from blocking while work is runnable
  phaseloop::timer* wake_ = nullptr;     // real clock: wakes the loop at the next due time
};

}  // namespace phaseloop::browser
