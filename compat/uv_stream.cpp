// SPDX-License-Identifier: MIT
// libuv's stream and TCP functions (uv_read_start, uv_write, uv_tcp_*, ...)
// over phaseloop::stream and phaseloop::tcp, plus uv_fileno. Thin: each
// function converts pointers and forwards; argument checks libuv makes in
// its common layer are made here.

#include <sys/socket.h>

#include <cstddef>
#include <new>

#include "phaseloop/loop.hpp"
#include "phaseloop/pipe.hpp"
#include "phaseloop/poll.hpp"
#include "phaseloop/stream.hpp"
#include "phaseloop/tcp.hpp"
#include "phaseloop/tty.hpp"
#include "phaseloop/udp.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;


// Layout checks: the C++ objects live inside libuv's structs and keep the
// public fields where C programs read them (each class's c_layout()).
static_assert(fits<uv_poll_t, pl::poll>());
static_assert(int{pl::poll::readable} == int{UV_READABLE} && int{pl::poll::writable} == int{UV_WRITABLE} &&
              int{pl::poll::disconnect} == int{UV_DISCONNECT} &&
              int{pl::poll::prioritized} == int{UV_PRIORITIZED});
static_assert(fits<uv_tcp_t, pl::tcp>());
static_assert(fits<uv_pipe_t, pl::pipe>());
static_assert(fits<uv_tty_t, pl::tty>());
static_assert(int{UV_TTY_MODE_RAW} == static_cast<int>(pl::tty::mode::raw) &&
              int{UV_TTY_MODE_IO} == static_cast<int>(pl::tty::mode::io));
static_assert(fits<uv_write_t, pl::write_req>());
static_assert(fits<uv_connect_t, pl::connect_req>());
static_assert(fits<uv_shutdown_t, pl::shutdown_req>());
static_assert(sizeof(pl::fs_buf) == sizeof(iovec) && offsetof(pl::fs_buf, base) == offsetof(iovec, iov_base) &&
              offsetof(pl::fs_buf, len) == offsetof(iovec, iov_len));
static_assert(sizeof(pl::fs_buf) == sizeof(uv_buf_t));
static_assert(pl::tcp::ipv6_only == UV_TCP_IPV6ONLY);

static_assert(pl::poll::c_layout().poll_cb == offsetof(uv_poll_t, poll_cb));
static_assert(pl::stream::c_layout().write_queue_size == offsetof(uv_stream_t, write_queue_size));
static_assert(pl::stream::c_layout().alloc_cb == offsetof(uv_stream_t, alloc_cb));
static_assert(pl::stream::c_layout().read_cb == offsetof(uv_stream_t, read_cb));
static_assert(pl::pipe::c_layout().ipc == offsetof(uv_pipe_t, ipc));
static_assert(pl::pipe::c_layout().pipe_fname == offsetof(uv_pipe_t, pipe_fname));
static_assert(pl::write_req::c_layout().cb == offsetof(uv_write_t, cb));
static_assert(pl::write_req::c_layout().send_handle == offsetof(uv_write_t, send_handle));
static_assert(pl::write_req::c_layout().handle == offsetof(uv_write_t, handle));
static_assert(pl::connect_req::c_layout().cb == offsetof(uv_connect_t, cb));
static_assert(pl::connect_req::c_layout().handle == offsetof(uv_connect_t, handle));
static_assert(pl::shutdown_req::c_layout().handle == offsetof(uv_shutdown_t, handle));
static_assert(pl::shutdown_req::c_layout().cb == offsetof(uv_shutdown_t, cb));


namespace {

inline pl::stream& S(uv_stream_t* s) { return as<pl::stream>(s); }
inline const pl::stream& S(const uv_stream_t* s) { return as<const pl::stream>(s); }
inline pl::tcp& T(uv_tcp_t* t) { return as<pl::tcp>(t); }
inline const pl::tcp& T(const uv_tcp_t* t) { return as<const pl::tcp>(t); }
inline pl::pipe& P(uv_pipe_t* p) { return as<pl::pipe>(p); }
inline const pl::pipe& P(const uv_pipe_t* p) { return as<const pl::pipe>(p); }
inline const pl::fs_buf* B(const uv_buf_t* b) { return as_ptr<const pl::fs_buf>(b); }

// The C++ methods set every field of a request when they accept it (as
// libuv's request init does), and leave it untouched when they refuse it;
// so the caller's struct is used as is, `data` included.
template <class P, class C>
P& R(C* mem) { return as<P>(mem); }


}  // namespace

extern "C" {

// ---- streams ----------------------------------------------------------------

int uv_read_start(uv_stream_t* stream, uv_alloc_cb alloc_cb, uv_read_cb read_cb) {
  if (stream == nullptr) return UV_EINVAL;
  return S(stream).read_start(cb_cast<pl::stream_alloc_cb>(alloc_cb), cb_cast<pl::read_cb>(read_cb));
}

int uv_read_stop(uv_stream_t* stream) { return S(stream).read_stop(); }

[[gnu::hot]] int uv_write2(uv_write_t* req, uv_stream_t* handle, const uv_buf_t bufs[], unsigned int nbufs,
              uv_stream_t* send_handle, uv_write_cb cb) {
  return S(handle).write2(R<pl::write_req>(req), B(bufs), nbufs,
                          send_handle ? &as<pl::handle>(send_handle) : nullptr, cb_cast<pl::write_cb>(cb));
}

[[gnu::hot]] int uv_write(uv_write_t* req, uv_stream_t* handle, const uv_buf_t bufs[], unsigned int nbufs, uv_write_cb cb) {
  return uv_write2(req, handle, bufs, nbufs, nullptr, cb);
}

[[gnu::hot]] int uv_try_write(uv_stream_t* handle, const uv_buf_t bufs[], unsigned int nbufs) {
  return S(handle).try_write(B(bufs), nbufs);
}

int uv_try_write2(uv_stream_t* handle, const uv_buf_t bufs[], unsigned int nbufs, uv_stream_t* send_handle) {
  return S(handle).try_write2(B(bufs), nbufs, send_handle ? &as<pl::handle>(send_handle) : nullptr);
}

int uv_shutdown(uv_shutdown_t* req, uv_stream_t* handle, uv_shutdown_cb cb) {
  return S(handle).shutdown(R<pl::shutdown_req>(req), cb_cast<pl::shutdown_cb>(cb));
}

int uv_listen(uv_stream_t* stream, int backlog, uv_connection_cb cb) {
  return S(stream).listen(backlog, cb_cast<pl::connection_cb>(cb));
}

int uv_accept(uv_stream_t* server, uv_stream_t* client) { return S(server).accept(as<pl::handle>(client)); }

int uv_is_readable(const uv_stream_t* handle) { return S(handle).is_readable() ? 1 : 0; }

int uv_is_writable(const uv_stream_t* handle) { return S(handle).is_writable() ? 1 : 0; }

int uv_stream_set_blocking(uv_stream_t* handle, int blocking) { return S(handle).set_blocking(blocking != 0); }

[[gnu::hot]] size_t uv_stream_get_write_queue_size(const uv_stream_t* stream) { return S(stream).write_queue_size(); }

// ---- TCP --------------------------------------------------------------------

int uv_tcp_init_ex(uv_loop_t* loop, uv_tcp_t* handle, unsigned int flags) {
  // The low byte is the address family; nothing above it.
  int fd;
  if (int r = socket_for_init(flags, 0, [](int domain) { return pl::tcp::new_socket(domain); }, fd); r != 0)
    return r;
  pl::tcp* t = construct<pl::tcp>(handle, L(loop));
  if (fd >= 0) t->adopt(fd);
  return 0;
}

int uv_tcp_init(uv_loop_t* loop, uv_tcp_t* handle) { return uv_tcp_init_ex(loop, handle, AF_UNSPEC); }

int uv_tcp_open(uv_tcp_t* handle, uv_os_sock_t sock) { return T(handle).open(sock); }

int uv_tcp_nodelay(uv_tcp_t* handle, int enable) { return T(handle).nodelay(enable != 0); }

int uv_tcp_keepalive_ex(uv_tcp_t* handle, int on, unsigned int idle, unsigned int intvl, unsigned int cnt) {
  return T(handle).keepalive_ex(on != 0, idle, intvl, cnt);
}

size_t uv_write_nwritten(const uv_write_t* req) { return as<const pl::write_req>(req).written(); }

int uv_pipe_bind2(uv_pipe_t* handle, const char* name, size_t namelen, unsigned int flags) {
  static_assert(UV_PIPE_NO_TRUNCATE == pl::pipe::no_truncate);
  return P(handle).bind2(name, namelen, flags);
}

int uv_pipe_connect2(uv_connect_t* req, uv_pipe_t* handle, const char* name, size_t namelen, unsigned int flags,
                     uv_connect_cb cb) {
  return P(handle).connect2(R<pl::connect_req>(req), name, namelen, flags, cb_cast<pl::connect_cb>(cb));
}

int uv_tcp_keepalive(uv_tcp_t* handle, int enable, unsigned int delay) {
  return T(handle).keepalive(enable != 0, delay);
}

int uv_tcp_simultaneous_accepts(uv_tcp_t* handle, int enable) {
  return T(handle).simultaneous_accepts(enable != 0);
}

int uv_tcp_bind(uv_tcp_t* handle, const struct sockaddr* addr, unsigned int flags) {
  if (handle->type != UV_TCP) return UV_EINVAL;
  return T(handle).bind(addr, flags);
}

int uv_tcp_getsockname(const uv_tcp_t* handle, struct sockaddr* name, int* namelen) {
  return T(handle).sockname(name, namelen);
}

int uv_tcp_getpeername(const uv_tcp_t* handle, struct sockaddr* name, int* namelen) {
  return T(handle).peername(name, namelen);
}

int uv_tcp_close_reset(uv_tcp_t* handle, uv_close_cb close_cb) {
  return T(handle).close_reset(cb_cast<pl::close_cb>(close_cb));
}

int uv_tcp_connect(uv_connect_t* req, uv_tcp_t* handle, const struct sockaddr* addr, uv_connect_cb cb) {
  if (handle->type != UV_TCP) return UV_EINVAL;
  if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6) return UV_EINVAL;
  return T(handle).connect(R<pl::connect_req>(req), addr, cb_cast<pl::connect_cb>(cb));
}

// ---- pipes ------------------------------------------------------------------

int uv_pipe_init(uv_loop_t* loop, uv_pipe_t* handle, int ipc) {
  construct<pl::pipe>(handle, L(loop), ipc != 0);
  return 0;
}

int uv_pipe_open(uv_pipe_t* handle, uv_file file) { return P(handle).open(file); }

int uv_pipe_bind(uv_pipe_t* handle, const char* name) { return P(handle).bind(name); }

void uv_pipe_connect(uv_connect_t* req, uv_pipe_t* handle, const char* name, uv_connect_cb cb) {
  P(handle).connect(R<pl::connect_req>(req), name, cb_cast<pl::connect_cb>(cb));
}

int uv_pipe_getsockname(const uv_pipe_t* handle, char* buffer, size_t* size) {
  return P(handle).sockname(buffer, size);
}

int uv_pipe_getpeername(const uv_pipe_t* handle, char* buffer, size_t* size) {
  return P(handle).peername(buffer, size);
}

void uv_pipe_pending_instances(uv_pipe_t*, int) {}  // Windows only

int uv_pipe_pending_count(uv_pipe_t* handle) { return P(handle).pending_count(); }

uv_handle_type uv_pipe_pending_type(uv_pipe_t* handle) {
  return static_cast<uv_handle_type>(P(handle).pending_type());
}

int uv_pipe_chmod(uv_pipe_t* handle, int flags) {
  if (handle == nullptr) return UV_EBADF;
  return P(handle).chmod(flags);
}

// ---- terminals ----------------------------------------------------------------

int uv_tty_init(uv_loop_t* loop, uv_tty_t* tty, uv_file fd, int) {
  if (int r = pl::tty::check_fd(fd); r != 0) return r;
  construct<pl::tty>(tty, L(loop), fd);
  return 0;
}

int uv_tty_set_mode(uv_tty_t* tty, uv_tty_mode_t mode) {
  return as<pl::tty>(tty).set_mode(static_cast<pl::tty::mode>(mode));
}

int uv_tty_reset_mode(void) { return pl::tty::reset_mode(); }

int uv_tty_get_winsize(uv_tty_t* tty, int* width, int* height) {
  return as<pl::tty>(tty).winsize(width, height);
}

void uv_tty_set_vterm_state(uv_tty_vtermstate_t) {}  // Windows only

int uv_tty_get_vterm_state(uv_tty_vtermstate_t*) { return UV_ENOTSUP; }

// ---- descriptors --------------------------------------------------------------

int uv_fileno(const uv_handle_t* handle, uv_os_fd_t* fd) {
  const int f = as<const pl::handle>(handle).fileno();
  if (f < 0) return f;
  *fd = f;
  return 0;
}

}  // extern "C"
