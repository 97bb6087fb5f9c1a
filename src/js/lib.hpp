// SPDX-License-Identifier: MIT
#pragma once
// The modules of the runner written in JavaScript (src/js/lib/*.js,
// compiled into the program): require('events'), require('util'), ... and
// the bootstraps that make `process` an EventEmitter (Node modes) and
// window an EventTarget (browser). Each module is a function (exports,
// require, module, internal, process) run once per context; `internal`
// holds the native helpers they need.

#include "js/js.hpp"

#include <string>

namespace phaseloop::runner {

class engine;
class script_host;

/// One module's source, as the build compiles it in (lib_js.cpp).
struct lib_source {
  const char* name;  ///< "events", "timers/promises", "internal/bootstrap"
  const char* text;
};
/// Ends with {nullptr, nullptr}.
extern const lib_source lib_sources[];

/// Whether the script's Node version has the built-in module `name`
/// (given without "node:").
bool has_builtin(const engine& e, const std::string& name);

/// require(name) of a JavaScript built-in: its module.exports, loaded once
/// per context. False with an exception pending on failure.
bool require_lib(script_host& h, const std::string& name, JS::MutableHandleValue out);

/// Makes the `internal` object (the Node engine's natives too) and runs
/// the bootstrap module of Node (internal/bootstrap). False with an
/// exception pending on failure.
bool boot_lib(engine& e);
/// The same for the browser's window (internal/browser), with the window
/// engine's `natives`.
bool boot_browser_lib(script_host& h, const JSFunctionSpec* natives);

}  // namespace phaseloop::runner
