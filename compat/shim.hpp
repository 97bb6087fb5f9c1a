// SPDX-License-Identifier: MIT
#pragma once
// What every file of the C layer shares. The C structs of uv.h reserve the
// bytes of libuv's; phaseloop's C++ objects are constructed inside them, so
// a C function converts its pointers and forwards.

#include <sys/socket.h>

#include <new>

#include "phaseloop/detail/c_layout.hpp"
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

/// The C++ object living in a C struct (or the C struct around a C++
/// object, or a C array of structs the library declares alike: uv_buf_t
/// and fs_buf). The only conversions of pointers in compat are these.
template <class P, class C>
inline P& as(C* c) {
  return *reinterpret_cast<P*>(c);
}

/// The same for a pointer the library checks itself (it may be null).
template <class P, class C>
inline P* as_ptr(C* c) {
  return reinterpret_cast<P*>(c);
}

inline phaseloop::loop& L(uv_loop_t* l) { return as<phaseloop::loop>(l); }
inline const phaseloop::loop& L(const uv_loop_t* l) { return as<const phaseloop::loop>(l); }

/// Ends the P inside the C struct at `mem`, keeping `data` (libuv's close
/// functions leave it to the caller).
template <class P, class C>
void destroy(C* mem) {
  void* saved = mem->data;
  as<P>(mem).~P();
  mem->data = saved;
}

/// The socket of uv_tcp_init_ex and uv_udp_init_ex: the low byte of
/// `flags` is the address family (AF_UNSPEC: no socket yet, `fd` -1), the
/// bits above it may only be those of `allowed`. 0, UV_EINVAL, or the
/// error of `open(domain)`.
template <class Open>
int socket_for_init(unsigned flags, unsigned allowed, Open&& open, int& fd) {
  fd = -1;
  const int domain = static_cast<int>(flags & 0xFF);
  if (domain != AF_INET && domain != AF_INET6 && domain != AF_UNSPEC) return UV_EINVAL;
  if ((flags & ~0xFFu) & ~allowed) return UV_EINVAL;
  if (domain == AF_UNSPEC) return 0;
  fd = open(domain);
  return fd < 0 ? fd : 0;
}

/// C and C++ callbacks take a pointer to the same object; only the
/// pointee's declared type differs.
template <class To, class From>
inline To cb_cast(From f) {
  return reinterpret_cast<To>(f);
}

}  // namespace phaseloop::compat
