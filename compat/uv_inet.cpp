// libuv's address helpers (uv_ip4_addr, uv_inet_pton, ...) over the C
// library's inet_pton/inet_ntop.

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>

#include <cerrno>
#include <cstring>

#include "uv.h"

extern "C" {

int uv_inet_pton(int af, const char* src, void* dst) {
  if (src == nullptr || dst == nullptr) return UV_EINVAL;
  if (af != AF_INET && af != AF_INET6) return UV_EAFNOSUPPORT;
  char tmp[INET6_ADDRSTRLEN + 1];
  if (af == AF_INET6) {
    // A zone ("fe80::1%eth0") is not part of the address.
    const char* pct = std::strchr(src, '%');
    if (pct != nullptr) {
      const std::size_t n = static_cast<std::size_t>(pct - src);
      if (n >= sizeof tmp) return UV_EINVAL;
      std::memcpy(tmp, src, n);
      tmp[n] = '\0';
      src = tmp;
    }
  }
  return inet_pton(af, src, dst) == 1 ? 0 : UV_EINVAL;
}

int uv_inet_ntop(int af, const void* src, char* dst, size_t size) {
  if (af != AF_INET && af != AF_INET6) return UV_EAFNOSUPPORT;
  if (inet_ntop(af, src, dst, static_cast<socklen_t>(size)) == nullptr) return UV_ENOSPC;
  return 0;
}

int uv_ip4_addr(const char* ip, int port, struct sockaddr_in* addr) {
  std::memset(addr, 0, sizeof *addr);
  addr->sin_family = AF_INET;
  addr->sin_port = htons(static_cast<unsigned short>(port));
  return uv_inet_pton(AF_INET, ip, &addr->sin_addr);
}

int uv_ip6_addr(const char* ip, int port, struct sockaddr_in6* addr) {
  std::memset(addr, 0, sizeof *addr);
  addr->sin6_family = AF_INET6;
  addr->sin6_port = htons(static_cast<unsigned short>(port));
  if (const char* zone = std::strchr(ip, '%')) addr->sin6_scope_id = if_nametoindex(zone + 1);
  return uv_inet_pton(AF_INET6, ip, &addr->sin6_addr);
}

int uv_ip4_name(const struct sockaddr_in* src, char* dst, size_t size) {
  return uv_inet_ntop(AF_INET, &src->sin_addr, dst, size);
}

int uv_ip6_name(const struct sockaddr_in6* src, char* dst, size_t size) {
  return uv_inet_ntop(AF_INET6, &src->sin6_addr, dst, size);
}

int uv_ip_name(const struct sockaddr* src, char* dst, size_t size) {
  switch (src->sa_family) {
    case AF_INET: return uv_ip4_name(reinterpret_cast<const sockaddr_in*>(src), dst, size);
    case AF_INET6: return uv_ip6_name(reinterpret_cast<const sockaddr_in6*>(src), dst, size);
    default: return UV_EAFNOSUPPORT;
  }
}

}  // extern "C"
