// SPDX-License-Identifier: MIT
// libuv's DNS requests (uv_getaddrinfo, uv_getnameinfo, uv_freeaddrinfo)
// over phaseloop::getaddrinfo_req and getnameinfo_req. Each call checks
// what libuv checks before touching the request, then constructs the C++
// request inside the caller's struct (keeping `data`) and forwards. The
// C++ requests keep libuv's fields at libuv's offsets (checked below), the
// private ones included, so a program built against libuv's own uv.h reads
// req->retcode, req->host and the rest where it expects them.

#include <cstddef>

#include "phaseloop/dns.hpp"
#include "shim.hpp"
#include "api.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

// Each request class publishes where it keeps libuv's fields (c_layout()).
static_assert(fits<uv_getaddrinfo_t, pl::getaddrinfo_req>());
static_assert(fits<uv_getnameinfo_t, pl::getnameinfo_req>());
static_assert(pl::eai::addrfamily == UV_EAI_ADDRFAMILY && pl::eai::again == UV_EAI_AGAIN);
static_assert(pl::eai::badflags == UV_EAI_BADFLAGS && pl::eai::canceled == UV_EAI_CANCELED);
static_assert(pl::eai::fail == UV_EAI_FAIL && pl::eai::family == UV_EAI_FAMILY);
static_assert(pl::eai::memory == UV_EAI_MEMORY && pl::eai::nodata == UV_EAI_NODATA);
static_assert(pl::eai::noname == UV_EAI_NONAME && pl::eai::overflow == UV_EAI_OVERFLOW);
static_assert(pl::eai::service == UV_EAI_SERVICE && pl::eai::socktype == UV_EAI_SOCKTYPE);

static_assert(pl::getaddrinfo_req::c_layout().loop == offsetof(uv_getaddrinfo_t, loop));
static_assert(pl::getaddrinfo_req::c_layout().cb == offsetof(uv_getaddrinfo_t, cb));
static_assert(pl::getaddrinfo_req::c_layout().uv_private2_ == offsetof(uv_getaddrinfo_t, uv_private2_));
static_assert(pl::getaddrinfo_req::c_layout().addrinfo == offsetof(uv_getaddrinfo_t, addrinfo));
static_assert(pl::getaddrinfo_req::c_layout().uv_private3_ == offsetof(uv_getaddrinfo_t, uv_private3_));
static_assert(pl::getnameinfo_req::c_layout().loop == offsetof(uv_getnameinfo_t, loop));
static_assert(pl::getnameinfo_req::c_layout().getnameinfo_cb == offsetof(uv_getnameinfo_t, getnameinfo_cb));
static_assert(pl::getnameinfo_req::c_layout().uv_private2_ == offsetof(uv_getnameinfo_t, uv_private2_));
static_assert(pl::getnameinfo_req::c_layout().uv_private32_ == offsetof(uv_getnameinfo_t, uv_private32_));
static_assert(pl::getnameinfo_req::c_layout().host == offsetof(uv_getnameinfo_t, host));
static_assert(pl::getnameinfo_req::c_layout().service == offsetof(uv_getnameinfo_t, service));
static_assert(pl::getnameinfo_req::c_layout().uv_private3_ == offsetof(uv_getnameinfo_t, uv_private3_));

namespace {

pl::loop* loop_ptr(uv_loop_t* loop) { return as_ptr<pl::loop>(loop); }

}  // namespace

extern "C" {

int uv_getaddrinfo(uv_loop_t* loop, uv_getaddrinfo_t* req, uv_getaddrinfo_cb getaddrinfo_cb, const char* node,
                   const char* service, const struct addrinfo* hints) {
  if (req == nullptr || (node == nullptr && service == nullptr)) return UV_EINVAL;
  return construct<pl::getaddrinfo_req>(req)->start(loop_ptr(loop), cb_cast<pl::getaddrinfo_cb>(getaddrinfo_cb),
                                                    node, service, hints);
}

void uv_freeaddrinfo(struct addrinfo* ai) { pl::free_addrinfo(ai); }

int uv_getnameinfo(uv_loop_t* loop, uv_getnameinfo_t* req, uv_getnameinfo_cb getnameinfo_cb,
                   const struct sockaddr* addr, int flags) {
  if (req == nullptr || addr == nullptr || (addr->sa_family != AF_INET && addr->sa_family != AF_INET6))
    return UV_EINVAL;
  return construct<pl::getnameinfo_req>(req)->start(loop_ptr(loop), cb_cast<pl::getnameinfo_cb>(getnameinfo_cb),
                                                    addr, flags);
}

}  // extern "C"
