// SPDX-License-Identifier: MIT
#pragma once
/// UDP sockets: send datagrams, receive them with a callback.
///
/// When callbacks run (libuv 1.44's order):
/// - A send is attempted at once when nothing else is queued; its callback
///   then runs in the pending phase of the next pass. A send that must wait
///   for the socket (or was queued behind others, or started from a send
///   callback) is written in the poll phase, whose callback follows there.
///   Closing the handle completes queued sends with errc::canceled in the
///   closing phase, before the close callback.
/// - Receiving happens in the poll phase: for each readiness, up to 32
///   datagrams, each preceded by an alloc callback; a read that finds
///   nothing more ends with nread 0 and a null address.
///
/// A handle is active while it receives or has sends in flight. Every
/// method is for the loop's thread only.

#include <sys/socket.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/detail/poller.hpp"
#include "phaseloop/fs.hpp"
#include "phaseloop/handle.hpp"
#include "phaseloop/request.hpp"

namespace phaseloop {

class udp;
class udp_send;

/// Flags, with libuv's values (uv_udp_flags).
/// bind: no dual stack for an IPv6 address.
inline constexpr unsigned udp_ipv6only = 1;
/// recv: the datagram was larger than the buffer and was cut.
inline constexpr unsigned udp_partial = 2;
/// bind: SO_REUSEADDR.
inline constexpr unsigned udp_reuseaddr = 4;
/// recv: the buffer is one slice of a recvmmsg batch (do not free it).
inline constexpr unsigned udp_mmsg_chunk = 8;
/// recv: the batch is over; the buffer may be freed.
inline constexpr unsigned udp_mmsg_free = 16;
/// bind: IP_RECVERR / IPV6_RECVERR.
inline constexpr unsigned udp_linux_recverr = 32;
/// bind: SO_REUSEPORT (from profile libuv_1_49; refused before).
inline constexpr unsigned udp_reuseport = 64;
/// init: receive several datagrams per system call (recvmmsg).
inline constexpr unsigned udp_recvmmsg = 256;

/// Largest datagram; the size alloc callbacks are asked for.
inline constexpr std::size_t udp_max_datagram = 64 * 1024;

/// Join or leave a multicast group (libuv's uv_membership).
enum class udp_membership : int { leave = 0, join = 1 };

/// Runs when a send finished: in the pending phase, the poll phase, or the
/// closing phase (status errc::canceled). 0 or a negative error code.
using udp_send_cb = void (*)(udp_send*, int status);
/// Asks for a receive buffer of about `suggested` bytes; leaving it empty
/// (null base or 0 len) reports -ENOBUFS to the receive callback.
using udp_alloc_cb = void (*)(handle*, std::size_t suggested, fs_buf* buf);
/// Runs in the poll phase per datagram (nread bytes from addr; flags may
/// hold udp_partial), with nread 0 and a null addr when nothing more was
/// there, or with a negative error code.
using udp_recv_cb = void (*)(udp*, ssize_t nread, const fs_buf* buf, const sockaddr* addr, unsigned flags);

/// One send (libuv's uv_udp_send_t). The caller owns its memory until the
/// callback has run; the buffers' bytes must stay valid until then too.
class udp_send : public req {
 public:
  udp_send() noexcept : req(req_type::udp_send) {}

  /// The socket sending. (libuv: `handle`, offset 64.)
  udp* sender() const noexcept { return handle_; }
  /// The completion callback, possibly null. (libuv: `cb`, offset 72.)
  udp_send_cb callback() const noexcept { return cb_; }

  /// Offsets of the fields libuv's uv_udp_send_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t handle, cb; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class udp;  // sends it and keeps it queued

  udp* handle_ = nullptr;        // at libuv's `handle`
  udp_send_cb cb_ = nullptr;     // at libuv's `cb`
  detail::link<udp_send> node_;  // the handle's send or completed queue
  sockaddr_storage addr_{};      // destination; AF_UNSPEC when connected
  fs_buf* bufs_ = nullptr;       // bufsml_ or an allocated copy
  unsigned nbufs_ = 0;
  ssize_t status_ = 0;           // bytes sent, or the error
  fs_buf bufsml_[4];

 public:
  /// A handle's queue of sends (an implementation detail).
  using list = detail::ilist<udp_send, &udp_send::node_>;
};

class udp : public handle {
 public:
  /// Joins `l` without a socket; one is made by bind(), connect(), the
  /// first send or recv_start(). Loop thread only.
  explicit udp(phaseloop::loop& l) noexcept;
  /// Joins `l` owning `fd`, a non-blocking datagram socket (see socket()).
  udp(phaseloop::loop& l, int fd) noexcept;

  /// Makes a non-blocking, close-on-exec datagram socket of `domain`
  /// (AF_INET, AF_INET6): the fd, or a negative error code.
  static int socket(int domain) noexcept;

  /// Adopts an existing socket (libuv's uv_udp_open): made non-blocking,
  /// SO_REUSEADDR set. errc::busy when the handle has one; -EEXIST when the
  /// loop already watches `fd`.
  int open(int fd) noexcept;
  /// Receive with recvmmsg (libuv's UV_UDP_RECVMMSG init flag).
  void set_recvmmsg(bool on) noexcept;
  /// True when receiving uses recvmmsg.
  bool using_recvmmsg() const noexcept;

  /// Binds to `addr` (AF_INET or AF_INET6) with udp_ipv6only,
  /// udp_reuseaddr, udp_linux_recverr. errc::invalid for other flags, or
  /// udp_ipv6only on an IPv4 address.
  int bind(const sockaddr* addr, unsigned flags) noexcept;
  /// Sets the default peer; a null `addr` removes it (-ENOTCONN when there
  /// was none). -EISCONN when already connected.
  int connect(const sockaddr* addr) noexcept;
  /// The local address (getsockname); -EBADF without a socket.
  int sockname(sockaddr* name, int* namelen) const noexcept;
  /// The peer address (getpeername); -ENOTCONN when not connected.
  int peername(sockaddr* name, int* namelen) const noexcept;

  /// Queues a datagram made of `bufs` (nbufs >= 1) for `addr`, or for the
  /// connected peer when `addr` is null. -EISCONN / -EDESTADDRREQ as libuv.
  int send(udp_send& r, const fs_buf bufs[], unsigned nbufs, const sockaddr* addr, udp_send_cb cb) noexcept;
  /// Sends at once or not at all: the byte count, errc::again when sends
  /// are queued or the socket is full, or another error.
  int try_send(const fs_buf bufs[], unsigned nbufs, const sockaddr* addr) noexcept;
  /// libuv 1.50's batch send, now: message i is bufs[i] (nbufs[i] buffers)
  /// to addrs[i] (null: the connected peer), sent with sendmmsg(2) in
  /// groups of 20. The number of messages sent (> 0), or an error for the
  /// first (errc::again when the socket would block or sends are queued;
  /// errc::invalid for count 0, flags, or no socket).
  int try_send2(unsigned count, fs_buf* bufs[], unsigned nbufs[], sockaddr* addrs[], unsigned flags) noexcept;
  /// Flags of open_ex(): libuv's UV_UDP_REUSEADDR and UV_UDP_REUSEPORT.
  static constexpr unsigned open_reuseaddr = 4;
  static constexpr unsigned open_reuseport = 64;
  /// libuv 1.52's open(): SO_REUSEADDR / SO_REUSEPORT only as `flags` ask
  /// (open() always sets SO_REUSEADDR).
  int open_ex(int fd, unsigned flags) noexcept;
  /// Starts receiving. errc::invalid for a null callback, -EALREADY when
  /// receiving.
  int recv_start(udp_alloc_cb alloc, udp_recv_cb recv) noexcept;
  /// Stops receiving. Always 0.
  int recv_stop() noexcept;

  /// Multicast and socket options, with libuv's checks and results.
  int set_membership(const char* group, const char* iface, udp_membership m) noexcept;
  int set_source_membership(const char* group, const char* iface, const char* source, udp_membership m) noexcept;
  int set_multicast_loop(int on) noexcept;
  int set_multicast_ttl(int ttl) noexcept;
  int set_multicast_interface(const char* iface) noexcept;
  int set_broadcast(int on) noexcept;
  int set_ttl(int ttl) noexcept;

  /// Bytes queued for sending, counting sends whose callback has not run.
  std::size_t send_queue_size() const noexcept { return send_queue_size_; }
  /// Sends whose callback has not run.
  std::size_t send_queue_count() const noexcept { return send_queue_count_; }
  /// The socket, -1 if none.
  int fd() const noexcept { return io_.fd; }

  /// Offsets of the fields libuv's uv_udp_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t send_queue_size, send_queue_count; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  // libuv 1.44's values (uv-common.h's table).
  enum : std::uint32_t {
    bound_flag = 0x2000,
    ipv6_flag = 0x400000,
    processing_flag = 0x01000000,  // completions are being reported
    connected_flag = 0x02000000,
    recvmmsg_flag = 0x04000000,
  };

  void close_() noexcept;
  void finish_close_() noexcept;
  int bind_(const sockaddr* addr, socklen_t len, unsigned flags) noexcept;
  int ensure_bound_(int domain, unsigned flags) noexcept;
  void feed_() noexcept;
  void write_queued_() noexcept;
  void read_(phase p, int flag) noexcept;
  void recvmmsg_(fs_buf& buf, ssize_t& n, phase p, int flag) noexcept;
  bool queued_error_(const msghdr& h, const fs_buf& buf, unsigned flags, phase p) noexcept;
  void run_completed_(phase p) noexcept;
  void refused_(int err, phase p) noexcept;
  int setsockopt_ip_(int opt4, int opt6, int val) noexcept;
  // Makes a user callback, reporting it to hooks (phase p; see udp.cpp).
  template <class F>
  void report_(phase p, req* r, F&& f);
  static void io_cb_(phaseloop::loop& l, detail::io_watcher& w, unsigned events);

  // Laid out so that send_queue_size_ and send_queue_count_ sit at offsets
  // 96 and 104, libuv's public fields (checked in compat/uv_udp.cpp).
  std::size_t send_queue_size_ = 0;   // libuv: `send_queue_size`
  std::size_t send_queue_count_ = 0;  // libuv: `send_queue_count`
  udp_alloc_cb alloc_cb_ = nullptr;
  udp_recv_cb recv_cb_ = nullptr;
  udp_send::list queue_;  // waiting to be written, in send order
  detail::io_watcher io_;
  udp_send::list completed_;  // written (or failed), callbacks not yet run
  bool fed_ = false;          // on the loop's pending queue
};

}  // namespace phaseloop
