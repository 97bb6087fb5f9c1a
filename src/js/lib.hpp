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

class script_host;

/// One module's source, as the build compiles it in (lib_js.cpp).
struct lib_source {
  const char* name;  ///< "events", "timers/promises", "internal/bootstrap"
  const char* text;
};
/// Ends with {nullptr, nullptr}.
extern const lib_source lib_sources[];

/// Whether a built-in module `name` (given without "node:") is compiled in.
bool builtin_exists(const std::string& name);

/// require(name) of a JavaScript built-in: its module.exports, loaded once
/// per context. False with an exception pending on failure.
bool require_lib(script_host& h, const std::string& name, JS::MutableHandleValue out);

/// A host's modules made in C++ (Node's fs): sets `found` and `out` when
/// `name` is one of them. False with an exception pending on failure.
using native_module = bool (*)(script_host& h, const std::string& name, JS::MutableHandleValue out, bool& found);

/// Makes the `internal` object (the natives every host shares, and the
/// host's `natives`) and the module cache, and runs the host's `bootstrap`
/// module (internal/bootstrap for Node, internal/browser for the window).
/// `watched`: internal.watched, for the trace; `modules`: the host's C++
/// modules, or null. False with an exception pending on failure.
bool boot_builtins(script_host& h, const JSFunctionSpec* natives, const char* bootstrap, bool watched,
                   native_module modules);

}  // namespace phaseloop::runner
