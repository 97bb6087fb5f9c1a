// SPDX-License-Identifier: MIT
// Socket addresses from and to text (include/phaseloop/inet.hpp), over the
// C library's inet_pton/inet_ntop.

#include <arpa/inet.h>
#include <net/if.h>

#include <cstring>

#include "phaseloop/errors.h"
#include "phaseloop/inet.hpp"

namespace phaseloop {

int inet_pton(int af, const char* src, void* dst) noexcept {
  if (src == nullptr || dst == nullptr) return PHASELOOP_EINVAL;
  if (af != AF_INET && af != AF_INET6) return PHASELOOP_EAFNOSUPPORT;
  char tmp[INET6_ADDRSTRLEN + 1];
  if (af == AF_INET6) {
    // A zone ("fe80::1%eth0") is not part of the address.
    if (const char* pct = std::strchr(src, '%')) {
      const auto n = static_cast<std::size_t>(pct - src);
      if (n >= sizeof tmp) return PHASELOOP_EINVAL;
      std::memcpy(tmp, src, n);
      tmp[n] = '\0';
      src = tmp;
    }
  }
  return ::inet_pton(af, src, dst) == 1 ? 0 : PHASELOOP_EINVAL;
}

int inet_ntop(int af, const void* src, char* dst, std::size_t size) noexcept {
  if (af != AF_INET && af != AF_INET6) return PHASELOOP_EAFNOSUPPORT;
  if (::inet_ntop(af, src, dst, static_cast<socklen_t>(size)) == nullptr) return PHASELOOP_ENOSPC;
  return 0;
}

int ip4_addr(const char* ip, int port, sockaddr_in* addr) noexcept {
  std::memset(addr, 0, sizeof *addr);
  addr->sin_family = AF_INET;
  addr->sin_port = htons(static_cast<unsigned short>(port));
  return phaseloop::inet_pton(AF_INET, ip, &addr->sin_addr);
}

int ip6_addr(const char* ip, int port, sockaddr_in6* addr) noexcept {
  std::memset(addr, 0, sizeof *addr);
  addr->sin6_family = AF_INET6;
  addr->sin6_port = htons(static_cast<unsigned short>(port));
  if (const char* zone = std::strchr(ip, '%')) addr->sin6_scope_id = if_nametoindex(zone + 1);
  return phaseloop::inet_pton(AF_INET6, ip, &addr->sin6_addr);
}

int ip_name(const sockaddr* src, char* dst, std::size_t size) noexcept {
  switch (src->sa_family) {
    case AF_INET:
      return phaseloop::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(src)->sin_addr, dst, size);
    case AF_INET6:
      return phaseloop::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(src)->sin6_addr, dst, size);
    default:
      return PHASELOOP_EAFNOSUPPORT;
  }
}

}  // namespace phaseloop
