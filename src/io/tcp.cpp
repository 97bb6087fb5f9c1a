// SPDX-License-Identifier: MIT
// TCP handles: the socket is made lazily (by bind, connect or listen) for
// the address family first used, as libuv does; EADDRINUSE from bind and
// ECONNREFUSED from a loopback connect are remembered and reported later.

#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <utility>

#include "core/internal.hpp"
#include "phaseloop/tcp.hpp"

namespace phaseloop {

namespace {

// SO_KEEPALIVE, and when on the probes' idle time and interval (seconds)
// and count, each at least 1 (errc::invalid).
int set_keepalive(int fd, bool on, unsigned idle_s, unsigned interval = 1, unsigned count = 10) noexcept {
  int v = on ? 1 : 0;
  if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &v, sizeof v) != 0) return -errno;
  if (!on) return 0;
  if (idle_s < 1 || interval < 1 || count < 1) return errc::invalid;
  for (const auto& [option, value] : {std::pair{TCP_KEEPIDLE, idle_s}, std::pair{TCP_KEEPINTVL, interval},
                                      std::pair{TCP_KEEPCNT, count}}) {
    const int n = static_cast<int>(value);
    if (setsockopt(fd, IPPROTO_TCP, option, &n, sizeof n) != 0) return -errno;
  }
  return 0;
}

bool has_port(const sockaddr_storage& a) noexcept {
  if (a.ss_family == AF_INET6) return reinterpret_cast<const sockaddr_in6&>(a).sin6_port != 0;
  if (a.ss_family == AF_INET) return reinterpret_cast<const sockaddr_in&>(a).sin_port != 0;
  return false;
}

}  // namespace

tcp::tcp(phaseloop::loop& l) noexcept : stream(l, handle_type::tcp) {}

int tcp::new_socket(int domain) noexcept {
  const int fd = ::socket(domain, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  return fd < 0 ? -errno : fd;
}

// Makes the socket if there is none yet; with bound_flag, an existing
// socket without a port is bound to its current address (port 0).
int tcp::maybe_new_socket_(int domain, std::uint32_t flags) noexcept {
  if (domain == AF_UNSPEC) {
    flags_ |= flags;
    return 0;
  }
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (watcher_.fd != -1) {
    if (flags & bound_flag) {
      if (flags_ & bound_flag) {
        flags_ |= flags;
        return 0;
      }
      if (getsockname(watcher_.fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return -errno;
      if (has_port(a)) {
        flags_ |= flags;
        return 0;
      }
      if (::bind(watcher_.fd, reinterpret_cast<sockaddr*>(&a), len) != 0) return -errno;
    }
    flags_ |= flags;
    return 0;
  }
  const int fd = new_socket(domain);
  if (fd < 0) return fd;
  if (int err = open_(fd, flags); err != 0) {
    ::close(fd);
    return err;
  }
  if (flags & bound_flag) {
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0 ||
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0) {
      const int err = -errno;
      ::close(fd);
      watcher_.fd = -1;
      return err;
    }
  }
  return 0;
}

int tcp::open(int fd) noexcept {
  if (detail::loop_seam::poller(*loop_).watcher(fd) != nullptr) return -EEXIST;
  int on = 1;
  if (ioctl(fd, FIONBIO, &on) != 0) return -errno;
  return open_(fd, readable_flag | writable_flag);
}

int tcp::bind(const sockaddr* addr, unsigned flags) noexcept {
  if (is_closing()) return errc::invalid;
  socklen_t len;
  if (addr->sa_family == AF_INET) len = sizeof(sockaddr_in);
  else if (addr->sa_family == AF_INET6) len = sizeof(sockaddr_in6);
  else return errc::invalid;
  if ((flags & ipv6_only) && addr->sa_family != AF_INET6) return errc::invalid;
  if (int err = maybe_new_socket_(addr->sa_family, 0); err != 0) return err;
  int on = 1;
  if (setsockopt(watcher_.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) return -errno;
  if ((flags & reuse_port) && setsockopt(watcher_.fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) return -errno;
  if (addr->sa_family == AF_INET6) {
    on = (flags & ipv6_only) != 0;
    if (setsockopt(watcher_.fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on) != 0) return -errno;
  }
  errno = 0;
  const int r = ::bind(watcher_.fd, addr, len);
  if (r != 0 && errno != EADDRINUSE) return errno == EAFNOSUPPORT ? errc::invalid : -errno;
  delayed_error_ = r != 0 ? -errno : 0;
  flags_ |= bound_flag;
  if (addr->sa_family == AF_INET6) flags_ |= ipv6_flag;
  return 0;
}

namespace {

// fe80::/64, which names no route without an interface.
bool is_link_local(const sockaddr* a) noexcept {
  if (a->sa_family != AF_INET6) return false;
  const auto* a6 = reinterpret_cast<const sockaddr_in6*>(a);
  return a6->sin6_addr.s6_addr[0] == 0xfe && a6->sin6_addr.s6_addr[1] == 0x80;
}

// The scope id of the first link-local address of the machine's
// interfaces, as libuv >= 1.47 picks it; 0 if there is none.
std::uint32_t link_local_scope() noexcept {
  ifaddrs* all;
  if (::getifaddrs(&all) != 0) return 0;
  std::uint32_t id = 0;
  for (ifaddrs* p = all; p != nullptr; p = p->ifa_next) {
    if (p->ifa_addr != nullptr && is_link_local(p->ifa_addr)) {
      id = reinterpret_cast<const sockaddr_in6*>(p->ifa_addr)->sin6_scope_id;
      break;
    }
  }
  ::freeifaddrs(all);
  return id;
}

}  // namespace

int tcp::connect(connect_req& req, const sockaddr* addr, connect_cb cb) noexcept {
  socklen_t len;
  if (addr->sa_family == AF_INET) len = sizeof(sockaddr_in);
  else if (addr->sa_family == AF_INET6) len = sizeof(sockaddr_in6);
  else return errc::invalid;
  if (connect_req_ != nullptr) return -EALREADY;
  sockaddr_in6 scoped;
  if (delayed_error_ == 0) {
    if (int err = maybe_new_socket_(addr->sa_family, readable_flag | writable_flag); err != 0) return err;
    if (is_link_local(addr) && loop_->behaves().link_local_gets_scope) {
      std::memcpy(&scoped, addr, sizeof scoped);
      if (scoped.sin6_scope_id == 0) {
        scoped.sin6_scope_id = link_local_scope();
        addr = reinterpret_cast<const sockaddr*>(&scoped);
      }
    }
    int r;
    do {
      errno = 0;
      r = ::connect(watcher_.fd, addr, len);
    } while (r == -1 && errno == EINTR);
    if (r == -1 && errno != 0 && errno != EINPROGRESS) {
      // Refused at once (loopback): reported from the pending phase.
      if (errno != ECONNREFUSED) return -errno;
      delayed_error_ = -ECONNREFUSED;
    }
  }
  req.type_ = req_type::connect;  // all fields set: the C layer passes raw structs
  req.cb_ = cb;
  req.handle_ = this;
  detail::loop_seam::req_register(*loop_);
  detail::loop_seam::started(*loop_, req, this);
  connect_req_ = &req;
  watch_(detail::io_writable);
  if (delayed_error_ != 0) feed_();
  return 0;
}

int tcp::listen_(int backlog, connection_cb cb) noexcept {
  if (delayed_error_ != 0) return delayed_error_;
  // UV_TCP_SINGLE_ACCEPT, read once per process as libuv does.
  static const bool single_accept = [] {
    const char* v = std::getenv("UV_TCP_SINGLE_ACCEPT");
    return v != nullptr && std::atoi(v) != 0;
  }();
  if (single_accept) flags_ |= single_accept_flag;
  if (int err = maybe_new_socket_(AF_INET, 0); err != 0) return err;
  if (::listen(watcher_.fd, backlog) != 0) return -errno;
  return start_listening_(cb);
}

int tcp::nodelay(bool enable) noexcept {
  if (watcher_.fd != -1) {
    int on = enable ? 1 : 0;
    if (setsockopt(watcher_.fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0) return -errno;
  }
  if (enable) flags_ |= nodelay_flag;
  else flags_ &= ~nodelay_flag;
  return 0;
}

int tcp::keepalive(bool enable, unsigned delay) noexcept {
  if (watcher_.fd != -1)
    if (int err = set_keepalive(watcher_.fd, enable, delay); err != 0) return err;
  if (enable) flags_ |= keepalive_flag;
  else flags_ &= ~keepalive_flag;
  return 0;
}

int tcp::keepalive_ex(bool on, unsigned idle_s, unsigned interval, unsigned count) noexcept {
  if (watcher_.fd != -1)
    if (int err = set_keepalive(watcher_.fd, on, idle_s, interval, count); err != 0) return err;
  if (on) flags_ |= keepalive_flag;
  else flags_ &= ~keepalive_flag;
  return 0;
}

int tcp::simultaneous_accepts(bool enable) noexcept {
  if (enable) flags_ &= ~single_accept_flag;
  else flags_ |= single_accept_flag;
  return 0;
}

int tcp::sockname(sockaddr* name, int* namelen) const noexcept {
  if (delayed_error_ != 0) return delayed_error_;
  if (is_closing() || watcher_.fd == -1) return -EBADF;
  socklen_t len = static_cast<socklen_t>(*namelen);
  if (getsockname(watcher_.fd, name, &len) != 0) return -errno;
  *namelen = static_cast<int>(len);
  return 0;
}

int tcp::peername(sockaddr* name, int* namelen) const noexcept {
  if (delayed_error_ != 0) return delayed_error_;
  if (is_closing() || watcher_.fd == -1) return -EBADF;
  socklen_t len = static_cast<socklen_t>(*namelen);
  if (getpeername(watcher_.fd, name, &len) != 0) return -errno;
  *namelen = static_cast<int>(len);
  return 0;
}

int tcp::close_reset(close_cb cb) noexcept {
  if (shutdown_req_ != nullptr) return errc::invalid;
  const linger l{1, 0};
  if (setsockopt(watcher_.fd, SOL_SOCKET, SO_LINGER, &l, sizeof l) != 0 && errno != EINVAL) return -errno;
  close(cb);
  return 0;
}

}  // namespace phaseloop
