// SPDX-License-Identifier: MIT
// Loading the JavaScript built-ins (src/js/lib/*.js) and the native
// helpers they share through `internal`.

#include "js/lib.hpp"

#include <js/Array.h>
#include <js/CharacterEncoding.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Conversions.h>
#include <js/Promise.h>
#include <js/SourceText.h>
#include <js/StructuredClone.h>
#include <js/experimental/TypedData.h>
#include <js/Proxy.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>

#include "js/bindings.hpp"
#include "js/host.hpp"
#include "js/inspect.hpp"

namespace phaseloop::runner {

namespace {

const lib_source* find_source(const std::string& name) {
  for (const lib_source* s = lib_sources; s->name != nullptr; s++)
    if (name == s->name) return s;
  return nullptr;
}

// Returns UTF-8 `text` as the call's JS string.
bool return_text(JSContext* cx, const JS::CallArgs& args, const std::string& text) {
  JSString* s = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text.data(), text.size()));
  if (s == nullptr) return false;
  args.rval().setString(s);
  return true;
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
  return inspect(cx, args.get(0), io, text) && return_text(cx, args, text);
}

// internal.format(...args): util.format, as console.log formats.
bool native_format(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  return format_args(cx, args, script_host::from(cx).console_style(), text) && return_text(cx, args, text);
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

// internal.isPromise(v), internal.isProxy(v): util.types' brand checks.
bool native_is_promise(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setBoolean(args.get(0).isObject() && JS::IsPromiseObject(JS::RootedObject(cx, &args[0].toObject())));
  return true;
}

bool native_is_proxy(JSContext*, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setBoolean(args.get(0).isObject() && js::IsProxy(&args[0].toObject()));
  return true;
}

// internal.clone(value): {ok: true, value: its structured clone}, or
// {ok: false} when it holds something that cannot be cloned.
bool native_clone(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JSAutoStructuredCloneBuffer buf(JS::StructuredCloneScope::SameProcess, nullptr, nullptr);
  JS::RootedValue copy(cx);
  const bool ok = buf.write(cx, args.get(0)) && buf.read(cx, &copy);
  if (!ok) {
    if (JS_IsThrowingOutOfMemory(cx)) return false;
    // A refusal, with an exception or (SpiderMonkey 128, for some Error
    // objects) without one: { ok: false }, and the caller clones the
    // value another way.
    JS_ClearPendingException(cx);
  }
  JS::RootedObject result(cx, JS_NewPlainObject(cx));
  if (!result || !JS_DefineProperty(cx, result, "ok", ok, JSPROP_ENUMERATE) ||
      (ok && !JS_DefineProperty(cx, result, "value", copy, JSPROP_ENUMERATE))) {
    return false;
  }
  args.rval().setObject(*result);
  return true;
}

// internal.utf8Encode(string): a Uint8Array of its UTF-8 bytes (lone
// surrogates as U+FFFD).
bool native_utf8_encode(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string text;
  if (!value_to_utf8(cx, args.get(0), text)) return false;
  JS::RootedObject arr(cx, JS_NewUint8Array(cx, text.size()));
  if (!arr) return false;
  {
    JS::AutoCheckCannotGC nogc;
    bool shared = false;
    uint8_t* data = JS_GetUint8ArrayData(arr, &shared, nogc);
    if (!text.empty()) std::memcpy(data, text.data(), text.size());
  }
  args.rval().setObject(*arr);
  return true;
}

// Whether bytes are well-formed UTF-8 (no overlong forms, surrogates or
// code points past U+10FFFF).
bool valid_utf8(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    std::size_t len = 0;
    unsigned min = 0, cp = 0;
    if (c < 0x80) { i++; continue; }
    if ((c & 0xe0) == 0xc0) { len = 2; min = 0x80; cp = c & 0x1f; }
    else if ((c & 0xf0) == 0xe0) { len = 3; min = 0x800; cp = c & 0x0f; }
    else if ((c & 0xf8) == 0xf0) { len = 4; min = 0x10000; cp = c & 0x07; }
    else return false;
    if (i + len > n) return false;
    for (std::size_t k = 1; k < len; k++) {
      if ((p[i + k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += len;
  }
  return true;
}

// internal.utf8Decode(bytes, fatal): the text (bad sequences as U+FFFD),
// or null when fatal and the bytes are not well-formed.
bool native_utf8_decode(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string bytes;
  if (args.get(0).isObject()) {
    JS::AutoCheckCannotGC nogc;
    size_t len = 0;
    bool shared = false;
    uint8_t* data = nullptr;
    if (JS_GetObjectAsUint8Array(&args[0].toObject(), &len, &shared, &data) != nullptr && len > 0) {
      bytes.assign(reinterpret_cast<const char*>(data), len);
    }
  }
  if (JS::ToBoolean(args.get(1)) &&
      !valid_utf8(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size())) {
    args.rval().setNull();
    return true;
  }
  std::size_t n = 0;
  JS::TwoByteCharsZ chars =
      JS::LossyUTF8CharsToNewTwoByteCharsZ(cx, JS::UTF8Chars(bytes.data(), bytes.size()), &n, js::MallocArena);
  if (!chars) return false;
  JSString* s = JS_NewUCString(cx, JS::UniqueTwoByteChars(chars.get()), n);
  if (s == nullptr) return false;
  args.rval().setString(s);
  return true;
}

// For every host.
const JSFunctionSpec internal_functions[] = {
    JS_FN("clone", native_clone, 1, 0),
    JS_FN("utf8Encode", native_utf8_encode, 1, 0), JS_FN("utf8Decode", native_utf8_decode, 2, 0),
    JS_FN("isPromise", native_is_promise, 1, 0), JS_FN("isProxy", native_is_proxy, 1, 0),
    JS_FN("inspect", native_inspect, 2, 0),   JS_FN("format", native_format, 0, 0),
    JS_FN("codedError", native_coded_error, 3, 0), JS_FS_END};

// The `require` of the built-ins: the internal modules too.
bool require_internal(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string name;
  if (!value_to_utf8(cx, args.get(0), name)) return false;
  script_host& h = script_host::from(cx);
  if (native_module m = h.lib_natives()) {
    bool found = false;
    if (!m(h, name, args.rval(), found)) return false;
    if (found) return true;
  }
  return require_lib(h, name, args.rval());
}

const char* const module_params[] = {"exports", "require", "module", "internal", "process"};

// Runs one module's function and returns its module.exports.
bool load(script_host& h, const lib_source& src, JS::MutableHandleValue out) {
  JSContext* cx = h.cx();
  // Node 20 names its built-ins' files node:NAME; Node 10 and 11 NAME.js.
  const std::string file = std::string_view(h.lib_mode()) == "node" ? std::string("node:") + src.name
                                                                      : std::string(src.name) + ".js";
  JS::CompileOptions co(cx);
  co.setFileAndLine(file.c_str(), 0);
  JS::SourceText<char16_t> text;
  if (!h.utf16_source(src.text, text)) return false;
  JS::RootedObjectVector env(cx);
  JS::RootedFunction fn(cx, JS::CompileFunction(cx, env, co, src.name, 5, module_params, text));
  if (!fn) return false;
  JS::RootedObject exports(cx, JS_NewPlainObject(cx));
  JS::RootedObject module(cx, JS_NewPlainObject(cx));
  JSFunction* require_fn = JS_NewFunction(cx, require_internal, 1, 0, "require");
  if (require_fn == nullptr) return false;
  JS::RootedObject require(cx, JS_GetFunctionObject(require_fn));
  JS::RootedObject internal(cx, h.lib_internal());
  JS::RootedObject global(cx, h.global());
  // The Node engine's process object (the browser has none).
  JS::RootedValue process(cx);
  if (!exports || !module || !internal || !JS_GetProperty(cx, global, "process", &process)) return false;
  JS::RootedValue exports_v(cx, JS::ObjectValue(*exports));
  if (!JS_DefineProperty(cx, module, "exports", exports_v, JSPROP_ENUMERATE)) return false;
  // A module loaded while it loads (a cycle) sees its exports so far.
  JS::RootedObject cache(cx, h.lib_modules());
  if (!JS_DefineProperty(cx, cache, src.name, exports_v, JSPROP_ENUMERATE)) return false;
  JS::RootedValueArray<5> argv(cx);
  argv[0].setObject(*exports);
  argv[1].setObject(*require);
  argv[2].setObject(*module);
  argv[3].setObject(*internal);
  argv[4].set(process);
  JS::RootedValue rval(cx);
  if (!JS_CallFunction(cx, nullptr, fn, argv, &rval)) return false;
  if (!JS_GetProperty(cx, module, "exports", out)) return false;
  return JS_DefineProperty(cx, cache, src.name, out, JSPROP_ENUMERATE);
}

// The `internal` object and the module cache, then `bootstrap`.
}  // namespace

bool boot_builtins(script_host& h, const JSFunctionSpec* natives, const char* bootstrap, bool watched,
                   native_module modules) {
  JSContext* cx = h.cx();
  JS::RootedObject internal(cx, JS_NewPlainObject(cx));
  JS::RootedObject cache(cx, JS_NewObject(cx, nullptr));
  JS::RootedString mode(cx, JS_NewStringCopyZ(cx, h.lib_mode()));
  if (!internal || !cache || !mode || !JS_DefineFunctions(cx, internal, internal_functions) ||
      (natives != nullptr && !JS_DefineFunctions(cx, internal, natives)) ||
      !JS_DefineProperty(cx, internal, "mode", mode, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, internal, "watched", watched, JSPROP_ENUMERATE)) {
    return false;
  }
  h.set_lib(internal, cache, modules);
  JS::RootedValue ignored(cx);
  return require_lib(h, bootstrap, &ignored);
}

bool script_host::call_lib(const char* name, const JS::HandleValueArray& args, JS::MutableHandleValue rval) {
  JS::RootedObject internal(cx_, lib_internal());
  JS::RootedValue fn(cx_);
  if (!internal || !JS_GetProperty(cx_, internal, name, &fn)) return false;
  return JS::Call(cx_, JS::UndefinedHandleValue, fn, args, rval);
}

bool require_lib(script_host& h, const std::string& name, JS::MutableHandleValue out) {
  JSContext* cx = h.cx();
  JS::RootedObject cache(cx, h.lib_modules());
  bool cached = false;
  if (!JS_HasProperty(cx, cache, name.c_str(), &cached)) return false;
  if (cached) return JS_GetProperty(cx, cache, name.c_str(), out);
  const lib_source* src = find_source(name);
  if (src == nullptr) {
    JS_ReportErrorASCII(cx, "phaseloop: no built-in module %s", name.c_str());
    return false;
  }
  return load(h, *src, out);
}

bool builtin_exists(const std::string& name) { return find_source(name) != nullptr; }

}  // namespace phaseloop::runner
