// SPDX-License-Identifier: MIT
// UDP handles.
//
// Sends: a send queued while nothing else is is written at once; the
// request then waits on the handle's completed list and the handle's
// watcher is put on the loop's pending queue, so that the callback runs in
// the next pending phase (libuv's order). Otherwise the watcher waits for
// the socket to be writable and the poll phase writes and completes.
// Datagrams are written with sendmmsg, up to 20 per call; as in libuv, a
// call that fails fails every request of its batch.
//
// Receives: in the poll phase, up to 32 alloc/receive rounds per
// readiness; the round that finds the socket empty reports nread 0.

#include "phaseloop/udp.hpp"

#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>

#include "core/internal.hpp"

namespace phaseloop {

namespace {

// The most buffers one datagram may gather (libuv 1.53 checks sends
// against it, catching negative counts passed as unsigned).
constexpr unsigned max_send_bufs = 1024 * 1024;

constexpr unsigned all_io = detail::io_readable | detail::io_writable | detail::io_priority | detail::io_read_hangup;
constexpr std::size_t mmsg_width = 20;  // datagrams per sendmmsg/recvmmsg call

// Text to address, as libuv's uv_ip4_addr / uv_ip6_addr parse it.
int parse_ip4(const char* text, sockaddr_in* a) noexcept {
  std::memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  if (text == nullptr || inet_pton(AF_INET, text, &a->sin_addr) != 1) return errc::invalid;
  return 0;
}

int parse_ip6(const char* text, sockaddr_in6* a) noexcept {
  std::memset(a, 0, sizeof *a);
  a->sin6_family = AF_INET6;
  if (text == nullptr) return errc::invalid;
  char head[INET6_ADDRSTRLEN + 16];
  if (const char* zone = std::strchr(text, '%')) {
    std::size_t n = static_cast<std::size_t>(zone - text);
    if (n >= sizeof head) n = sizeof head - 1;
    std::memcpy(head, text, n);
    head[n] = '\0';
    a->sin6_scope_id = if_nametoindex(zone + 1);
    text = head;
  }
  return inet_pton(AF_INET6, text, &a->sin6_addr) == 1 ? 0 : errc::invalid;
}

// The length of a destination address by family; errc::invalid for others.
int addr_len(const sockaddr* a) noexcept {
  switch (a->sa_family) {
    case AF_INET: return sizeof(sockaddr_in);
    case AF_INET6: return sizeof(sockaddr_in6);
    case AF_UNIX: return sizeof(sockaddr_un);
  }
  return errc::invalid;
}

}  // namespace

udp::udp(phaseloop::loop& l) noexcept : udp(l, -1) {}

udp::udp(phaseloop::loop& l, int fd) noexcept : handle(l, handle_type::udp) {
  io_.cb = &udp::io_cb_;
  io_.fd = fd;
}

int udp::socket(int domain) noexcept {
  int fd = ::socket(domain, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  return fd < 0 ? -errno : fd;
}

int udp::open(int fd) noexcept { return open_ex(fd, open_reuseaddr); }

int udp::open_ex(int fd, unsigned flags) noexcept {
  if ((flags & ~(open_reuseaddr | open_reuseport)) != 0) return errc::invalid;
  if (io_.fd != -1) return errc::busy;
  if (detail::loop_seam::poller(*loop_).watcher(fd) != nullptr) return -EEXIST;
  int on = 1;
  if (ioctl(fd, FIONBIO, &on) != 0) return -errno;
  if ((flags & open_reuseaddr) && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) return -errno;
  if ((flags & open_reuseport) && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) return -errno;
  io_.fd = fd;
  sockaddr_storage peer;
  socklen_t len = sizeof peer;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) == 0 && len > 0) flags_ |= connected_flag;
  return 0;
}

void udp::set_recvmmsg(bool on) noexcept {
  if (on) flags_ |= recvmmsg_flag;
  else flags_ &= ~recvmmsg_flag;
}

bool udp::using_recvmmsg() const noexcept { return flags_ & recvmmsg_flag; }

// ---- addresses ------------------------------------------------------------

int udp::bind(const sockaddr* addr, unsigned flags) noexcept {
  if (addr == nullptr || is_closing()) return errc::invalid;
  if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6) return errc::invalid;
  return bind_(addr, static_cast<socklen_t>(addr_len(addr)), flags);
}

int udp::bind_(const sockaddr* addr, socklen_t len, unsigned flags) noexcept {
  unsigned known = udp_ipv6only | udp_reuseaddr | udp_linux_recverr;
  if (loop_->behaves().udp_bind_reuseport) known |= udp_reuseport;
  if (flags & ~known) return errc::invalid;
  if ((flags & udp_ipv6only) && addr->sa_family != AF_INET6) return errc::invalid;
  if (io_.fd == -1) {
    int fd = socket(addr->sa_family);
    if (fd < 0) return fd;
    io_.fd = fd;
  }
  const int fd = io_.fd, yes = 1;
  if (flags & udp_linux_recverr) {
    const bool v6 = addr->sa_family == AF_INET6;
    if (setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_RECVERR : IP_RECVERR, &yes, sizeof yes) != 0)
      return -errno;
  }
  if ((flags & udp_reuseaddr) && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) != 0) return -errno;
  if ((flags & udp_reuseport) && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof yes) != 0) return -errno;
  if ((flags & udp_ipv6only) && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof yes) != 0) return -errno;
  if (::bind(fd, addr, len) != 0) return errno == EAFNOSUPPORT ? errc::invalid : -errno;
  if (addr->sa_family == AF_INET6) flags_ |= ipv6_flag;
  flags_ |= bound_flag;
  return 0;
}

// Binds to the wildcard address of `domain` when there is no socket yet.
int udp::ensure_bound_(int domain, unsigned flags) noexcept {
  if (io_.fd != -1) return 0;
  sockaddr_storage any{};
  any.ss_family = static_cast<sa_family_t>(domain);  // zeroes: INADDR_ANY, in6addr_any
  const socklen_t len = domain == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
  return bind_(reinterpret_cast<const sockaddr*>(&any), len, flags);
}

int udp::connect(const sockaddr* addr) noexcept {
  if (is_closing()) return errc::invalid;
  if (addr == nullptr) {
    if (!(flags_ & connected_flag)) return -ENOTCONN;
    sockaddr none{};
    none.sa_family = AF_UNSPEC;
    int r;
    do r = ::connect(io_.fd, &none, sizeof none);
    while (r != 0 && errno == EINTR);
    if (r != 0) return -errno;
    flags_ &= ~connected_flag;
    return 0;
  }
  if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6) return errc::invalid;
  if (flags_ & connected_flag) return -EISCONN;
  if (int r = ensure_bound_(addr->sa_family, 0); r != 0) return r;
  int r;
  do r = ::connect(io_.fd, addr, static_cast<socklen_t>(addr_len(addr)));
  while (r != 0 && errno == EINTR);
  if (r != 0) return -errno;
  flags_ |= connected_flag;
  return 0;
}

int udp::sockname(sockaddr* name, int* namelen) const noexcept {
  if (is_closing() || io_.fd == -1) return -EBADF;
  socklen_t len = static_cast<socklen_t>(*namelen);
  if (getsockname(io_.fd, name, &len) != 0) return -errno;
  *namelen = static_cast<int>(len);
  return 0;
}

int udp::peername(sockaddr* name, int* namelen) const noexcept {
  if (is_closing() || io_.fd == -1) return -EBADF;
  socklen_t len = static_cast<socklen_t>(*namelen);
  if (getpeername(io_.fd, name, &len) != 0) return -errno;
  *namelen = static_cast<int>(len);
  return 0;
}

// ---- sending --------------------------------------------------------------

namespace {
// libuv's checks before a send: the destination agrees with the connected
// state; the result is the address length (0 for the connected peer).
int check_destination(bool connected, const sockaddr* addr) noexcept {
  if (addr != nullptr && connected) return -EISCONN;
  if (addr == nullptr && !connected) return -EDESTADDRREQ;
  return addr == nullptr ? 0 : addr_len(addr);
}
}  // namespace

int udp::send(udp_send& r, const fs_buf bufs[], unsigned nbufs, const sockaddr* addr, udp_send_cb cb) noexcept {
  const int len = check_destination(flags_ & connected_flag, addr);
  if (len < 0) return len;
  // No buffer at all sends an empty datagram; libuv 1.53 refuses it (and
  // more than 2^20 buffers), as 1.44 asserted.
  if ((nbufs != 0 && bufs == nullptr) || is_closing()) return errc::invalid;
  if (loop_->behaves().udp_send_checks_buffers && (nbufs == 0 || nbufs > max_send_bufs)) return errc::invalid;
  if (addr != nullptr)
    if (int e = ensure_bound_(addr->sa_family, 0); e != 0) return e;

  // Sends may be counted while the queue is empty: failed ones wait on the
  // completed list until their callbacks run.
  const bool nothing_queued = send_queue_count_ == 0;

  r.bufs_ = detail::copy_bufs(r.bufsml_, sizeof r.bufsml_ / sizeof r.bufsml_[0], bufs, nbufs);
  if (r.bufs_ == nullptr) return errc::no_memory;
  r.nbufs_ = nbufs;
  r.handle_ = this;
  r.cb_ = cb;
  r.status_ = 0;
  // Only the address's own length is copied; the family says how long.
  if (addr != nullptr) std::memcpy(&r.addr_, addr, static_cast<std::size_t>(len));
  else r.addr_.ss_family = AF_UNSPEC;

  detail::loop_seam::req_register(*loop_);
  detail::loop_seam::started(*loop_, r, this);
  send_queue_size_ += detail::buf_bytes(r.bufs_, nbufs);
  send_queue_count_++;
  queue_.push_back(r);
  start_();

  // From inside a send callback, or behind other sends, wait for the poll
  // phase; otherwise try right away.
  if (nothing_queued && !(flags_ & processing_flag)) {
    write_queued_();
    if (queue_.empty()) return 0;
  }
  detail::loop_seam::poller(*loop_).watch(io_, detail::io_writable);
  return 0;
}

void udp::feed_() noexcept {
  if (detail::loop_seam::deferred(io_)) return;
  detail::loop_seam::defer(*loop_, io_);
  fed_ = true;
}

void udp::write_queued_() noexcept {
  if (queue_.empty()) return;
  while (!queue_.empty()) {
    mmsghdr msgs[mmsg_width];
    unsigned n = 0;
    for (udp_send* r = queue_.front(); r != nullptr && n < mmsg_width; r = queue_.next(*r), n++) {
      mmsghdr& m = msgs[n];
      std::memset(&m, 0, sizeof m);
      if (r->addr_.ss_family != AF_UNSPEC) {
        m.msg_hdr.msg_name = &r->addr_;
        m.msg_hdr.msg_namelen = static_cast<socklen_t>(addr_len(reinterpret_cast<const sockaddr*>(&r->addr_)));
      }
      m.msg_hdr.msg_iov = reinterpret_cast<iovec*>(r->bufs_);
      m.msg_hdr.msg_iovlen = r->nbufs_;
    }
    int sent;
    do sent = sendmmsg(io_.fd, msgs, n, 0);
    while (sent < 0 && errno == EINTR);
    if (sent < 1) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) return;
      // The whole batch shares the error, as in libuv.
      const int err = -errno;
      for (unsigned i = 0; i < n; i++) {
        udp_send* r = queue_.pop_front();
        r->status_ = err;
        completed_.push_back(*r);
      }
      feed_();
      return;
    }
    for (int i = 0; i < sent; i++) {
      udp_send* r = queue_.pop_front();
      r->status_ = static_cast<ssize_t>(msgs[i].msg_len);
      completed_.push_back(*r);
    }
  }
  feed_();
}

namespace {

// A message's address length by family (0 for none); -1 for a family no
// datagram goes to.
socklen_t address_length(const sockaddr* a) {
  if (a == nullptr) return 0;
  switch (a->sa_family) {
    case AF_INET: return sizeof(sockaddr_in);
    case AF_INET6: return sizeof(sockaddr_in6);
    case AF_UNIX: return sizeof(sockaddr_un);
    default: return static_cast<socklen_t>(-1);
  }
}

}  // namespace

int udp::try_send2(unsigned count, fs_buf* bufs[], unsigned nbufs[], sockaddr* addrs[], unsigned flags) noexcept {
  if (count < 1 || flags != 0) return errc::invalid;
  if (loop_->behaves().udp_send_checks_buffers)
    for (unsigned i = 0; i < count; i++)
      if (nbufs[i] < 1 || nbufs[i] > max_send_bufs) return errc::invalid;
  if (send_queue_count_ != 0) return errc::again;
  if (io_.fd == -1) return errc::invalid;
  int sent = 0;
  for (unsigned i = 0; i < count;) {
    mmsghdr m[20];
    unsigned n = 0;
    for (; i < count && n < 20; i++, n++) {
      const socklen_t len = address_length(addrs[i]);
      if (len == static_cast<socklen_t>(-1)) return sent > 0 ? sent : errc::invalid;
      m[n] = mmsghdr{};
      m[n].msg_hdr.msg_name = addrs[i];
      m[n].msg_hdr.msg_namelen = len;
      m[n].msg_hdr.msg_iov = reinterpret_cast<iovec*>(bufs[i]);
      m[n].msg_hdr.msg_iovlen = nbufs[i];
    }
    int r;
    do r = sendmmsg(io_.fd, m, n, 0);
    while (r == -1 && errno == EINTR);
    if (r <= 0) {
      if (sent > 0) return sent;
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS ? errc::again : -errno;
    }
    sent += r;
    if (static_cast<unsigned>(r) < n) break;
  }
  return sent;
}

int udp::try_send(const fs_buf bufs[], unsigned nbufs, const sockaddr* addr) noexcept {
  const int len = check_destination(flags_ & connected_flag, addr);
  if (len < 0) return len;
  if (nbufs == 0 || bufs == nullptr || is_closing()) return errc::invalid;
  if (nbufs > max_send_bufs && loop_->behaves().udp_send_checks_buffers) return errc::invalid;
  if (send_queue_count_ != 0) return errc::again;
  if (addr != nullptr)
    if (int e = ensure_bound_(addr->sa_family, 0); e != 0) return e;
  msghdr h{};
  h.msg_name = const_cast<sockaddr*>(addr);
  h.msg_namelen = static_cast<socklen_t>(len);
  h.msg_iov = reinterpret_cast<iovec*>(const_cast<fs_buf*>(bufs));
  h.msg_iovlen = nbufs;
  ssize_t n;
  do n = sendmsg(io_.fd, &h, 0);
  while (n < 0 && errno == EINTR);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS ? errc::again : -errno;
  return static_cast<int>(n);
}

// Callbacks are reported to hooks from the poll and closing phases; in the
// pending phase the loop has already reported the watcher's callback.
template <class F>
inline void udp::report_(phase p, req* r, F&& f) {
  if (p == phase::pending || !loop_->hooked()) [[likely]]
    f();
  else
    detail::loop_seam::callback<true>(*loop_, p, callback_kind::io, this, r, static_cast<F&&>(f));
}

void udp::run_completed_(phase p) noexcept {
  flags_ |= processing_flag;
  while (udp_send* r = completed_.pop_front()) {
    detail::loop_seam::req_unregister(*loop_);
    send_queue_size_ -= detail::buf_bytes(r->bufs_, r->nbufs_);
    send_queue_count_--;
    detail::free_bufs(r->bufs_, r->bufsml_);
    r->bufs_ = nullptr;
    if (r->cb_ == nullptr) continue;
    const int status = r->status_ < 0 ? static_cast<int>(r->status_) : 0;
    report_(p, r, [r, status] { r->cb_(r, status); });
  }
  if (queue_.empty()) {
    detail::loop_seam::poller(*loop_).unwatch(io_, detail::io_writable);
    if (!(io_.wanted & detail::io_readable)) stop_();
  }
  flags_ &= ~processing_flag;
}

// ---- receiving ------------------------------------------------------------

int udp::recv_start(udp_alloc_cb alloc, udp_recv_cb recv) noexcept {
  if (alloc == nullptr || recv == nullptr || is_closing()) return errc::invalid;
  if (io_.wanted & detail::io_readable) return -EALREADY;
  if (int r = ensure_bound_(AF_INET, 0); r != 0) return r;
  if (int r = detail::loop_seam::poller(*loop_).watch(io_, detail::io_readable); r != 0) return r;
  alloc_cb_ = alloc;
  recv_cb_ = recv;
  start_();
  return 0;
}

int udp::recv_stop() noexcept {
  detail::loop_seam::poller(*loop_).unwatch(io_, detail::io_readable);
  if (!(io_.wanted & detail::io_writable)) stop_();
  alloc_cb_ = nullptr;
  recv_cb_ = nullptr;
  return 0;
}

// A datagram of the error queue: the error it holds, reported with the
// address that sent it; false if the message holds none.
bool udp::queued_error_(const msghdr& h, const fs_buf& buf, unsigned flags, phase p) noexcept {
  if (!(h.msg_flags & MSG_ERRQUEUE)) return false;
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(const_cast<msghdr*>(&h), c)) {
    const bool v4 = c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR;
    const bool v6 = c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR;
    if (!v4 && !v6) continue;
    sock_extended_err e;
    std::memcpy(&e, CMSG_DATA(c), sizeof e);
    // The offender's address follows the error in the message.
    const auto* from = reinterpret_cast<const sockaddr*>(CMSG_DATA(c) + sizeof e);
    // As libuv: the error negated as the unsigned number it is, so that
    // nread is 2^32 minus the error's number, positive.
    const ssize_t n = static_cast<std::uint32_t>(0u - e.ee_errno);
    const unsigned f = flags | udp_linux_recverr;
    report_(p, nullptr, [=, this] { recv_cb_(this, n, &buf, from, f); });
    return true;
  }
  return false;
}

void udp::read_(phase p, int flag) noexcept {
  auto deliver = [this, p](ssize_t n, const fs_buf* b, const sockaddr* a, unsigned f) {
    report_(p, nullptr, [=, this] { recv_cb_(this, n, b, a, f); });
  };
  int rounds = 32;  // so that a flood of datagrams cannot starve the loop
  ssize_t n;
  do {
    fs_buf buf{nullptr, 0};
    alloc_cb_(this, udp_max_datagram, &buf);
    if (recv_cb_ == nullptr) return;  // stopped from the alloc callback
    if (buf.base == nullptr || buf.len == 0) {
      deliver(-ENOBUFS, &buf, nullptr, 0);
      return;
    }
    if (using_recvmmsg()) {
      recvmmsg_(buf, n, p, flag);
      rounds -= n > 0 ? static_cast<int>(n) : 1;
      continue;
    }
    sockaddr_storage peer{};
    iovec iov{buf.base, buf.len};
    msghdr h{};
    h.msg_name = &peer;
    h.msg_namelen = sizeof peer;
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    alignas(cmsghdr) char control[256];
    if (flag & MSG_ERRQUEUE) {
      h.msg_control = control;
      h.msg_controllen = sizeof control;
    }
    do n = recvmsg(io_.fd, &h, flag);
    while (n < 0 && errno == EINTR);
    const unsigned partial = n >= 0 && (h.msg_flags & MSG_TRUNC) ? udp_partial : 0;
    const bool queued = n >= 0 && (flag & MSG_ERRQUEUE) && queued_error_(h, buf, partial, p);
    if (queued) {
      // reported as the error it holds
    } else if (n < 0) {
      deliver(errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno, &buf, nullptr, 0);
    } else {
      deliver(n, &buf, reinterpret_cast<const sockaddr*>(&peer), partial);
    }
    rounds--;
  } while (n != -1 && rounds > 0 && io_.fd != -1 && recv_cb_ != nullptr);
}

// One recvmmsg round: the buffer is cut into datagram-sized slices, each
// reported with udp_mmsg_chunk, then the whole with udp_mmsg_free.
void udp::recvmmsg_(fs_buf& buf, ssize_t& n, phase p, int flag) noexcept {
  std::size_t slices = buf.len / udp_max_datagram;
  if (slices == 0) {
    // A buffer smaller than one datagram slice is refused (libuv 1.53; an
    // older libuv would read nothing into it, again and again).
    report_(p, nullptr, [&, this] { recv_cb_(this, errc::invalid, &buf, nullptr, 0); });
    n = -1;
    return;
  }
  if (slices > mmsg_width) slices = mmsg_width;
  sockaddr_in6 peers[mmsg_width];
  iovec iov[mmsg_width];
  mmsghdr msgs[mmsg_width];
  alignas(cmsghdr) char control[mmsg_width][64];
  for (std::size_t k = 0; k < slices; k++) {
    iov[k].iov_base = buf.base + k * udp_max_datagram;
    iov[k].iov_len = udp_max_datagram;
    std::memset(&msgs[k], 0, sizeof msgs[k]);
    msgs[k].msg_hdr.msg_iov = &iov[k];
    msgs[k].msg_hdr.msg_iovlen = 1;
    msgs[k].msg_hdr.msg_name = &peers[k];
    msgs[k].msg_hdr.msg_namelen = sizeof peers[k];
    if (flag & MSG_ERRQUEUE) {
      msgs[k].msg_hdr.msg_control = control[k];
      msgs[k].msg_hdr.msg_controllen = sizeof control[k];
    }
  }
  int got;
  do got = recvmmsg(io_.fd, msgs, static_cast<unsigned>(slices), flag, nullptr);
  while (got < 0 && errno == EINTR);
  n = got;
  auto deliver = [this, p](ssize_t nread, const fs_buf* b, const sockaddr* a, unsigned f) {
    report_(p, nullptr, [=, this] { recv_cb_(this, nread, b, a, f); });
  };
  if (got < 1) {
    deliver(got == 0 || errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno, &buf, nullptr, 0);
    return;
  }
  for (int k = 0; k < got && recv_cb_ != nullptr; k++) {
    unsigned flags = udp_mmsg_chunk;
    if (msgs[k].msg_hdr.msg_flags & MSG_TRUNC) flags |= udp_partial;
    const fs_buf slice{static_cast<char*>(iov[k].iov_base), iov[k].iov_len};
    if ((flag & MSG_ERRQUEUE) && queued_error_(msgs[k].msg_hdr, slice, flags, p)) continue;
    deliver(msgs[k].msg_len, &slice, reinterpret_cast<const sockaddr*>(&peers[k]), flags);
  }
  if (recv_cb_ != nullptr) deliver(0, &buf, nullptr, udp_mmsg_free);
}

// ---- the watcher ----------------------------------------------------------

void udp::io_cb_(phaseloop::loop&, detail::io_watcher& w, unsigned events) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  udp& u = *reinterpret_cast<udp*>(reinterpret_cast<char*>(&w) - offsetof(udp, io_));
#pragma GCC diagnostic pop
  // Called by the pending phase when fed (the loop has just taken the
  // watcher off its queue), else by the poll phase.
  phase p = phase::poll;
  if (u.fed_ && !detail::loop_seam::deferred(w)) {
    u.fed_ = false;
    p = phase::pending;
  }
  if (events & detail::io_refused) [[unlikely]] {
    u.refused_(-detail::refused_errno(events), p);
    return;
  }
  const behaviour& b = u.loop_->behaves();
  // From libuv 1.53 an error makes the socket receive and send, to find
  // it (before, the poll did that for an error that came alone: run.cpp).
  // libuv asserts that a socket with an error receives; here one that
  // does not only sends.
  if ((events & detail::io_error) && b.error_alone_is_quiet) events |= detail::io_readable | detail::io_writable;
  if ((events & detail::io_readable) && u.recv_cb_ != nullptr) u.read_(p, 0);
  if (u.io_.fd == -1) return;  // closed by a receive callback
  // From 1.52 the error queue is read too (IP_RECVERR's errors, each with
  // the address that sent it), while the socket still receives.
  if ((events & detail::io_error) && b.udp_reads_error_queue && u.recv_cb_ != nullptr) u.read_(p, MSG_ERRQUEUE);
  if (u.io_.fd == -1) return;
  if (events & detail::io_writable) {
    u.write_queued_();
    u.run_completed_(p);
  }
}

// The kernel would not watch the socket (poller::flush): the sends queued
// fail with the error, and receiving stops and is told, so that the loop
// does not wait for datagrams it can no longer see.
void udp::refused_(int err, phase p) noexcept {
  while (udp_send* r = queue_.pop_front()) {
    r->status_ = err;
    completed_.push_back(*r);
  }
  run_completed_(p);
  if (io_.fd == -1) return;  // closed by a send callback
  if (udp_recv_cb cb = recv_cb_) {
    recv_stop();
    fs_buf none{nullptr, 0};
    report_(p, nullptr, [&, this] { cb(this, err, &none, nullptr, 0); });
  }
}

// ---- options --------------------------------------------------------------

int udp::setsockopt_ip_(int opt4, int opt6, int val) noexcept {
  if (val < 0 || val > 255) return errc::invalid;
  const bool v6 = flags_ & ipv6_flag;
  if (setsockopt(io_.fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? opt6 : opt4, &val, sizeof val) != 0) return -errno;
  return 0;
}

int udp::set_broadcast(int on) noexcept {
  return setsockopt(io_.fd, SOL_SOCKET, SO_BROADCAST, &on, sizeof on) != 0 ? -errno : 0;
}

int udp::set_ttl(int ttl) noexcept {
  if (ttl < 1 || ttl > 255) return errc::invalid;
  return setsockopt_ip_(IP_TTL, IPV6_UNICAST_HOPS, ttl);
}

int udp::set_multicast_ttl(int ttl) noexcept { return setsockopt_ip_(IP_MULTICAST_TTL, IPV6_MULTICAST_HOPS, ttl); }

int udp::set_multicast_loop(int on) noexcept { return setsockopt_ip_(IP_MULTICAST_LOOP, IPV6_MULTICAST_LOOP, on); }

int udp::set_multicast_interface(const char* iface) noexcept {
  sockaddr_in a4;
  sockaddr_in6 a6;
  bool v6;
  if (iface == nullptr) {
    v6 = flags_ & ipv6_flag;
    std::memset(&a4, 0, sizeof a4);
    std::memset(&a6, 0, sizeof a6);
  } else if (parse_ip4(iface, &a4) == 0) {
    v6 = false;
  } else if (parse_ip6(iface, &a6) == 0) {
    v6 = true;
  } else {
    return errc::invalid;
  }
  const int r = v6 ? setsockopt(io_.fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &a6.sin6_scope_id, sizeof a6.sin6_scope_id)
                   : setsockopt(io_.fd, IPPROTO_IP, IP_MULTICAST_IF, &a4.sin_addr, sizeof a4.sin_addr);
  return r != 0 ? -errno : 0;
}

int udp::set_membership(const char* group, const char* iface, udp_membership m) noexcept {
  sockaddr_in g4;
  sockaddr_in6 g6;
  if (parse_ip4(group, &g4) == 0) {
    if (int r = ensure_bound_(AF_INET, udp_reuseaddr); r != 0) return r;
    ip_mreq mreq{};
    if (iface != nullptr) {
      if (inet_pton(AF_INET, iface, &mreq.imr_interface) != 1) return errc::invalid;
    } else {
      mreq.imr_interface.s_addr = htonl(INADDR_ANY);
    }
    mreq.imr_multiaddr = g4.sin_addr;
    int opt;
    if (m == udp_membership::join) opt = IP_ADD_MEMBERSHIP;
    else if (m == udp_membership::leave) opt = IP_DROP_MEMBERSHIP;
    else return errc::invalid;
    return setsockopt(io_.fd, IPPROTO_IP, opt, &mreq, sizeof mreq) != 0 ? -errno : 0;
  }
  if (parse_ip6(group, &g6) == 0) {
    if (int r = ensure_bound_(AF_INET6, udp_reuseaddr); r != 0) return r;
    ipv6_mreq mreq{};
    if (iface != nullptr) {
      sockaddr_in6 i6;
      if (parse_ip6(iface, &i6) != 0) return errc::invalid;
      mreq.ipv6mr_interface = i6.sin6_scope_id;
    }
    mreq.ipv6mr_multiaddr = g6.sin6_addr;
    int opt;
    if (m == udp_membership::join) opt = IPV6_ADD_MEMBERSHIP;
    else if (m == udp_membership::leave) opt = IPV6_DROP_MEMBERSHIP;
    else return errc::invalid;
    return setsockopt(io_.fd, IPPROTO_IPV6, opt, &mreq, sizeof mreq) != 0 ? -errno : 0;
  }
  return errc::invalid;
}

int udp::set_source_membership(const char* group, const char* iface, const char* source,
                               udp_membership m) noexcept {
  sockaddr_in g4, s4;
  if (parse_ip4(group, &g4) != 0) {
    sockaddr_in6 g6, s6;
    if (int r = parse_ip6(group, &g6); r != 0) return r;
    if (int r = parse_ip6(source, &s6); r != 0) return r;
    if (int r = ensure_bound_(AF_INET6, udp_reuseaddr); r != 0) return r;
    group_source_req mreq{};
    if (iface != nullptr) {
      sockaddr_in6 i6;
      if (int r = parse_ip6(iface, &i6); r != 0) return r;
      mreq.gsr_interface = i6.sin6_scope_id;
    }
    std::memcpy(&mreq.gsr_group, &g6, sizeof g6);
    std::memcpy(&mreq.gsr_source, &s6, sizeof s6);
    int opt;
    if (m == udp_membership::join) opt = MCAST_JOIN_SOURCE_GROUP;
    else if (m == udp_membership::leave) opt = MCAST_LEAVE_SOURCE_GROUP;
    else return errc::invalid;
    return setsockopt(io_.fd, IPPROTO_IPV6, opt, &mreq, sizeof mreq) != 0 ? -errno : 0;
  }
  if (int r = parse_ip4(source, &s4); r != 0) return r;
  if (int r = ensure_bound_(AF_INET, udp_reuseaddr); r != 0) return r;
  ip_mreq_source mreq{};
  if (iface != nullptr) {
    if (inet_pton(AF_INET, iface, &mreq.imr_interface) != 1) return errc::invalid;
  } else {
    mreq.imr_interface.s_addr = htonl(INADDR_ANY);
  }
  mreq.imr_multiaddr = g4.sin_addr;
  mreq.imr_sourceaddr = s4.sin_addr;
  int opt;
  if (m == udp_membership::join) opt = IP_ADD_SOURCE_MEMBERSHIP;
  else if (m == udp_membership::leave) opt = IP_DROP_SOURCE_MEMBERSHIP;
  else return errc::invalid;
  return setsockopt(io_.fd, IPPROTO_IP, opt, &mreq, sizeof mreq) != 0 ? -errno : 0;
}

// ---- closing --------------------------------------------------------------

void udp::close_() noexcept {
  detail::loop_seam::poller(*loop_).unwatch(io_, all_io);
  detail::loop_seam::undefer(io_);
  fed_ = false;
  stop_();
  if (io_.fd != -1) {
    ::close(io_.fd);
    io_.fd = -1;
  }
}

// In the closing phase, before the close callback: sends still queued are
// canceled, and every send's callback runs.
void udp::finish_close_() noexcept {
  while (udp_send* r = queue_.pop_front()) {
    r->status_ = errc::canceled;
    completed_.push_back(*r);
  }
  run_completed_(phase::closing);
  recv_cb_ = nullptr;
  alloc_cb_ = nullptr;
}

}  // namespace phaseloop
