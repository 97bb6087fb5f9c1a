// SPDX-License-Identifier: MIT
#pragma once
// Node's util.format and util.inspect, as console.log uses them, in the
// variants the three modes' Node versions print:
//
//   node10  compact: true, breakLength 60, single quotes always,
//           [Function] for anonymous functions, '\u0001' escapes,
//           primitives after a format string printed with `${x}` (-0 as 0)
//   node11  as node10, but quotes chosen like Node 20 ("it's")
//   node20  compact: 3, breakLength 80, arrays of more than 6 items grouped
//           in columns, [Function (anonymous)], [class A], Map(1) {...},
//           <ref *1> ... [Circular *1], %c, -0 kept everywhere
//
// Not covered: colors, Proxy details, getters' values, WeakMap/WeakSet
// contents, util.inspect.custom.

#include "js/js.hpp"

#include <cstdint>
#include <string>

#include "phaseloop/node.hpp"

namespace phaseloop::runner {

enum class inspect_style : std::uint8_t { node10, node11, node20 };

/// The style a mode's Node version prints in.
inspect_style style_for(node::mode m) noexcept;

struct inspect_options {
  inspect_style style = inspect_style::node20;
  int depth = 2;             ///< nesting shown before [Object]
  bool show_hidden = false;  ///< %o: non-enumerable keys, [length]
};

/// util.inspect(v). False when JS threw (the exception is pending).
bool inspect(JSContext* cx, JS::HandleValue v, const inspect_options& o, std::string& out);

/// util.format(args...) as console.log formats its arguments.
bool format_args(JSContext* cx, const JS::HandleValueArray& args, inspect_style st,
                 std::string& out);

/// The stack of an Error as Node shows it: "Name: message" then one
/// "    at fn (file:line:col)" line per frame. `frames` tells whether there
/// was any frame.
bool error_stack(JSContext* cx, JS::HandleObject err, std::string& out, bool& frames);

/// True when `v` is an Error object.
bool is_error(JSContext* cx, JS::HandleValue v);

/// The UTF-8 text of a JS string; ToString of a value.
bool to_utf8(JSContext* cx, JS::HandleString s, std::string& out);
bool value_to_utf8(JSContext* cx, JS::HandleValue v, std::string& out);

}  // namespace phaseloop::runner
