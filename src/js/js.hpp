// SPDX-License-Identifier: MIT
#pragma once
// SpiderMonkey's public API, as every runner file includes it.
//
// GCC 12 and later take JS::Rooted for a dangling pointer: a Rooted links
// its own address into the context's list of stack roots and unlinks it in
// its destructor, which the warning cannot see. The warning is off for the
// runner's files only.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include <jsapi.h>
#include <js/SavedFrameAPI.h>

#include <cstdint>

// SpiderMonkey 128 (Debian 13) and 102 (Debian 12): where their APIs
// differ, these say it once for the runner.
namespace phaseloop::runner {

// A saved frame's column, counted from 1 (128 tags it, 102 gives the number).
inline std::uint32_t saved_frame_column(JSContext* cx, JS::HandleObject frame) {
#if MOZJS_MAJOR_VERSION >= 128
  JS::TaggedColumnNumberOneOrigin c;
  JS::GetSavedFrameColumn(cx, nullptr, frame, &c);
  return c.isLimitedColumnNumber() ? c.toLimitedColumnNumber().oneOriginValue() : 0;
#else
  std::uint32_t c = 0;
  JS::GetSavedFrameColumn(cx, nullptr, frame, &c);
  return c;
#endif
}

// JS_InitClass for a class whose prototype and instances are of `clasp`
// (102 takes the class and makes its prototype of it; 128 takes the
// prototype's class and the constructor's name apart).
inline JSObject* init_class(JSContext* cx, JS::HandleObject global, const JSClass* clasp, JSNative constructor,
                            unsigned nargs, const JSPropertySpec* ps, const JSFunctionSpec* fs) {
#if MOZJS_MAJOR_VERSION >= 128
  return JS_InitClass(cx, global, clasp, nullptr, clasp->name, constructor, nargs, ps, fs, nullptr, nullptr);
#else
  return JS_InitClass(cx, global, nullptr, clasp, constructor, nargs, ps, fs, nullptr, nullptr);
#endif
}

}  // namespace phaseloop::runner
