// SPDX-License-Identifier: MIT
#pragma once
// What every file of the C layer shares. The C structs of uv.h reserve the
// bytes of libuv's; phaseloop's C++ objects are constructed inside them, so
// a C function converts its pointers and forwards.

#include <new>

#include "phaseloop/loop.hpp"
#include "api.hpp"

namespace phaseloop::compat {

/// True when a P fits in (and is aligned for) the C struct C.
template <class C, class P>
constexpr bool fits() {
  return sizeof(P) <= sizeof(C) && alignof(P) <= alignof(C);
}

/// True when the C struct C and the library's P are the same bytes (P is
/// the C struct under another name: handed out as it is).
template <class C, class P>
constexpr bool same_shape() {
  return sizeof(C) == sizeof(P) && alignof(C) == alignof(P);
}

/// Builds a P inside the C struct at `mem`, keeping `data` as libuv's init
/// functions do (callers often set it before uv_*_init).
template <class P, class C, class... A>
P* construct(C* mem, A&&... args) {
  void* saved = mem->data;
  P* p = new (static_cast<void*>(mem)) P(static_cast<A&&>(args)...);
  p->data = saved;
  return p;
}

/// The profile of a libuv program: that of the version it behaves as --
/// PHASELOOP_PROFILE's, else uv.h's default (1.44.2), the libuv it was built
/// for -- where a C++ program's loops take the newest.
inline phaseloop::profile c_profile() noexcept { return phaseloop::profile_of(phaseloop::process_version()); }

inline phaseloop::loop& L(uv_loop_t* l) { return *reinterpret_cast<phaseloop::loop*>(l); }
inline const phaseloop::loop& L(const uv_loop_t* l) {
  return *reinterpret_cast<const phaseloop::loop*>(l);
}

/// The C++ object living in a C struct.
template <class P, class C>
inline P& as(C* c) {
  return *reinterpret_cast<P*>(c);
}

/// The same for a pointer the library checks itself (it may be null).
template <class P, class C>
inline P* as_ptr(C* c) {
  return reinterpret_cast<P*>(c);
}

/// C and C++ callbacks take a pointer to the same object; only the
/// pointee's declared type differs.
template <class To, class From>
inline To cb_cast(From f) {
  return reinterpret_cast<To>(f);
}

}  // namespace phaseloop::compat
