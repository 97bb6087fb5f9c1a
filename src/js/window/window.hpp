// SPDX-License-Identifier: MIT
#pragma once
// `phaseloop run --mode=browser`: a SpiderMonkey context whose global object
// is a window, on phaseloop's browser layer (phaseloop::browser::runtime).
// Promise jobs go into the runtime's microtask queue, so the HTML processing
// model, not the engine, decides when they run.
//
// What differs from the Node engine (engine.hpp) is what a page does with
// errors: an exception thrown by a callback is reported (window.onerror, or
// "Uncaught ..." on stderr) and the event loop goes on; an unhandled
// rejection is reported at the end of the microtask checkpoint. The run ends
// when nothing is left to do (no timer, task, frame or idle callback); its
// exit status is 1 when an error was reported to stderr, else 0.
//
// Files: window.cpp (context, errors, main script, console, performance,
// queueMicrotask), window_api.cpp (timers, animation frames, idle
// callbacks, MessageChannel), window_trace.cpp (--trace and the annotation
// records `compare` reads).

#include "js/js.hpp"

#include <js/Promise.h>
#include <js/StructuredClone.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "phaseloop/browser.hpp"
#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/loop.hpp"
#include "js/runner.hpp"
#include "js/runtime_host.hpp"
#include "js/timeline.hpp"
#include "js/trace.hpp"

namespace phaseloop::runner {

class window_tracer;
class window_engine;

/// Prototypes the bindings keep for the objects they make.
enum class window_proto : std::uint8_t { idle_deadline, message_port, count_ };

/// setTimeout / setInterval: the DOM timer and what to call.
struct window_timer {
  window_timer(window_engine& e, browser::runtime& rt, JSContext* cx, int i)
      : owner(&e), t(rt), id(i), fn(cx), args(cx) {}
  window_engine* owner;
  browser::dom_timer t;
  int id;
  JS::PersistentRootedValue fn;     // a function, or a string to evaluate
  JS::PersistentRootedObject args;  // the extra arguments (an array)
  bool running = false;             // its callback is on the stack
};

/// requestAnimationFrame or requestIdleCallback: the callback, by handle.
struct window_callback {
  window_callback(window_engine& e, JSContext* cx) : owner(&e), fn(cx) {}
  window_engine* owner;
  unsigned id = 0;
  JS::PersistentRootedValue fn;
};

/// new MessageChannel(): the native pair and the two MessagePort objects.
struct window_channel {
  window_channel(window_engine& e, browser::runtime& rt, JSContext* cx)
      : owner(&e), ch(rt), port1(cx), port2(cx) {}
  window_engine* owner;
  browser::message_channel ch;
  JS::PersistentRootedObject port1;
  JS::PersistentRootedObject port2;
};

/// A posted message: a structured clone of the value, until delivered.
struct window_message {
  JSAutoStructuredCloneBuffer data{JS::StructuredCloneScope::SameProcess, nullptr, nullptr};
  detail::link<window_message> node;
};
using window_message_list = detail::ilist<window_message, &window_message::node>;

/// What a queued microtask is, for the trace.
enum class window_job : std::uint8_t { promise_job, queue_microtask };

/// A task the window's JavaScript built-ins queued (lib/internal_browser.js):
/// a function to call (window.postMessage's delivery), the rejections a
/// checkpoint left (an array of promises), or a rejection that got its
/// handler late.
struct window_js_task {
  enum class kind : std::uint8_t { call, notify_rejections, rejection_handled };
  window_js_task(window_engine& e, JSContext* cx, kind k, JSObject* o) : owner(&e), what(k), obj(cx, o) {}
  window_engine* owner;
  kind what;
  JS::PersistentRootedObject obj;
  detail::link<window_js_task> node;
};

class window_engine final : public runtime_host<window_engine, browser::runtime, window_tracer, window_proto> {
 public:
  window_engine(phaseloop::loop& l, const run_options& o, std::string source);
  ~window_engine();
  window_engine(const window_engine&) = delete;
  window_engine& operator=(const window_engine&) = delete;

  /// Runs the script as the main task, then the event loop until nothing
  /// is left. Returns the exit status.
  int run();


  // ---- calling into JS as a page does ----
  /// Calls fn(args...) with `thisv`. An exception is reported ("report the
  /// exception") and swallowed. Returns false when it threw.
  bool call(JS::HandleValue thisv, JS::HandleValue fn, const JS::HandleValueArray& args,
            JS::MutableHandleValue rval);
  /// Reports the pending exception: window.onerror, else stderr.
  void report_pending();
  /// Queues a microtask that calls `fn` (a promise job or a callback).
  bool queue_microtask(window_job kind, JS::HandleObject fn);
  /// Queues a task of the built-ins on `s`. False when the runtime refused.
  bool queue_js_task(browser::source s, window_js_task::kind k, JS::HandleObject obj);
  /// The job queue's side (job_queue.hpp).
  bool queue_promise_job(JS::HandleObject job) { return queue_microtask(window_job::promise_job, job); }
  void drain_microtasks() { rt_->microtask_checkpoint(); }

  // ---- the records the bindings keep (window_api.cpp) ----
  std::unordered_map<int, std::unique_ptr<window_timer>>& timers() noexcept { return timers_; }
  std::unordered_map<unsigned, std::unique_ptr<window_callback>>& frames() noexcept { return frames_; }
  std::unordered_map<unsigned, std::unique_ptr<window_callback>>& idles() noexcept { return idles_; }
  std::vector<std::unique_ptr<window_channel>>& channels() noexcept { return channels_; }
  /// Messages in flight, owned here until delivered (or the end).
  window_message_list& messages() noexcept { return messages_; }
  int next_timer_id() noexcept { return ++timer_ids_; }

 private:
  /// A microtask waiting in the runtime's queue.
  struct queued_job {
    queued_job(JSContext* cx, window_engine* e, window_job k, std::uint64_t i)
        : owner(e), kind(k), id(i), fn(cx) {}
    window_engine* owner;
    window_job kind;
    std::uint64_t id;
    JS::PersistentRootedObject fn;
    detail::link<queued_job> node;
  };

  bool init_context();
  bool evaluate_main();
  static void run_main_cb(void* self);
  static void run_job(void* arg);
  void report(JS::HandleValue error, JS::HandleObject stack);
  bool dispatch_error(const std::string& message, const std::string& file, unsigned line,
                      unsigned column, JS::HandleValue error);
  static void run_js_task(void* arg);

  static void rejection_tracker(JSContext*, bool, JS::HandleObject promise,
                                JS::PromiseRejectionHandlingState state, void* data);
  static void checkpoint_end(browser::runtime&, void* self);

  // Rejected promises without a handler at the end of this checkpoint
  // (HTML's "about-to-be-notified"), and those whose 'unhandledrejection'
  // was fired ("outstanding": a late handler fires 'rejectionhandled').
  std::vector<std::unique_ptr<JS::PersistentRootedObject>> unhandled_;
  std::vector<std::unique_ptr<JS::PersistentRootedObject>> outstanding_;
  detail::ilist<window_js_task, &window_js_task::node> js_tasks_;
  detail::ilist<queued_job, &queued_job::node> queued_;
  int errors_ = 0;           // errors reported to stderr
  bool in_onerror_ = false;  // an error inside onerror is not given to it again
  int timer_ids_ = 0;

  std::unordered_map<int, std::unique_ptr<window_timer>> timers_;
  std::unordered_map<unsigned, std::unique_ptr<window_callback>> frames_;
  std::unordered_map<unsigned, std::unique_ptr<window_callback>> idles_;
  std::vector<std::unique_ptr<window_channel>> channels_;
  window_message_list messages_;
};

/// Where each output line of a browser-mode run came from: the --trace view
/// (tasks, microtask checkpoints, rendering updates, idle periods, marked
/// with `#` lines) and the annotation records `compare` reads (the format
/// of trace.cpp, with browser fields; see window_trace.cpp).
class window_tracer final : public browser::observer, public line_listener {
 public:
  /// `trace`: print the trace on `out`; `annotate_fd` >= 0: write records
  /// there (the tracer owns the descriptor from now on).
  window_tracer(output& out, bool trace, int annotate_fd);
  ~window_tracer() override;
  window_tracer(const window_tracer&) = delete;
  window_tracer& operator=(const window_tracer&) = delete;

  void enter(browser::runtime&, const browser::event&) override;
  void exit(browser::runtime&, const browser::event&) override;
  void before_output() override;
  void line_written() override;

  /// What the innermost event is running: "setTimeout" #3 "0 ms, ...".
  void detail(const char* kind, std::uint64_t id, std::string_view what = {});
  /// An annotation about the run: "error", "rejection", "exit".
  void note(std::string_view kind, std::string_view detail);
  /// Flushes the annotations.
  void finish();

 private:
  struct frame {
    browser::event ev;
    std::string kind;  // from detail(): "setTimeout", "message", ...
    std::uint64_t id = 0;
    std::string what;
    bool printed = false;
  };
  void print_pending();
  std::string text_of(const frame& f) const;
  void write_record(char type, const frame* f);

  output* out_;
  bool trace_;
  std::FILE* annotate_ = nullptr;
  std::vector<frame> stack_;
  std::uint64_t turn_ = 0;  // top-level events so far
  bool closing_ = false;    // stack_ holds a finished task, awaiting its checkpoint
  bool checkpoint_of_task_ = false;  // the checkpoint running is that task's
};

/// console, performance, queueMicrotask (window.cpp).
bool define_window_globals(window_engine& e, JS::HandleObject global);
/// Throws a TypeError with `message`; returns false.
bool throw_type_error(JSContext* cx, const char* message);
/// Chromium's argument checks of a Window (or other `iface`) method
/// `method`: false after throwing its TypeError when fewer than `needed`
/// arguments came ("1 argument required, but only 0 present."), or, when
/// `callback` is set, when argument 1 is not callable ("parameter 1 is not
/// of type 'Function'.").
bool check_args(JSContext* cx, const JS::CallArgs& args, const char* method, unsigned needed, bool callback,
                const char* iface = "Window");

/// setTimeout, setInterval, requestAnimationFrame, requestIdleCallback,
/// MessageChannel and their companions (window_api.cpp).
bool define_window_api(window_engine& e, JS::HandleObject global);
/// Frees what the bindings hold, before the runtime goes (window_api.cpp).
void release_window_api(window_engine& e) noexcept;

}  // namespace phaseloop::runner
