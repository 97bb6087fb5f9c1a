// SPDX-License-Identifier: MIT
// setTimeout, setInterval, setImmediate, process.nextTick, queueMicrotask:
// thin bindings over phaseloop::node, which decides when each runs.
//
// A Timeout (or Immediate) JS object owns its native record; the record
// roots the object while it is scheduled, so the object lives at least as
// long as the runtime may call it, and is collected once it is done.

#include <js/Array.h>
#include <js/Conversions.h>
#include <js/Object.h>
#include <js/Symbol.h>

#include <cmath>
#include <string>

#include "js/bindings.hpp"
#include "js/node/engine.hpp"
#include "js/inspect.hpp"

namespace phaseloop::runner {

namespace {

// A Timeout's and an Immediate's one slot: the native record.
constexpr unsigned slot_native = 0;

// ---- Timeout -------------------------------------------------------------------

// Runs on SpiderMonkey's background thread: the record of a collected
// Timeout is unscheduled and unrooted (a scheduled one roots its object),
// so freeing it touches nothing the loop's thread uses; what its JS::Heap
// fields point to was tenured before the object could die, so their
// destructors have no store buffer entry to remove.
void timeout_finalize(JS::GCContext*, JSObject* obj) {
  delete JS::GetMaybePtrFromReservedSlot<js_timeout>(obj, slot_native);
}

// The object holds its callback and arguments through its record.
void timeout_trace(JSTracer* trc, JSObject* obj) {
  if (auto* r = JS::GetMaybePtrFromReservedSlot<js_timeout>(obj, slot_native)) {
    JS::TraceEdge(trc, &r->callback, "Timeout callback");
    JS::TraceEdge(trc, &r->args, "Timeout arguments");
  }
}

const JSClassOps timeout_ops = {nullptr, nullptr, nullptr, nullptr, nullptr,
                                nullptr, timeout_finalize, nullptr, nullptr, timeout_trace};
const JSClass timeout_class = {
    "Timeout", JSCLASS_HAS_RESERVED_SLOTS(1) | JSCLASS_BACKGROUND_FINALIZE, &timeout_ops,
    nullptr,   nullptr, nullptr};

// An Immediate's record lives from setImmediate until it runs or is
// cleared (release_immediate() below). The object needs no finalizer for
// it, but has one anyway: a class without a finalizer would have its
// objects made in the nursery, and a million pending ones held from there
// make every minor GC trace them all (8x slower in bench-node). The
// object's one slot holds the record.
void immediate_finalize(JS::GCContext*, JSObject*) {}

const JSClassOps immediate_ops = {nullptr, nullptr, nullptr, nullptr, nullptr,
                                  nullptr, immediate_finalize, nullptr, nullptr, nullptr};
const JSClass immediate_class = {
    "Immediate", JSCLASS_HAS_RESERVED_SLOTS(1) | JSCLASS_BACKGROUND_FINALIZE, &immediate_ops,
    nullptr,     nullptr, nullptr};

// The record behind `v` when it is an object of class `c`, else nullptr.
template <class R>
R* record_of(JS::HandleValue v, const JSClass* c) {
  if (!v.isObject() || JS::GetClass(&v.toObject()) != c) return nullptr;
  return JS::GetMaybePtrFromReservedSlot<R>(&v.toObject(), slot_native);
}

template <class R>
R* this_record(JSContext* cx, const JS::CallArgs& args, const JSClass* c) {
  R* r = record_of<R>(args.thisv(), c);
  if (r == nullptr) JS_ReportErrorASCII(cx, "%s method called on an incompatible object", c->name);
  return r;
}

// A scheduled timeout roots its object; the engine lists it (for its
// tracer and teardown, and Node 20's clearTimeout(number)).
void root(js_timeout& r, JSObject* obj) {
  if (r.t.active() && !r.self) {
    r.self = obj;
    r.owner->adopt(r);
  }
}

void unroot(js_timeout& r) {
  if (!r.self) return;
  r.self = nullptr;
  r.owner->forget(r);
}

void on_timeout(node::timeout* t) {
  auto* r = static_cast<js_timeout*>(t->data);
  engine& e = *r->owner;
  JSContext* cx = e.cx();
  JS::RootedValue thisv(cx, JS::ObjectValue(*r->self));
  JS::RootedValue fn(cx, r->callback);
  JS::RootedObject args(cx, r->args);
  r->in_callback = true;
  e.call_or_die(thisv, fn, args);
  r->in_callback = false;
}

// The runtime is done with the timeout (it fired once, or was cleared from
// its own callback): nothing holds the object any more.
void on_timeout_done(node::timeout* t) { unroot(*static_cast<js_timeout*>(t->data)); }

void on_immediate(node::immediate* im) {
  auto* r = static_cast<js_immediate*>(im->data);
  engine& e = *r->owner;
  JSContext* cx = e.cx();
  JS::RootedValue thisv(cx, JS::ObjectValue(*r->self));
  JS::RootedValue fn(cx, r->callback);
  JS::RootedObject args(cx, r->args);
  release_immediate(*r);
  e.call_or_die(thisv, fn, args);
}

// The arguments after `first`, as an array (null when there are none).
bool extra_args(JSContext* cx, const JS::CallArgs& args, unsigned first, JS::MutableHandleObject extra) {
  if (args.length() <= first) {
    extra.set(nullptr);
    return true;
  }
  extra.set(JS::NewArrayObject(cx, JS::HandleValueArray::subarray(args, first, args.length() - first)));
  return extra != nullptr;
}

bool is_callable(JS::HandleValue v) { return v.isObject() && JS::IsCallable(&v.toObject()); }

bool start_timeout(JSContext* cx, unsigned argc, JS::Value* vp, bool repeat) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  if (!is_callable(args.get(0))) return throw_callback_type(cx, "callback", args.get(0));
  double after = 1;
  if (args.length() > 1 && !JS::ToNumber(cx, args[1], &after)) return false;
  if (after > node::timeout_max) {
    std::string shown = std::to_string(after);
    if (after == std::floor(after) && after < 1e15) shown = std::to_string(static_cast<long long>(after));
    e.warn("TimeoutOverflowWarning: " + shown +
           " does not fit into a 32-bit signed integer.\nTimeout duration was set to 1.");
  }
  JS::RootedObject proto(cx, e.get_proto(proto::timeout));
  JS::RootedObject obj(cx, JS_NewObjectWithGivenProto(cx, &timeout_class, proto));
  JS::RootedObject extra(cx);
  if (!obj || !extra_args(cx, args, 2, &extra)) return false;
  js_timeout* r = e.new_timeout();
  r->callback = args[0];
  r->args = extra;
  JS::SetReservedSlot(obj, slot_native, JS::PrivateValue(r));  // traced by the object from here on
  r->t.data = r;
  r->t.on_done(on_timeout_done);
  r->t.start(on_timeout, after, repeat);
  root(*r, obj);
  args.rval().setObject(*obj);
  return true;
}

bool set_timeout(JSContext* cx, unsigned argc, JS::Value* vp) {
  return start_timeout(cx, argc, vp, false);
}

bool set_interval(JSContext* cx, unsigned argc, JS::Value* vp) {
  return start_timeout(cx, argc, vp, true);
}

void clear(js_timeout& r) {
  r.t.clear();
  // From its own callback, the runtime still has it: on_timeout_done
  // releases it when the callback returns.
  if (!r.in_callback) unroot(r);
}

// Node 20: a Timeout converts to its number (Symbol.toPrimitive), and from
// then on clearTimeout and clearInterval also take that number, or the
// string of it.
bool timeout_to_primitive(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  auto* r = this_record<js_timeout>(cx, args, &timeout_class);
  if (r == nullptr) return false;
  r->known_by_id = true;
  args.rval().setNumber(static_cast<double>(r->id));
  return true;
}

js_timeout* timeout_by_id(JSContext* cx, JS::HandleValue v) {
  if (engine::from(cx).mode() != node::mode::current) return nullptr;
  double n = -1;
  if (v.isNumber()) {
    n = v.toNumber();
  } else if (v.isString()) {
    std::string s;
    if (!value_to_utf8(cx, v, s) || s.empty() || s.size() > 15 || s.find_first_not_of("0123456789") != std::string::npos ||
        (s.size() > 1 && s[0] == '0'))
      return nullptr;  // not the key an id would be
    n = std::stod(s);
  }
  if (!(n >= 1) || n != std::floor(n) || n > 9007199254740991.0) return nullptr;
  return engine::from(cx).timeout_known_by(static_cast<std::uint64_t>(n));
}

bool clear_timeout(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  // A Timeout, or in Node 20 the number of one the script has seen; anything
  // else (undefined, null, an unknown id) is ignored.
  if (auto* r = record_of<js_timeout>(args.get(0), &timeout_class)) clear(*r);
  else if (auto* k = timeout_by_id(cx, args.get(0))) clear(*k);
  args.rval().setUndefined();
  return true;
}

bool timeout_ref(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  auto* r = this_record<js_timeout>(cx, args, &timeout_class);
  if (r == nullptr) return false;
  r->t.ref();
  args.rval().set(args.thisv());
  return true;
}

bool timeout_unref(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  auto* r = this_record<js_timeout>(cx, args, &timeout_class);
  if (r == nullptr) return false;
  r->t.unref();
  args.rval().set(args.thisv());
  return true;
}

bool timeout_has_ref(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  auto* r = this_record<js_timeout>(cx, args, &timeout_class);
  if (r == nullptr) return false;
  args.rval().setBoolean(r->t.has_ref());
  return true;
}

bool timeout_refresh(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  auto* r = this_record<js_timeout>(cx, args, &timeout_class);
  if (r == nullptr) return false;
  r->t.refresh();
  root(*r, &args.thisv().toObject());
  args.rval().set(args.thisv());
  return true;
}

bool timeout_close(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  auto* r = this_record<js_timeout>(cx, args, &timeout_class);
  if (r == nullptr) return false;
  clear(*r);
  args.rval().set(args.thisv());
  return true;
}

// ---- Immediate ------------------------------------------------------------------

bool set_immediate(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  if (!is_callable(args.get(0))) return throw_callback_type(cx, "callback", args.get(0));
  JS::RootedObject proto(cx, e.get_proto(proto::immediate));
  JS::RootedObject obj(cx, JS_NewObjectWithGivenProto(cx, &immediate_class, proto));
  JS::RootedObject extra(cx);
  if (!obj || !extra_args(cx, args, 1, &extra)) return false;
  js_immediate* r = e.new_immediate();
  r->self = obj;
  r->callback = args[0];
  r->args = extra;
  e.adopt(*r);  // traced from here on
  JS::SetReservedSlot(obj, slot_native, JS::PrivateValue(r));
  r->im.data = r;
  r->im.start(on_immediate);
  args.rval().setObject(*obj);
  return true;
}

bool clear_immediate(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (auto* r = record_of<js_immediate>(args.get(0), &immediate_class)) release_immediate(*r);
  args.rval().setUndefined();
  return true;
}

// The record of an Immediate `this` (null once it ran or was cleared);
// false with an error for any other `this`.
bool this_immediate(JSContext* cx, const JS::CallArgs& args, js_immediate*& r) {
  if (!args.thisv().isObject() || JS::GetClass(&args.thisv().toObject()) != &immediate_class) {
    JS_ReportErrorASCII(cx, "%s method called on an incompatible object", immediate_class.name);
    return false;
  }
  r = JS::GetMaybePtrFromReservedSlot<js_immediate>(&args.thisv().toObject(), slot_native);
  return true;
}

bool immediate_ref(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  js_immediate* r = nullptr;
  if (!this_immediate(cx, args, r)) return false;
  if (r != nullptr) r->im.ref();
  args.rval().set(args.thisv());
  return true;
}

bool immediate_unref(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  js_immediate* r = nullptr;
  if (!this_immediate(cx, args, r)) return false;
  if (r != nullptr) r->im.unref();
  args.rval().set(args.thisv());
  return true;
}

bool immediate_has_ref(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  js_immediate* r = nullptr;
  if (!this_immediate(cx, args, r)) return false;
  args.rval().setBoolean(r != nullptr && r->im.has_ref());
  return true;
}

// ---- nextTick and queueMicrotask ----------------------------------------------------

bool next_tick(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (!is_callable(args.get(0))) return throw_callback_type(cx, "callback", args.get(0));
  JS::RootedObject fn(cx, &args[0].toObject());
  JS::RootedObject extra(cx);
  if (args.length() > 1) {
    extra = JS::NewArrayObject(cx, JS::HandleValueArray::subarray(args, 1, args.length() - 1));
    if (!extra) return false;
  }
  args.rval().setUndefined();
  return engine::from(cx).queue_tick(fn, extra);
}

bool queue_microtask(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  if (!is_callable(args.get(0))) return throw_callback_type(cx, "callback", args.get(0));
  if (e.mode() == node::mode::node11 && e.first_use(engine::once::queue_microtask)) {
    e.warn("ExperimentalWarning: queueMicrotask() is experimental.");
  }
  JS::RootedObject fn(cx, &args[0].toObject());
  args.rval().setUndefined();
  return e.queue_microtask(task_kind::queue_microtask, fn);
}

const JSFunctionSpec timeout_methods[] = {
    JS_FN("ref", timeout_ref, 0, 0),         JS_FN("unref", timeout_unref, 0, 0),
    JS_FN("hasRef", timeout_has_ref, 0, 0),  JS_FN("refresh", timeout_refresh, 0, 0),
    JS_FN("close", timeout_close, 0, 0),     JS_FS_END};

const JSFunctionSpec immediate_methods[] = {
    JS_FN("ref", immediate_ref, 0, 0), JS_FN("unref", immediate_unref, 0, 0),
    JS_FN("hasRef", immediate_has_ref, 0, 0), JS_FS_END};

// The globals that make and clear Timeouts, then Immediates.
const JSFunctionSpec timeout_functions[] = {
    JS_FN("setTimeout", set_timeout, 2, JSPROP_ENUMERATE), JS_FN("setInterval", set_interval, 2, JSPROP_ENUMERATE),
    JS_FN("clearTimeout", clear_timeout, 1, JSPROP_ENUMERATE),
    JS_FN("clearInterval", clear_timeout, 1, JSPROP_ENUMERATE), JS_FS_END};
const JSFunctionSpec immediate_functions[] = {JS_FN("setImmediate", set_immediate, 1, JSPROP_ENUMERATE),
                                              JS_FN("clearImmediate", clear_immediate, 1, JSPROP_ENUMERATE),
                                              JS_FS_END};

}  // namespace

// Done with its record, whether it ran or was cleared: as in Node, its
// hasRef() is false from then on and ref()/unref() do nothing, and the
// memory is free for the next setImmediate at once, not at the next GC.
void release_immediate(js_immediate& r) noexcept {
  r.im.clear();
  JS::SetReservedSlot(r.self, slot_native, JS::UndefinedValue());
  r.owner->forget(r);
  delete &r;
}

bool define_timers(engine& e, JS::HandleObject global) {
  JSContext* cx = e.cx();
  JS::RootedObject tproto(cx, named_proto(cx, "Timeout", timeout_methods));
  JS::RootedObject iproto(cx, named_proto(cx, "Immediate", immediate_methods));
  if (!tproto || !iproto) return false;
  // Timeout#hasRef and Immediate#hasRef came with Node 11.
  if (e.mode() == node::mode::node10 &&
      (!JS_DeleteProperty(cx, tproto, "hasRef") || !JS_DeleteProperty(cx, iproto, "hasRef"))) {
    return false;
  }
  if (e.mode() == node::mode::current) {
    JS::RootedId to_primitive(cx, JS::PropertyKey::Symbol(JS::GetWellKnownSymbol(cx, JS::SymbolCode::toPrimitive)));
    if (!JS_DefineFunctionById(cx, tproto, to_primitive, timeout_to_primitive, 1, 0)) return false;
  }
  e.set_proto(proto::timeout, tproto);
  e.set_proto(proto::immediate, iproto);
  if (!JS_DefineFunctions(cx, global, timeout_functions) || !JS_DefineFunctions(cx, global, immediate_functions))
    return false;
  if (node::has_queue_microtask(e.mode()) &&
      !JS_DefineFunction(cx, global, "queueMicrotask", queue_microtask, 1, JSPROP_ENUMERATE)) {
    return false;
  }
  return true;
}

bool define_next_tick(engine& e, JS::HandleObject process) {
  return JS_DefineFunction(e.cx(), process, "nextTick", next_tick, 1, JSPROP_ENUMERATE) != nullptr;
}

}  // namespace phaseloop::runner
