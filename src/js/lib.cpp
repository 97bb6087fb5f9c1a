// Loading the JavaScript built-ins (src/js/lib/*.js) and the native
// helpers they share through `internal`.

#include "js/lib.hpp"

#include <js/Array.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Conversions.h>
#include <js/SourceText.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>

#include "js/bindings.hpp"
#include "js/engine.hpp"
#include "js/inspect.hpp"

namespace phaseloop::runner {

namespace {

const lib_source* find_source(const std::string& name) {
  for (const lib_source* s = lib_sources; s->name != nullptr; s++)
    if (name == s->name) return s;
  return nullptr;
}

// internal.inspect(value[, {depth, showHidden}]): util.inspect in the
// script's Node style.
bool native_inspect(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  inspect_options io;
  io.style = script_host::from(cx).console_style();
  if (args.get(1).isObject()) {
    JS::RootedObject o(cx, &args[1].toObject());
    JS::RootedValue depth(cx), hidden(cx);
    if (!JS_GetProperty(cx, o, "depth", &depth) || !JS_GetProperty(cx, o, "showHidden", &hidden)) return false;
    if (depth.isNumber()) {
      const double d = depth.toNumber();
      io.depth = d > 1000 ? 1000 : d < 0 ? 0 : static_cast<int>(d);
    } else if (depth.isNull()) {
      io.depth = 1000;
    }
    io.show_hidden = JS::ToBoolean(hidden);
  }
  std::string text;
  if (!inspect(cx, args.get(0), io, text)) return false;
  JSString* s = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text.data(), text.size()));
  if (s == nullptr) return false;
  args.rval().setString(s);
  return true;
}

// internal.format(...args): util.format, as console.log formats.
bool native_format(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  if (!format_args(cx, args, script_host::from(cx).console_style(), text)) return false;
  JSString* s = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text.data(), text.size()));
  if (s == nullptr) return false;
  args.rval().setString(s);
  return true;
}

// internal.codedError(ctor, message, code): an error shaped as the
// script's Node version shapes its internal errors.
bool native_coded_error(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string ctor, message, code;
  if (!value_to_utf8(cx, args.get(0), ctor) || !value_to_utf8(cx, args.get(1), message) ||
      !value_to_utf8(cx, args.get(2), code)) {
    return false;
  }
  if (throw_error(cx, ctor.c_str(), message, code.c_str())) return true;  // never: it throws
  JS::RootedValue err(cx);
  if (!JS_GetPendingException(cx, &err)) return false;
  JS_ClearPendingException(cx);
  args.rval().set(err);
  return true;
}

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

const JSFunctionSpec internal_functions[] = {
    JS_FN("inspect", native_inspect, 2, 0),   JS_FN("format", native_format, 0, 0),
    JS_FN("codedError", native_coded_error, 3, 0), JS_FN("warn", native_warn, 2, 0),
    JS_FN("reallyExit", native_really_exit, 1, 0),
    JS_FN("memoryUsage", native_memory_usage, 0, 0), JS_FS_END};

const char* const module_params[] = {"exports", "require", "module", "internal", "process"};

// Runs one module's function and returns its module.exports.
bool load(engine& e, const lib_source& src, JS::MutableHandleValue out) {
  JSContext* cx = e.cx();
  // Node 20 names its built-ins' files node:NAME; Node 10 and 11 NAME.js.
  const std::string file = e.mode() == node::mode::current ? std::string("node:") + src.name
                                                            : std::string(src.name) + ".js";
  JS::CompileOptions co(cx);
  co.setFileAndLine(file.c_str(), 0);
  JS::SourceText<char16_t> text;
  if (!e.utf16_source(src.text, text)) return false;
  JS::RootedObjectVector env(cx);
  JS::RootedFunction fn(cx, JS::CompileFunction(cx, env, co, src.name, 5, module_params, text));
  if (!fn) return false;
  JS::RootedObject exports(cx, JS_NewPlainObject(cx));
  JS::RootedObject module(cx, JS_NewPlainObject(cx));
  JS::RootedObject require(cx, make_require(e));
  JS::RootedObject internal(cx, e.get_proto(proto::lib_internal));
  JS::RootedObject process(cx, e.process_object());
  if (!exports || !module || !require || !internal || !process) return false;
  JS::RootedValue exports_v(cx, JS::ObjectValue(*exports));
  if (!JS_DefineProperty(cx, module, "exports", exports_v, JSPROP_ENUMERATE)) return false;
  // A module loaded while it loads (a cycle) sees its exports so far.
  JS::RootedObject cache(cx, e.get_proto(proto::lib_modules));
  if (!JS_DefineProperty(cx, cache, src.name, exports_v, JSPROP_ENUMERATE)) return false;
  JS::RootedValueArray<5> argv(cx);
  argv[0].setObject(*exports);
  argv[1].setObject(*require);
  argv[2].setObject(*module);
  argv[3].setObject(*internal);
  argv[4].setObject(*process);
  JS::RootedValue rval(cx);
  if (!JS_CallFunction(cx, nullptr, fn, argv, &rval)) return false;
  if (!JS_GetProperty(cx, module, "exports", out)) return false;
  return JS_DefineProperty(cx, cache, src.name, out, JSPROP_ENUMERATE);
}

}  // namespace

bool has_builtin(const engine& e, const std::string& name) {
  if (name.compare(0, 9, "internal/") == 0) return false;
  // timers/promises came with Node 15.
  if (name == "timers/promises" && e.mode() != node::mode::current) return false;
  return find_source(name) != nullptr;
}

bool require_lib(engine& e, const std::string& name, JS::MutableHandleValue out) {
  JSContext* cx = e.cx();
  JS::RootedObject cache(cx, e.get_proto(proto::lib_modules));
  bool cached = false;
  if (!JS_HasProperty(cx, cache, name.c_str(), &cached)) return false;
  if (cached) return JS_GetProperty(cx, cache, name.c_str(), out);
  const lib_source* src = find_source(name);
  if (src == nullptr) {
    JS_ReportErrorASCII(cx, "phaseloop: no built-in module %s", name.c_str());
    return false;
  }
  return load(e, *src, out);
}

bool boot_lib(engine& e) {
  JSContext* cx = e.cx();
  JS::RootedObject internal(cx, JS_NewPlainObject(cx));
  JS::RootedObject cache(cx, JS_NewObject(cx, nullptr));
  JS::RootedString mode(cx, JS_NewStringCopyZ(cx, node::mode_name(e.mode())));
  if (!internal || !cache || !mode || !JS_DefineFunctions(cx, internal, internal_functions) ||
      !JS_DefineProperty(cx, internal, "mode", mode, JSPROP_ENUMERATE)) {
    return false;
  }
  e.set_proto(proto::lib_internal, internal);
  e.set_proto(proto::lib_modules, cache);
  JS::RootedValue ignored(cx);
  return require_lib(e, "internal/bootstrap", &ignored);
}

}  // namespace phaseloop::runner
