// SPDX-License-Identifier: MIT
#pragma once
/// The Node layer: process.nextTick, the microtask queue, Node's timers and
/// immediates, on a phaseloop loop -- drained the way a chosen Node version
/// drains them.
///
/// The one rule every version shares: whenever the loop calls into the
/// embedder's code (one "native callback", Node's MakeCallback), on the way
/// out the runtime drains: all nextTicks, then all microtasks, again until
/// both queues are empty (Node's processTicksAndRejections).
///
/// What differs between modes is how many native callbacks the timers and
/// immediates are, because each Node version is built differently:
///
///   mode     timers                            immediates       phase order
///   node10   one core timer per duration list;  one callback     libuv 1.44
///            a list's expired timers run in     per check pass
///            one native callback
///   node11   one core timer for all lists;      drained after    libuv 1.44
///            drained after every timer          every immediate
///   node     as node11                          as node11        libuv 1.45+
///
/// docs/node-modes.md shows what that changes, side by side.
///
/// Threads: everything here is for the loop's thread only.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/detail/ring.hpp"
#include "phaseloop/loop.hpp"

namespace phaseloop::node {

/// Which Node version's rules a runtime follows.
enum class mode : std::uint8_t {
  node10,   ///< Node 10.x
  node11,   ///< Node 11.x to 19.x (libuv < 1.45)
  current,  ///< Node 20 and later
};

/// "node10", "node11" or "node".
const char* mode_name(mode m) noexcept;
/// Parses a mode name as mode_name() prints it; false if unknown.
bool parse_mode(std::string_view name, mode& out) noexcept;
/// The loop phase order the mode's Node version runs on.
phaseloop::profile loop_profile(mode m) noexcept;
/// True when the mode's Node has the global queueMicrotask (11 and later).
bool has_queue_microtask(mode m) noexcept;

/// A piece of deferred work: a function and its argument.
struct task {
  void (*fn)(void* arg);
  void* arg;
};

/// Node's TIMEOUT_MAX: the largest delay a timer accepts (2^31 - 1 ms).
inline constexpr double timeout_max = 2147483647.0;

/// Node's delay rule: a delay that is not a number in [1, timeout_max]
/// becomes 1 ms (0, negatives, NaN, and too large ones alike).
double clamp_delay(double after) noexcept;

class runtime;
class timer_list;

/// Node's Timeout: what setTimeout and setInterval return. The caller owns
/// the memory; it must stay valid while active().
class timeout {
 public:
  /// The timer's callback, run in the timers phase.
  using callback = void (*)(timeout*);

  /// Free for the caller.
  void* data = nullptr;

  explicit timeout(runtime& rt) noexcept : rt_(&rt) {}
  /// Clears the timeout if it is still active.
  ~timeout();
  timeout(const timeout&) = delete;
  timeout& operator=(const timeout&) = delete;

  /// setTimeout (repeat false) or setInterval (repeat true): due `after` ms
  /// (clamped as clamp_delay does) from the loop's current time. Starting an
  /// active timeout restarts it.
  void start(callback cb, double after, bool repeat) noexcept;
  /// clearTimeout / clearInterval. Safe on an inactive timeout and from
  /// inside its own callback.
  void clear() noexcept;
  /// Restarts the countdown from now with the same delay (Timeout#refresh),
  /// also after a one-shot timeout has fired, as Node does; a no-op once
  /// cleared. (node11 reproduces Node 11's quirk: a fired timeout refreshed
  /// comes back unreferenced.)
  void refresh() noexcept;
  /// Timeout#ref, #unref, #hasRef: whether this timeout keeps the loop alive.
  void ref() noexcept;
  void unref() noexcept;
  bool has_ref() const noexcept { return refed_; }

  /// True while the timeout is scheduled or its callback is running and it
  /// will be scheduled again (an interval).
  bool active() const noexcept { return active_; }
  /// The delay after clamping (Node's _idleTimeout).
  double delay() const noexcept { return after_; }
  /// True for an interval.
  bool repeating() const noexcept { return repeat_; }
  /// Called once after the timeout became inactive by itself: a one-shot
  /// timeout whose callback returned, or one cleared in its own callback.
  /// The caller may free the timeout there. Not called by clear() from
  /// outside the callback: the caller already knows.
  void on_done(callback cb) noexcept { done_cb_ = cb; }

 private:
  friend class runtime;
  friend class timer_list;
  void fire_() noexcept;

  runtime* rt_;
  callback cb_ = nullptr;
  callback done_cb_ = nullptr;
  double after_ = 1;
  double idle_start_ = 0;   // loop time the countdown started
  timer_list* list_ = nullptr;
  detail::link<timeout> node_;
  phaseloop::timer* own_ = nullptr;  // node10: an unref'd timeout's own core timer
  bool repeat_ = false;
  bool active_ = false;
  bool refed_ = true;
  bool running_ = false;   // its callback is on the stack
  bool cleared_ = false;   // clear() was the last word: refresh() does nothing

 public:
  using list = detail::ilist<timeout, &timeout::node_>;
};

/// Node's Immediate: what setImmediate returns. Caller-owned; valid while
/// pending().
class immediate {
 public:
  /// Runs in the check phase.
  using callback = void (*)(immediate*);

  /// Free for the caller.
  void* data = nullptr;

  explicit immediate(runtime& rt) noexcept : rt_(&rt) {}
  /// Clears the immediate if it is still pending.
  ~immediate();
  immediate(const immediate&) = delete;
  immediate& operator=(const immediate&) = delete;

  /// setImmediate: runs `cb` in a later check phase, after the immediates
  /// already queued. A no-op when already pending.
  void start(callback cb) noexcept;
  /// clearImmediate. Safe when not pending.
  void clear() noexcept;
  /// Immediate#ref, #unref, #hasRef.
  void ref() noexcept;
  void unref() noexcept;
  bool has_ref() const noexcept { return refed_; }
  /// True from start() until its callback starts (or clear()).
  bool pending() const noexcept { return pending_; }

 private:
  friend class runtime;
  runtime* rt_;
  callback cb_ = nullptr;
  detail::link<immediate> node_;
  bool pending_ = false;
  bool refed_ = true;

 public:
  using list = detail::ilist<immediate, &immediate::node_>;
};

/// What an observer is told about the Node layer's own calls.
enum class event_kind : std::uint8_t {
  native,      ///< a native callback (MakeCallback): contains the ones below
  timeout,     ///< a Timeout's callback
  immediate,   ///< an Immediate's callback
  tick,        ///< a nextTick callback
  microtask,   ///< a microtask
  drain,       ///< draining ticks and microtasks after a native callback
};

/// Short name of an event kind ("timeout", "tick", ...).
const char* event_kind_name(event_kind k) noexcept;

struct event {
  event_kind kind;
  const void* object;  ///< the timeout or immediate, the task's argument, or nullptr
  const char* label;   ///< for `native`: what made the call ("timers", "immediates", ...)
};

/// Observes the Node layer (the --trace view). Core phases and callbacks
/// are observed with loop hooks (hooks.hpp); this adds what happens inside
/// one core callback.
class observer {
 public:
  virtual ~observer() = default;
  virtual void enter(runtime&, const event&) {}
  virtual void exit(runtime&, const event&) {}
};

/// One Node "environment" on a loop: the tick and microtask queues, the
/// timers and the immediates. The loop must outlive the runtime. Only one
/// runtime per loop.
class runtime {
 public:
  /// Sets the loop's phase order to the mode's (loop_profile(m)).
  runtime(phaseloop::loop& l, mode m);
  /// Clears every timeout and immediate and closes the runtime's core
  /// handles; runs the loop (NOWAIT) until their close callbacks are done.
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  mode which() const noexcept { return mode_; }
  phaseloop::loop& owner() const noexcept { return *loop_; }

  /// process.nextTick.
  void next_tick(task t);
  /// Queues a microtask (a promise job, queueMicrotask).
  void queue_microtask(task t);
  /// True when no nextTick or microtask is waiting.
  bool queues_empty() const noexcept { return ticks_.empty() && micro_.empty(); }
  std::size_t ticks_waiting() const noexcept { return ticks_.size(); }
  std::size_t microtasks_waiting() const noexcept { return micro_.size(); }

  /// Runs `t` as one native callback: the call, then the drain (Node's
  /// MakeCallback). Calls nested inside another native callback only call:
  /// the outermost one drains, as in Node. With `drain_if_threw` false, a
  /// call whose exception a listener took (threw()) does not drain.
  void call(task t, const char* label = nullptr, bool drain_if_threw = true);
  template <class F>
  void call_fn(F&& f, const char* label = nullptr) {
    call({[](void* a) { (*static_cast<F*>(a))(); }, &f}, label);
  }
  /// Runs ticks and microtasks until both are empty (processTicksAndRejections).
  void drain();
  /// The callback that just ran threw, and the embedder's handler took the
  /// exception (process.on('uncaughtException')). As in Node: a drain in
  /// progress stops, leaving the rest of the ticks and microtasks queued
  /// for the next one; timers and immediates go on with the next callback,
  /// without draining before it.
  void threw() noexcept { threw_ = true; }
  /// True from threw() until the runtime has acted on it (a rejection
  /// report stops at the listener that threw).
  bool throwing() const noexcept { return threw_; }
  /// Runs microtasks until the queue is empty (V8's checkpoint), ticks not.
  void run_microtasks();

  /// Called at the end of each drain round, when the tick queue is empty
  /// (Node's processPromiseRejections): return true when it queued more
  /// work, to drain again. The embedder reports unhandled rejections here;
  /// when a listener throws (threw()), the drain ends there, as a tick's
  /// exception ends it.
  using rejection_fn = bool (*)(runtime&, void* arg);
  void on_rejections(rejection_fn fn, void* arg) noexcept {
    rejections_ = fn;
    rejections_arg_ = arg;
  }

  /// Runs `main` as the main script (one native callback), then the loop
  /// until nothing keeps it alive or stop() is called. Returns loop::run's.
  int run_main(task main);
  /// Makes the loop return soon (process.exit's first step).
  void stop() noexcept { loop_->stop(); }

  /// Loop time in ms as Node's timers see it (updating the loop's clock,
  /// as Node's getLibuvNow does).
  double now() noexcept;

  /// Attaches an observer (nullptr detaches). Not owned.
  void set_observer(observer* o) noexcept { observer_ = o; }

  /// Number of active refed timeouts and pending refed immediates.
  unsigned refed_timeouts() const noexcept { return timer_refs_; }
  unsigned refed_immediates() const noexcept { return immediate_refs_; }

 private:
  friend class timeout;
  friend class immediate;
  friend class timer_list;

  // Timers (src/node/timers.cpp).
  void insert_(timeout& t, double start);
  void remove_(timeout& t);
  void ref_timer_(bool up);
  void run_timeout_(timeout& t, double start);
  // node10: unref'd timeouts have a core timer of their own (`reuse`: an
  // emptied list's).
  void make_own_timer_(timeout& t, double delay, phaseloop::timer* reuse = nullptr);
  void move_to_own_timer_(timeout& t, double delay);
  void own_fired_(timeout& t);
  void list_fired_(timer_list& l);     // node10: a list's core timer fired
  void process_timers_();              // node11+: the core timer fired
  // True when the last timeout it ran threw (see threw()).
  bool list_on_timeout_(timer_list& l, double now);
  void schedule_(double after);        // node11+: (re)start the core timer
  timer_list* find_list_(double msecs) const noexcept;
  void drop_list_(timer_list& l);      // unregisters; frees unless busy
  void free_list_(timer_list& l);
  // node11+: the lists' priority queue, by (expiry, id).
  void heap_push_(timer_list& l);
  void heap_erase_(timer_list& l);
  void heap_down_(std::size_t i);
  void heap_up_(std::size_t i);

  // Immediates (src/node/runtime.cpp).
  void process_immediates_();
  void ref_immediate_(bool up);

  void emit_(bool enter, event_kind k, const void* obj, const char* label = nullptr);
  template <class F>
  void observed_(event_kind k, const void* obj, F&& f) {
    if (observer_) emit_(true, k, obj);
    f();
    if (observer_) emit_(false, k, obj);
  }

  phaseloop::loop* loop_;
  mode mode_;
  observer* observer_ = nullptr;
  rejection_fn rejections_ = nullptr;
  void* rejections_arg_ = nullptr;
  int depth_ = 0;  // native callbacks on the stack
  bool threw_ = false;  // see threw()
  // node: a native callback failed (threw, taken by a listener) without
  // its drain; the check phase drains first (Node 20's native immediates).
  bool drain_at_check_ = false;
  // The last drain ended at a tick's exception, which a listener took.
  bool drain_cut_ = false;

  detail::ring<task> ticks_;
  detail::ring<task> micro_;

  // Timers.
  std::vector<timer_list*> lists_;   // sorted by msecs
  std::vector<timer_list*> heap_;    // node11+
  std::uint64_t next_list_id_ = 0;
  double next_expiry_;               // node11+: when the core timer is due (infinity: never)
  unsigned timer_refs_ = 0;
  phaseloop::timer* core_timer_ = nullptr;  // node11+

  // Immediates.
  immediate::list immediates_;
  unsigned immediate_refs_ = 0;
  phaseloop::check* check_ = nullptr;
  phaseloop::idle* idle_ = nullptr;
};

}  // namespace phaseloop::node
