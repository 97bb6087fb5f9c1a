// SPDX-License-Identifier: MIT
#pragma once
// The SpiderMonkey side of the runner: one JSContext with one global, whose
// promise jobs go into the Node runtime's microtask queue (so the loop, not
// the engine, decides when they run), and the JS values the Node layer holds
// on to while it waits: queued ticks and microtasks, Timeouts, Immediates.
//
// Ownership: a Timeout or Immediate JS object owns its native record (freed
// by the object's finalizer); while the record is scheduled it roots its
// object, so a scheduled timer is never collected. Queued ticks and
// microtasks are owned by the engine until they run.

#include "js/js.hpp"

#include <js/Promise.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/loop.hpp"
#include "phaseloop/node.hpp"
#include "js/runner.hpp"
#include "js/runtime_host.hpp"
#include "js/timeline.hpp"
#include "js/trace.hpp"

namespace phaseloop::runner {

class engine;

/// What a queued task is, for the trace.
/// (node_tick: a tick Node itself queues, as process.emitWarning's.)
enum class task_kind : std::uint8_t { tick, node_tick, promise_job, queue_microtask };

/// A JS callback waiting in the runtime's tick or microtask queue.
struct queued_task {
  engine* owner;
  task_kind kind;
  std::uint64_t id;
  JS::PersistentRootedObject fn;    // the function, or the promise job
  JS::PersistentRootedObject args;  // an array of arguments, or null
  detail::link<queued_task> node;
  queued_task(JSContext* cx, engine* e, task_kind k, std::uint64_t i)
      : owner(e), kind(k), id(i), fn(cx), args(cx) {}
};

/// The native side of a Timeout object, owned by it. It holds the call:
/// the callback and the extra arguments, traced by the object (its class's
/// trace hook), and the object itself while the timeout is scheduled,
/// traced by the engine (engine::trace_pending), which keeps it alive.
struct js_timeout {
  node::timeout t;
  engine* owner;
  std::uint64_t id;
  JS::Heap<JSObject*> self;  // set while scheduled
  JS::Heap<JS::Value> callback;
  JS::Heap<JSObject*> args;  // the extra arguments (an array), or null
  bool in_callback = false;
  bool known_by_id = false;  // converted to its number (Node 20): clearTimeout(id) finds it
  detail::link<js_timeout> node;
  js_timeout(node::runtime& rt, engine* e, std::uint64_t i) : t(rt), owner(e), id(i) {}
};

/// The native side of an Immediate object, from setImmediate until the
/// immediate runs or is cleared. It holds the call itself (the object, the
/// callback, the extra arguments), traced by the engine while pending
/// (engine::trace_pending): running it reads only this record, not the
/// object's memory.
struct js_immediate {
  node::immediate im;
  engine* owner;
  std::uint64_t id;
  JS::Heap<JSObject*> self;
  JS::Heap<JS::Value> callback;
  JS::Heap<JSObject*> args;  // the extra arguments (an array), or null
  detail::link<js_immediate> node;
  js_immediate(node::runtime& rt, engine* e, std::uint64_t i) : im(rt), owner(e), id(i) {}
};

/// An operation of require('fs') in flight (fs_module.cpp).
struct fs_op;

/// Objects the bindings keep for the life of the context: the prototypes
/// of the objects they make, and require('fs').
enum class proto : std::uint8_t { timeout, immediate, buffer, stats, fs_module, count_ };

class engine final : public runtime_host<engine, node::runtime, tracker, proto> {
 public:
  /// Builds the context, the runtime (in o.mode) and the globals. `source`
  /// is the script's text. Check ok() afterwards.
  engine(phaseloop::loop& l, const run_options& o, std::string source);
  /// Tears down in the only safe order: records, runtime, context.
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Compiles the script as a CommonJS function, runs it as the main
  /// native callback, then runs the loop. Returns the exit status.
  int run();

  node::mode mode() const noexcept { return opts_.mode; }
  /// Milliseconds since the engine started (performance.now()).
  double uptime_ms() const noexcept;

  // ---- the Node layer (timers.cpp) ----
  /// Queues fn(...args) as a nextTick.
  bool queue_tick(JS::HandleObject fn, JS::HandleObject args, task_kind k = task_kind::tick);
  /// Queues a microtask (a promise job or a queueMicrotask callback).
  /// Unless watched(), microtasks wait in a JS array that one native
  /// microtask runs (internal.runMicrotasks), as V8 runs its queue itself.
  bool queue_microtask(task_kind k, JS::HandleObject fn);
  /// internal.runMicrotasks is done with the batch; `more` when it stopped
  /// at an exception with microtasks left (they get a native microtask of
  /// their own, so the checkpoint goes on after the exception is handled).
  void microtask_batch_done(bool more);
  /// The job queue's side (job_queue.hpp).
  bool queue_promise_job(JS::HandleObject job) { return queue_microtask(task_kind::promise_job, job); }
  void drain_microtasks() { rt_->run_microtasks(); }
  /// Frees a queued task once it is taken off its queue.
  void forget_task(queued_task& t) noexcept;
  js_timeout* new_timeout() { return new js_timeout(*rt_, this, next_id()); }
  js_immediate* new_immediate() { return new js_immediate(*rt_, this, next_id()); }
  /// The scheduled timeouts and the pending immediates.
  void adopt(js_timeout& t) noexcept { timeouts_.push_back(t); }
  void adopt(js_immediate& i) noexcept { immediates_.push_back(i); }
  void forget(js_timeout& t) noexcept { timeouts_.erase(t); }
  /// The Timeout whose number `id` the script has seen (Node 20's
  /// knownTimersById), or nullptr.
  js_timeout* timeout_known_by(std::uint64_t id) noexcept {
    for (js_timeout* t = timeouts_.front(); t != nullptr; t = timeouts_.next(*t))
      if (t->id == id && t->known_by_id) return t;
    return nullptr;
  }
  void forget(js_immediate& i) noexcept { immediates_.erase(i); }
  void adopt(fs_op& op) noexcept;
  void forget(fs_op& op) noexcept;

  /// Calls fn with `thisv` and the elements of `args` (an array or null).
  /// An exception is uncaught(): the script's 'uncaughtException' handler
  /// takes it, or it ends the process as Node ends it.
  void call_or_die(JS::HandleValue thisv, JS::HandleValue fn, JS::HandleObject args);
  /// The pending exception reached the top of a callback: offered to
  /// process.on('uncaughtException') (then the runtime is told, and this
  /// returns), else printed as Node prints it and the process ends with
  /// status 1 (after 'exit'); a handler that throws ends it with 7.
  void uncaught();

  // ---- errors and the end of the process ----
  /// Prints the pending exception as Node prints an uncaught one and ends
  /// the process with status 1.
  [[noreturn]] void die_uncaught();
  /// Prints an error value as Node prints an uncaught exception and ends
  /// the process with status 1. `thrown` is where it was thrown (a
  /// SavedFrame), or null. `why` is the annotation's kind ("uncaught",
  /// "rejection").
  int fatal_status();  // the status of an uncaught exception
  bool exiting();      // process._exiting: 'exit' has been emitted
  JS::Value process_property(const char* name);
  [[noreturn]] void die_with(JS::HandleValue error, JS::HandleObject thrown, const char* why = "uncaught",
                             int status = 1);
  /// Flushes stdout (and the annotations) and ends the process at once.
  [[noreturn]] void exit_now(int code);
  /// Writes a process warning to stderr: "(node:PID) TEXT".
  void warn(std::string_view text);
  /// Things Node warns about once per process.
  enum class once : std::uint8_t { queue_microtask, count_ };
  /// True the first time it is asked about `what`.
  bool first_use(once what) noexcept { return !std::exchange(warned_[static_cast<int>(what)], true); }
  /// The process object (for exitCode), set by the globals.
  void set_process_object(JS::HandleObject p) { process_.emplace(cx_, p); }
  JSObject* process_object() const { return process_ ? process_->get() : nullptr; }

 private:
  struct rejection {
    std::unique_ptr<JS::PersistentRootedObject> promise;
    std::uint64_t uid;
  };

  bool init_context();
  /// Traces the scheduled timeouts' objects and what the pending
  /// immediates hold (a JS_AddExtraGCRootsTracer tracer, registered while
  /// the context lives).
  static void trace_pending(JSTracer* trc, void* self);
  bool tracing_pending_ = false;
  /// Takes the pending exception and where it was thrown; an uncatchable
  /// one (none pending) ends the process.
  void take_exception(JS::MutableHandleValue error, JS::MutableHandleObject stack);
  /// Offers `error` to the script's 'uncaughtException' listeners with
  /// `origin`; true when one took it.
  bool offer_uncaught(JS::HandleValue error, const char* origin);
  static void before_exit_cb(void* self);
  static void run_microtask_batch(void* self);
  bool compile_main(JS::MutableHandleObject fn);
  static void run_main_cb(void* self);
  int exit_status();

  // Unhandled rejections (Node's processPromiseRejections).
  static void rejection_tracker(JSContext*, bool, JS::HandleObject promise,
                                JS::PromiseRejectionHandlingState state, void* data);
  static bool process_rejections(node::runtime&, void* self);
  void report_rejection(JS::HandleObject promise, std::uint64_t uid);

  std::optional<JS::PersistentRootedObject> process_;
  std::optional<JS::PersistentRootedObject> main_fn_;
  // The microtask batch: the functions queued, in order (see queue_microtask).
  std::optional<JS::PersistentRootedObject> micro_batch_;
  uint32_t micro_len_ = 0;
  bool micro_queued_ = false;  // a native microtask for the batch is queued
  bool compiling_ = false;
  std::uint64_t start_ns_ = 0;

  // Rejected promises without a handler, not yet processed; and those
  // already reported (node10/node11 warn again when one gets a handler).
  std::vector<rejection> pending_rejections_;
  std::vector<rejection> reported_rejections_;
  // Reported ones that got a handler since: 'rejectionHandled' is emitted
  // when rejections are next processed.
  std::vector<rejection> handled_rejections_;
  std::uint64_t rejection_uid_ = 0;
  bool warned_[static_cast<int>(once::count_)] = {};

  detail::ilist<queued_task, &queued_task::node> tasks_;
  detail::ilist<js_timeout, &js_timeout::node> timeouts_;
  detail::ilist<js_immediate, &js_immediate::node> immediates_;
  std::vector<fs_op*> fs_ops_;
};

/// Whether the script's Node version has the built-in module `name`
/// (given without "node:"). src/js/node/node_lib.cpp.
bool has_builtin(const engine& e, const std::string& name);
/// Makes the built-ins' `internal` object with the Node engine's natives
/// and runs Node's bootstrap (internal/bootstrap). False with an exception
/// pending on failure.
bool boot_lib(engine& e);

}  // namespace phaseloop::runner
