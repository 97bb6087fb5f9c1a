// SPDX-License-Identifier: MIT
// The window's scheduling APIs as thin bindings over phaseloop::browser:
// setTimeout/setInterval and clear*, requestAnimationFrame /
// cancelAnimationFrame, requestIdleCallback / cancelIdleCallback with
// IdleDeadline, MessageChannel and MessagePort.
//
// Ownership: the engine keeps one record per pending timer, frame callback,
// idle callback and channel, by id, and drops it once it ran or was
// cancelled; a record roots the function it calls. Arguments follow
// WebIDL's conversions (a delay is a `long`, a handle an `unsigned long`).

#include <js/Array.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Conversions.h>
#include <js/Object.h>
#include <js/SourceText.h>

#include <string>

#include "js/inspect.hpp"
#include "js/window/window.hpp"

namespace phaseloop::runner {

namespace {

bool callable(JS::HandleValue v) { return v.isObject() && JS::IsCallable(&v.toObject()); }

// The global object as `this` (callbacks of timers and frames get window).
JS::Value window_this(window_engine& e) { return JS::ObjectValue(*e.global()); }

// ---- timers ------------------------------------------------------------------------

// Runs a string handler as a classic script (setTimeout('code', ms)).
void evaluate_string(window_engine& e, JS::HandleValue code) {
  JSContext* cx = e.cx();
  std::string text;
  if (!value_to_utf8(cx, code, text)) {
    e.report_pending();
    return;
  }
  // Its own source, not the file's: errors must not point into the script.
  const std::string name = e.options().path + " (timer handler string)";
  JS::CompileOptions co(cx);
  co.setFileAndLine(name.c_str(), 1);
  JS::SourceText<mozilla::Utf8Unit> src;
  JS::RootedValue rval(cx);
  if (!src.init(cx, text.data(), text.size(), JS::SourceOwnership::Borrowed) ||
      !JS::Evaluate(cx, co, src, &rval)) {
    e.report_pending();
  }
}

void fire_timer(browser::dom_timer* t) {
  auto* rec = static_cast<window_timer*>(t->data);
  window_engine& e = *rec->owner;
  JSContext* cx = e.cx();
  const int id = rec->id;
  const bool repeat = t->repeating();
  if (window_tracer* tr = e.tracing()) {
    std::string what = std::to_string(static_cast<long long>(t->delay())) + " ms, nesting level " +
                       std::to_string(t->nesting_level());
    tr->detail(repeat ? "setInterval" : "setTimeout", static_cast<std::uint64_t>(id), what);
  }
  // A one-shot timer is done: its record leaves the table before the call
  // (clearTimeout(own id) then finds nothing). An interval stays.
  std::unique_ptr<window_timer> done;
  if (!repeat) {
    auto it = e.timers().find(id);
    done = std::move(it->second);
    e.timers().erase(it);
  }
  rec->running = true;
  JS::RootedValue fn(cx, rec->fn);
  JS::RootedObject extra(cx, rec->args);
  if (!callable(fn)) {
    evaluate_string(e, fn);
  } else {
    JS::RootedValueVector argv(cx);
    uint32_t n = 0;
    bool ok = !extra || JS::GetArrayLength(cx, extra, &n);
    for (uint32_t i = 0; ok && i < n; i++) {
      JS::RootedValue v(cx);
      ok = JS_GetElement(cx, extra, i, &v) && argv.append(v);
    }
    JS::RootedValue thisv(cx, window_this(e));
    JS::RootedValue rval(cx);
    if (!ok) {
      e.report_pending();
    } else {
      e.call(thisv, fn, argv, &rval);
    }
  }
  rec->running = false;
  // An interval cleared by its own callback is dropped now.
  if (repeat && !rec->t.active()) e.timers().erase(id);
}

bool set_timer(JSContext* cx, unsigned argc, JS::Value* vp, bool repeat) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (!check_args(cx, args, repeat ? "setInterval" : "setTimeout", 1, false)) return false;
  window_engine& e = window_engine::from(cx);
  JS::RootedValue handler(cx, args.get(0));
  if (!callable(handler)) {
    // A string (or anything else, converted) is code to evaluate.
    JS::RootedString s(cx, JS::ToString(cx, handler));
    if (!s) return false;
    handler.setString(s);
  }
  // WebIDL `long`: ToInt32 (NaN and undefined are 0, '1' is 1).
  int32_t ms = 0;
  if (args.length() > 1 && !JS::ToInt32(cx, args[1], &ms)) return false;
  JS::RootedObject extra(cx);
  if (args.length() > 2) {
    extra = JS::NewArrayObject(cx, JS::HandleValueArray::subarray(args, 2, args.length() - 2));
    if (!extra) return false;
  }
  const int id = e.next_timer_id();
  auto rec = std::make_unique<window_timer>(e, e.rt(), cx, id);
  rec->fn = handler;
  rec->args = extra;
  rec->t.data = rec.get();
  rec->t.start(fire_timer, ms, repeat);
  e.timers().emplace(id, std::move(rec));
  args.rval().setInt32(id);
  return true;
}

bool set_timeout(JSContext* cx, unsigned argc, JS::Value* vp) { return set_timer(cx, argc, vp, false); }
bool set_interval(JSContext* cx, unsigned argc, JS::Value* vp) { return set_timer(cx, argc, vp, true); }

bool clear_timer(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  window_engine& e = window_engine::from(cx);
  args.rval().setUndefined();
  int32_t id = 0;
  if (!JS::ToInt32(cx, args.get(0), &id)) return false;
  auto it = e.timers().find(id);
  if (it == e.timers().end()) return true;  // unknown, done, or already cleared
  it->second->t.clear();
  // An interval clearing itself is dropped when its callback returns.
  if (!it->second->running) e.timers().erase(it);
  return true;
}

// ---- animation frames ------------------------------------------------------------

using callback_table = std::unordered_map<unsigned, std::unique_ptr<window_callback>>;

// A frame or idle callback runs once: its record leaves its table before
// the call (it is always there: cancelling removes it from both).
std::unique_ptr<window_callback> take(callback_table& table, unsigned id) {
  auto it = table.find(id);
  std::unique_ptr<window_callback> rec = std::move(it->second);
  table.erase(it);
  return rec;
}

// Calls a taken callback with window as `this` and one argument.
void call_once(window_engine& e, const window_callback& rec, JS::HandleValue arg) {
  JSContext* cx = e.cx();
  JS::RootedValue fn(cx, rec.fn);
  JS::RootedValueArray<1> argv(cx);
  argv[0].set(arg);
  JS::RootedValue thisv(cx, window_this(e));
  JS::RootedValue rval(cx);
  e.call(thisv, fn, argv, &rval);
}

// cancelAnimationFrame / cancelIdleCallback: the handle is a WebIDL
// `unsigned long`; unknown handles are ignored.
template <callback_table& (window_engine::*Table)() noexcept, void (browser::runtime::*Cancel)(unsigned) noexcept>
bool cancel_callback(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  const bool frames = Table == &window_engine::frames;
  if (!check_args(cx, args, frames ? "cancelAnimationFrame" : "cancelIdleCallback", 1, false)) return false;
  window_engine& e = window_engine::from(cx);
  args.rval().setUndefined();
  uint32_t id = 0;
  if (!JS::ToUint32(cx, args.get(0), &id)) return false;
  if ((e.*Table)().erase(id) > 0) (e.rt().*Cancel)(id);
  return true;
}

void run_frame(double timestamp, void* arg) {
  auto* rec = static_cast<window_callback*>(arg);
  window_engine& e = *rec->owner;
  std::unique_ptr<window_callback> done = take(e.frames(), rec->id);
  if (window_tracer* tr = e.tracing()) tr->detail("requestAnimationFrame", done->id, "");
  JS::RootedValue ts(e.cx(), JS::DoubleValue(timestamp));
  call_once(e, *done, ts);
}

bool request_animation_frame(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  window_engine& e = window_engine::from(cx);
  if (!check_args(cx, args, "requestAnimationFrame", 1, true)) return false;
  auto rec = std::make_unique<window_callback>(e, cx);
  rec->fn = args[0];
  rec->id = e.rt().request_animation_frame(run_frame, rec.get());
  args.rval().setNumber(rec->id);
  e.frames().emplace(rec->id, std::move(rec));
  return true;
}

// ---- idle callbacks and IdleDeadline ----------------------------------------------

enum deadline_slot : unsigned { slot_deadline = 0, slot_did_timeout = 1, deadline_slots = 2 };

const JSClass deadline_class = {"IdleDeadline", JSCLASS_HAS_RESERVED_SLOTS(deadline_slots), nullptr,
                                nullptr, nullptr, nullptr};

bool deadline_of(JSContext* cx, const JS::CallArgs& args, JSObject*& obj) {
  if (!args.thisv().isObject() || JS::GetClass(&args.thisv().toObject()) != &deadline_class ||
      !JS::GetReservedSlot(&args.thisv().toObject(), slot_deadline).isNumber()) {
    return throw_type_error(cx, "Illegal invocation");
  }
  obj = &args.thisv().toObject();
  return true;
}

bool deadline_time_remaining(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JSObject* obj = nullptr;
  if (!deadline_of(cx, args, obj)) return false;
  window_engine& e = window_engine::from(cx);
  const browser::idle_deadline d{&e.rt(), JS::GetReservedSlot(obj, slot_deadline).toNumber(),
                                 JS::GetReservedSlot(obj, slot_did_timeout).toBoolean()};
  args.rval().setDouble(d.time_remaining());
  return true;
}

bool deadline_did_timeout(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JSObject* obj = nullptr;
  if (!deadline_of(cx, args, obj)) return false;
  args.rval().set(JS::GetReservedSlot(obj, slot_did_timeout));
  return true;
}

const JSFunctionSpec deadline_methods[] = {
    JS_FN("timeRemaining", deadline_time_remaining, 0, JSPROP_ENUMERATE), JS_FS_END};
const JSPropertySpec deadline_props[] = {JS_PSG("didTimeout", deadline_did_timeout, JSPROP_ENUMERATE),
                                         JS_PS_END};

void run_idle(const browser::idle_deadline& d, void* arg) {
  auto* rec = static_cast<window_callback*>(arg);
  window_engine& e = *rec->owner;
  JSContext* cx = e.cx();
  std::unique_ptr<window_callback> done = take(e.idles(), rec->id);
  if (window_tracer* tr = e.tracing()) {
    tr->detail("requestIdleCallback", done->id, d.did_timeout ? "timed out" : "");
  }
  JS::RootedObject proto(cx, e.get_proto(window_proto::idle_deadline));
  JS::RootedObject deadline(cx, JS_NewObjectWithGivenProto(cx, &deadline_class, proto));
  if (!deadline) {
    e.report_pending();
    return;
  }
  JS::SetReservedSlot(deadline, slot_deadline, JS::DoubleValue(d.deadline));
  JS::SetReservedSlot(deadline, slot_did_timeout, JS::BooleanValue(d.did_timeout));
  JS::RootedValue deadline_v(cx, JS::ObjectValue(*deadline));
  call_once(e, *done, deadline_v);
}

bool request_idle_callback(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  window_engine& e = window_engine::from(cx);
  if (!check_args(cx, args, "requestIdleCallback", 1, true)) return false;
  // IdleRequestOptions { unsigned long timeout = 0 }.
  uint32_t timeout = 0;
  if (args.get(1).isObject()) {
    JS::RootedObject o(cx, &args[1].toObject());
    JS::RootedValue t(cx);
    if (!JS_GetProperty(cx, o, "timeout", &t)) return false;
    if (!t.isUndefined() && !JS::ToUint32(cx, t, &timeout)) return false;
  } else if (!args.get(1).isNullOrUndefined()) {
    return throw_type_error(cx, "Failed to execute 'requestIdleCallback' on 'Window': "
                                "The provided value is not of type 'IdleRequestOptions'.");
  }
  auto rec = std::make_unique<window_callback>(e, cx);
  rec->fn = args[0];
  rec->id = e.rt().request_idle_callback(run_idle, rec.get(), timeout);
  args.rval().setNumber(rec->id);
  e.idles().emplace(rec->id, std::move(rec));
  return true;
}

// ---- MessageChannel and MessagePort --------------------------------------------------

// A MessagePort is an EventTarget (lib/internal_browser.js gives it
// EventTarget's methods and the onmessage attribute); the native side
// holds the layer's port.
enum port_slot : unsigned { slot_port = 0, port_slots = 1 };

const JSClass port_class = {"MessagePort", JSCLASS_HAS_RESERVED_SLOTS(port_slots), nullptr,
                            nullptr, nullptr, nullptr};
const JSClass channel_class = {"MessageChannel", 0, nullptr, nullptr, nullptr, nullptr};

browser::message_port* port_of(JSContext* cx, const JS::CallArgs& args) {
  if (!args.thisv().isObject() || JS::GetClass(&args.thisv().toObject()) != &port_class) {
    throw_type_error(cx, "Illegal invocation");
    return nullptr;
  }
  auto* p = JS::GetMaybePtrFromReservedSlot<browser::message_port>(&args.thisv().toObject(), slot_port);
  if (p == nullptr) throw_type_error(cx, "Illegal invocation");
  return p;
}

// One message taken off a port: a 'message' event on the port object
// (internal.dispatchPortMessage), with a structured clone of the data.
void deliver(browser::message_port* p, void* m) {
  auto* ch = static_cast<window_channel*>(p->data);
  window_engine& e = *ch->owner;
  JSContext* cx = e.cx();
  auto* msg = static_cast<window_message*>(m);
  e.messages().erase(*msg);
  std::unique_ptr<window_message> hold(msg);
  const bool first = p == &ch->ch.port1;
  JS::RootedObject port(cx, first ? ch->port1.get() : ch->port2.get());
  if (window_tracer* tr = e.tracing()) tr->detail("message", 0, first ? "to port1" : "to port2");
  JS::RootedValue data(cx);
  if (!hold->data.read(cx, &data)) {
    e.report_pending();
    return;
  }
  JS::RootedValueArray<2> argv(cx);
  argv[0].setObject(*port);
  argv[1].set(data);
  JS::RootedValue rval(cx);
  if (!e.call_lib("dispatchPortMessage", argv, &rval)) e.report_pending();
}

bool port_post_message(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  browser::message_port* p = port_of(cx, args);
  if (p == nullptr) return false;
  window_engine& e = window_engine::from(cx);
  args.rval().setUndefined();
  if (args.length() == 0) {
    return throw_type_error(cx, "Failed to execute 'postMessage' on 'MessagePort': "
                                "1 argument required, but only 0 present.");
  }
  // A transfer list is not supported: only an empty one (or none).
  if (args.length() > 1 && !args[1].isNullOrUndefined()) {
    uint32_t n = 1;
    bool is_array = false;
    if (!JS::IsArrayObject(cx, args[1], &is_array)) return false;
    if (is_array) {
      JS::RootedObject list(cx, &args[1].toObject());
      if (!JS::GetArrayLength(cx, list, &n)) return false;
    }
    if (n > 0) {
      return throw_type_error(cx, "Failed to execute 'postMessage' on 'MessagePort': "
                                  "transferring objects is not supported by phaseloop.");
    }
  }
  // The structured clone is taken now, as postMessage does; what cannot be
  // cloned is Chromium's DataCloneError.
  auto msg = std::make_unique<window_message>();
  if (!msg->data.write(cx, args[0])) {
    if (!JS_IsExceptionPending(cx)) return false;
    JS_ClearPendingException(cx);
    JS::RootedValueArray<2> argv(cx);
    JS::RootedString where(cx, JS_NewStringCopyZ(cx, "Failed to execute 'postMessage' on 'MessagePort': "));
    if (!where) return false;
    argv[0].set(args[0]);
    argv[1].setString(where);
    JS::RootedValue err(cx);
    if (!e.call_lib("dataCloneError", argv, &err)) return false;
    JS_SetPendingException(cx, err);
    return false;
  }
  if (p->post_message(msg.get())) e.messages().push_back(*msg.release());
  return true;
}

bool port_start(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  browser::message_port* p = port_of(cx, args);
  if (p == nullptr) return false;
  p->start();
  args.rval().setUndefined();
  return true;
}

bool port_close(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  browser::message_port* p = port_of(cx, args);
  if (p == nullptr) return false;
  p->close();
  args.rval().setUndefined();
  return true;
}

const JSFunctionSpec port_methods[] = {JS_FN("postMessage", port_post_message, 1, JSPROP_ENUMERATE),
                                       JS_FN("start", port_start, 0, JSPROP_ENUMERATE),
                                       JS_FN("close", port_close, 0, JSPROP_ENUMERATE), JS_FS_END};

bool illegal_constructor(JSContext* cx, unsigned, JS::Value*) {
  return throw_type_error(cx, "Illegal constructor");
}

JSObject* new_port(JSContext* cx, window_engine& e, browser::message_port& native) {
  JS::RootedObject proto(cx, e.get_proto(window_proto::message_port));
  JSObject* obj = JS_NewObjectWithGivenProto(cx, &port_class, proto);
  if (obj != nullptr) JS::SetReservedSlot(obj, slot_port, JS::PrivateValue(&native));
  return obj;
}

bool channel_construct(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (!args.isConstructing()) {
    return throw_type_error(cx, "Failed to construct 'MessageChannel': Please use the 'new' operator, "
                                "this DOM object constructor cannot be called as a function.");
  }
  window_engine& e = window_engine::from(cx);
  JS::RootedObject self(cx, JS_NewObjectForConstructor(cx, &channel_class, args));
  if (!self) return false;
  auto rec = std::make_unique<window_channel>(e, e.rt(), cx);
  rec->ch.port1.data = rec.get();
  rec->ch.port2.data = rec.get();
  rec->ch.port1.set_handler(deliver);
  rec->ch.port2.set_handler(deliver);
  JS::RootedObject p1(cx, new_port(cx, e, rec->ch.port1));
  JS::RootedObject p2(cx, new_port(cx, e, rec->ch.port2));
  if (!p1 || !p2 || !JS_DefineProperty(cx, self, "port1", p1, JSPROP_ENUMERATE | JSPROP_READONLY) ||
      !JS_DefineProperty(cx, self, "port2", p2, JSPROP_ENUMERATE | JSPROP_READONLY)) {
    return false;
  }
  rec->port1 = p1;
  rec->port2 = p2;
  e.channels().push_back(std::move(rec));
  args.rval().setObject(*self);
  return true;
}

const JSFunctionSpec window_functions[] = {
    JS_FN("setTimeout", set_timeout, 2, JSPROP_ENUMERATE),
    JS_FN("setInterval", set_interval, 2, JSPROP_ENUMERATE),
    JS_FN("clearTimeout", clear_timer, 1, JSPROP_ENUMERATE),
    JS_FN("clearInterval", clear_timer, 1, JSPROP_ENUMERATE),
    JS_FN("requestAnimationFrame", request_animation_frame, 1, JSPROP_ENUMERATE),
    JS_FN("cancelAnimationFrame",
          (cancel_callback<&window_engine::frames, &browser::runtime::cancel_animation_frame>), 1,
          JSPROP_ENUMERATE),
    JS_FN("requestIdleCallback", request_idle_callback, 1, JSPROP_ENUMERATE),
    JS_FN("cancelIdleCallback", (cancel_callback<&window_engine::idles, &browser::runtime::cancel_idle_callback>),
          1, JSPROP_ENUMERATE),
    JS_FS_END};

}  // namespace

bool define_window_api(window_engine& e, JS::HandleObject global) {
  JSContext* cx = e.cx();
  if (!JS_DefineFunctions(cx, global, window_functions)) return false;
  JS::RootedObject deadline(
      cx, init_class(cx, global, &deadline_class, illegal_constructor, 0, deadline_props, deadline_methods));
  JS::RootedObject port(cx, init_class(cx, global, &port_class, illegal_constructor, 0, nullptr, port_methods));
  JS::RootedObject channel(cx, init_class(cx, global, &channel_class, channel_construct, 0, nullptr, nullptr));
  if (!deadline || !port || !channel) return false;
  e.set_proto(window_proto::idle_deadline, deadline);
  e.set_proto(window_proto::message_port, port);
  return true;
}

void release_window_api(window_engine& e) noexcept {
  // Timers and channels first (they are linked into the runtime), then the
  // callbacks still waiting and the messages never delivered.
  for (auto& [id, rec] : e.timers()) rec->t.clear();
  e.timers().clear();
  e.channels().clear();
  e.frames().clear();
  e.idles().clear();
  while (window_message* m = e.messages().pop_front()) delete m;
}

}  // namespace phaseloop::runner
