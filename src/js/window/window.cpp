// SPDX-License-Identifier: MIT
// The window engine: a SpiderMonkey context on phaseloop::browser, errors
// reported as a page reports them, the main script as a classic script, and
// the globals that are not timers or messages (console, performance,
// queueMicrotask, window, self).

#include "js/window/window.hpp"

#include <js/Array.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Exception.h>
#include <js/Promise.h>
#include <js/SavedFrameAPI.h>
#include <js/SourceText.h>

#include <cstdio>
#include <utility>

#include "js/bindings.hpp"
#include "js/inspect.hpp"
#include "js/lib.hpp"
#include "js/job_queue.hpp"

namespace phaseloop::runner {

namespace {

const JSClass window_class = {"Window", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps,
                              nullptr, nullptr, nullptr};

}  // namespace

// ---- microtasks: promise jobs and queueMicrotask ------------------------------

bool window_engine::queue_microtask(window_job kind, JS::HandleObject fn) {
  auto* j = new queued_job(cx_, this, kind, next_id());
  j->fn = fn;
  queued_.push_back(*j);
  rt_->queue_microtask({run_job, j});
  return true;
}

void window_engine::run_job(void* arg) {
  auto* j = static_cast<queued_job*>(arg);
  window_engine& e = *j->owner;
  JSContext* cx = e.cx_;
  if (e.tracer_) {
    e.tracer_->detail(j->kind == window_job::promise_job ? "promise job" : "queueMicrotask", j->id);
  }
  JS::RootedValue fn(cx, JS::ObjectValue(*j->fn));
  e.queued_.erase(*j);
  delete j;
  JS::RootedValue rval(cx);
  e.call(JS::UndefinedHandleValue, fn, JS::HandleValueArray::empty(), &rval);
}

// ---- the built-ins' natives (lib/internal_browser.js) ----------------------------------

// internal.reportError(value): an exception a listener threw, reported.
bool native_report_error(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  window_engine& e = window_engine::from(cx);
  JS_SetPendingException(cx, args.get(0));
  e.report_pending();
  args.rval().setUndefined();
  return true;
}

// internal.postTask(fn): fn called in a task of the posted message source.
bool native_post_task(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (!args.get(0).isObject()) {
    JS_ReportErrorASCII(cx, "postTask: not a function");
    return false;
  }
  JS::RootedObject fn(cx, &args[0].toObject());
  args.rval().setUndefined();
  return window_engine::from(cx).queue_js_task(browser::source::posted_message, window_js_task::kind::call, fn);
}

const JSFunctionSpec browser_natives[] = {JS_FN("reportError", native_report_error, 1, 0),
                                          JS_FN("postTask", native_post_task, 1, 0), JS_FS_END};

// ---- construction and teardown ---------------------------------------------------

window_engine::window_engine(phaseloop::loop& l, const run_options& o, std::string source)
    : runtime_host(l, o, std::move(source), inspect_style::node20) {
  lib_mode_ = "browser";
  // The defaults are Chromium's: 60 Hz frames, its timer rules, oldest
  // task first.
  rt_.emplace(l);
  const bool traced = o.trace || o.annotate_fd >= 0;
  observe(traced ? std::make_unique<window_tracer>(out_, o.trace, o.annotate_fd) : nullptr);
  if (!init_context()) {
    drop_protos();
    destroy_context();
  }
}

bool window_engine::init_context() {
  if (!new_context(std::make_unique<promise_job_queue<window_engine>>(*this), rejection_tracker, this,
                   &window_class, true, false)) {
    return false;
  }
  rt_->on_checkpoint_end(checkpoint_end, this);
  JS::RootedObject global(cx_, script_host::global());
  // window and self are the global object itself.
  JS::RootedValue self(cx_, JS::ObjectValue(*global));
  if (!JS_DefineProperty(cx_, global, "window", self, JSPROP_ENUMERATE | JSPROP_READONLY) ||
      !JS_DefineProperty(cx_, global, "self", self, JSPROP_ENUMERATE)) {
    return false;
  }
  return define_window_globals(*this, global) && define_window_api(*this, global) &&
         boot_builtins(*this, browser_natives, "internal/browser", false, nullptr);
}

window_engine::~window_engine() {
  stop_observing();
  if (cx_ == nullptr) {
    rt_.reset();
    return;
  }
  // Nothing the runtime holds may outlive it: the bindings' records, the
  // queued microtasks; then the runtime; then the context.
  release_window_api(*this);
  while (queued_job* j = queued_.pop_front()) delete j;
  while (window_js_task* t = js_tasks_.pop_front()) delete t;
  rt_.reset();
  unhandled_.clear();
  outstanding_.clear();
  drop_protos();
  destroy_context();
}

// ---- the main script -----------------------------------------------------------------

bool window_engine::evaluate_main() {
  JS::CompileOptions co(cx_);
  co.setFileAndLine(opts_.path.c_str(), 1);
  JS::SourceText<char16_t> src;
  if (!utf16_source(source_, src)) return false;
  JS::RootedValue rval(cx_);
  return JS::Evaluate(cx_, co, src, &rval);
}

void window_engine::run_main_cb(void* self) {
  window_engine& e = *static_cast<window_engine*>(self);
  if (e.tracer_) e.tracer_->detail("script", 0, e.opts_.file);
  if (!e.evaluate_main()) e.report_pending();
}

int window_engine::run() {
  rt_->run_main({run_main_cb, this});
  out_.finish();
  const int status = errors_ > 0 ? 1 : 0;
  if (tracer_) tracer_->note("exit", std::to_string(status));
  return status;
}

// ---- calling JS, and reporting what it throws ----------------------------------------

bool window_engine::call(JS::HandleValue thisv, JS::HandleValue fn, const JS::HandleValueArray& args,
                         JS::MutableHandleValue rval) {
  if (JS::Call(cx_, thisv, fn, args, rval)) return true;
  report_pending();
  return false;
}

void window_engine::report_pending() {
  if (!JS_IsExceptionPending(cx_)) {
    // Uncatchable (out of memory, or the engine gave up): a page would be
    // killed; so is this run.
    out_.finish();
    std::fprintf(stderr, "%s: uncatchable error (out of memory?)\n", opts_.path.c_str());
    if (tracer_) tracer_->note("uncaught", "uncatchable");
    std::fflush(stdout);
    std::_Exit(1);
  }
  JS::ExceptionStack es(cx_);
  if (!JS::StealPendingExceptionStack(cx_, &es)) {
    JS_ClearPendingException(cx_);
    errors_++;
    return;
  }
  JS::RootedValue error(cx_, es.exception());
  JS::RootedObject stack(cx_, es.stack());
  report(error, stack);
}

namespace {

// The first frame of a SavedFrame chain: where it was thrown.
bool top_frame(JSContext* cx, JS::HandleObject frame, std::string& file, unsigned& line, unsigned& column) {
  if (!frame) return false;
  JS::RootedString src(cx);
  if (JS::GetSavedFrameSource(cx, nullptr, frame, &src) != JS::SavedFrameResult::Ok || !src ||
      !to_utf8(cx, src, file)) {
    return false;
  }
  uint32_t l = 0;
  JS::GetSavedFrameLine(cx, nullptr, frame, &l);
  line = l;
  column = saved_frame_column(cx, frame);
  return true;
}

// How a thrown value or rejection reason is shown: an Error's stack
// ("Error: boom" and its frames), a primitive as its string (Chromium's
// "Uncaught a string"), any other object as console.log shows it.
std::string shown(JSContext* cx, JS::HandleValue v) {
  std::string text;
  if (is_error(cx, v)) {
    JS::RootedObject obj(cx, &v.toObject());
    bool frames = false;
    if (!error_stack(cx, obj, text, frames)) text = "Error";
  } else if (v.isObject() || v.isSymbol() || !value_to_utf8(cx, v, text)) {
    text.clear();
    JS_ClearPendingException(cx);
    inspect_options io;
    if (!inspect(cx, v, io, text)) text = "(a value that cannot be printed)";
  }
  JS_ClearPendingException(cx);
  return text;
}

// The message of the ErrorEvent for a thrown value that is not an Error:
// its string, as Chromium makes it ("Uncaught 1,2", "Uncaught null").
std::string event_text(JSContext* cx, JS::HandleValue v, const std::string& fallback) {
  std::string text;
  if (v.isSymbol() || !value_to_utf8(cx, v, text)) text = fallback;
  JS_ClearPendingException(cx);
  return text;
}

}  // namespace

void window_engine::report(JS::HandleValue error, JS::HandleObject stack) {
  // HTML "report an exception": an ErrorEvent with the message, where it
  // was thrown and the value; window.onerror returning true cancels it.
  const bool err = is_error(cx_, error);
  if (err) reword_reported(error);
  const std::string text = shown(cx_, error);  // "Error: boom" and, for errors, the stack
  const std::string head = text.substr(0, text.find('\n'));
  std::string file;
  unsigned line = 0, column = 0;
  if (!top_frame(cx_, stack, file, line, column) && err) {
    // A SyntaxError has no frame: its own fileName and lineNumber say where.
    JS::RootedObject obj(cx_, &error.toObject());
    JS::RootedValue f(cx_), l(cx_), c(cx_);
    if (JS_GetProperty(cx_, obj, "fileName", &f) && JS_GetProperty(cx_, obj, "lineNumber", &l) &&
        JS_GetProperty(cx_, obj, "columnNumber", &c) && f.isString() && l.isNumber()) {
      value_to_utf8(cx_, f, file);
      line = static_cast<unsigned>(l.toNumber());
      column = c.isNumber() ? static_cast<unsigned>(c.toNumber()) + 1 : 0;
    }
    JS_ClearPendingException(cx_);
  }
  if (!in_onerror_ && dispatch_error("Uncaught " + (err ? head : event_text(cx_, error, head)), file, line, column, error))
    return;
  if (tracer_) tracer_->note("error", head);

  std::string msg;
  if (file == opts_.path && line > 0) {
    print_location(msg, line, column);
  } else if (!file.empty() && line > 0) {
    msg += file + ":" + std::to_string(line) + "\n";
  }
  msg += "Uncaught " + text + "\n";
  out_.finish();
  // fwrite: the source line or the message may hold a NUL byte.
  std::fwrite(msg.data(), 1, msg.size(), stderr);
  std::fflush(stderr);
  errors_++;
}

bool window_engine::dispatch_error(const std::string& message, const std::string& file, unsigned line,
                                   unsigned column, JS::HandleValue error) {
  // An 'error' event on window (internal.dispatchError); a listener or
  // onerror returning true cancels it: the error is handled.
  JS::RootedValueArray<5> argv(cx_);
  JS::RootedString m(cx_, JS_NewStringCopyUTF8N(cx_, JS::UTF8Chars(message.data(), message.size())));
  JS::RootedString f(cx_, JS_NewStringCopyUTF8N(cx_, JS::UTF8Chars(file.data(), file.size())));
  if (!m || !f) {
    JS_ClearPendingException(cx_);
    return false;
  }
  argv[0].setString(m);
  argv[1].setString(f);
  argv[2].setNumber(line);
  argv[3].setNumber(column);
  argv[4].set(error);
  JS::RootedValue rval(cx_);
  in_onerror_ = true;
  const bool ok = call_lib("dispatchError", argv, &rval);
  if (!ok) report_pending();
  in_onerror_ = false;
  return ok && rval.isTrue();
}

// ---- unhandled rejections --------------------------------------------------------------

void window_engine::rejection_tracker(JSContext* cx, bool, JS::HandleObject promise,
                                      JS::PromiseRejectionHandlingState state, void* data) {
  window_engine& e = *static_cast<window_engine*>(data);
  if (state == JS::PromiseRejectionHandlingState::Unhandled) {
    e.unhandled_.push_back(std::make_unique<JS::PersistentRootedObject>(cx, promise));
    return;
  }
  // Handled before its notification: nothing is fired.
  for (auto it = e.unhandled_.begin(); it != e.unhandled_.end(); ++it) {
    if (**it == promise) {
      e.unhandled_.erase(it);
      return;
    }
  }
  // Handled after 'unhandledrejection' was fired: 'rejectionhandled', in
  // a task of the DOM manipulation source.
  for (auto it = e.outstanding_.begin(); it != e.outstanding_.end(); ++it) {
    if (**it == promise) {
      e.outstanding_.erase(it);
      if (!e.queue_js_task(browser::source::dom_manipulation, window_js_task::kind::rejection_handled, promise)) {
        JS_ClearPendingException(cx);
      }
      return;
    }
  }
}

void window_engine::checkpoint_end(browser::runtime&, void* self) {
  // HTML "notify about rejected promises": the rejections still without a
  // handler are given to one task of the DOM manipulation source, which
  // fires 'unhandledrejection' for each that has none by then.
  window_engine& e = *static_cast<window_engine*>(self);
  if (e.unhandled_.empty()) return;
  JS::RootedValueVector list(e.cx_);
  for (const auto& p : e.unhandled_) {
    if (!list.append(JS::ObjectValue(**p))) {
      JS_ClearPendingException(e.cx_);
      return;
    }
  }
  e.unhandled_.clear();
  JS::RootedObject arr(e.cx_, JS::NewArrayObject(e.cx_, list));
  if (!arr || !e.queue_js_task(browser::source::dom_manipulation, window_js_task::kind::notify_rejections, arr)) {
    JS_ClearPendingException(e.cx_);
  }
}

bool window_engine::queue_js_task(browser::source s, window_js_task::kind k, JS::HandleObject obj) {
  auto* t = new window_js_task(*this, cx_, k, obj);
  js_tasks_.push_back(*t);
  if (rt_->post_task(s, {run_js_task, t}) < 0) {
    js_tasks_.erase(*t);
    delete t;
    return false;
  }
  return true;
}

void window_engine::run_js_task(void* arg) {
  auto* t = static_cast<window_js_task*>(arg);
  window_engine& e = *t->owner;
  JSContext* cx = e.cx_;
  JS::RootedObject obj(cx, t->obj);
  const window_js_task::kind what = t->what;
  e.js_tasks_.erase(*t);
  delete t;
  JS::RootedValue rval(cx);
  if (what == window_js_task::kind::call) {
    if (e.tracer_) e.tracer_->detail("postMessage", 0);
    JS::RootedValue fn(cx, JS::ObjectValue(*obj));
    e.call(JS::UndefinedHandleValue, fn, JS::HandleValueArray::empty(), &rval);
    return;
  }
  if (what == window_js_task::kind::rejection_handled) {
    if (e.tracer_) e.tracer_->detail("rejectionhandled", 0);
    JS::RootedValueArray<2> argv(cx);
    argv[0].setObject(*obj);
    argv[1].set(JS::GetPromiseResult(obj));
    if (!e.call_lib("rejectionHandled", argv, &rval)) e.report_pending();
    return;
  }
  // The promises that still have no handler get their event; those whose
  // event nobody canceled are reported on stderr (Chromium's console).
  if (e.tracer_) e.tracer_->detail("unhandledrejection", 0);
  uint32_t n = 0;
  if (!JS::GetArrayLength(cx, obj, &n)) return e.report_pending();
  JS::RootedValueVector promises(cx), reasons(cx);
  for (uint32_t i = 0; i < n; i++) {
    JS::RootedValue p(cx);
    if (!JS_GetElement(cx, obj, i, &p)) return e.report_pending();
    JS::RootedObject promise(cx, &p.toObject());
    if (JS::GetPromiseIsHandled(promise)) continue;
    if (!promises.append(p) || !reasons.append(JS::GetPromiseResult(promise))) return e.report_pending();
    e.outstanding_.push_back(std::make_unique<JS::PersistentRootedObject>(cx, promise));
  }
  if (promises.empty()) return;
  JS::RootedObject promise_arr(cx, JS::NewArrayObject(cx, promises));
  JS::RootedObject reason_arr(cx, JS::NewArrayObject(cx, reasons));
  if (!promise_arr || !reason_arr) return e.report_pending();
  JS::RootedValueArray<2> argv(cx);
  argv[0].setObject(*promise_arr);
  argv[1].setObject(*reason_arr);
  if (!e.call_lib("notifyRejections", argv, &rval)) return e.report_pending();
  if (!rval.isObject()) return;
  JS::RootedObject uncanceled(cx, &rval.toObject());
  uint32_t m = 0;
  if (!JS::GetArrayLength(cx, uncanceled, &m)) return e.report_pending();
  for (uint32_t i = 0; i < m; i++) {
    JS::RootedValue index(cx);
    if (!JS_GetElement(cx, uncanceled, i, &index) || !index.isNumber()) return e.report_pending();
    JS::RootedValue reason(cx, reasons[static_cast<std::size_t>(index.toNumber())]);
    if (is_error(cx, reason)) e.reword_reported(reason);
    const std::string text = shown(cx, reason);
    if (e.tracer_) e.tracer_->note("unhandled-rejection", text.substr(0, text.find('\n')));
    e.out_.finish();
    std::fprintf(stderr, "%s: Uncaught (in promise) %s\n", e.opts_.path.c_str(), text.c_str());
    std::fflush(stderr);
    e.errors_++;
  }
}

// ---- console, performance, queueMicrotask ---------------------------------------------------

namespace {

bool performance_now(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setDouble(window_engine::from(cx).rt().now());
  return true;
}

const JSFunctionSpec performance_functions[] = {JS_FN("now", performance_now, 0, JSPROP_ENUMERATE), JS_FS_END};

bool queue_microtask(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (!check_args(cx, args, "queueMicrotask", 1, true)) return false;
  JS::RootedObject fn(cx, &args.get(0).toObject());
  args.rval().setUndefined();
  return window_engine::from(cx).queue_microtask(window_job::queue_microtask, fn);
}

}  // namespace

bool throw_type_error(JSContext* cx, const char* message) {
  return throw_error(cx, "TypeError", message, nullptr);
}

bool check_args(JSContext* cx, const JS::CallArgs& args, const char* method, unsigned needed, bool callback,
                const char* iface) {
  const std::string head = std::string("Failed to execute '") + method + "' on '" + iface + "': ";
  if (args.length() < needed) {
    const std::string msg = head + std::to_string(needed) + (needed == 1 ? " argument" : " arguments") +
                            " required, but only " + std::to_string(args.length()) + " present.";
    return throw_type_error(cx, msg.c_str());
  }
  if (callback && !(args.get(0).isObject() && JS::IsCallable(&args.get(0).toObject())))
    return throw_type_error(cx, (head + "parameter 1 is not of type 'Function'.").c_str());
  return true;
}

bool define_window_globals(window_engine& e, JS::HandleObject global) {
  JSContext* cx = e.cx();
  JS::RootedObject performance(cx, JS_NewPlainObject(cx));
  return performance && define_console(cx, global) && JS_DefineFunctions(cx, performance, performance_functions) &&
         JS_DefineProperty(cx, global, "performance", performance, JSPROP_ENUMERATE) &&
         JS_DefineFunction(cx, global, "queueMicrotask", queue_microtask, 1, JSPROP_ENUMERATE);
}

}  // namespace phaseloop::runner
