// SPDX-License-Identifier: MIT
#pragma once
// What both engines share (engine.hpp runs Node's modes, window.hpp the
// browser's): the script's text and options, its standard output, and one
// SpiderMonkey context with one global, made and destroyed the same way.
// The context's private pointer is the script_host, so bindings common to
// both (console) find it with script_host::from(cx), and each engine's
// from() casts it back to itself.

#include "js/js.hpp"

#include <js/Promise.h>
#include <js/SourceText.h>

#include <memory>
#include <optional>
#include <string>

#include "js/inspect.hpp"
#include "js/lib.hpp"
#include "js/runner.hpp"
#include "js/trace.hpp"

namespace phaseloop::runner {

class script_host {
 public:
  static script_host& from(JSContext* cx) { return *static_cast<script_host*>(JS_GetContextPrivate(cx)); }
  script_host(const script_host&) = delete;
  script_host& operator=(const script_host&) = delete;

  bool ok() const noexcept { return cx_ != nullptr; }
  JSContext* cx() const noexcept { return cx_; }
  output& out() noexcept { return out_; }
  const run_options& options() const noexcept { return opts_; }
  /// How console.log formats values (the mode's Node version, or Node 20's
  /// for the browser).
  inspect_style console_style() const noexcept { return style_; }
  /// The global object (null before the context is made).
  JSObject* global() const { return global_ ? global_->get() : nullptr; }

  /// The JavaScript built-ins' state (lib.cpp): the `internal` object
  /// their modules share and the loaded modules by name; null before
  /// boot_lib. Dropped by destroy_context.
  JSObject* lib_internal() const { return lib_internal_ ? lib_internal_->get() : nullptr; }
  JSObject* lib_modules() const { return lib_modules_ ? lib_modules_->get() : nullptr; }
  native_module lib_natives() const { return lib_natives_; }
  void set_lib(JS::HandleObject internal, JS::HandleObject modules, native_module natives) {
    lib_internal_.emplace(cx_, internal);
    lib_modules_.emplace(cx_, modules);
    lib_natives_ = natives;
  }
  /// Calls internal.NAME(args...) of the built-ins (lib.cpp). False with
  /// an exception pending when it threw.
  bool call_lib(const char* name, const JS::HandleValueArray& args, JS::MutableHandleValue rval);
  /// What the built-ins behave as: "node10", "node11", "node" or "browser".
  const char* lib_mode() const noexcept { return lib_mode_; }

  /// Runs fn(arg) with a script frame of the runner's own realm under it.
  /// SpiderMonkey times the outermost script call (two clock reads each
  /// time native code calls into script), so the callbacks a loop makes
  /// cost less when the loop itself runs under a script frame; the frame's
  /// realm has principals the script's realm does not subsume, so no stack
  /// the script sees shows it. False (an exception pending) when fn left
  /// one pending.
  bool under_frame(void (*fn)(void*), void* arg);

  /// The global of the compartment that words errors as V8 does
  /// (v8_wording.hpp), made at the first need; null (an exception pending)
  /// if it cannot be made.
  JSObject* wording();

  /// Gives `error`, about to be reported (uncaught, or a rejection no one
  /// handled), V8's wording of its message when no Debugger watched the
  /// script's errors (v8_wording.hpp). Leaves no exception pending.
  void reword_reported(JS::HandleValue error);

  /// Line `line` (from 1) of the script, without its line break.
  std::string source_line(unsigned line) const;
  /// Appends "PATH:LINE", the line, and a caret under `column` (from 1).
  void print_location(std::string& out, unsigned line, unsigned column) const;
  /// `text` as UTF-16 source text: SpiderMonkey 102 reads UTF-8 source as
  /// Latin-1 on some paths (CompileFunction among them).
  bool utf16_source(const std::string& text, JS::SourceText<char16_t>& src);

 protected:
  script_host(const run_options& o, std::string source, inspect_style style)
      : opts_(o), source_(std::move(source)), style_(style) {}
  ~script_host() = default;

  /// Makes the context (4 GiB heap cap, stack quota, `this` as its private
  /// pointer), gives promise jobs to `jobs` and rejection changes to
  /// `track(…, track_data)`, and makes a global of class `cls`, entered,
  /// with the standard classes; with async stack traces when
  /// `async_stacks`; with SharedArrayBuffer and a blocking Atomics.wait
  /// when `shared_memory` (Node has both; a page that is not
  /// cross-origin isolated has neither). False on failure;
  /// destroy_context() then cleans up what was made.
  bool new_context(std::unique_ptr<JS::JobQueue> jobs, JS::PromiseRejectionTrackerCallback track,
                   void* track_data, const JSClass* cls, bool async_stacks, bool shared_memory);
  /// Leaves the global's realm and destroys the context. The engine drops
  /// its own roots first.
  void destroy_context() noexcept;

  run_options opts_;
  std::string source_;
  output out_;
  JSContext* cx_ = nullptr;

  const char* lib_mode_ = "node";

 private:
  inspect_style style_;
  std::optional<JS::PersistentRootedObject> lib_internal_;
  std::optional<JS::PersistentRootedObject> lib_modules_;
  native_module lib_natives_ = nullptr;
  std::unique_ptr<JS::JobQueue> jobs_;
  std::optional<JS::PersistentRootedObject> global_;
  // under_frame's function, in a realm of its own (same compartment).
  std::optional<JS::PersistentRootedObject> frame_fn_;
  // The global of the Debugger that words errors as V8 (v8_wording.hpp),
  // and whether it watches every exception.
  std::optional<JS::PersistentRootedObject> wording_global_;
  bool watching_errors_ = false;
  void (*frame_call_)(void*) = nullptr;
  void* frame_arg_ = nullptr;
  bool entered_ = false;

  bool make_frame_realm(JS::HandleObject global);
  static bool frame_native(JSContext* cx, unsigned argc, JS::Value* vp);
};

}  // namespace phaseloop::runner
