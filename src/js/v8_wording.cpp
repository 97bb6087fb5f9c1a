// SPDX-License-Identifier: MIT
// V8's wording of SpiderMonkey's errors: the compartment whose Debugger
// rewrites their messages (internal_wording.js holds the rules), the
// JSON.parse that passes them its text, and the one message no hook can
// reach.

#include "js/v8_wording.hpp"

#include <js/CompilationAndEvaluation.h>
#include <js/Conversions.h>
#include <js/Debug.h>
#include <js/Exception.h>
#include <js/SourceText.h>
#include <js/friend/ErrorMessages.h>
#include <jsfriendapi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdint>
#include <cstring>

#include "js/host.hpp"
#include "js/lib.hpp"

namespace phaseloop::runner {

namespace {

const JSClass wording_global_class = {"PhaseloopWording", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps,
                                      nullptr, nullptr, nullptr};

// Calls the wording module's function `name` (internal_wording.js) with
// `args`, in its compartment; false (nothing pending) if it failed.
bool call_wording(JSContext* cx, JSObject* wording_global, const char* name, JS::HandleValueArray args,
                  JS::MutableHandleValue result) {
  if (wording_global == nullptr) return false;
  JS::RootedObject dg(cx, wording_global);
  bool ok = false;
  {
    JSAutoRealm ar(cx, dg);
    JS::RootedValue parts(cx), fn(cx);
    JS::RootedValueVector argv(cx);
    ok = JS_GetProperty(cx, dg, "wording", &parts) && parts.isObject();
    for (std::size_t i = 0; ok && i < args.length(); i++) {
      JS::RootedValue v(cx, args[i]);
      ok = JS_WrapValue(cx, &v) && argv.append(v);
    }
    if (ok) {
      JS::RootedObject p(cx, &parts.toObject());
      ok = JS_GetProperty(cx, p, name, &fn) && JS::Call(cx, JS::UndefinedHandleValue, fn, argv, result);
    }
    JS_ClearPendingException(cx);
  }
  ok = ok && JS_WrapValue(cx, result);
  JS_ClearPendingException(cx);
  return ok;
}

// JSON.parse(text, reviver): SpiderMonkey's own (reserved slot 0), and
// when the text is not JSON, the message V8 gives, which names what it
// found in the text: jsonError(message, text) of internal_wording.js makes
// it. The text is converted once, here, as JSON.parse itself would first.
bool json_parse(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JS::RootedValue parse(cx, js::GetFunctionNativeReserved(&args.callee(), 0));
  JS::RootedString text(cx, JS::ToString(cx, args.get(0)));
  if (!text) return false;
  JS::RootedValueArray<2> argv(cx);
  argv[0].setString(text);
  argv[1].set(args.get(1));
  if (JS::Call(cx, args.thisv(), parse, argv, args.rval())) return true;

  JS::ExceptionStack thrown(cx);
  if (!JS::StealPendingExceptionStack(cx, &thrown)) return false;
  if (thrown.exception().isObject()) {
    JS::RootedObject error(cx, &thrown.exception().toObject());
    const JSErrorReport* report = JS_ErrorFromException(cx, error);
    JS::RootedValueArray<2> margs(cx);
    JS::RootedValue reworded(cx);
    if (report != nullptr && report->errorNumber == JSMSG_JSON_BAD_PARSE &&
        JS_GetProperty(cx, error, "message", margs[0]) && margs[0].isString()) {
      margs[1].setString(text);
      if (call_wording(cx, script_host::from(cx).wording(), "jsonError", margs, &reworded) && reworded.isString()) {
        JS_DefineProperty(cx, error, "message", reworded, 0);
      }
    }
    // A failure to reword leaves SpiderMonkey's message.
    JS_ClearPendingException(cx);
  }
  JS::SetPendingExceptionStack(cx, thrown);
  return false;
}

const char* wording_source() {
  for (const lib_source* s = lib_sources; s->name != nullptr; s++)
    if (std::strcmp(s->name, "internal/wording") == 0) return s->text;
  return nullptr;
}

// Whether some ".then(" in `s` is given a second argument: a comma at the
// call's own depth, outside strings and comments.
bool two_argument_then(std::string_view s) {
  for (std::size_t at = s.find("then"); at != std::string_view::npos; at = s.find("then", at + 4)) {
    std::size_t i = at + 4;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) i++;
    if (i >= s.size() || s[i] != '(') continue;
    int depth = 0;
    for (; i < s.size(); i++) {
      const char c = s[i];
      if (c == '\'' || c == '"' || c == '`') {
        for (i++; i < s.size() && s[i] != c; i++)
          if (s[i] == '\\') i++;
      } else if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) {
        const std::size_t end = s.find(s[i + 1] == '/' ? "\n" : "*/", i + 2);
        if (end == std::string_view::npos) break;
        i = end;
      } else if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth == 0) break;
      } else if (c == ',' && depth == 1) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

bool may_see_errors(std::string_view source) {
  static constexpr std::string_view words[] = {
      "catch",   "allSettled", "callbackify", "captureRejections", "uncaughtException", "unhandledRejection",
      "onerror", "'error'",    "\"error\"",   "`error`",           "unhandledrejection"};
  for (std::string_view w : words)
    if (source.find(w) != std::string_view::npos) return true;
  return two_argument_then(source);
}

// Stack exhaustion. SpiderMonkey raises InternalError "too much recursion",
// and runs no Debugger hook while that error propagates (more script would
// only exhaust the stack again), so its message cannot be rewritten on its
// way. Every V8 raises RangeError "Maximum call stack size exceeded" for
// it, in every mode: the entry of SpiderMonkey's message table (which
// js::GetErrorMessage hands out, and from which the error's class and text
// are read each time) says so instead. The table lies in the library's
// relocated read-only data; its page is made writable for the two stores,
// in this process only. If that fails, the error keeps SpiderMonkey's
// wording.
void reword_over_recursion() {
  static bool done = false;
  if (done) return;
  done = true;
  auto* entry = const_cast<JSErrorFormatString*>(js::GetErrorMessage(nullptr, JSMSG_OVER_RECURSED));
  if (entry == nullptr || entry->argCount != 0) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(entry) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(entry + 1) + page - 1) & ~(page - 1);
  // The pages' protection now, from /proc/self/maps: patched only when one
  // mapping holds them and it is plain read-only (never code), and given
  // back as it was.
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return;
  bool read_only = false;
  unsigned long lo = 0, hi = 0;
  char perms[8] = {};
  while (std::fscanf(maps, "%lx-%lx %7s%*[^\n]", &lo, &hi, perms) == 3) {
    if (lo <= start && end <= hi) {
      read_only = std::strcmp(perms, "r--p") == 0;
      break;
    }
  }
  std::fclose(maps);
  if (!read_only) return;
  void* at = reinterpret_cast<void*>(start);
  if (mprotect(at, end - start, PROT_READ | PROT_WRITE) != 0) return;
  entry->format = "Maximum call stack size exceeded";
  entry->exnType = JSEXN_RANGEERR;
  mprotect(at, end - start, PROT_READ);
}

bool replace_json_parse(JSContext* cx, JS::HandleObject global) {
  JS::RootedValue json(cx);
  JS::RootedValue parse(cx);
  if (!JS_GetProperty(cx, global, "JSON", &json) || !json.isObject()) return false;
  JS::RootedObject json_obj(cx, &json.toObject());
  if (!JS_GetProperty(cx, json_obj, "parse", &parse)) return false;
  JSFunction* fn = js::NewFunctionWithReserved(cx, json_parse, 2, 0, "parse");
  if (fn == nullptr) return false;
  JS::RootedObject fn_obj(cx, JS_GetFunctionObject(fn));
  js::SetFunctionNativeReserved(fn_obj, 0, parse);
  return JS_DefineProperty(cx, json_obj, "parse", fn_obj, 0);
}

JSObject* make_v8_wording(JSContext* cx, JS::HandleObject global, const char* mode, bool watch) {
  const char* text = wording_source();
  if (text == nullptr) {
    JS_ReportErrorASCII(cx, "phaseloop: no built-in module internal/wording");
    return nullptr;
  }
  // A Debugger's debuggees live in other compartments than its own.
  JS::RealmOptions ro;
  JS::RootedObject dg(cx, JS_NewGlobalObject(cx, &wording_global_class, nullptr, JS::DontFireOnNewGlobalHook, ro));
  if (!dg) return nullptr;
  JSAutoRealm ar(cx, dg);
  if (!JS::InitRealmStandardClasses(cx) || !JS_DefineDebuggerObject(cx, dg)) return nullptr;
  JS::CompileOptions co(cx);
  co.setFileAndLine("phaseloop:wording", 1);
  JS::SourceText<mozilla::Utf8Unit> src;
  if (!src.init(cx, text, std::strlen(text), JS::SourceOwnership::Borrowed)) return nullptr;
  JS::RootedValue install(cx);
  if (!JS::Evaluate(cx, co, src, &install)) return nullptr;
  JS::RootedValueArray<3> argv(cx);
  argv[0].setObject(*global);
  JS::RootedString m(cx, JS_NewStringCopyZ(cx, mode));
  if (!m || !JS_WrapValue(cx, argv[0])) return nullptr;
  argv[1].setString(m);
  argv[2].setBoolean(watch);
  JS::RootedValue installed(cx);
  if (!JS::Call(cx, JS::UndefinedHandleValue, install, argv, &installed)) return nullptr;
  // The Debugger lives as long as its global refers to it.
  if (!JS_DefineProperty(cx, dg, "wording", installed, JSPROP_READONLY)) return nullptr;
  return dg;
}

void reword_reported(JSContext* cx, JSObject* wording_global, JS::HandleValue error, const std::string& line,
                     unsigned column) {
  JS::RootedValueArray<3> argv(cx);
  argv[0].set(error);
  JSString* l = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(line.data(), line.size()));
  if (l == nullptr) {
    JS_ClearPendingException(cx);
    return;
  }
  argv[1].setString(l);
  argv[2].setNumber(column);
  JS::RootedValue ignored(cx);
  call_wording(cx, wording_global, "rewordReported", argv, &ignored);
}

}  // namespace phaseloop::runner
