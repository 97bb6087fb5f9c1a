// SPDX-License-Identifier: MIT
#pragma once
// V8's wording of the errors SpiderMonkey makes, in both engines' realms
// (docs/node-modes.md and docs/browser-mode.md, "Error messages").

#include "js/js.hpp"

#include <string>
#include <string_view>

namespace phaseloop::runner {

/// Whether a script whose text is `source` may see the message of an
/// error SpiderMonkey made: only a catch (try/catch, .catch), a second
/// argument of .then, Promise.allSettled, util.callbackify, an emitter's
/// captureRejections, or a listener for errors ('error', onerror,
/// uncaughtException, unhandledRejection) hands a script such an error.
bool may_see_errors(std::string_view source);

/// Makes SpiderMonkey raise V8's RangeError "Maximum call stack size
/// exceeded" where it raised InternalError "too much recursion", in the
/// whole process (once).
void reword_over_recursion();

/// Puts in the place of JSON.parse in `global`'s realm (entered) one that
/// gives its SyntaxErrors V8's message, which names what it found in the
/// text (through script_host::wording()).
bool replace_json_parse(JSContext* cx, JS::HandleObject global);

/// Makes the compartment that words errors as the V8 of `mode` ("node10",
/// "node11", "node", "browser") does (src/js/lib/internal_wording.js) and
/// returns its global, which the caller keeps alive for as long as
/// `global`'s realm runs; null (an exception pending) on failure. With
/// `watch`, its Debugger rewrites every error SpiderMonkey raises in that
/// realm as the error leaves the frame it happened in.
JSObject* make_v8_wording(JSContext* cx, JS::HandleObject global, const char* mode, bool watch);

/// Rewords `error`, about to be reported by the runner, when no Debugger
/// watched it: `line` is the source line it happened on, `column` (from 1)
/// where. Leaves no exception pending.
void reword_reported(JSContext* cx, JSObject* wording_global, JS::HandleValue error, const std::string& line,
                     unsigned column);

}  // namespace phaseloop::runner
