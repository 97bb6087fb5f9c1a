// SPDX-License-Identifier: MIT
// libuv's address helpers (uv_ip4_addr, uv_inet_pton, ...) over
// phaseloop/inet.hpp.

#include "phaseloop/inet.hpp"
#include "api.hpp"
#include "shim.hpp"

extern "C" {

int uv_inet_pton(int af, const char* src, void* dst) { return phaseloop::inet_pton(af, src, dst); }
int uv_inet_ntop(int af, const void* src, char* dst, size_t size) { return phaseloop::inet_ntop(af, src, dst, size); }
int uv_ip4_addr(const char* ip, int port, struct sockaddr_in* addr) { return phaseloop::ip4_addr(ip, port, addr); }
int uv_ip6_addr(const char* ip, int port, struct sockaddr_in6* addr) { return phaseloop::ip6_addr(ip, port, addr); }
int uv_ip4_name(const struct sockaddr_in* src, char* dst, size_t size) {
  return phaseloop::ip_name(phaseloop::compat::as_ptr<const sockaddr>(src), dst, size);
}
int uv_ip6_name(const struct sockaddr_in6* src, char* dst, size_t size) {
  return phaseloop::ip_name(phaseloop::compat::as_ptr<const sockaddr>(src), dst, size);
}
int uv_ip_name(const struct sockaddr* src, char* dst, size_t size) { return phaseloop::ip_name(src, dst, size); }

}  // extern "C"
