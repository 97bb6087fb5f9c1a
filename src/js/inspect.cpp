// SPDX-License-Identifier: MIT
// util.format and util.inspect as Node prints them (see inspect.hpp for
// the differences between versions). The structure follows Node's
// lib/internal/util/inspect.js: a value is formatted into a base, braces and
// a list of entries, and the entries are then put on one line or several.

#include "js/inspect.hpp"

#include <js/Array.h>
#include <js/BigInt.h>
#include <js/CallAndConstruct.h>
#include <js/Conversions.h>
#include <js/Date.h>
#include <js/Exception.h>
#include <js/ForOfIterator.h>
#include <js/MapAndSet.h>
#include <js/Promise.h>
#include <js/PropertyAndElement.h>
#include <js/PropertyDescriptor.h>
#include <js/Symbol.h>
#include <js/experimental/TypedData.h>
#include <jsfriendapi.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "js/bindings.hpp"

namespace phaseloop::runner {

namespace {

constexpr std::size_t max_array_length = 100;

// Display width of UTF-8 text: one column per code point (Node counts
// UTF-16 units; the two agree outside astral characters).
std::size_t width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string spaces(std::size_t n) { return std::string(n, ' '); }

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); i++) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); i++) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

char hex_digit(unsigned v, bool upper) { return static_cast<char>(v < 10 ? '0' + v : (upper ? 'A' : 'a') + v - 10); }

struct context {
  JSContext* cx;
  inspect_style style;
  int depth;
  bool show_hidden;
  std::size_t indentation = 0;
  int current_depth = 0;
  JS::RootedObjectVector seen;
  JS::RootedObjectVector circular;  // objects referred to as [Circular *N]

  context(JSContext* c, const inspect_options& o)
      : cx(c), style(o.style), depth(o.depth), show_hidden(o.show_hidden), seen(c), circular(c) {}

  bool legacy() const { return style != inspect_style::node20; }
  std::size_t break_length() const { return legacy() ? 60 : 80; }
};

// ---- primitives -------------------------------------------------------------------

// A string literal as inspect prints it.
std::string quote(const context& c, std::string_view s) {
  char q = '\'';
  if (c.style != inspect_style::node10 && s.find('\'') != std::string_view::npos) {
    // Node 11+ picks the quote that needs no escaping.
    if (s.find('"') == std::string_view::npos) {
      q = '"';
    } else if (s.find('`') == std::string_view::npos && s.find("${") == std::string_view::npos) {
      q = '`';
    }
  }
  std::string out(1, q);
  for (std::size_t i = 0; i < s.size(); i++) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch == static_cast<unsigned char>(q)) {
      out += '\\';
      out += q;
    } else if (ch == '\\') {
      out += "\\\\";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\b') {
      out += "\\b";
    } else if (ch == '\f') {
      out += "\\f";
    } else if (ch < 0x20 || (ch == 0x7f && !c.legacy())) {
      if (c.legacy()) {
        out += "\\u00";
        out += hex_digit(ch >> 4, true);
        out += hex_digit(ch & 15, true);
      } else {
        out += "\\x";
        out += hex_digit(ch >> 4, true);
        out += hex_digit(ch & 15, true);
      }
    } else if (!c.legacy() && ch == 0xC2 && i + 1 < s.size() &&
               static_cast<unsigned char>(s[i + 1]) >= 0x80 && static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      // C1 controls (U+0080..U+009F) are escaped by Node 12+.
      const auto c1 = static_cast<unsigned char>(s[++i]);
      out += "\\x";
      out += hex_digit(c1 >> 4, true);
      out += hex_digit(c1 & 15, true);
    } else {
      out += static_cast<char>(ch);
    }
  }
  out += q;
  return out;
}

bool number_text(JSContext* cx, double d, bool keep_negative_zero, std::string& out) {
  if (d == 0 && std::signbit(d) && keep_negative_zero) {
    out = "-0";
    return true;
  }
  JS::RootedValue v(cx, JS::NumberValue(d));
  return value_to_utf8(cx, v, out);
}

bool bigint_text(JSContext* cx, JS::HandleValue v, std::string& out) {
  JS::RootedString s(cx, JS::ToString(cx, v));
  if (!s || !to_utf8(cx, s, out)) return false;
  out += 'n';
  return true;
}

bool symbol_text(JSContext* cx, JS::HandleValue v, std::string& out) {
  JS::RootedSymbol sym(cx, v.toSymbol());
  JS::RootedString desc(cx, JS::GetSymbolDescription(sym));
  std::string d;
  if (desc && !to_utf8(cx, desc, d)) return false;
  out = "Symbol(" + d + ")";
  return true;
}

bool format_primitive(context& c, JS::HandleValue v, std::string& out) {
  JSContext* cx = c.cx;
  if (v.isUndefined()) {
    out = "undefined";
  } else if (v.isNull()) {
    out = "null";
  } else if (v.isBoolean()) {
    out = v.toBoolean() ? "true" : "false";
  } else if (v.isNumber()) {
    return number_text(cx, v.toNumber(), true, out);
  } else if (v.isBigInt()) {
    return bigint_text(cx, v, out);
  } else if (v.isSymbol()) {
    return symbol_text(cx, v, out);
  } else if (v.isString()) {
    std::string s;
    if (!value_to_utf8(cx, v, s)) return false;
    const std::size_t room = c.break_length() > c.indentation + 4 ? c.break_length() - c.indentation - 4 : 0;
    if (!c.legacy() && width(s) > 16 && width(s) > room && s.find('\n') != std::string::npos &&
        s.find('\n') + 1 < s.size()) {
      // Node 12+ splits a long multi-line string after each newline.
      std::vector<std::string> parts;
      std::size_t pos = 0;
      while (pos < s.size()) {
        std::size_t nl = s.find('\n', pos);
        const std::size_t end = nl == std::string::npos ? s.size() : nl + 1;
        parts.push_back(quote(c, std::string_view(s).substr(pos, end - pos)));
        pos = end;
      }
      out = join(parts, " +\n" + spaces(c.indentation + 2));
      return true;
    }
    out = quote(c, s);
  }
  return true;
}

// ---- objects: what they are ----------------------------------------------------------

bool get_string_prop(JSContext* cx, JS::HandleObject obj, const char* name, std::string& out, bool& found) {
  JS::RootedValue v(cx);
  if (!JS_GetProperty(cx, obj, name, &v)) return false;
  found = v.isString();
  return !found || value_to_utf8(cx, v, out);
}

// The name of the first constructor on the prototype chain (Node's
// getConstructorName); `found` is false for a null-prototype chain.
bool constructor_name(JSContext* cx, JS::HandleObject obj, std::string& name, bool& found) {
  found = false;
  JS::RootedObject o(cx, obj);
  JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
  while (o) {
    if (!JS_GetOwnPropertyDescriptor(cx, o, "constructor", &desc)) return false;
    if (desc.isSome() && desc->hasValue() && desc->value().isObject() &&
        JS_ObjectIsFunction(&desc->value().toObject())) {
      JS::RootedObject ctor(cx, &desc->value().toObject());
      bool has = false;
      if (!get_string_prop(cx, ctor, "name", name, has)) return false;
      if (has && !name.empty()) {
        found = true;
        return true;
      }
    }
    JS::RootedObject proto(cx);
    if (!JS_GetPrototype(cx, o, &proto)) return false;
    o = proto;
  }
  return true;
}

// Symbol.toStringTag, shown after the constructor's name when it differs
// ("Foo [Tag] {}"), in Node 10 and 11 too. Node 20 leaves it out when the
// key is printed anyway: an own enumerable property (an own one at all
// with showHidden).
bool to_string_tag(context& c, JS::HandleObject obj, std::string& tag) {
  JS::RootedId id(c.cx, JS::GetWellKnownSymbolKey(c.cx, JS::SymbolCode::toStringTag));
  JS::RootedValue v(c.cx);
  if (!JS_GetPropertyById(c.cx, obj, id, &v)) return false;
  if (!v.isString()) return true;
  if (!c.legacy()) {
    JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(c.cx);
    if (!JS_GetOwnPropertyDescriptorById(c.cx, obj, id, &desc)) return false;
    if (desc.isSome() && (c.show_hidden || desc->enumerable())) return true;
  }
  return value_to_utf8(c.cx, v, tag);
}

// Node's getPrefix: "Foo ", "Map(2) ", "[Object: null prototype] ".
std::string prefix(const context& c, bool has_ctor, const std::string& ctor, const std::string& tag,
                   const std::string& fallback, const std::string& size = "") {
  const std::string sz = c.legacy() ? "" : size;
  if (!has_ctor) {
    if (!tag.empty() && tag != fallback) return "[" + fallback + sz + ": null prototype] [" + tag + "] ";
    return "[" + fallback + sz + ": null prototype] ";
  }
  if (!tag.empty() && tag != ctor) return ctor + sz + " [" + tag + "] ";
  return ctor + sz + " ";
}

bool call_method(JSContext* cx, JS::HandleObject obj, const char* name, JS::MutableHandleValue rval) {
  return JS_CallFunctionName(cx, obj, name, JS::HandleValueArray::empty(), rval);
}

// [Function: f], [class A extends B], [AsyncFunction (anonymous)], ...
bool function_base(context& c, JS::HandleObject fn, std::string& out) {
  JSContext* cx = c.cx;
  std::string name;
  bool has_name = false;
  if (!get_string_prop(cx, fn, "name", name, has_name)) return false;
  if (!has_name) name.clear();
  std::string type = "Function";
  JS::RootedObject proto(cx);
  if (!JS_GetPrototype(cx, fn, &proto)) return false;
  if (proto) {
    JS::RootedId id(cx, JS::GetWellKnownSymbolKey(cx, JS::SymbolCode::toStringTag));
    JS::RootedValue tag(cx);
    if (!JS_GetPropertyById(cx, proto, id, &tag)) return false;
    std::string t;
    if (tag.isString() && value_to_utf8(cx, tag, t) && !t.empty()) type = t;
  }
  bool is_class = false;
  if (JSFunction* f = JS_GetObjectFunction(fn)) {
    JS::RootedFunction rf(cx, f);
    JS::RootedString src(cx, JS_DecompileFunction(cx, rf));
    std::string text;
    if (src && to_utf8(cx, src, text)) {
      is_class = text.compare(0, 5, "class") == 0 && text.size() > 5 && !is_identifier(text.substr(0, 6));
    }
    JS_ClearPendingException(cx);
  }
  if (c.legacy()) {
    out = "[" + type + (name.empty() ? "" : ": " + name) + "]";
    return true;
  }
  if (is_class) {
    out = "[class " + (name.empty() ? std::string("(anonymous)") : name);
    if (proto && JS_ObjectIsFunction(proto)) {
      std::string base;
      bool has = false;
      if (!get_string_prop(cx, proto, "name", base, has)) return false;
      if (has && !base.empty()) out += " extends " + base;
    }
    out += "]";
    return true;
  }
  out = "[" + type + (name.empty() ? " (anonymous)" : ": " + name) + "]";
  return true;
}

bool is_index_key(JS::HandleId id) { return id.isInt(); }

// Own keys to show: enumerable string and symbol keys (all with show_hidden).
bool own_keys(context& c, JS::HandleObject obj, JS::MutableHandleIdVector keys) {
  unsigned flags = JSITER_OWNONLY | JSITER_SYMBOLS;
  if (c.show_hidden) flags |= JSITER_HIDDEN;
  return js::GetPropertyKeys(c.cx, obj, flags, keys);
}

bool format_value(context& c, JS::HandleValue v, int recurse_times, std::string& out);

bool has_own_element(JSContext* cx, JS::HandleObject obj, uint32_t i, bool* has) {
  JS::RootedId id(cx);
  return JS_IndexToId(cx, i, &id) && JS_HasOwnPropertyById(cx, obj, id, has);
}

// "key: value", "[Symbol(s)]: value", "[hidden]: value", or for array
// elements the value alone.
bool format_property(context& c, JS::HandleObject obj, JS::HandleId id, int recurse_times, bool array_element,
                     std::string& out) {
  JSContext* cx = c.cx;
  JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
  if (!JS_GetOwnPropertyDescriptorById(cx, obj, id, &desc)) return false;
  std::string str, sep = " ";
  if (desc.isNothing() || desc->hasValue()) {
    JS::RootedValue v(cx);
    if (desc.isSome()) {
      v = desc->value();
    } else if (!JS_GetPropertyById(cx, obj, id, &v)) {
      return false;
    }
    const std::size_t diff = (!c.legacy() || array_element) ? 2 : 3;
    c.indentation += diff;
    const bool ok = format_value(c, v, recurse_times, str);
    // Node 10/11 move a long property value to its own line.
    if (ok && diff == 3 && width(str) > c.break_length()) sep = "\n" + spaces(c.indentation);
    c.indentation -= diff;
    if (!ok) return false;
  } else if (desc->hasGetter() && desc->getter()) {
    str = desc->hasSetter() && desc->setter() ? "[Getter/Setter]" : "[Getter]";
  } else if (desc->hasSetter() && desc->setter()) {
    str = "[Setter]";
  } else {
    str = "undefined";
  }
  if (array_element) {
    out = str;
    return true;
  }
  std::string name;
  if (id.isSymbol()) {
    JS::RootedValue sym(cx, JS::SymbolValue(id.toSymbol()));
    std::string s;
    if (!symbol_text(cx, sym, s)) return false;
    name = "[" + s + "]";
  } else {
    JS::RootedValue key(cx);
    if (!JS_IdToValue(cx, id, &key) || !value_to_utf8(cx, key, name)) return false;
    if (!is_identifier(name)) name = quote(c, name);
  }
  if (desc.isSome() && !desc->enumerable()) name = "[" + name + "]";
  out = name + ":" + sep + str;
  return true;
}

std::string more_items(std::size_t n) {
  return "... " + std::to_string(n) + " more item" + (n > 1 ? "s" : "");
}

// Array elements, with runs of holes as "<N empty items>".
bool format_array(context& c, JS::HandleObject arr, uint32_t length, int recurse_times,
                  std::vector<std::string>& output, bool& all_numbers) {
  JSContext* cx = c.cx;
  all_numbers = true;
  uint32_t i = 0;
  while (i < length && output.size() < max_array_length) {
    bool has = false;
    if (!has_own_element(cx, arr, i, &has)) return false;
    if (!has) {
      uint32_t j = i;
      while (j < length) {
        bool h = false;
        if (!has_own_element(cx, arr, j, &h)) return false;
        if (h) break;
        j++;
      }
      const uint32_t holes = j - i;
      output.push_back("<" + std::to_string(holes) + " empty item" + (holes > 1 ? "s" : "") + ">");
      all_numbers = false;
      i = j;
      continue;
    }
    JS::RootedValue el(cx);
    if (!JS_GetElement(cx, arr, i, &el)) return false;
    if (!el.isNumber() && !el.isBigInt()) all_numbers = false;
    JS::RootedId id(cx);
    if (!JS_IndexToId(cx, i, &id)) return false;
    std::string s;
    if (!format_property(c, arr, id, recurse_times, true, s)) return false;
    output.push_back(std::move(s));
    i++;
  }
  if (i < length) output.push_back(more_items(length - i));
  return true;
}

// Node 12+'s groupArrayElements: many short entries in aligned columns.
std::vector<std::string> group_array_elements(const context& c, const std::vector<std::string>& output,
                                              bool has_more, bool numbers) {
  std::size_t total = 0, max_len = 0;
  const std::size_t n = has_more ? output.size() - 1 : output.size();
  const std::size_t separator = 2;
  std::vector<std::size_t> len(n);
  for (std::size_t i = 0; i < n; i++) {
    len[i] = width(output[i]);
    total += len[i] + separator;
    max_len = std::max(max_len, len[i]);
  }
  const std::size_t actual_max = max_len + separator;
  if (actual_max * 3 + c.indentation < c.break_length() &&
      (static_cast<double>(total) / static_cast<double>(actual_max) > 5 || max_len <= 6)) {
    const double average_bias =
        std::sqrt(static_cast<double>(actual_max) - static_cast<double>(total) / static_cast<double>(output.size()));
    const double biased_max = std::max(static_cast<double>(actual_max) - 3 - average_bias, 1.0);
    const double by_area = std::round(std::sqrt(2.5 * biased_max * static_cast<double>(n)) / biased_max);
    const double by_width = std::floor(static_cast<double>(c.break_length() - c.indentation) /
                                       static_cast<double>(actual_max));
    const std::size_t columns = static_cast<std::size_t>(std::min({by_area, by_width, 3.0 * 4, 15.0}));
    if (columns <= 1) return output;
    std::vector<std::size_t> max_line(columns);
    for (std::size_t i = 0; i < columns; i++) {
      std::size_t line = 0;
      for (std::size_t j = i; j < n; j += columns) line = std::max(line, len[j]);
      max_line[i] = line + separator;
    }
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < n; i += columns) {
      const std::size_t end = std::min(i + columns, n);
      std::string row;
      std::size_t j = i;
      for (; j + 1 < end; j++) {
        const std::string cell = output[j] + ", ";
        const std::size_t pad = max_line[j - i] > len[j] + separator ? max_line[j - i] - len[j] - separator : 0;
        row += numbers ? spaces(pad) + cell : cell + spaces(pad);
      }
      if (numbers) {
        const std::size_t w = max_line[j - i] - separator;
        row += spaces(w > len[j] ? w - len[j] : 0) + output[j];
      } else {
        row += output[j];
      }
      rows.push_back(std::move(row));
    }
    if (has_more) rows.push_back(output.back());
    return rows;
  }
  return output;
}

bool below_break_length(const context& c, const std::vector<std::string>& output, std::size_t start,
                        const std::string& base) {
  std::size_t total = output.size() + start;
  if (total + output.size() > c.break_length()) return false;
  for (const std::string& s : output) {
    total += width(s);
    if (total > c.break_length()) return false;
  }
  return base.empty() || base.find('\n') == std::string::npos;
}

// Puts the entries on one line when they fit, else one per line.
std::string reduce_to_single_string(context& c, std::vector<std::string> output, std::string base,
                                    std::string braces0, const std::string& braces1, bool array_like,
                                    int recurse_times, bool has_more, bool numbers) {
  if (c.legacy()) {
    // Node 10/11 (compact: true): the base goes inside the braces.
    if (below_break_length(c, output, 0, base)) {
      return braces0 + (base.empty() ? "" : " " + base) + " " + join(output, ", ") + " " + braces1;
    }
    const std::string ind = spaces(c.indentation);
    const std::string ln = base.empty() && braces0.size() == 1
                               ? std::string(" ")
                               : (base.empty() ? "" : " " + base) + "\n" + ind + "  ";
    return braces0 + ln + join(output, ",\n" + ind + "  ") + " " + braces1;
  }
  const std::size_t entries = output.size();
  if (array_like && entries > 6) output = group_array_elements(c, output, has_more, numbers);
  if (c.current_depth - recurse_times < 3 && entries == output.size()) {
    const std::size_t start = output.size() + c.indentation + width(braces0) + width(base) + 10;
    if (below_break_length(c, output, start, base)) {
      const std::string joined = join(output, ", ");
      if (joined.find('\n') == std::string::npos) {
        return (base.empty() ? "" : base + " ") + braces0 + " " + joined + " " + braces1;
      }
    }
  }
  const std::string ind = "\n" + spaces(c.indentation);
  return (base.empty() ? "" : base + " ") + braces0 + ind + "  " + join(output, "," + ind + "  ") + ind + braces1;
}

bool format_error(context& c, JS::HandleObject err, std::string& out) {
  bool frames = false;
  if (!error_stack(c.cx, err, out, frames)) return false;
  if (!frames) out = "[" + out + "]";
  if (!c.legacy() && c.indentation != 0) {
    const std::string ind = spaces(c.indentation);
    std::string indented;
    for (char ch : out) {
      indented += ch;
      if (ch == '\n') indented += ind;
    }
    out = indented;
  }
  return true;
}

bool iterate(JSContext* cx, JS::HandleValue iterable, std::vector<JS::Value>& items, JS::RootedValueVector& keep) {
  JS::ForOfIterator it(cx);
  if (!it.init(iterable)) return false;
  for (;;) {
    bool done = false;
    JS::RootedValue v(cx);
    if (!it.next(&v, &done)) return false;
    if (done) break;
    if (!keep.append(v)) return false;
  }
  for (const JS::Value& v : keep) items.push_back(v);
  return true;
}

// ---- objects: one step per kind of value -----------------------------------------------
//
// format_object checks for a circular reference, learns what the object is
// (object_facts), lets the describe function of its kind either print it
// whole or fill an object_shape (base, braces, what is inside), and then
// formats the entries of that body and the object's own keys.

// The result of one step of format_object: a JavaScript error, the
// object's whole text (in `out`), or more to do.
enum class step { failed, text, go_on };

step finished(std::string text, std::string& out) {
  out = std::move(text);
  return step::text;
}

// [Circular] or [Circular *N] when the object is being formatted already
// (it is one of its own ancestors).
step circular_reference(context& c, JS::HandleObject obj, std::string& out) {
  for (std::size_t i = 0; i < c.seen.length(); i++) {
    if (c.seen[i] != obj) continue;
    if (c.legacy()) return finished("[Circular]", out);
    std::size_t index = 0;
    for (; index < c.circular.length(); index++) {
      if (c.circular[index] == obj) break;
    }
    if (index == c.circular.length() && !c.circular.append(obj)) return step::failed;
    return finished("[Circular *" + std::to_string(index + 1) + "]", out);
  }
  return step::go_on;
}

// What format_object learns of an object before it picks its kind.
struct object_facts {
  JS::HandleObject obj;
  JS::HandleIdVector all_keys;  // own_keys(): every key that may be shown
  js::ESClass cls = js::ESClass::Other;
  bool is_array = false;
  bool has_ctor = false;  // false for a null-prototype chain
  std::string ctor;
  std::string tag;  // Symbol.toStringTag (to_string_tag)

  object_facts(JS::HandleObject o, JS::HandleIdVector keys) : obj(o), all_keys(keys) {}
};

bool learn_facts(context& c, object_facts& f, JS::MutableHandleIdVector all_keys) {
  return JS::GetBuiltinClass(c.cx, f.obj, &f.cls) && constructor_name(c.cx, f.obj, f.ctor, f.has_ctor) &&
         to_string_tag(c, f.obj, f.tag) && own_keys(c, f.obj, all_keys) &&
         JS::IsArrayObject(c.cx, f.obj, &f.is_array);
}

// What is formatted between the braces besides the object's own keys.
enum class body_kind { none, array, typed, set, map, promise };

// An object printed as entries: "base braces0 entries braces1" (Node
// 10/11 put the base inside the braces).
struct object_shape {
  std::string base;
  std::string braces0 = "{";
  std::string braces1 = "}";
  bool array_like = false;  // entries may be grouped in columns
  body_kind body = body_kind::none;
  uint32_t length = 0;  // of an array, typed array or arguments object
};

// The keys among f.all_keys that `want` accepts, in order.
template <class Want>
bool keep_keys(JSContext* cx, const object_facts& f, JS::MutableHandleIdVector keys, Want&& want) {
  for (std::size_t i = 0; i < f.all_keys.length(); i++) {
    JS::RootedId id(cx, f.all_keys[i]);
    if (want(id) && !keys.append(id)) return false;
  }
  return true;
}

bool keep_all_keys(JSContext* cx, const object_facts& f, JS::MutableHandleIdVector keys) {
  return keep_keys(cx, f, keys, [](JS::HandleId) { return true; });
}

// All but the indices, which the body shows.
bool keep_non_index_keys(JSContext* cx, const object_facts& f, JS::MutableHandleIdVector keys) {
  return keep_keys(cx, f, keys, [](JS::HandleId id) { return !is_index_key(id); });
}

// The kinds printed as their base alone when they have no keys to show.
step base_unless_keys(const object_shape& s, JS::HandleIdVector keys, std::string& out) {
  return keys.empty() ? finished(s.base, out) : step::go_on;
}

step describe_array(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                    std::string& out) {
  if (!JS::GetArrayLength(c.cx, f.obj, &s.length)) return step::failed;
  // Hidden keys: [length] is shown by %o.
  if (!keep_non_index_keys(c.cx, f, keys)) return step::failed;
  const std::string p = (f.has_ctor && f.ctor == "Array" && f.tag.empty())
                            ? ""
                            : prefix(c, f.has_ctor, f.ctor, f.tag, "Array", "(" + std::to_string(s.length) + ")");
  s.braces0 = p + "[";
  s.braces1 = "]";
  if (s.length == 0 && keys.empty()) return finished(s.braces0 + "]", out);
  s.array_like = true;
  s.body = body_kind::array;
  return step::go_on;
}

// A Buffer: Node's <Buffer 68 69 ... N more bytes> (Node 10: "... >").
bool buffer_text(JSContext* cx, JS::HandleObject obj, uint32_t length, bool node10, std::string& out) {
  out = "<Buffer";
  const uint32_t shown = std::min<uint32_t>(length, 50);
  for (uint32_t i = 0; i < shown; i++) {
    JS::RootedValue b(cx);
    if (!JS_GetElement(cx, obj, i, &b)) return false;
    const unsigned byte = b.isNumber() ? static_cast<unsigned>(b.toNumber()) & 0xff : 0;
    out += ' ';
    out += hex_digit(byte >> 4, false);
    out += hex_digit(byte & 15, false);
  }
  if (length > shown) out += node10 ? " ... " : " ... " + std::to_string(length - shown) + " more bytes";
  out += ">";
  return true;
}

step describe_typed_array(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                          std::string& out) {
  JS::RootedValue len(c.cx);
  if (!JS_GetProperty(c.cx, f.obj, "length", &len)) return step::failed;
  s.length = len.isNumber() ? static_cast<uint32_t>(len.toNumber()) : 0;
  if (f.has_ctor && f.ctor == "Buffer") {
    return buffer_text(c.cx, f.obj, s.length, c.style == inspect_style::node10, out) ? step::text : step::failed;
  }
  if (!keep_non_index_keys(c.cx, f, keys)) return step::failed;
  s.braces0 = prefix(c, f.has_ctor, f.ctor, f.tag, "TypedArray", "(" + std::to_string(s.length) + ")") + "[";
  s.braces1 = "]";
  if (s.length == 0 && keys.empty()) return finished(s.braces0 + "]", out);
  s.array_like = true;
  s.body = body_kind::typed;
  return step::go_on;
}

// A Set or a Map.
step describe_collection(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                         std::string& out) {
  const bool is_map = f.cls == js::ESClass::Map;
  const uint32_t size = is_map ? JS::MapSize(c.cx, f.obj) : JS::SetSize(c.cx, f.obj);
  if (!keep_all_keys(c.cx, f, keys)) return step::failed;
  s.braces0 =
      prefix(c, f.has_ctor, f.ctor, f.tag, is_map ? "Map" : "Set", "(" + std::to_string(size) + ")") + "{";
  if (size == 0 && keys.empty()) return finished(s.braces0 + "}", out);
  s.body = is_map ? body_kind::map : body_kind::set;
  return step::go_on;
}

step describe_promise(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s) {
  if (!keep_all_keys(c.cx, f, keys)) return step::failed;
  s.braces0 = prefix(c, f.has_ctor, f.ctor, f.tag, "Promise") + "{";
  s.body = body_kind::promise;
  return step::go_on;
}

step describe_function(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                       std::string& out) {
  if (!function_base(c, f.obj, s.base) || !keep_all_keys(c.cx, f, keys)) return step::failed;
  if (c.show_hidden) {
    // %o on a function: Node shows its hidden keys; keep only the visible.
    keys.clear();
  }
  return base_unless_keys(s, keys, out);
}

step describe_regexp(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                     std::string& out) {
  JS::RootedValue v(c.cx, JS::ObjectValue(*f.obj));
  if (!value_to_utf8(c.cx, v, s.base) || !keep_all_keys(c.cx, f, keys)) return step::failed;
  return base_unless_keys(s, keys, out);
}

step describe_date(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                   std::string& out) {
  bool valid = false;
  if (!js::DateIsValid(c.cx, f.obj, &valid)) return step::failed;
  if (valid) {
    JS::RootedValue iso(c.cx);
    if (!call_method(c.cx, f.obj, "toISOString", &iso) || !value_to_utf8(c.cx, iso, s.base)) return step::failed;
  } else {
    s.base = "Invalid Date";
  }
  if (!keep_all_keys(c.cx, f, keys)) return step::failed;
  return base_unless_keys(s, keys, out);
}

step describe_error(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                    std::string& out) {
  JSContext* cx = c.cx;
  if (!format_error(c, f.obj, s.base)) return step::failed;
  if (!keep_keys(cx, f, keys, [&](JS::HandleId id) {
        if (!c.show_hidden || !id.isString()) return true;
        // SpiderMonkey's own bookkeeping properties; Node has none.
        std::string k;
        JS::RootedValue kv(cx);
        if (!JS_IdToValue(cx, id, &kv) || !value_to_utf8(cx, kv, k)) return true;
        return k != "fileName" && k != "lineNumber" && k != "columnNumber";
      })) {
    return step::failed;
  }
  return base_unless_keys(s, keys, out);
}

bool is_boxed_primitive(js::ESClass cls) {
  return cls == js::ESClass::Number || cls == js::ESClass::String || cls == js::ESClass::Boolean ||
         cls == js::ESClass::BigInt;
}

// new Number(1), new String("s"), ...: [Number: 1], [String: 's'].
step describe_boxed(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                    std::string& out) {
  JS::RootedValue prim(c.cx);
  if (!call_method(c.cx, f.obj, "valueOf", &prim)) return step::failed;
  std::string p;
  if (!format_primitive(c, prim, p)) return step::failed;
  const char* type = f.cls == js::ESClass::Number ? "Number" : f.cls == js::ESClass::String ? "String"
                     : f.cls == js::ESClass::Boolean ? "Boolean" : "BigInt";
  s.base = std::string("[") + type + ": " + p + "]";
  // A String's characters are not shown as keys.
  const bool ok = f.cls == js::ESClass::String ? keep_non_index_keys(c.cx, f, keys) : keep_all_keys(c.cx, f, keys);
  if (!ok) return step::failed;
  return base_unless_keys(s, keys, out);
}

step describe_arguments(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                        std::string& out) {
  s.braces0 = "[Arguments] [";
  s.braces1 = "]";
  JS::RootedValue len(c.cx);
  if (!JS_GetProperty(c.cx, f.obj, "length", &len)) return step::failed;
  const uint32_t n = len.isNumber() ? static_cast<uint32_t>(len.toNumber()) : 0;
  if (!keep_non_index_keys(c.cx, f, keys)) return step::failed;
  if (n == 0 && keys.empty()) return finished(s.braces0 + "]", out);
  s.length = n;
  s.array_like = true;
  s.body = body_kind::array;
  return step::go_on;
}

// Any other object: {a: 1}, Foo {}, [Object: null prototype] {}.
step describe_plain(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s,
                    std::string& out) {
  if (!keep_all_keys(c.cx, f, keys)) return step::failed;
  if (!f.has_ctor || f.ctor != "Object" || !f.tag.empty()) {
    s.braces0 = prefix(c, f.has_ctor, f.ctor, f.tag, "Object") + "{";
  }
  if (keys.empty()) return finished(s.braces0 + "}", out);
  return step::go_on;
}

// The describe function of the object's kind.
step describe(context& c, const object_facts& f, JS::MutableHandleIdVector keys, object_shape& s, std::string& out) {
  if (f.is_array) return describe_array(c, f, keys, s, out);
  if (JS_IsTypedArrayObject(f.obj)) return describe_typed_array(c, f, keys, s, out);
  if (f.cls == js::ESClass::Set || f.cls == js::ESClass::Map) return describe_collection(c, f, keys, s, out);
  if (f.cls == js::ESClass::Promise) return describe_promise(c, f, keys, s);
  if (JS_ObjectIsFunction(f.obj)) return describe_function(c, f, keys, s, out);
  if (f.cls == js::ESClass::RegExp) return describe_regexp(c, f, keys, s, out);
  if (f.cls == js::ESClass::Date) return describe_date(c, f, keys, s, out);
  if (f.cls == js::ESClass::Error) return describe_error(c, f, keys, s, out);
  if (is_boxed_primitive(f.cls)) return describe_boxed(c, f, keys, s, out);
  if (f.cls == js::ESClass::Arguments) return describe_arguments(c, f, keys, s, out);
  return describe_plain(c, f, keys, s, out);
}

// [Object], [Foo], [Array]: an object below the depth limit.
std::string beyond_depth(const object_facts& f) {
  if (f.is_array && !f.has_ctor) return "[Array]";
  return "[" + (f.has_ctor ? f.ctor : std::string("Object")) + "]";
}

// ---- objects: the entries ------------------------------------------------------------

// The formatted entries of an object, and what reduce_to_single_string
// needs to know of them.
struct entry_list {
  std::vector<std::string> output;
  bool numbers = false;   // all are numbers (aligned right in columns)
  bool has_more = false;  // the last is "... N more items"
};

bool array_entries(context& c, JS::HandleObject arr, uint32_t length, int recurse_times, entry_list& e) {
  if (!format_array(c, arr, length, recurse_times, e.output, e.numbers)) return false;
  e.has_more = length > max_array_length && !e.output.empty() && e.output.back().compare(0, 4, "... ") == 0;
  return true;
}

bool typed_array_entries(context& c, JS::HandleObject arr, uint32_t length, entry_list& e) {
  e.numbers = true;
  const uint32_t shown = std::min<uint32_t>(length, max_array_length);
  for (uint32_t i = 0; i < shown; i++) {
    JS::RootedValue el(c.cx);
    std::string s;
    if (!JS_GetElement(c.cx, arr, i, &el) || !format_primitive(c, el, s)) return false;
    e.output.push_back(std::move(s));
  }
  if (length > shown) {
    e.output.push_back(more_items(length - shown));
    e.has_more = true;
  }
  return true;
}

// Each member of a Set, or "key => value" for each entry of a Map.
bool collection_entries(context& c, JS::HandleObject coll, bool is_map, int recurse_times, entry_list& e) {
  JSContext* cx = c.cx;
  JS::RootedValue it(cx);
  std::vector<JS::Value> items;
  JS::RootedValueVector keep(cx);
  bool ok = (is_map ? JS::MapEntries(cx, coll, &it) : JS::SetValues(cx, coll, &it)) &&
            iterate(cx, it, items, keep);
  c.indentation += 2;
  for (std::size_t i = 0; ok && i < keep.length(); i++) {
    JS::RootedValue item(cx, keep[i]);
    std::string s;
    if (!is_map) {
      ok = format_value(c, item, recurse_times, s);
    } else {
      JS::RootedObject pair(cx, &item.toObject());
      JS::RootedValue k(cx), v(cx);
      std::string vs;
      ok = JS_GetElement(cx, pair, 0, &k) && JS_GetElement(cx, pair, 1, &v) &&
           format_value(c, k, recurse_times, s) && format_value(c, v, recurse_times, vs);
      s += " => " + vs;
    }
    e.output.push_back(std::move(s));
  }
  c.indentation -= 2;
  return ok;
}

// <pending>, the value, or <rejected> and the reason.
bool promise_entries(context& c, JS::HandleObject promise, int recurse_times, entry_list& e) {
  const JS::PromiseState state = JS::GetPromiseState(promise);
  if (state == JS::PromiseState::Pending) {
    e.output.push_back("<pending>");
    return true;
  }
  c.indentation += 2;
  JS::RootedValue result(c.cx, JS::GetPromiseResult(promise));
  std::string s;
  const bool ok = format_value(c, result, recurse_times, s);
  c.indentation -= 2;
  e.output.push_back(state == JS::PromiseState::Rejected ? "<rejected> " + s : s);
  return ok;
}

bool body_entries(context& c, JS::HandleObject obj, const object_shape& s, int recurse_times, entry_list& e) {
  switch (s.body) {
    case body_kind::array: return array_entries(c, obj, s.length, recurse_times, e);
    case body_kind::typed: return typed_array_entries(c, obj, s.length, e);
    case body_kind::set: return collection_entries(c, obj, false, recurse_times, e);
    case body_kind::map: return collection_entries(c, obj, true, recurse_times, e);
    case body_kind::promise: return promise_entries(c, obj, recurse_times, e);
    case body_kind::none: break;
  }
  return true;
}

// "key: value" for each key to show.
bool key_entries(context& c, JS::HandleObject obj, JS::HandleIdVector keys, int recurse_times, entry_list& e) {
  for (std::size_t i = 0; i < keys.length(); i++) {
    JS::RootedId id(c.cx, keys[i]);
    std::string s;
    if (!format_property(c, obj, id, recurse_times, false, s)) return false;
    e.output.push_back(std::move(s));
  }
  return true;
}

// "<ref *N>" before the base of an object that refers to itself.
void mark_reference(const context& c, JS::HandleObject obj, std::string& base) {
  for (std::size_t i = 0; i < c.circular.length(); i++) {
    if (c.circular[i] != obj) continue;
    const std::string ref = "<ref *" + std::to_string(i + 1) + ">";
    base = base.empty() ? ref : ref + " " + base;
  }
}

// The shape's entries, one level down, joined into the object's text.
bool format_entries(context& c, JS::HandleObject obj, object_shape& s, JS::HandleIdVector keys, int recurse_times,
                    std::string& out) {
  if (!c.seen.append(obj)) return false;
  c.current_depth = recurse_times;
  entry_list e;
  const bool ok = body_entries(c, obj, s, recurse_times, e) && key_entries(c, obj, keys, recurse_times, e);
  c.seen.popBack();
  if (!ok) return false;
  mark_reference(c, obj, s.base);
  out = reduce_to_single_string(c, std::move(e.output), s.base, s.braces0, s.braces1, s.array_like, recurse_times,
                                e.has_more, e.numbers);
  return true;
}

bool format_object(context& c, JS::HandleObject obj, int recurse_times, std::string& out) {
  step done = circular_reference(c, obj, out);
  if (done != step::go_on) return done == step::text;
  JS::RootedIdVector all_keys(c.cx);
  object_facts f(obj, all_keys);
  if (!learn_facts(c, f, &all_keys)) return false;
  JS::RootedIdVector keys(c.cx);
  object_shape s;
  done = describe(c, f, &keys, s, out);
  if (done != step::go_on) return done == step::text;
  if (recurse_times > c.depth) {
    out = beyond_depth(f);
    return true;
  }
  return format_entries(c, obj, s, keys, recurse_times + 1, out);
}

// An object's own [util.inspect.custom](depth, options) (the symbol
// Symbol.for('nodejs.util.inspect.custom')), unless the object is a
// prototype: its string is the text; another value is inspected instead.
// `used` tells whether there was one.
bool custom_inspect(context& c, JS::HandleObject obj, int recurse_times, std::string& out, bool& used) {
  used = false;
  JS::RootedString key(c.cx, JS_NewStringCopyZ(c.cx, "nodejs.util.inspect.custom"));
  if (!key) return false;
  JS::RootedSymbol sym(c.cx, JS::GetSymbolFor(c.cx, key));
  if (!sym) return false;
  JS::RootedId id(c.cx, JS::PropertyKey::Symbol(sym));
  JS::RootedValue fn(c.cx);
  if (!JS_GetPropertyById(c.cx, obj, id, &fn)) return false;
  if (!fn.isObject() || !JS::IsCallable(&fn.toObject())) return true;
  JS::RootedValue ctor(c.cx);
  if (!JS_GetProperty(c.cx, obj, "constructor", &ctor)) return false;
  if (ctor.isObject()) {
    JS::RootedObject ctor_obj(c.cx, &ctor.toObject());
    JS::RootedValue proto(c.cx);
    if (!JS_GetProperty(c.cx, ctor_obj, "prototype", &proto)) return false;
    if (proto.isObject() && &proto.toObject() == obj) return true;
  }
  JS::RootedObject options(c.cx, JS_NewPlainObject(c.cx));
  if (!options || !JS_DefineProperty(c.cx, options, "depth", c.depth, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(c.cx, options, "showHidden", c.show_hidden, JSPROP_ENUMERATE)) {
    return false;
  }
  JS::RootedValueArray<2> args(c.cx);
  args[0].setInt32(c.depth - recurse_times);
  args[1].setObject(*options);
  JS::RootedValue self(c.cx, JS::ObjectValue(*obj));
  JS::RootedValue ret(c.cx);
  if (!JS::Call(c.cx, self, fn, args, &ret)) return false;
  if (ret.isObject() && &ret.toObject() == obj) return true;
  used = true;
  if (ret.isString()) return value_to_utf8(c.cx, ret, out);
  return format_value(c, ret, recurse_times, out);
}

bool format_value(context& c, JS::HandleValue v, int recurse_times, std::string& out) {
  if (!v.isObject()) return format_primitive(c, v, out);
  JS::RootedObject obj(c.cx, &v.toObject());
  bool used = false;
  if (!custom_inspect(c, obj, recurse_times, out, used)) return false;
  if (used) return true;
  return format_object(c, obj, recurse_times, out);
}

// ---- util.format helpers -------------------------------------------------------------

bool call_global(JSContext* cx, const char* name, JS::HandleValue arg, JS::MutableHandleValue rval) {
  JS::RootedObject global(cx, JS::CurrentGlobalOrNull(cx));
  JS::RootedValueArray<1> argv(cx);
  argv[0].set(arg);
  return JS_CallFunctionName(cx, global, name, argv, rval);
}

bool json_text(JSContext* cx, JS::HandleValue v, std::string& out) {
  JS::RootedObject global(cx, JS::CurrentGlobalOrNull(cx));
  JS::RootedValue json(cx);
  if (!JS_GetProperty(cx, global, "JSON", &json) || !json.isObject()) return false;
  JS::RootedObject json_obj(cx, &json.toObject());
  JS::RootedValueArray<1> argv(cx);
  argv[0].set(v);
  JS::RootedValue r(cx);
  if (!JS_CallFunctionName(cx, json_obj, "stringify", argv, &r)) {
    // Node prints '[Circular]' for a cyclic structure; other errors throw.
    JS::RootedValue exc(cx);
    if (!JS_GetPendingException(cx, &exc) || !exc.isObject()) return false;
    JS::RootedObject e(cx, &exc.toObject());
    std::string msg;
    bool found = false;
    if (!get_string_prop(cx, e, "message", msg, found)) return false;
    if (msg.find("cyclic") == std::string::npos && msg.find("circular") == std::string::npos) return false;
    JS_ClearPendingException(cx);
    out = "[Circular]";
    return true;
  }
  if (r.isUndefined()) {
    out = "undefined";
    return true;
  }
  return value_to_utf8(cx, r, out);
}

// Node 20's hasBuiltInToString: whether %s should inspect the object.
bool builtin_to_string(JSContext* cx, JS::HandleObject obj, bool& builtin) {
  builtin = false;
  JS::RootedId prim(cx, JS::GetWellKnownSymbolKey(cx, JS::SymbolCode::toPrimitive));
  JS::RootedValue v(cx);
  if (!JS_GetPropertyById(cx, obj, prim, &v)) return false;
  if (v.isObject() && JS::IsCallable(&v.toObject())) return true;
  if (!JS_GetProperty(cx, obj, "toString", &v)) return false;
  if (!v.isObject() || !JS::IsCallable(&v.toObject())) {
    builtin = true;
    return true;
  }
  bool own = false;
  if (!JS_HasOwnProperty(cx, obj, "toString", &own)) return false;
  if (own) return true;
  JS::RootedObject p(cx, obj);
  for (;;) {
    JS::RootedObject proto(cx);
    if (!JS_GetPrototype(cx, p, &proto)) return false;
    if (!proto) return true;
    p = proto;
    if (!JS_HasOwnProperty(cx, p, "toString", &own)) return false;
    if (own) break;
  }
  JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> desc(cx);
  if (!JS_GetOwnPropertyDescriptor(cx, p, "constructor", &desc)) return false;
  if (desc.isNothing() || !desc->hasValue() || !desc->value().isObject() ||
      !JS_ObjectIsFunction(&desc->value().toObject())) {
    return true;
  }
  JS::RootedObject ctor(cx, &desc->value().toObject());
  std::string name;
  bool found = false;
  if (!get_string_prop(cx, ctor, "name", name, found)) return false;
  static const char* const builtins[] = {
      "Object", "Function", "Array", "Number", "Boolean", "String", "Symbol", "Date", "Promise", "RegExp",
      "Error", "AggregateError", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError",
      "URIError", "ArrayBuffer", "Uint8Array", "Int8Array", "Uint16Array", "Int16Array", "Uint32Array",
      "Int32Array", "Float32Array", "Float64Array", "Uint8ClampedArray", "BigUint64Array", "BigInt64Array",
      "DataView", "Map", "BigInt", "Set", "WeakMap", "WeakSet", "Proxy", "Reflect", "SharedArrayBuffer",
      "WeakRef", "FinalizationRegistry"};
  for (const char* b : builtins) {
    if (name == b) builtin = true;
  }
  return true;
}

// One %-specifier's text; false when JS threw.
bool specifier(JSContext* cx, char spec, JS::HandleValue arg, inspect_style st, std::string& out) {
  const bool legacy = st != inspect_style::node20;
  switch (spec) {
    case 's':
      if (legacy) {
        if (arg.isSymbol()) return symbol_text(cx, arg, out);
        return value_to_utf8(cx, arg, out);
      }
      if (arg.isNumber()) return number_text(cx, arg.toNumber(), true, out);
      if (arg.isBigInt()) return bigint_text(cx, arg, out);
      if (arg.isSymbol()) return symbol_text(cx, arg, out);
      if (arg.isObject() && !JS_ObjectIsFunction(&arg.toObject())) {
        JS::RootedObject obj(cx, &arg.toObject());
        bool builtin = false;
        if (!builtin_to_string(cx, obj, builtin)) return false;
        if (builtin) {
          inspect_options o;
          o.style = st;
          o.depth = 0;
          return inspect(cx, arg, o, out);
        }
      }
      return value_to_utf8(cx, arg, out);
    case 'd':
    case 'i':
    case 'f': {
      if (arg.isBigInt() && spec != 'f') return bigint_text(cx, arg, out);
      if (arg.isSymbol()) {
        out = "NaN";
        return true;
      }
      double d = 0;
      if (spec == 'd') {
        if (!JS::ToNumber(cx, arg, &d)) return false;
      } else {
        JS::RootedValue r(cx);
        if (!call_global(cx, spec == 'i' ? "parseInt" : "parseFloat", arg, &r)) return false;
        d = r.toNumber();
      }
      return number_text(cx, d, !legacy, out);
    }
    case 'j':
      return json_text(cx, arg, out);
    case 'o': {
      inspect_options o;
      o.style = st;
      o.show_hidden = true;
      o.depth = 4;
      return inspect(cx, arg, o, out);
    }
    case 'O': {
      inspect_options o;
      o.style = st;
      return inspect(cx, arg, o, out);
    }
    case 'c':
      out.clear();
      return true;
  }
  return true;
}

bool is_specifier(char c, inspect_style st) {
  switch (c) {
    case 's': case 'd': case 'i': case 'f': case 'j': case 'o': case 'O':
      return true;
    case 'c':
      return st == inspect_style::node20;
  }
  return false;
}

}  // namespace

// ---- public ---------------------------------------------------------------------------

inspect_style style_for(node::mode m) noexcept {
  switch (m) {
    case node::mode::node10: return inspect_style::node10;
    case node::mode::node11: return inspect_style::node11;
    case node::mode::current: return inspect_style::node20;
  }
  return inspect_style::node20;
}

bool to_utf8(JSContext* cx, JS::HandleString s, std::string& out) {
  JS::UniqueChars chars = JS_EncodeStringToUTF8(cx, s);
  if (!chars) return false;
  out = chars.get();
  return true;
}

bool value_to_utf8(JSContext* cx, JS::HandleValue v, std::string& out) {
  if (v.isSymbol()) return symbol_text(cx, v, out);
  JS::RootedString s(cx, JS::ToString(cx, v));
  return s && to_utf8(cx, s, out);
}

bool is_error(JSContext* cx, JS::HandleValue v) {
  if (!v.isObject()) return false;
  JS::RootedObject obj(cx, &v.toObject());
  js::ESClass cls = js::ESClass::Other;
  if (!JS::GetBuiltinClass(cx, obj, &cls)) {
    JS_ClearPendingException(cx);
    return false;
  }
  return cls == js::ESClass::Error;
}

bool error_stack(JSContext* cx, JS::HandleObject err, std::string& out, bool& frames) {
  frames = false;
  std::string name = "Error", message, stack;
  bool found = false;
  if (!get_string_prop(cx, err, "name", name, found)) return false;
  if (!found) name = "Error";
  if (!get_string_prop(cx, err, "message", message, found)) return false;
  if (!get_string_prop(cx, err, "stack", stack, found)) return false;
  if (std::string code; node_error_code(cx, err, code)) name += " [" + code + "]";
  out = message.empty() ? name : name + ": " + message;
  if (!found) return true;
  // SpiderMonkey's frames are "fn@file:line:col"; Node's "    at fn (file:line:col)".
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < stack.size()) {
    std::size_t nl = stack.find('\n', pos);
    if (nl == std::string::npos) nl = stack.size();
    std::string line = stack.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    const std::size_t at = line.find('@');
    const std::size_t colon2 = line.rfind(':');
    const std::size_t colon1 = colon2 == std::string::npos || colon2 == 0 ? std::string::npos : line.rfind(':', colon2 - 1);
    if (at == std::string::npos || colon1 == std::string::npos || colon1 < at) {
      // Not SpiderMonkey's format: a stack the script wrote itself.
      out = stack;
      frames = stack.find('\n') != std::string::npos;
      return true;
    }
    std::string fn = line.substr(0, at);
    const std::string where = line.substr(at + 1);
    if (fn.compare(0, 6, "async*") == 0) fn = "async " + fn.substr(6);
    // V8 keeps 10 frames (Error.stackTraceLimit).
    if (lines.size() < 10) lines.push_back(fn.empty() ? "    at " + where : "    at " + fn + " (" + where + ")");
  }
  for (const std::string& l : lines) out += "\n" + l;
  frames = !lines.empty();
  return true;
}

bool inspect(JSContext* cx, JS::HandleValue v, const inspect_options& o, std::string& out) {
  context c(cx, o);
  return format_value(c, v, 0, out);
}

bool format_args(JSContext* cx, const JS::HandleValueArray& args, inspect_style st, std::string& out) {
  out.clear();
  if (args.length() == 0) return true;
  const bool legacy = st != inspect_style::node20;
  inspect_options io;
  io.style = st;
  std::size_t a = 0;
  std::string join;

  if (legacy && !args[0].isString()) {
    // Node 10/11: without a format string every argument is inspected.
    for (std::size_t i = 0; i < args.length(); i++) {
      std::string s;
      if (!inspect(cx, args[i], io, s)) return false;
      if (i) out += ' ';
      out += s;
    }
    return true;
  }

  if (args[0].isString()) {
    std::string f;
    if (!value_to_utf8(cx, args[0], f)) return false;
    if (args.length() == 1) {
      out = f;
      return true;
    }
    std::size_t last = 0;
    for (std::size_t i = 0; i + 1 < f.size(); i++) {
      if (f[i] != '%') continue;
      const char next = f[++i];
      if (a + 1 != args.length() && is_specifier(next, st)) {
        std::string text;
        if (!specifier(cx, next, args[++a], st, text)) return false;
        if (last != i - 1) out += f.substr(last, i - 1 - last);
        out += text;
        last = i + 1;
      } else if (next == '%') {
        out += f.substr(last, i - last);
        last = i + 1;
      }
    }
    if (last != 0) {
      a++;
      join = " ";
      if (last < f.size()) out += f.substr(last);
    }
  }

  for (; a < args.length(); a++) {
    JS::HandleValue v = args[a];
    out += join;
    join = " ";
    std::string s;
    if (v.isString()) {
      if (!value_to_utf8(cx, v, s)) return false;
    } else if (legacy && !v.isObject() && !v.isSymbol()) {
      // Node 10/11 print primitives after a format string with `${x}`.
      if (!value_to_utf8(cx, v, s)) return false;
    } else if (!inspect(cx, v, io, s)) {
      return false;
    }
    out += s;
  }
  return true;
}

}  // namespace phaseloop::runner
