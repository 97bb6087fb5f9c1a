// SPDX-License-Identifier: MIT
#pragma once
// The globals a script sees, defined on the engine's global object.

#include "js/js.hpp"

#include <string>

namespace phaseloop::runner {

class engine;
struct fs_op;
struct js_immediate;

/// console.log/info/debug (stdout) and error/warn (stderr), formatted in
/// the host's console style; for both engines (globals.cpp).
bool define_console(JSContext* cx, JS::HandleObject global);
/// console, process, performance, global, queueMicrotask (node11+)
/// (globals.cpp).
bool define_globals(engine& e, JS::HandleObject global);
/// setTimeout, setInterval, setImmediate, their clear functions, and the
/// Timeout and Immediate prototypes (timers.cpp).
bool define_timers(engine& e, JS::HandleObject global);
/// Unschedules a pending immediate and frees its record (timers.cpp); its
/// object, if still reachable, no longer has one.
void release_immediate(js_immediate& r) noexcept;
/// process.nextTick (timers.cpp), defined on `process`.
bool define_next_tick(engine& e, JS::HandleObject process);
/// The `require` function given to the main module (globals.cpp).
JSObject* make_require(engine& e);
/// require('fs') (fs_module.cpp).
JSObject* make_fs_module(engine& e);
/// Drops the JS values of an fs operation still in flight at teardown.
void release_fs_op(fs_op& op) noexcept;

/// Throws `new <ctor>(message)` (a constructor of the current global),
/// with a `code` property unless `code` is null, as Node's errors have.
/// Returns false.
bool throw_error(JSContext* cx, const char* ctor, const std::string& message, const char* code);

/// Whether `err` is a Node >= 12 internal error made by throw_error (its
/// prototype's toString is NodeError's); then `code` is its code. Its stack
/// header is "Name [CODE]: message", as Node prints it.
bool node_error_code(JSContext* cx, JS::HandleObject err, std::string& code);

/// A prototype (of Object.prototype) with `methods` and a `constructor`
/// named `name` that throws "Illegal constructor", so that console.log
/// names its objects ("Timeout {...}", "Stats {...}") (globals.cpp).
JSObject* named_proto(JSContext* cx, const char* name, const JSFunctionSpec* methods);

/// Throws a TypeError like Node's ERR_INVALID_ARG_TYPE for a callback.
bool throw_callback_type(JSContext* cx, const char* name, JS::HandleValue got);

}  // namespace phaseloop::runner
