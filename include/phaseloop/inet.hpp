// SPDX-License-Identifier: MIT
#pragma once
/// Socket addresses from and to text: libuv's uv_ip4_addr, uv_ip6_addr,
/// uv_inet_pton, uv_inet_ntop and uv_ip_name. 0 or a negative code
/// (errors.h). Any thread.

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>

namespace phaseloop {

/// Text to binary address of family AF_INET or AF_INET6. An IPv6 zone
/// ("fe80::1%eth0") is accepted and ignored. PHASELOOP_EINVAL when `src` is
/// no address, PHASELOOP_EAFNOSUPPORT for another family.
int inet_pton(int af, const char* src, void* dst) noexcept;
/// Binary address to text; PHASELOOP_ENOSPC when it does not fit.
int inet_ntop(int af, const void* src, char* dst, std::size_t size) noexcept;

/// A socket address for `ip` and `port` (the rest zeroed). For IPv6 a zone
/// ("%eth0") sets the scope id from the interface's index.
int ip4_addr(const char* ip, int port, sockaddr_in* addr) noexcept;
int ip6_addr(const char* ip, int port, sockaddr_in6* addr) noexcept;
/// The address part of a socket address as text.
int ip_name(const sockaddr* src, char* dst, std::size_t size) noexcept;

}  // namespace phaseloop
