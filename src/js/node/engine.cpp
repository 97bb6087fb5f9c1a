// SPDX-License-Identifier: MIT
// The SpiderMonkey context, its job queue on the Node runtime, uncaught
// exceptions and unhandled rejections, and running the main script.

#include "js/node/engine.hpp"

#include <js/Array.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Conversions.h>
#include <js/Exception.h>
#include <js/SavedFrameAPI.h>
#include <js/SourceText.h>
#include <js/Stack.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>

#include "js/bindings.hpp"
#include "js/job_queue.hpp"
#include "js/inspect.hpp"
#include "js/lib.hpp"

namespace phaseloop::runner {

namespace {

const JSClass global_class = {"global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps,
                               nullptr, nullptr, nullptr};

const char* const main_params[] = {"exports", "require", "module", "__filename", "__dirname"};

std::string dirname_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Runs a queued tick or microtask: one entry of the runtime's queues.
void run_queued(void* arg) {
  auto* t = static_cast<queued_task*>(arg);
  engine& e = *t->owner;
  JSContext* cx = e.cx();
  JS::RootedValue fn(cx, JS::ObjectValue(*t->fn));
  JS::RootedObject args(cx, t->args);
  e.forget_task(*t);
  e.call_or_die(JS::UndefinedHandleValue, fn, args);
}

}  // namespace

// ---- construction and teardown ------------------------------------------------

engine::engine(phaseloop::loop& l, const run_options& o, std::string source)
    : runtime_host(l, o, std::move(source), style_for(o.mode)) {
  start_ns_ = phaseloop::loop::hrtime();
  lib_mode_ = node::mode_name(o.mode);
  rt_.emplace(l, o.mode);
  if (o.libuv) l.set_order(*o.libuv);
  const bool traced = o.trace || o.annotate_fd >= 0;
  observe(traced ? std::make_unique<tracker>(*this, out_, o.trace, o.annotate_fd) : nullptr);
  if (!init_context()) {
    // A fault of the runner's own built-ins: say what it was.
    JS::RootedValue error(cx_);
    if (cx_ != nullptr && JS_GetPendingException(cx_, &error)) {
      JS_ClearPendingException(cx_);
      std::string text;
      inspect_options io;
      if (!inspect(cx_, error, io, text)) text = "(unprintable)";
      std::fprintf(stderr, "phaseloop: starting the Node environment failed: %s\n", text.c_str());
    }
    drop_protos();
    process_.reset();
    destroy_context();
  }
}

bool engine::init_context() {
  // Async stack traces came with Node 12. They show only async functions
  // ("at async f"), and SpiderMonkey pays for them on every promise made (a
  // chain of promises runs 4x slower): a script that never says `async`
  // has no such frames to show, and runs without them.
  const bool async_stacks =
      opts_.mode == node::mode::current && source_.find("async") != std::string::npos;
  if (!new_context(std::make_unique<promise_job_queue<engine>>(*this), rejection_tracker, this, &global_class,
                   async_stacks, true)) {
    return false;
  }
  rt_->on_rejections(process_rejections, this);
  if (!JS_AddExtraGCRootsTracer(cx_, trace_pending, this)) return false;
  tracing_pending_ = true;
  JS::RootedObject global(cx_, script_host::global());
  // globalThis came with Node 12 (V8 7.0).
  if (opts_.mode != node::mode::current && !JS_DeleteProperty(cx_, global, "globalThis")) return false;
  return define_globals(*this, global) && define_timers(*this, global) && boot_lib(*this);
}

engine::~engine() {
  stop_observing();
  if (cx_ == nullptr) {
    rt_.reset();
    return;
  }
  // 1. Nothing the runtime holds may outlive it: unschedule every
  //    scheduled timeout (its object frees the record when collected) and
  //    free every pending immediate's record, and drop the ticks and
  //    microtasks still queued.
  while (js_timeout* t = timeouts_.pop_front()) {
    t->t.clear();
    t->self = nullptr;
  }
  while (js_immediate* i = immediates_.front()) release_immediate(*i);
  if (tracing_pending_) JS_RemoveExtraGCRootsTracer(cx_, trace_pending, this);
  tracing_pending_ = false;
  while (queued_task* t = tasks_.pop_front()) delete t;
  // (An fs request in flight cannot be freed; after a finished run there
  // is none, and process.exit() skips this teardown.)
  for (fs_op* op : fs_ops_) release_fs_op(*op);
  // 2. The runtime closes its core handles.
  rt_.reset();
  // 3. The context; finalizers free the remaining records.
  pending_rejections_.clear();
  reported_rejections_.clear();
  handled_rejections_.clear();
  main_fn_.reset();
  micro_batch_.reset();
  drop_protos();
  process_.reset();
  destroy_context();
}

void engine::trace_pending(JSTracer* trc, void* self) {
  auto& e = *static_cast<engine*>(self);
  for (js_timeout* t = e.timeouts_.front(); t != nullptr; t = e.timeouts_.next(*t))
    JS::TraceEdge(trc, &t->self, "scheduled Timeout");
  for (js_immediate* i = e.immediates_.front(); i != nullptr; i = e.immediates_.next(*i)) {
    JS::TraceEdge(trc, &i->self, "pending Immediate");
    JS::TraceEdge(trc, &i->callback, "Immediate callback");
    JS::TraceEdge(trc, &i->args, "Immediate arguments");
  }
}

double engine::uptime_ms() const noexcept {
  return static_cast<double>(phaseloop::loop::hrtime() - start_ns_) / 1e6;
}

// ---- the queues ------------------------------------------------------------------

bool engine::queue_tick(JS::HandleObject fn, JS::HandleObject args, task_kind k) {
  // Once the process is ending ('exit' emitted), Node drops new ticks (the
  // JS queue of internal_bootstrap.js does the same).
  if (exiting()) return true;
  auto* t = new queued_task(cx_, this, k, next_id());
  t->fn = fn;
  t->args = args;
  tasks_.push_back(*t);
  rt_->next_tick({run_queued, t});
  return true;
}

bool engine::queue_microtask(task_kind k, JS::HandleObject fn) {
  if (!watched()) {
    if (!micro_batch_) {
      JSObject* arr = JS::NewArrayObject(cx_, 0);
      if (arr == nullptr) return false;
      micro_batch_.emplace(cx_, arr);
    }
    JS::RootedObject arr(cx_, *micro_batch_);
    JS::RootedValue v(cx_, JS::ObjectValue(*fn));
    if (!JS_SetElement(cx_, arr, micro_len_, v)) return false;
    micro_len_++;
    if (!micro_queued_) {
      micro_queued_ = true;
      rt_->queue_microtask({run_microtask_batch, this});
    }
    return true;
  }
  auto* t = new queued_task(cx_, this, k, next_id());
  t->fn = fn;
  tasks_.push_back(*t);
  rt_->queue_microtask({run_queued, t});
  return true;
}

void engine::run_microtask_batch(void* self) {
  engine& e = *static_cast<engine*>(self);
  JS::RootedValueArray<1> args(e.cx_);
  args[0].setObject(**e.micro_batch_);
  JS::RootedValue rval(e.cx_);
  if (!e.call_lib("runMicrotasks", args, &rval)) e.uncaught();
}

void engine::microtask_batch_done(bool more) {
  uint32_t n = 0;
  JS::RootedObject arr(cx_, *micro_batch_);
  if (!JS::GetArrayLength(cx_, arr, &n)) n = 0;
  micro_len_ = n;
  if (more) {
    rt_->queue_microtask({run_microtask_batch, this});
  } else {
    micro_queued_ = false;
  }
}

void engine::forget_task(queued_task& t) noexcept {
  tasks_.erase(t);
  delete &t;
}

void engine::call_or_die(JS::HandleValue thisv, JS::HandleValue fn, JS::HandleObject args) {
  JS::RootedValueVector argv(cx_);
  if (args) {
    uint32_t n = 0;
    if (!JS::GetArrayLength(cx_, args, &n)) die_uncaught();
    for (uint32_t i = 0; i < n; i++) {
      JS::RootedValue v(cx_);
      if (!JS_GetElement(cx_, args, i, &v) || !argv.append(v)) die_uncaught();
    }
  }
  JS::RootedValue rval(cx_);
  if (!JS::Call(cx_, thisv, fn, argv, &rval)) uncaught();
}

// ---- the main script ----------------------------------------------------------------

bool engine::compile_main(JS::MutableHandleObject fn) {
  // Node strips a leading #! line; keep its line so numbers stay the same.
  std::string text = source_;
  if (text.size() >= 2 && text[0] == '#' && text[1] == '!') text.replace(0, 2, "//");
  JS::CompileOptions co(cx_);
  // CompileFunction puts the body on the line after the one given.
  co.setFileAndLine(opts_.path.c_str(), 0);
  JS::SourceText<char16_t> src;
  if (!utf16_source(text, src)) return false;
  JS::RootedObjectVector env(cx_);
  JSFunction* f = JS::CompileFunction(cx_, env, co, "Object.<anonymous>", 5, main_params, src);
  if (f == nullptr) return false;
  fn.set(JS_GetFunctionObject(f));
  return true;
}

void engine::run_main_cb(void* self) {
  engine& e = *static_cast<engine*>(self);
  JSContext* cx = e.cx_;
  JS::RootedObject exports(cx, JS_NewPlainObject(cx));
  JS::RootedObject module(cx, JS_NewPlainObject(cx));
  JS::RootedObject require(cx, make_require(e));
  if (!exports || !module || !require) e.die_uncaught();
  JS::RootedString filename(cx, JS_NewStringCopyZ(cx, e.opts_.path.c_str()));
  JS::RootedString dirname(cx, JS_NewStringCopyZ(cx, dirname_of(e.opts_.path).c_str()));
  JS::RootedString id(cx, JS_NewStringCopyZ(cx, "."));
  JS::RootedValue exports_v(cx, JS::ObjectValue(*exports));
  if (!filename || !dirname || !id || !JS_DefineProperty(cx, module, "exports", exports_v, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, module, "id", id, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, module, "filename", filename, JSPROP_ENUMERATE)) {
    e.die_uncaught();
  }
  JS::RootedValueArray<5> argv(cx);
  argv[0].setObject(*exports);
  argv[1].setObject(*require);
  argv[2].setObject(*module);
  argv[3].setString(filename);
  argv[4].setString(dirname);
  JS::RootedValue fn(cx, JS::ObjectValue(**e.main_fn_));
  JS::RootedValue rval(cx);
  if (!JS::Call(cx, exports_v, fn, argv, &rval)) {
    e.uncaught();
    return;
  }
  if (e.opts_.print) {
    // node -p: console.log(the value). A failure (the script replaced
    // console) is an uncaught exception, as in Node.
    JS::RootedObject global(cx, JS::CurrentGlobalOrNull(cx));
    JS::RootedValue console(cx), log(cx);
    if (!JS_GetProperty(cx, global, "console", &console)) return e.uncaught();
    if (!console.isObject()) {
      JS_ReportErrorASCII(cx, "console is not an object");
      return e.uncaught();
    }
    JS::RootedObject console_obj(cx, &console.toObject());
    if (!JS_GetProperty(cx, console_obj, "log", &log) || !JS::Call(cx, console, log, JS::HandleValueArray(rval), &rval))
      e.uncaught();
  }
}

void engine::before_exit_cb(void* self) {
  engine& e = *static_cast<engine*>(self);
  JS::RootedValue rval(e.cx_);
  if (!e.call_lib("onBeforeExit", JS::HandleValueArray::empty(), &rval)) e.uncaught();
}

int engine::run() {
  JS::RootedObject fn(cx_);
  compiling_ = true;
  if (!compile_main(&fn)) die_uncaught();
  compiling_ = false;
  main_fn_.emplace(cx_, fn);
  rt_->run_main({run_main_cb, this});
  // Node's end of the loop: 'beforeExit' each time the loop runs out of
  // work, and the loop again while its listeners gave it more; then 'exit'
  // and process.exitCode as it is after the 'exit' listeners.
  for (;;) {
    rt_->call({before_exit_cb, this}, "beforeExit", false);
    if (!loop_->alive()) break;
    loop_->run(run_mode::default_);
  }
  JS::RootedValue code(cx_);
  // The emit is a native callback: the drain after it runs the promise
  // jobs and queueMicrotask callbacks of the 'exit' listeners, and reports
  // the rejections left unhandled (nextTicks are dropped by then); unless
  // a listener threw (taken by an 'uncaughtException' listener): a failed
  // callback does not drain. Nothing they gave the loop runs.
  if (call_lib("onExit", JS::HandleValueArray::empty(), &code)) {
    rt_->drain();
  } else {
    uncaught();
  }
  const int status = exit_status();
  // A file operation they started is in flight on the thread pool: as
  // Node, the process ends without waiting for it (and without the
  // teardown, which cannot free a request in flight).
  if (!fs_ops_.empty()) exit_now(status);
  out_.finish();
  if (tracer_) tracer_->note("exit", std::to_string(status));
  return status;
}

// process[name] (undefined when there is no process or the get fails).
JS::Value engine::process_property(const char* name) {
  if (!process_) return JS::UndefinedValue();
  JS::RootedObject process(cx_, *process_);
  JS::RootedValue v(cx_);
  if (!JS_GetProperty(cx_, process, name, &v)) {
    JS_ClearPendingException(cx_);
    return JS::UndefinedValue();
  }
  return v;
}

bool engine::exiting() {
  JS::RootedValue v(cx_, process_property("_exiting"));
  return JS::ToBoolean(v);
}

int engine::exit_status() {
  JS::RootedValue code(cx_, process_property("exitCode"));
  if (code.isUndefined() || code.isNull()) return 0;
  int32_t n = 0;
  if (!JS::ToInt32(cx_, code, &n)) {
    JS_ClearPendingException(cx_);
    return 0;
  }
  return n & 0xff;
}

// ---- the end of the process ------------------------------------------------------

void engine::exit_now(int code) {
  out_.finish();
  if (tracer_) {
    tracer_->note("exit", std::to_string(code));
    tracer_->finish();  // may print the last folded trace line
  }
  if (timeline_) timeline_->finish();
  std::fflush(stdout);
  std::fflush(stderr);
  // As Node's process.exit(): no teardown, no further callbacks.
  _exit(code);
}

void engine::warn(std::string_view text) {
  std::fprintf(stderr, "(node:%d) %.*s\n", static_cast<int>(getpid()), static_cast<int>(text.size()),
               text.data());
}

void engine::take_exception(JS::MutableHandleValue error, JS::MutableHandleObject stack) {
  if (!JS_IsExceptionPending(cx_)) {
    // Uncatchable: out of memory, or the engine gave up.
    out_.finish();
    std::fprintf(stderr, "%s: uncatchable error (out of memory?)\n", opts_.path.c_str());
    if (tracer_) tracer_->note("uncaught", "uncatchable");
    exit_now(1);
  }
  JS::ExceptionStack es(cx_);
  if (!JS::StealPendingExceptionStack(cx_, &es)) {
    JS_ClearPendingException(cx_);
    exit_now(1);
  }
  error.set(es.exception());
  stack.set(es.stack());
}

void engine::die_uncaught() {
  JS::RootedValue error(cx_);
  JS::RootedObject stack(cx_);
  take_exception(&error, &stack);
  die_with(error, stack);
}

void engine::uncaught() {
  JS::RootedValue error(cx_);
  JS::RootedObject stack(cx_);
  take_exception(&error, &stack);
  if (offer_uncaught(error, "uncaughtException")) {
    rt_->threw();
    return;
  }
  // As Node: process.exitCode when it is an integer (the handler set it
  // to 1, unless the process was already ending: an 'exit' listener
  // threw), else 1.
  die_with(error, stack, "uncaught", fatal_status());
}

int engine::fatal_status() {
  JS::RootedValue code(cx_, process_property("exitCode"));
  if (code.isInt32()) return code.toInt32() & 0xff;
  if (code.isDouble() && code.toDouble() == static_cast<int32_t>(code.toDouble()))
    return static_cast<int32_t>(code.toDouble()) & 0xff;
  return 1;
}

bool engine::offer_uncaught(JS::HandleValue error, const char* origin) {
  if (lib_internal() == nullptr) return false;  // before the built-ins
  JS::RootedValueArray<2> args(cx_);
  args[0].set(error);
  JS::RootedString o(cx_, JS_NewStringCopyZ(cx_, origin));
  if (!o) return false;
  args[1].setString(o);
  JS::RootedValue handled(cx_);
  if (!call_lib("onUncaught", args, &handled)) {
    // The handler threw: Node prints that error and exits with 7.
    JS::RootedValue again(cx_);
    JS::RootedObject stack(cx_);
    take_exception(&again, &stack);
    die_with(again, stack, "uncaught", 7);
  }
  return handled.isTrue();
}

namespace {

// Where a SavedFrame chain's first frame in `path` is, if any.
bool frame_in(JSContext* cx, JS::HandleObject frame, const std::string& path, unsigned& line,
              unsigned& column) {
  JS::RootedObject f(cx, frame);
  while (f) {
    JS::RootedString src(cx);
    std::string s;
    if (JS::GetSavedFrameSource(cx, nullptr, f, &src) == JS::SavedFrameResult::Ok && src &&
        to_utf8(cx, src, s) && s == path) {
      uint32_t l = 0;
      JS::GetSavedFrameLine(cx, nullptr, f, &l);
      line = l;
      column = saved_frame_column(cx, f);
      return line > 0;
    }
    JS::RootedObject parent(cx);
    if (JS::GetSavedFrameParent(cx, nullptr, f, &parent) != JS::SavedFrameResult::Ok) break;
    f = parent;
  }
  return false;
}

// Where an Error object was made (or, for a SyntaxError, the bad token).
bool error_origin(JSContext* cx, JS::HandleObject err, const std::string& path, unsigned& line,
                  unsigned& column) {
  JS::RootedValue file(cx), l(cx), c(cx);
  std::string f;
  if (!JS_GetProperty(cx, err, "fileName", &file) || !JS_GetProperty(cx, err, "lineNumber", &l) ||
      !JS_GetProperty(cx, err, "columnNumber", &c)) {
    JS_ClearPendingException(cx);
    return false;
  }
  if (!file.isString() || !l.isNumber() || !value_to_utf8(cx, file, f) || f != path) return false;
  line = static_cast<unsigned>(l.toNumber());
  column = c.isNumber() ? static_cast<unsigned>(c.toNumber()) : 0;
  return line > 0;
}

// Where the throw statement that threw from `column` of `line` starts:
// V8 reports a thrown value there, SpiderMonkey's frame points into the
// thrown expression. `column` when no throw precedes it in its statement.
unsigned throw_column(const std::string& line, unsigned column) {
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  const std::size_t end = std::min<std::size_t>(column > 0 ? column - 1 : 0, line.size());
  for (std::size_t at = end; at-- > 0;) {
    if (line[at] == ';') break;
    if (line.compare(at, 5, "throw") == 0 && (at == 0 || !word(line[at - 1])) &&
        (at + 5 >= line.size() || !word(line[at + 5]))) {
      return static_cast<unsigned>(at + 1);
    }
  }
  return column;
}

// String(v), or `fallback` if that throws (a Symbol, an object whose
// toString throws).
std::string string_or(JSContext* cx, JS::HandleValue v, const char* fallback) {
  std::string out;
  if (v.isSymbol() || !value_to_utf8(cx, v, out)) {
    JS_ClearPendingException(cx);
    return fallback;
  }
  return out;
}

// What Node 10 and 11 print for an uncaught value that is not an Error: its
// stack property if it has one, else "name: message" if it has both, else
// String(value).
std::string legacy_uncaught_text(JSContext* cx, JS::HandleValue v) {
  constexpr const char* unprintable = "<toString() threw exception>";
  if (!v.isObject()) return string_or(cx, v, unprintable);
  JS::RootedObject obj(cx, &v.toObject());
  JS::RootedValue stack(cx), name(cx), message(cx);
  if (!JS_GetProperty(cx, obj, "stack", &stack)) JS_ClearPendingException(cx);
  if (!stack.isUndefined()) {
    std::string text = string_or(cx, stack, "");
    if (!text.empty()) return text;
  }
  if (!JS_GetProperty(cx, obj, "name", &name) || !JS_GetProperty(cx, obj, "message", &message)) {
    JS_ClearPendingException(cx);
  }
  if (!name.isUndefined() && !message.isUndefined()) {
    return string_or(cx, name, unprintable) + ": " + string_or(cx, message, unprintable);
  }
  return string_or(cx, v, unprintable);
}

}  // namespace

void engine::die_with(JS::HandleValue error, JS::HandleObject thrown, const char* why, int status) {
  const bool err = is_error(cx_, error);
  if (err) reword_reported(error);
  JS::RootedObject err_obj(cx_, err ? &error.toObject() : nullptr);
  unsigned line = 0, column = 0;
  bool located = thrown && frame_in(cx_, thrown, opts_.path, line, column);
  if (located) column = throw_column(source_line(line), column);
  if (!located && err) {
    located = error_origin(cx_, err_obj, opts_.path, line, column);
    // A compile error's column counts from 0, a frame's from 1.
    if (located && compiling_) column++;
  }
  if (!located && err) {
    JS::RootedObject own(cx_, JS::ExceptionStackOrNull(err_obj));
    located = own && frame_in(cx_, own, opts_.path, line, column);
  }

  const bool current = opts_.mode == node::mode::current;
  std::string text;
  inspect_options io;
  io.style = style_for(opts_.mode);
  // Node prints a value that is not an Error as it is (Node 20 inspects an
  // object, five levels deep); Node 10 and 11 as a string.
  if (!err) io.depth = 5;
  if (!err && !current) {
    text = legacy_uncaught_text(cx_, error);
  } else if (!err && !error.isObject()) {
    text = string_or(cx_, error, "");
  } else if (!inspect(cx_, error, io, text)) {
    JS_ClearPendingException(cx_);
    if (!value_to_utf8(cx_, error, text)) {
      JS_ClearPendingException(cx_);
      text = "(an error that cannot be printed)";
    }
  }
  if (err) {
    // Node prints an uncaught error's stack without inspect's brackets.
    std::string head;
    bool frames = false;
    if (error_stack(cx_, err_obj, head, frames) && !frames && text.size() >= head.size() + 2 &&
        text.compare(0, head.size() + 2, "[" + head + "]") == 0) {
      text = head + text.substr(head.size() + 2);
    }
    JS_ClearPendingException(cx_);
  }

  std::string msg;
  if (located) {
    if (!err) msg += '\n';
    print_location(msg, line, column);
    if (err) msg += '\n';
  }
  msg += text;
  msg += '\n';
  if (current) {
    if (!err && !error.isObject()) {
      msg += "(Use `node --trace-uncaught ...` to show where the exception was thrown)\n";
    }
    msg += "\nNode.js ";
    msg += node_version(opts_.mode);
    msg += '\n';
  }
  out_.finish();
  // fwrite: the source line or the message may hold a NUL byte.
  std::fwrite(msg.data(), 1, msg.size(), stderr);
  if (tracer_) tracer_->note(why, text.substr(0, text.find('\n')));
  exit_now(status);
}

// ---- unhandled rejections ------------------------------------------------------------

void engine::rejection_tracker(JSContext* cx, bool, JS::HandleObject promise,
                               JS::PromiseRejectionHandlingState state, void* data) {
  engine& e = *static_cast<engine*>(data);
  if (state == JS::PromiseRejectionHandlingState::Unhandled) {
    e.pending_rejections_.push_back(
        {std::make_unique<JS::PersistentRootedObject>(cx, promise), ++e.rejection_uid_});
    return;
  }
  // A handler came: before the rejection was processed, it is forgotten.
  for (auto it = e.pending_rejections_.begin(); it != e.pending_rejections_.end(); ++it) {
    if (*it->promise == promise) {
      e.pending_rejections_.erase(it);
      return;
    }
  }
  // After it was reported: 'rejectionHandled' (or a warning) when
  // rejections are next processed.
  for (auto it = e.reported_rejections_.begin(); it != e.reported_rejections_.end(); ++it) {
    if (*it->promise == promise) {
      e.handled_rejections_.push_back(std::move(*it));
      e.reported_rejections_.erase(it);
      return;
    }
  }
}

bool engine::process_rejections(node::runtime& rt, void* self) {
  engine& e = *static_cast<engine*>(self);
  // Node's processPromiseRejections: the late handlers first, then the
  // rejections without one. True when script code ran (it may have queued
  // ticks or microtasks).
  const bool any = !e.handled_rejections_.empty() || !e.pending_rejections_.empty();
  while (!e.handled_rejections_.empty()) {
    rejection r = std::move(e.handled_rejections_.front());
    e.handled_rejections_.erase(e.handled_rejections_.begin());
    JS::RootedValueArray<2> args(e.cx_);
    args[0].setObject(**r.promise);
    args[1].setNumber(static_cast<double>(r.uid));
    JS::RootedValue rval(e.cx_);
    if (!e.call_lib("onRejectionHandled", args, &rval)) e.uncaught();
  }
  // A listener that throws ends the report there (the exception leaves
  // processPromiseRejections). Node 11 takes the rejections one at a time,
  // so the rest are reported by the next drain; Node 20 takes the whole
  // batch first, and the rest of it is never reported. (Node 10's report
  // goes on: see runtime::drain.)
  // Either way, the report covers the rejections made before it started:
  // one a listener makes waits for the next report, after the ticks and
  // microtasks that listener queued (Node 10 and 11 count the list's
  // length first).
  const node::mode m = e.opts_.mode;
  std::vector<rejection> batch;
  if (m == node::mode::current) batch.swap(e.pending_rejections_);
  std::vector<rejection>& from = m == node::mode::current ? batch : e.pending_rejections_;
  const std::uint64_t last = from.empty() ? 0 : from.back().uid;
  while (!from.empty() && from.front().uid <= last && !(rt.throwing() && m != node::mode::node10)) {
    rejection r = std::move(from.front());
    from.erase(from.begin());
    JS::RootedObject promise(e.cx_, *r.promise);
    e.report_rejection(promise, r.uid);
    e.reported_rejections_.push_back(std::move(r));
  }
  return any;
}

void engine::report_rejection(JS::HandleObject promise, std::uint64_t uid) {
  JS::RootedValue reason(cx_, JS::GetPromiseResult(promise));
  const bool err = is_error(cx_, reason);
  if (err) reword_reported(reason);
  {
    // process.on('unhandledRejection') takes it first, in every version.
    JS::RootedValueArray<2> args(cx_);
    args[0].set(reason);
    args[1].setObject(*promise);
    JS::RootedValue handled(cx_);
    if (!call_lib("onUnhandledRejection", args, &handled)) {
      uncaught();
      return;
    }
    if (handled.isTrue()) return;
  }
  if (opts_.mode == node::mode::current) {
    // Node 15+: an unhandled rejection is an uncaught exception (origin
    // 'unhandledRejection'); a value that is not an Error is wrapped.
    std::string r;
    if (!err) {
      inspect_options io;
      if (reason.isString()) {
        value_to_utf8(cx_, reason, r);
      } else if (!inspect(cx_, reason, io, r)) {
        JS_ClearPendingException(cx_);
        r = "?";
      }
    }
    JS::RootedValue error(cx_, reason);
    if (!err) {
      JS::RootedValueArray<2> args(cx_);
      args[0].set(reason);
      JS::RootedString shown(cx_, JS_NewStringCopyUTF8N(cx_, JS::UTF8Chars(r.data(), r.size())));
      if (!shown) die_uncaught();
      args[1].setString(shown);
      if (!call_lib("unhandledRejectionError", args, &error)) die_uncaught();
    }
    if (offer_uncaught(error, "unhandledRejection")) return;
    // The status as for an uncaught exception: process.exitCode after the
    // 'exit' listeners (offer_uncaught set it to 1 and emitted 'exit',
    // unless the process was already ending).
    if (err) die_with(reason, nullptr, "rejection", fatal_status());
    out_.finish();
    std::fprintf(stderr,
                 "UnhandledPromiseRejection: This error originated either by throwing inside of an "
                 "async function without a catch block, or by rejecting a promise which was not "
                 "handled with .catch(). The promise rejected with the reason \"%s\".\n"
                 "    at processPromiseRejections {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n\n"
                 "Node.js %s\n",
                 r.c_str(), node_version(opts_.mode));
    if (tracer_) tracer_->note("rejection", r);
    exit_now(fatal_status());
  }
  // Node 10 and 11: warnings, and the process carries on.
  std::string text;
  if (err) {
    bool frames = false;
    JS::RootedObject obj(cx_, &reason.toObject());
    if (!error_stack(cx_, obj, text, frames)) text = "Error";
  } else if (!value_to_utf8(cx_, reason, text)) {
    text = "[object Object]";
  }
  JS_ClearPendingException(cx_);
  if (tracer_) tracer_->note("warning", text.substr(0, text.find('\n')));
  // The warnings go through process.emitWarning, as Node's did.
  JS::RootedValueArray<2> args(cx_);
  JS::RootedString t(cx_, JS_NewStringCopyUTF8N(cx_, JS::UTF8Chars(text.data(), text.size())));
  if (!t) die_uncaught();
  args[0].setString(t);
  args[1].setNumber(static_cast<double>(uid));
  JS::RootedValue rval(cx_);
  if (!call_lib("warnUnhandledRejection", args, &rval)) uncaught();
}

}  // namespace phaseloop::runner
