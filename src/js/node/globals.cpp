// SPDX-License-Identifier: MIT
// console, process, performance, global, queueMicrotask and require: the
// part of Node's global environment the runner provides.

#include <js/Array.h>
#include <js/BigInt.h>
#include <js/Conversions.h>
#include <js/Exception.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "js/bindings.hpp"
#include "js/node/engine.hpp"
#include "js/inspect.hpp"
#include "js/lib.hpp"

extern char** environ;

namespace phaseloop::runner {

namespace {

// Node >= 12's NodeError.prototype.toString: "TypeError [CODE]: message".
bool node_error_to_string(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JS::RootedObject self(cx, JS::ToObject(cx, args.thisv()));
  if (!self) return false;
  std::string parts[3];
  const char* names[3] = {"name", "code", "message"};
  for (int i = 0; i < 3; i++) {
    JS::RootedValue v(cx);
    if (!JS_GetProperty(cx, self, names[i], &v)) return false;
    if (!v.isUndefined() && !value_to_utf8(cx, v, parts[i])) return false;
  }
  const std::string text = parts[0] + " [" + parts[1] + "]: " + parts[2];
  JSString* s = JS_NewStringCopyN(cx, text.data(), text.size());
  if (s == nullptr) return false;
  args.rval().setString(s);
  return true;
}

// Gives `err` (made by `ctor`) the shape of a Node internal error with
// `code`, as the script's Node version made them. Node <= 11: a prototype
// between the error and ctor.prototype names it "TypeError [CODE]" and
// holds `code` (the error has neither as its own). Node >= 12: an own
// enumerable `code`, and a prototype whose toString (and so the header of
// the stack Node prints) says "TypeError [CODE]: message". Each error gets
// its own prototype: these errors are rare.
bool shape_node_error(JSContext* cx, JS::HandleObject err, const char* ctor, const char* code) {
  JS::RootedObject base(cx);
  if (!JS_GetPrototype(cx, err, &base)) return false;
  JS::RootedObject proto(cx, JS_NewObjectWithGivenProto(cx, nullptr, base));
  JS::RootedString c(cx, JS_NewStringCopyZ(cx, code));
  if (!proto || !c) return false;
  const auto& o = script_host::from(cx).options();
  if (o.mode != node::mode::current) {
    const std::string name = std::string(ctor) + " [" + code + "]";
    JS::RootedString n(cx, JS_NewStringCopyN(cx, name.data(), name.size()));
    if (!n || !JS_DefineProperty(cx, proto, "name", n, 0) || !JS_DefineProperty(cx, proto, "code", c, 0)) return false;
  } else if (!JS_DefineFunction(cx, proto, "toString", node_error_to_string, 0, 0) ||
             !JS_DefineProperty(cx, err, "code", c, JSPROP_ENUMERATE)) {
    return false;
  }
  return JS_SetPrototype(cx, err, proto);
}

}  // namespace

bool node_error_code(JSContext* cx, JS::HandleObject err, std::string& code) {
  JS::RootedObject proto(cx);
  if (!JS_GetPrototype(cx, err, &proto) || !proto) return false;
  JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
  if (!JS_GetOwnPropertyDescriptor(cx, proto, "toString", &desc) || desc.isNothing() || !desc->hasValue() ||
      !desc->value().isObject() || !JS_IsNativeFunction(&desc->value().toObject(), node_error_to_string)) {
    JS_ClearPendingException(cx);
    return false;
  }
  JS::RootedValue v(cx);
  if (!JS_GetProperty(cx, err, "code", &v) || !v.isString()) {
    JS_ClearPendingException(cx);
    return false;
  }
  return value_to_utf8(cx, v, code);
}

bool throw_error(JSContext* cx, const char* ctor, const std::string& message, const char* code) {
  JS::RootedObject global(cx, JS::CurrentGlobalOrNull(cx));
  JS::RootedValue ctor_v(cx);
  if (!JS_GetProperty(cx, global, ctor, &ctor_v)) return false;
  JS::RootedString msg(cx, JS_NewStringCopyN(cx, message.data(), message.size()));
  if (!msg) return false;
  JS::RootedValueArray<1> argv(cx);
  argv[0].setString(msg);
  JS::RootedObject err(cx);
  if (!JS::Construct(cx, ctor_v, argv, &err)) return false;
  if (code != nullptr) {
    if (script_host::from(cx).options().browser) {
      JS::RootedString c(cx, JS_NewStringCopyZ(cx, code));
      if (!c || !JS_DefineProperty(cx, err, "code", c, JSPROP_ENUMERATE)) return false;
    } else if (!shape_node_error(cx, err, ctor, code)) {
      return false;
    }
  }
  JS::RootedValue v(cx, JS::ObjectValue(*err));
  JS_SetPendingException(cx, v);
  return false;
}

namespace {

// ---- console -----------------------------------------------------------------------

// console serves both engines: it needs only the script_host.
bool format_call(JSContext* cx, const JS::CallArgs& args, std::string& text) {
  return format_args(cx, args, script_host::from(cx).console_style(), text);
}

bool console_out(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  if (!format_call(cx, args, text)) return false;
  text += '\n';
  script_host::from(cx).out().script(text);
  args.rval().setUndefined();
  return true;
}

bool console_err(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  if (!format_call(cx, args, text)) return false;
  text += '\n';
  std::fflush(stdout);  // what was printed before comes first
  std::fwrite(text.data(), 1, text.size(), stderr);
  args.rval().setUndefined();
  return true;
}

const JSFunctionSpec console_functions[] = {
    JS_FN("log", console_out, 0, JSPROP_ENUMERATE),   JS_FN("info", console_out, 0, JSPROP_ENUMERATE),
    JS_FN("debug", console_out, 0, JSPROP_ENUMERATE), JS_FN("error", console_err, 0, JSPROP_ENUMERATE),
    JS_FN("warn", console_err, 0, JSPROP_ENUMERATE),  JS_FS_END};

// ---- process -----------------------------------------------------------------------

bool write_stream(JSContext* cx, unsigned argc, JS::Value* vp, bool to_stdout) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  if (!value_to_utf8(cx, args.get(0), text)) return false;
  if (to_stdout) {
    engine::from(cx).out().script(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
  args.rval().setBoolean(true);
  return true;
}

bool stdout_write(JSContext* cx, unsigned argc, JS::Value* vp) {
  return write_stream(cx, argc, vp, true);
}

bool stderr_write(JSContext* cx, unsigned argc, JS::Value* vp) {
  return write_stream(cx, argc, vp, false);
}

bool process_hrtime(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::uint64_t ns = phaseloop::loop::hrtime();
  double s = static_cast<double>(ns / 1000000000u);
  double frac = static_cast<double>(ns % 1000000000u);
  if (args.get(0).isObject()) {
    // hrtime(previous): the difference.
    JS::RootedObject prev(cx, &args[0].toObject());
    JS::RootedValue ps(cx), pn(cx);
    double a = 0, b = 0;
    if (!JS_GetElement(cx, prev, 0, &ps) || !JS_GetElement(cx, prev, 1, &pn) ||
        !JS::ToNumber(cx, ps, &a) || !JS::ToNumber(cx, pn, &b)) {
      return false;
    }
    s -= a;
    frac -= b;
    if (frac < 0) {
      s -= 1;
      frac += 1e9;
    }
  }
  JS::RootedValueArray<2> parts(cx);
  parts[0].setNumber(s);
  parts[1].setNumber(frac);
  JSObject* arr = JS::NewArrayObject(cx, parts);
  if (arr == nullptr) return false;
  args.rval().setObject(*arr);
  return true;
}

bool process_hrtime_bigint(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JS::BigInt* b = JS::NumberToBigInt(cx, static_cast<uint64_t>(phaseloop::loop::hrtime()));
  if (b == nullptr) return false;
  args.rval().setBigInt(b);
  return true;
}

bool process_cwd(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  char buf[PATH_MAX];
  if (getcwd(buf, sizeof buf) == nullptr) {
    JS_ReportErrorASCII(cx, "process.cwd() failed");
    return false;
  }
  JSString* s = JS_NewStringCopyZ(cx, buf);
  if (s == nullptr) return false;
  args.rval().setString(s);
  return true;
}

bool process_uptime(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setNumber(engine::from(cx).uptime_ms() / 1000.0);
  return true;
}

const JSFunctionSpec process_functions[] = {
    JS_FN("hrtime", process_hrtime, 1, JSPROP_ENUMERATE),
    JS_FN("cwd", process_cwd, 0, JSPROP_ENUMERATE),
    JS_FN("uptime", process_uptime, 0, JSPROP_ENUMERATE),
    JS_FS_END};

bool define_string(JSContext* cx, JS::HandleObject obj, const char* name, const std::string& value) {
  JS::RootedString s(cx, JS_NewStringCopyN(cx, value.data(), value.size()));
  return s && JS_DefineProperty(cx, obj, name, s, JSPROP_ENUMERATE);
}

JSObject* make_stream(JSContext* cx, JSNative write, int fd) {
  JS::RootedObject stream(cx, JS_NewPlainObject(cx));
  if (!stream || !JS_DefineFunction(cx, stream, "write", write, 1, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, stream, "fd", fd, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, stream, "isTTY", isatty(fd) != 0, JSPROP_ENUMERATE)) {
    return nullptr;
  }
  return stream;
}

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("phaseloop");
}

JSObject* make_process(engine& e) {
  JSContext* cx = e.cx();
  JS::RootedObject p(cx, JS_NewPlainObject(cx));
  if (!p || !JS_DefineFunctions(cx, p, process_functions) || !define_next_tick(e, p)) return nullptr;
  const std::string version = node_version(e.mode());
  JS::RootedObject versions(cx, JS_NewPlainObject(cx));
  JS::RootedObject env(cx, JS_NewPlainObject(cx));
  JS::RootedObject out(cx, make_stream(cx, stdout_write, 1));
  JS::RootedObject err(cx, make_stream(cx, stderr_write, 2));
  if (!versions || !env || !out || !err || !define_string(cx, versions, "node", version.substr(1)) ||
      !define_string(cx, p, "version", version) ||
      !JS_DefineProperty(cx, p, "versions", versions, JSPROP_ENUMERATE) ||
      !define_string(cx, p, "platform", "linux") || !define_string(cx, p, "arch", "x64") ||
      !JS_DefineProperty(cx, p, "pid", static_cast<int32_t>(getpid()), JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, p, "ppid", static_cast<int32_t>(getppid()), JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, p, "exitCode", JS::UndefinedHandleValue, JSPROP_ENUMERATE) ||
      !define_string(cx, p, "execPath", self_path()) ||
      !JS_DefineProperty(cx, p, "stdout", out, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, p, "stderr", err, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, p, "env", env, JSPROP_ENUMERATE)) {
    return nullptr;
  }
  // process.hrtime.bigint()
  JS::RootedValue hr(cx);
  if (!JS_GetProperty(cx, p, "hrtime", &hr)) return nullptr;
  JS::RootedObject hr_obj(cx, &hr.toObject());
  if (!JS_DefineFunction(cx, hr_obj, "bigint", process_hrtime_bigint, 0, JSPROP_ENUMERATE)) {
    return nullptr;
  }
  // process.env: a snapshot of the environment.
  for (char** v = environ; *v != nullptr; v++) {
    const std::string entry = *v;
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    if (!define_string(cx, env, entry.substr(0, eq).c_str(), entry.substr(eq + 1))) return nullptr;
  }
  // process.argv: [execPath, script, args...]
  JS::RootedValueVector argv(cx);
  // (Node gives "-" for a script read from standard input.)
  std::vector<std::string> items{self_path()};
  if (!e.options().eval) items.push_back(e.options().from_stdin ? std::string("-") : e.options().path);
  items.insert(items.end(), e.options().args.begin(), e.options().args.end());
  for (const std::string& s : items) {
    JSString* str = JS_NewStringCopyN(cx, s.data(), s.size());
    if (str == nullptr || !argv.append(JS::StringValue(str))) return nullptr;
  }
  JS::RootedObject argv_obj(cx, JS::NewArrayObject(cx, argv));
  if (!argv_obj || !JS_DefineProperty(cx, p, "argv", argv_obj, JSPROP_ENUMERATE)) return nullptr;
  return p;
}

// ---- performance -------------------------------------------------------------------

bool performance_now(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setNumber(engine::from(cx).uptime_ms());
  return true;
}

bool run_gc(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JS_GC(cx);
  args.rval().setUndefined();
  return true;
}

// ---- require -----------------------------------------------------------------------

bool require(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string name;
  if (!args.get(0).isString()) {
    return throw_error(cx, "TypeError", "The \"id\" argument must be of type string", "ERR_INVALID_ARG_TYPE");
  }
  if (!value_to_utf8(cx, args[0], name)) return false;
  // "node:" names every built-in from Node 16 (14.18) on.
  std::string bare = name;
  if (e.mode() == node::mode::current && name.compare(0, 5, "node:") == 0) bare = name.substr(5);
  if (bare == "fs") {
    JSObject* fs = make_fs_module(e);
    if (fs == nullptr) return false;
    args.rval().setObject(*fs);
    return true;
  }
  if (has_builtin(e, bare)) return require_lib(e, bare, args.rval());
  std::string msg = "Cannot find module '" + name + "'";
  if (e.mode() == node::mode::current) msg += "\nRequire stack:\n- " + e.options().path;
  return throw_error(cx, "Error", msg, "MODULE_NOT_FOUND");
}

bool illegal_constructor(JSContext* cx, unsigned, JS::Value*) {
  JS_ReportErrorASCII(cx, "Illegal constructor");
  return false;
}

}  // namespace

JSObject* named_proto(JSContext* cx, const char* name, const JSFunctionSpec* methods) {
  JS::RootedObject proto(cx, JS_NewPlainObject(cx));
  if (!proto || !JS_DefineFunctions(cx, proto, methods)) return nullptr;
  JSFunction* ctor = JS_NewFunction(cx, illegal_constructor, 0, 0, name);
  if (ctor == nullptr) return nullptr;
  JS::RootedObject ctor_obj(cx, JS_GetFunctionObject(ctor));
  return JS_DefineProperty(cx, proto, "constructor", ctor_obj, 0) ? proto.get() : nullptr;
}

bool throw_callback_type(JSContext* cx, const char* name, JS::HandleValue got) {
  engine& e = engine::from(cx);
  if (e.mode() != node::mode::current) {
    return throw_error(cx, "TypeError", "Callback must be a function", "ERR_INVALID_CALLBACK");
  }
  std::string shown;
  if (got.isUndefined() || got.isNull()) {
    shown = got.isNull() ? "null" : "undefined";
  } else if (got.isObject()) {
    shown = "an instance of Object";
  } else {
    std::string v;
    inspect_options io;
    if (!inspect(cx, got, io, v)) return false;
    const char* type = got.isString() ? "string" : got.isNumber() ? "number" : got.isBoolean() ? "boolean"
                       : got.isBigInt() ? "bigint" : "symbol";
    shown = std::string("type ") + type + " (" + v + ")";
  }
  return throw_error(cx, "TypeError",
                     std::string("The \"") + name + "\" argument must be of type function. Received " + shown,
                     "ERR_INVALID_ARG_TYPE");
}

JSObject* make_require(engine& e) {
  JSFunction* f = JS_NewFunction(e.cx(), require, 1, 0, "require");
  return f ? JS_GetFunctionObject(f) : nullptr;
}

bool define_console(JSContext* cx, JS::HandleObject global) {
  JS::RootedObject console(cx, JS_NewPlainObject(cx));
  return console && JS_DefineFunctions(cx, console, console_functions) &&
         JS_DefineProperty(cx, global, "console", console, 0);
}

bool define_globals(engine& e, JS::HandleObject global) {
  JSContext* cx = e.cx();
  if (!define_console(cx, global)) return false;
  JS::RootedObject process(cx, make_process(e));
  if (!process || !JS_DefineProperty(cx, global, "process", process, 0)) return false;
  e.set_process_object(process);
  // A global performance came with Node 16 (before, require('perf_hooks')).
  if (e.mode() == node::mode::current) {
    JS::RootedObject performance(cx, JS_NewPlainObject(cx));
    if (!performance || !JS_DefineFunction(cx, performance, "now", performance_now, 0, JSPROP_ENUMERATE) ||
        !JS_DefineProperty(cx, global, "performance", performance, 0)) {
      return false;
    }
  }
  if (e.options().expose_gc && !JS_DefineFunction(cx, global, "gc", run_gc, 0, 0)) return false;
  return JS_DefineProperty(cx, global, "global", global, 0);
}

}  // namespace phaseloop::runner
