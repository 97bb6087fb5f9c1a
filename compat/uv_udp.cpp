// SPDX-License-Identifier: MIT
// libuv's UDP functions over phaseloop::udp. The C++ handle is constructed
// inside the caller's uv_udp_t and the send request inside the caller's
// uv_udp_send_t (both keeping `data`); their public fields sit at libuv's
// offsets (checked below).

#include <sys/socket.h>

#include <cstddef>
#include <new>

#include "phaseloop/udp.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

// udp and udp_send publish where they keep libuv's fields (c_layout()).
static_assert(sizeof(pl::udp) <= sizeof(uv_udp_t) && alignof(pl::udp) <= alignof(uv_udp_t));
static_assert(sizeof(pl::udp_send) <= sizeof(uv_udp_send_t) && alignof(pl::udp_send) <= alignof(uv_udp_send_t));
static_assert(pl::udp_ipv6only == UV_UDP_IPV6ONLY && pl::udp_partial == UV_UDP_PARTIAL &&
              pl::udp_reuseaddr == UV_UDP_REUSEADDR && pl::udp_mmsg_chunk == UV_UDP_MMSG_CHUNK &&
              pl::udp_mmsg_free == UV_UDP_MMSG_FREE && pl::udp_linux_recverr == UV_UDP_LINUX_RECVERR &&
              pl::udp_recvmmsg == UV_UDP_RECVMMSG);
static_assert(static_cast<int>(pl::udp_membership::join) == UV_JOIN_GROUP &&
              static_cast<int>(pl::udp_membership::leave) == UV_LEAVE_GROUP);
static_assert(pl::udp::c_layout().send_queue_size == offsetof(uv_udp_t, send_queue_size));
static_assert(pl::udp::c_layout().send_queue_count == offsetof(uv_udp_t, send_queue_count));
static_assert(pl::udp_send::c_layout().handle == offsetof(uv_udp_send_t, handle));
static_assert(pl::udp_send::c_layout().cb == offsetof(uv_udp_send_t, cb));

namespace {


pl::udp& U(uv_udp_t* h) { return as<pl::udp>(h); }
const pl::udp& U(const uv_udp_t* h) { return as<const pl::udp>(h); }
const pl::fs_buf* B(const uv_buf_t* bufs) { return as_ptr<const pl::fs_buf>(bufs); }

}  // namespace

extern "C" {

int uv_udp_init_ex(uv_loop_t* loop, uv_udp_t* handle, unsigned int flags) {
  // The low byte is the address family; above it, only UV_UDP_RECVMMSG.
  int fd;
  if (int r = socket_for_init(flags, UV_UDP_RECVMMSG, [](int domain) { return pl::udp::socket(domain); }, fd);
      r != 0)
    return r;
  pl::udp* u = construct<pl::udp>(handle, L(loop), fd);
  if (flags & UV_UDP_RECVMMSG) u->set_recvmmsg(true);
  return 0;
}

int uv_udp_init(uv_loop_t* loop, uv_udp_t* handle) { return uv_udp_init_ex(loop, handle, AF_UNSPEC); }

int uv_udp_open(uv_udp_t* handle, uv_os_sock_t sock) { return U(handle).open(sock); }
int uv_udp_open_ex(uv_udp_t* handle, uv_os_sock_t sock, unsigned int flags) {
  static_assert(UV_UDP_REUSEADDR == pl::udp::open_reuseaddr && UV_UDP_REUSEPORT == pl::udp::open_reuseport &&
                UV_UDP_REUSEPORT == pl::udp_reuseport);
  return U(handle).open_ex(sock, flags);
}

int uv_udp_try_send2(uv_udp_t* handle, unsigned int count, uv_buf_t* bufs[], unsigned int nbufs[],
                     struct sockaddr* addrs[], unsigned int flags) {
  return U(handle).try_send2(count, as_ptr<pl::fs_buf*>(bufs), nbufs, addrs, flags);
}

int uv_udp_bind(uv_udp_t* handle, const struct sockaddr* addr, unsigned int flags) {
  if (handle->type != UV_UDP) return UV_EINVAL;
  return U(handle).bind(addr, flags);
}

int uv_udp_connect(uv_udp_t* handle, const struct sockaddr* addr) {
  if (handle->type != UV_UDP) return UV_EINVAL;
  return U(handle).connect(addr);
}

int uv_udp_getpeername(const uv_udp_t* handle, struct sockaddr* name, int* namelen) {
  return U(handle).peername(name, namelen);
}

int uv_udp_getsockname(const uv_udp_t* handle, struct sockaddr* name, int* namelen) {
  return U(handle).sockname(name, namelen);
}

int uv_udp_set_membership(uv_udp_t* handle, const char* multicast_addr, const char* interface_addr,
                          uv_membership membership) {
  return U(handle).set_membership(multicast_addr, interface_addr, static_cast<pl::udp_membership>(membership));
}

int uv_udp_set_source_membership(uv_udp_t* handle, const char* multicast_addr, const char* interface_addr,
                                 const char* source_addr, uv_membership membership) {
  return U(handle).set_source_membership(multicast_addr, interface_addr, source_addr,
                                         static_cast<pl::udp_membership>(membership));
}

int uv_udp_set_multicast_loop(uv_udp_t* handle, int on) { return U(handle).set_multicast_loop(on); }
int uv_udp_set_multicast_ttl(uv_udp_t* handle, int ttl) { return U(handle).set_multicast_ttl(ttl); }
int uv_udp_set_multicast_interface(uv_udp_t* handle, const char* interface_addr) {
  return U(handle).set_multicast_interface(interface_addr);
}
int uv_udp_set_broadcast(uv_udp_t* handle, int on) { return U(handle).set_broadcast(on); }
int uv_udp_set_ttl(uv_udp_t* handle, int ttl) { return U(handle).set_ttl(ttl); }

int uv_udp_send(uv_udp_send_t* req, uv_udp_t* handle, const uv_buf_t bufs[], unsigned int nbufs,
                const struct sockaddr* addr, uv_udp_send_cb send_cb) {
  if (handle->type != UV_UDP) return UV_EINVAL;
  pl::udp_send* r = construct<pl::udp_send>(req);
  return U(handle).send(*r, B(bufs), nbufs, addr, cb_cast<pl::udp_send_cb>(send_cb));
}

int uv_udp_try_send(uv_udp_t* handle, const uv_buf_t bufs[], unsigned int nbufs, const struct sockaddr* addr) {
  if (handle->type != UV_UDP) return UV_EINVAL;
  return U(handle).try_send(B(bufs), nbufs, addr);
}

int uv_udp_recv_start(uv_udp_t* handle, uv_alloc_cb alloc_cb, uv_udp_recv_cb recv_cb) {
  if (handle->type != UV_UDP) return UV_EINVAL;
  return U(handle).recv_start(cb_cast<pl::udp_alloc_cb>(alloc_cb),
                              cb_cast<pl::udp_recv_cb>(recv_cb));
}

int uv_udp_recv_stop(uv_udp_t* handle) {
  if (handle->type != UV_UDP) return UV_EINVAL;
  return U(handle).recv_stop();
}

int uv_udp_using_recvmmsg(const uv_udp_t* handle) { return U(handle).using_recvmmsg() ? 1 : 0; }
size_t uv_udp_get_send_queue_size(const uv_udp_t* handle) { return handle->send_queue_size; }
size_t uv_udp_get_send_queue_count(const uv_udp_t* handle) { return handle->send_queue_count; }

}  // extern "C"
