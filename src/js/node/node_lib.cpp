// SPDX-License-Identifier: MIT
// The Node host's part of the built-ins (src/js/lib.cpp loads them): the
// natives only its bootstrap uses, and require('fs'), made in C++.

#include <js/Array.h>
#include <js/Conversions.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "js/bindings.hpp"
#include "js/lib.hpp"
#include "js/node/engine.hpp"

namespace phaseloop::runner {

namespace {

// internal.warn(text[, raw]): "(node:PID) text" on stderr (`text` alone
// when raw).
bool native_warn(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  if (!value_to_utf8(cx, args.get(0), text)) return false;
  std::fflush(stdout);
  if (JS::ToBoolean(args.get(1))) {
    text += '\n';
    std::fwrite(text.data(), 1, text.size(), stderr);
  } else {
    engine::from(cx).warn(text);
  }
  args.rval().setUndefined();
  return true;
}

// internal.reallyExit(code): ends the process now, as Node's
// process.reallyExit (process.exit has emitted 'exit').
bool native_really_exit(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  int32_t n = 0;
  if (!JS::ToInt32(cx, args.get(0), &n)) return false;
  engine::from(cx).exit_now(n & 0xff);
}

// internal.memoryUsage(): [rss, heap used, heap total] in bytes.
bool native_memory_usage(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  double rss = 0;
  std::ifstream statm("/proc/self/statm");
  double pages_size = 0, pages_rss = 0;
  if (statm >> pages_size >> pages_rss) rss = pages_rss * static_cast<double>(sysconf(_SC_PAGESIZE));
  const double used = JS_GetGCParameter(cx, JSGC_BYTES);
  const double total = used + static_cast<double>(JS_GetGCParameter(cx, JSGC_NURSERY_BYTES));
  JS::RootedValueArray<3> parts(cx);
  parts[0].setNumber(rss);
  parts[1].setNumber(used);
  parts[2].setNumber(total);
  JSObject* arr = JS::NewArrayObject(cx, parts);
  if (arr == nullptr) return false;
  args.rval().setObject(*arr);
  return true;
}

// internal.queueTick(fn): a nextTick of Node's own (the trace says so).
bool native_queue_tick(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (!args.get(0).isObject() || !JS::IsCallable(&args[0].toObject())) {
    JS_ReportErrorASCII(cx, "queueTick: not a function");
    return false;
  }
  JS::RootedObject fn(cx, &args[0].toObject());
  args.rval().setUndefined();
  return engine::from(cx).queue_tick(fn, nullptr, task_kind::node_tick);
}

// internal.queueTickBatch(fn): one native tick that runs fn (the JS tick
// queue's runner, lib/internal_bootstrap.js).
bool native_queue_tick_batch(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JS::RootedObject fn(cx, &args.get(0).toObject());
  args.rval().setUndefined();
  return engine::from(cx).queue_tick(fn, nullptr, task_kind::tick);
}

// internal.throwCallbackType(name, value): the version's error for a
// callback that is not a function.
bool native_throw_callback_type(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string name;
  if (!value_to_utf8(cx, args.get(0), name)) return false;
  return throw_callback_type(cx, name.c_str(), args.get(1));
}

// internal.microtasksDone(more): see engine::microtask_batch_done.
bool native_microtasks_done(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine::from(cx).microtask_batch_done(JS::ToBoolean(args.get(0)));
  args.rval().setUndefined();
  return true;
}

// The Node engine's.
const JSFunctionSpec node_internal_functions[] = {
    JS_FN("microtasksDone", native_microtasks_done, 1, 0),
    JS_FN("queueTickBatch", native_queue_tick_batch, 1, 0),
    JS_FN("throwCallbackType", native_throw_callback_type, 2, 0),
    JS_FN("queueTick", native_queue_tick, 1, 0),
    JS_FN("warn", native_warn, 2, 0),
    JS_FN("reallyExit", native_really_exit, 1, 0),
    JS_FN("memoryUsage", native_memory_usage, 0, 0), JS_FS_END};

// require('fs'): made in C++ (fs_module.cpp); every other name is a
// built-in's.
bool node_modules(script_host& h, const std::string& name, JS::MutableHandleValue out, bool& found) {
  found = name == "fs";
  if (!found) return true;
  JSObject* fs = make_fs_module(engine::from(h.cx()));
  if (fs == nullptr) return false;
  out.setObject(*fs);
  return true;
}

}  // namespace

bool has_builtin(const engine& e, const std::string& name) {
  if (name.compare(0, 9, "internal/") == 0) return false;
  // timers/promises came with Node 15, fs/promises with 14.
  if ((name == "timers/promises" || name == "fs/promises") && e.mode() != node::mode::current) return false;
  return builtin_exists(name);
}

bool boot_lib(engine& e) {
  // (internal.watched: every nextTick is its own native tick, for the trace.)
  return boot_builtins(e, node_internal_functions, "internal/bootstrap", e.watched(), node_modules);
}

}  // namespace phaseloop::runner
