// SPDX-License-Identifier: MIT
#pragma once
/// TCP handles (libuv's uv_tcp_t): listen, accept, connect, and the socket
/// options libuv exposes. The byte-stream side is in stream.hpp.

#include <sys/socket.h>

#include "phaseloop/stream.hpp"

namespace phaseloop {

class tcp : public stream {
 public:
  /// uv_tcp_bind flag: an IPv6 socket that does not also take IPv4.
  static constexpr unsigned ipv6_only = 1;
  /// bind(): also SO_REUSEPORT (libuv 1.49's UV_TCP_REUSEPORT).
  static constexpr unsigned reuse_port = 2;

  /// Joins `l` with no socket yet (one is made by bind, connect or listen,
  /// or adopted by open). Loop thread only.
  explicit tcp(phaseloop::loop& l) noexcept;
  /// A fresh non-blocking close-on-exec socket of `domain` (AF_INET or
  /// AF_INET6) for adopt_(): the fd, or a negative error code. What
  /// uv_tcp_init_ex does before the handle exists.
  static int new_socket(int domain) noexcept;
  /// Gives a handle made by the constructor the socket new_socket() made.
  void adopt(int fd) noexcept { open_(fd, 0); }

  /// Adopts a socket the caller made: -EEXIST when this loop already
  /// watches it. Makes it non-blocking.
  int open(int fd) noexcept;
  /// Binds; EADDRINUSE is reported later, by listen or connect (as libuv).
  int bind(const sockaddr* addr, unsigned flags = 0) noexcept;
  /// Starts connecting; `cb` runs when done. -EALREADY while connecting.
  int connect(connect_req& r, const sockaddr* addr, connect_cb cb) noexcept;
  /// TCP_NODELAY on or off (remembered for a socket made later).
  int nodelay(bool enable) noexcept;
  /// SO_KEEPALIVE with `delay` seconds of idle time (remembered too).
  int keepalive(bool enable, unsigned delay) noexcept;
  /// libuv 1.52's keepalive with every setting: idle time and probe
  /// interval in seconds, probe count; each at least 1 when on
  /// (errc::invalid).
  int keepalive_ex(bool on, unsigned idle_s, unsigned interval, unsigned count) noexcept;
  /// Off: yield between accepts. Always 0.
  int simultaneous_accepts(bool enable) noexcept;
  /// The local / peer address. -EBADF without a socket.
  int sockname(sockaddr* name, int* namelen) const noexcept;
  int peername(sockaddr* name, int* namelen) const noexcept;
  /// Closes with a RST instead of a FIN (SO_LINGER 0). errc::invalid while
  /// shutting down.
  int close_reset(close_cb cb) noexcept;

 private:
  friend class stream;
  int maybe_new_socket_(int domain, std::uint32_t flags) noexcept;
  int listen_(int backlog, connection_cb cb) noexcept;
};

}  // namespace phaseloop
