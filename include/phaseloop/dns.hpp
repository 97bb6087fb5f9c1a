// SPDX-License-Identifier: MIT
#pragma once
/// DNS lookups: libuv's uv_getaddrinfo and uv_getnameinfo. The answers
/// are the C library's own (glibc's getaddrinfo/getnameinfo, on a pool
/// thread as libuv runs them, or from a cache of its hosts-file answers);
/// docs/dns.md tells how.
///
/// A request with a callback is asynchronous: start() returns 0 (or an
/// error that kept it from starting) and the callback runs later in the
/// poll phase, never inside start(). As libuv runs lookups on its
/// threadpool, every request first passes through phaseloop's pool (as a
/// task with nothing to do) and completes through the pool's queue, so its
/// place among pool requests is libuv's.
/// While asynchronous, a request counts as active: it keeps its loop alive
/// and loop::close() reports busy.
///
/// Without a callback (nullptr) the lookup runs on the calling thread,
/// which waits for its answer, and start() returns the result. The loop
/// then only supplies resolver settings and may be null.
///
/// Example:
///
///     phaseloop::getaddrinfo_req r;
///     r.start(&loop, [](phaseloop::getaddrinfo_req*, int status, addrinfo* res) {
///       if (status != 0) return;                 // e.g. phaseloop::eai::noname
///       ...                                      // connect to res->ai_addr
///       phaseloop::free_addrinfo(res);
///     }, "localhost", "http", nullptr);
///
/// Threads: start and cancel asynchronous requests on the loop's thread;
/// synchronous ones on any thread, as long as nobody reconfigures the
/// loop's resolver meanwhile. The memory is the caller's and must stay
/// valid, unmoved, until the callback has run.

#include <cstddef>
#include <netdb.h>
#include <sys/socket.h>

#include "phaseloop/request.hpp"

namespace phaseloop {

namespace detail {
struct dns_query;
struct resolver;
}  // namespace detail

/// Resolver errors: libuv's UV_EAI_* values. Lookups report these, or a
/// negative errno for a system error.
namespace eai {
inline constexpr int addrfamily = PHASELOOP_EAI_ADDRFAMILY;  ///< the host has no address of that family
inline constexpr int again = PHASELOOP_EAI_AGAIN;  ///< temporary failure (a server timed out)
inline constexpr int badflags = PHASELOOP_EAI_BADFLAGS;  ///< bad ai_flags / NI_* flags
inline constexpr int canceled = PHASELOOP_EAI_CANCELED;  ///< canceled with cancel()
inline constexpr int fail = PHASELOOP_EAI_FAIL;  ///< permanent failure
inline constexpr int family = PHASELOOP_EAI_FAMILY;  ///< ai_family not supported
inline constexpr int memory = PHASELOOP_EAI_MEMORY;  ///< out of memory
inline constexpr int nodata = PHASELOOP_EAI_NODATA;  ///< the name exists but has no address
inline constexpr int noname = PHASELOOP_EAI_NONAME;  ///< unknown node or service
inline constexpr int overflow = PHASELOOP_EAI_OVERFLOW;  ///< a result does not fit its buffer
inline constexpr int service = PHASELOOP_EAI_SERVICE;  ///< service not known for the socket type
inline constexpr int socktype = PHASELOOP_EAI_SOCKTYPE;  ///< ai_socktype not supported
}  // namespace eai

/// Frees a list from getaddrinfo_req (the C library's freeaddrinfo: the
/// list is allocated as the C library's own). Null is fine.
void free_addrinfo(struct addrinfo* ai) noexcept;

/// What getaddrinfo_req and getnameinfo_req share, at libuv's offsets: the
/// loop and the lookup in flight.
class dns_req : public req {
 public:
  /// Cancels the request while it is queued on the threadpool (as libuv
  /// does: it never starts): its callback then gets eai::canceled (and no
  /// list). Canceling again before that callback ran succeeds too (and
  /// moves it to the back of the completion queue, as in libuv).
  /// errc::busy once a pool thread took it (it is inside the C library's
  /// lookup), for a request not in flight, or a synchronous one. Loop
  /// thread only.
  int cancel() noexcept;
  /// The loop given to start(). (libuv: `loop`, offset 64.)
  phaseloop::loop* owner() const noexcept { return loop_; }

 protected:
  explicit dns_req(req_type t) noexcept : req(t) {}
  ~dns_req() = default;

  friend struct detail::resolver;

  phaseloop::loop* loop_ = nullptr;       // offset 64
  detail::dns_query* query_ = nullptr;    // the lookup in flight
  void* unused_[4] = {};                  // the rest of libuv's work_req
};

class getaddrinfo_req;
/// Runs in the poll phase: `status` is 0 with `res` the result list, which
/// the callee owns (free it with free_addrinfo), or an error (eai::*, or
/// -errno) with `res` null. The request may be reused or freed inside.
using getaddrinfo_cb = void (*)(getaddrinfo_req*, int status, struct addrinfo* res);

/// getaddrinfo(3) on the loop. libuv: uv_getaddrinfo_t.
class getaddrinfo_req : public dns_req {
 public:
  getaddrinfo_req() noexcept : dns_req(req_type::getaddrinfo) {}

  /// Looks up `node` (a name or numeric address; null: the loopback
  /// address, or the wildcard with AI_PASSIVE) and `service` (a name or a
  /// port; may be null) with `hints` (null: the C library's defaults).
  /// A name that is not ASCII is converted to punycode first, as libuv
  /// does. With `cb`: 0, or errc::invalid (node and service both null, a
  /// null loop, a name that is not UTF-8 or longer than 255 bytes once
  /// converted), errc::busy (this request is in flight), errc::no_memory.
  /// Without: one of those, or the lookup's result (0 and addrinfo()).
  int start(loop* l, getaddrinfo_cb cb, const char* node, const char* service,
            const struct addrinfo* hints) noexcept;

  /// The result list of the last lookup (null until it succeeded); the
  /// caller frees it with free_addrinfo. (libuv: `addrinfo`.)
  struct addrinfo* addrinfo() const noexcept { return addrinfo_; }
  /// The last lookup's status: 0 or an error. (libuv: `retcode`.)
  int status() const noexcept { return retcode_; }

  /// Offsets of the fields libuv's uv_getaddrinfo_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t loop, cb, uv_private2_, addrinfo, uv_private3_; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend struct detail::resolver;
  getaddrinfo_cb cb_ = nullptr;           // offset 112
  // libuv's hints, hostname, service: copies it frees before the callback,
  // so a program only ever sees them null.
  void* copies_[3] = {};
  struct addrinfo* addrinfo_ = nullptr;   // offset 144
  int retcode_ = 0;                       // offset 152
};

class getnameinfo_req;
/// Runs in the poll phase: `status` is 0 with the host and service names
/// (the request's own buffers), or an error (eai::*, or -errno) with both
/// null. The request may be reused or freed inside.
using getnameinfo_cb = void (*)(getnameinfo_req*, int status, const char* host, const char* service);

/// getnameinfo(3) on the loop. libuv: uv_getnameinfo_t.
class getnameinfo_req : public dns_req {
 public:
  getnameinfo_req() noexcept : dns_req(req_type::getnameinfo) {}

  /// Finds the host and service names of `addr` (an IPv4 or IPv6 socket
  /// address, copied) with getnameinfo's NI_* `flags`. With `cb`: 0, or
  /// errc::invalid (null or other-family address, a null loop),
  /// errc::busy (in flight), errc::no_memory. Without: one of those, or
  /// the lookup's result (0 and host(), service()).
  int start(loop* l, getnameinfo_cb cb, const struct sockaddr* addr, int flags) noexcept;

  /// The host name found (valid once a lookup succeeded). (libuv: `host`.)
  const char* host() const noexcept { return host_; }
  /// The service name found. (libuv: `service`.)
  const char* service() const noexcept { return service_; }
  /// The last lookup's status: 0 or an error. (libuv: `retcode`.)
  int status() const noexcept { return retcode_; }

  /// Offsets of the fields libuv's uv_getnameinfo_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t loop, getnameinfo_cb, uv_private2_, uv_private32_, host, service, uv_private3_; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend struct detail::resolver;
  getnameinfo_cb cb_ = nullptr;           // offset 112
  // The fields below are libuv's, at libuv's offsets. Like libuv, start()
  // writes only the address's own bytes of `storage_`, and the names only
  // when a lookup produces them.
  struct sockaddr_storage storage_;       // offset 120
  int flags_ = 0;                         // offset 248
  char host_[NI_MAXHOST];                 // offset 252
  char service_[NI_MAXSERV];              // offset 1277
  int retcode_ = 0;                       // offset 1312
};

/// Where one loop's lookups go. Zero fields keep the system's settings:
/// /etc/resolv.conf and $RES_OPTIONS, and for the servers
/// $PHASELOOP_DNS_SERVERS first when it is set.
struct resolver_config {
  /// Name servers, comma-separated, each an IPv4 address with an optional
  /// port: "127.0.0.1:5353,192.0.2.1". At most 3 (glibc's resolver state
  /// holds no more, and IPv4 only). Copied.
  const char* servers = nullptr;
  /// Time to wait for an answer from a server, rounded up to whole
  /// seconds (glibc's RES_OPTIONS timeout).
  int timeout_ms = 0;
  /// Rounds through the server list before a lookup fails (eai::again):
  /// glibc's attempts.
  int tries = 0;
};

/// Sets the resolver settings of `l` for the lookups it starts from now
/// on (synchronous ones included). errc::invalid for a server list that
/// is not as above or a negative number, errc::busy while lookups of this loop
/// are in flight, errc::no_memory. Loop thread only.
int configure_resolver(loop& l, const resolver_config& config) noexcept;

}  // namespace phaseloop
