// SPDX-License-Identifier: MIT
// The SpiderMonkey context both engines use, and the script's lines.

#include "js/host.hpp"

#include <js/Context.h>
#include <js/ContextOptions.h>

#include <js/CharacterEncoding.h>
#include <js/CompilationAndEvaluation.h>
#include <js/Exception.h>
#include <js/Initialization.h>
#include <js/Principals.h>
#include <js/Realm.h>
#include <js/UniquePtr.h>

#include <tuple>
#include <utility>

#include "js/v8_wording.hpp"

namespace phaseloop::runner {

namespace {

// Native stack SpiderMonkey may use before it reports "too much recursion"
// (the main thread has 8 MiB; sanitizers make frames larger).
constexpr std::size_t stack_quota = 4 * 1024 * 1024;

// The principals of the runner's frame realm (under_frame). The script's
// realm has none, and none subsumes these: SpiderMonkey leaves frames of
// that realm out of the stacks it shows the script (Error.prototype.stack,
// the SavedFrame accessors).
struct frame_principals final : JSPrincipals {
  frame_principals() { refcount = 1; }  // static: never released
  bool write(JSContext*, JSStructuredCloneWriter*) override { return false; }
  bool isSystemOrAddonPrincipal() override { return false; }
};
frame_principals runner_principals;

// RealmCreationOptions::setPropertyErrorMessageFixEnabled(true), where the
// option exists: a SpiderMonkey that dropped it words property errors its
// own way, which v8_wording.hpp's rules read where they can.
template <class Options>
auto name_properties_in_errors(Options& o, int) -> decltype(o.setPropertyErrorMessageFixEnabled(true), void()) {
  o.setPropertyErrorMessageFixEnabled(true);
}
template <class Options>
void name_properties_in_errors(Options&, long) {}

bool subsumes(JSPrincipals* first, JSPrincipals* second) {
  return second != &runner_principals || first == &runner_principals;
}
const JSSecurityCallbacks security_callbacks = {nullptr, subsumes};

const JSClass frame_global_class = {"PhaseloopFrame", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps,
                                    nullptr, nullptr, nullptr};

}  // namespace

bool script_host::new_context(std::unique_ptr<JS::JobQueue> jobs, JS::PromiseRejectionTrackerCallback track,
                              void* track_data, const JSClass* cls, bool async_stacks, bool shared_memory) {
  cx_ = JS_NewContext(JS::DefaultHeapMaxBytes);
  if (cx_ == nullptr) return false;
  // SpiderMonkey's default cap (32 MiB) is an embedding default, not
  // Node's or a browser's: a script queueing a million callbacks needs
  // more. Their heaps are bounded by memory in practice; so is this one
  // (4 GiB).
  JS_SetGCParameter(cx_, JSGC_MAX_BYTES, 0xffffffffu);
  // Async stack traces ("at async f" frames) cost a stack capture per
  // promise made (a chain of promises runs 5x slower with them); only the
  // runtimes that show them (Node >= 12, Chromium) get them.
  JS::ContextOptionsRef(cx_).setAsyncStack(async_stacks);
  JS_SetContextPrivate(cx_, this);
  JS_SetNativeStackQuota(cx_, stack_quota);
  if (!JS::InitSelfHostedCode(cx_)) return false;
  jobs_ = std::move(jobs);
  JS::SetJobQueue(cx_, jobs_.get());
  JS::SetPromiseRejectionTrackerCallback(cx_, track, track_data);

  JS::RealmOptions ro;
  // Property errors name the property ("can't access property "x", o is
  // null"), which V8's wording needs (v8_wording.hpp).
  name_properties_in_errors(ro.creationOptions(), 0);
  if (shared_memory) {
    ro.creationOptions().setSharedMemoryAndAtomicsEnabled(true);
    JS_SetFutexCanWait(cx_);
  }
  JS::RootedObject global(cx_, JS_NewGlobalObject(cx_, cls, nullptr, JS::FireOnNewGlobalHook, ro));
  if (!global) return false;
  global_.emplace(cx_, global);
  JS::EnterRealm(cx_, global);
  entered_ = true;
  if (!JS::InitRealmStandardClasses(cx_) || !make_frame_realm(global)) return false;
  // V8's wording of SpiderMonkey's errors (v8_wording.hpp). Watching every
  // exception makes the realm a Debugger's debuggee, which costs on every
  // promise and native call (a chain of promise reactions runs about 10%
  // more instructions) and on every throw: a script that cannot see an
  // engine error's message runs without it, and the errors the runner
  // reports for it are reworded when reported.
  reword_over_recursion();
  if (!replace_json_parse(cx_, global)) return false;
  watching_errors_ = may_see_errors(source_);
  return !watching_errors_ || wording() != nullptr;
}

JSObject* script_host::wording() {
  if (!wording_global_) {
    JS::RootedObject global(cx_, script_host::global());
    JSObject* w = make_v8_wording(cx_, global, lib_mode_, watching_errors_);
    if (w == nullptr) return nullptr;
    wording_global_.emplace(cx_, w);
  }
  return wording_global_->get();
}

void script_host::reword_reported(JS::HandleValue error) {
  if (watching_errors_ || !error.isObject() || global() == nullptr) return;
  JS::RootedObject obj(cx_, &error.toObject());
  JS::RootedObject frame(cx_, JS::ExceptionStackOrNull(obj));
  // The first frame in the script: where the error happened, as far as
  // the script's text shows.
  while (frame) {
    JS::RootedString src(cx_);
    std::string file;
    if (JS::GetSavedFrameSource(cx_, nullptr, frame, &src) == JS::SavedFrameResult::Ok && src &&
        to_utf8(cx_, src, file) && file == opts_.path) {
      break;
    }
    JS::RootedObject parent(cx_);
    if (JS::GetSavedFrameParent(cx_, nullptr, frame, &parent) != JS::SavedFrameResult::Ok) frame = nullptr;
    else frame = parent;
  }
  JS_ClearPendingException(cx_);
  std::uint32_t line = 0;
  unsigned column = 1;
  if (frame) {
    JS::GetSavedFrameLine(cx_, nullptr, frame, &line);
    column = saved_frame_column(cx_, frame);
  }
  JSObject* w = wording();
  JS_ClearPendingException(cx_);
  if (w != nullptr) phaseloop::runner::reword_reported(cx_, w, error, line > 0 ? source_line(line) : "", column);
}

bool script_host::make_frame_realm(JS::HandleObject global) {
  JS_SetSecurityCallbacks(cx_, &security_callbacks);
  JS::RealmOptions ro;
  ro.creationOptions().setExistingCompartment(global);
  JS::RootedObject frame_global(
      cx_, JS_NewGlobalObject(cx_, &frame_global_class, &runner_principals, JS::DontFireOnNewGlobalHook, ro));
  if (!frame_global) return false;
  JSAutoRealm ar(cx_, frame_global);
  if (!JS_DefineFunction(cx_, frame_global, "run", frame_native, 0, 0)) return false;
  JS::CompileOptions co(cx_);
  co.setFileAndLine("phaseloop:frame", 1);
  JS::SourceText<mozilla::Utf8Unit> text;
  static constexpr char body[] = "run();";
  if (!text.init(cx_, body, sizeof body - 1, JS::SourceOwnership::Borrowed)) return false;
  JS::RootedObjectVector env(cx_);
  JSFunction* fn = JS::CompileFunction(cx_, env, co, "frame", 0, nullptr, text);
  if (fn == nullptr) return false;
  frame_fn_.emplace(cx_, JS_GetFunctionObject(fn));
  return true;
}

bool script_host::frame_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  script_host& h = from(cx);
  args.rval().setUndefined();
  JSAutoRealm ar(cx, h.global());
  h.frame_call_(h.frame_arg_);
  return !JS_IsExceptionPending(cx);
}

bool script_host::under_frame(void (*fn)(void*), void* arg) {
  const auto saved = std::pair(frame_call_, frame_arg_);
  frame_call_ = fn;
  frame_arg_ = arg;
  bool ok;
  {
    JSAutoRealm ar(cx_, *frame_fn_);
    JS::RootedValue f(cx_, JS::ObjectValue(**frame_fn_));
    JS::RootedValue rval(cx_);
    ok = JS::Call(cx_, JS::UndefinedHandleValue, f, JS::HandleValueArray::empty(), &rval);
  }
  std::tie(frame_call_, frame_arg_) = saved;
  return ok;
}

void script_host::destroy_context() noexcept {
  if (cx_ == nullptr) return;
  lib_internal_.reset();
  lib_modules_.reset();
  frame_fn_.reset();
  wording_global_.reset();
  global_.reset();
  if (entered_) JS::LeaveRealm(cx_, nullptr);
  entered_ = false;
  JS_DestroyContext(cx_);
  cx_ = nullptr;
}

bool script_host::utf16_source(const std::string& text, JS::SourceText<char16_t>& src) {
  std::size_t len = 0;
  JS::UniqueTwoByteChars chars(
      JS::LossyUTF8CharsToNewTwoByteCharsZ(cx_, JS::UTF8Chars(text.data(), text.size()), &len, js::MallocArena)
          .get());
  return chars && src.init(cx_, std::move(chars), len);
}

std::string script_host::source_line(unsigned line) const {
  std::size_t pos = 0;
  for (unsigned l = 1; l < line; l++) {
    pos = source_.find('\n', pos);
    if (pos == std::string::npos) return {};
    pos++;
  }
  std::size_t end = source_.find('\n', pos);
  if (end == std::string::npos) end = source_.size();
  std::string s = source_.substr(pos, end - pos);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

void script_host::print_location(std::string& out, unsigned line, unsigned column) const {
  out += opts_.path;
  out += ':';
  out += std::to_string(line);
  out += '\n';
  out += source_line(line);
  out += '\n';
  if (column > 1) out.append(column - 1, ' ');
  out += "^\n";
}

}  // namespace phaseloop::runner
