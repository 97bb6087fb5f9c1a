// SPDX-License-Identifier: MIT
/* uv_getaddrinfo of numeric addresses: the whole list, as glibc builds it.
 * With hints that leave the socket type open, each address comes as
 * stream/TCP, dgram/UDP and raw entries; a port number applies to all of
 * them.  IPv4 shorthand ("127.1") is accepted, an address of the other
 * family is EAI_ADDRFAMILY unless AI_V4MAPPED maps it, AI_NUMERICHOST
 * refuses names, and ai_flags echoes the hints (glibc's defaults,
 * AI_V4MAPPED|AI_ADDRCONFIG, for NULL hints).  Each lookup starts from the
 * previous one's callback. */
#include "diff.h"
#include "diff_dns.h"

static const struct dns_case cases[] = {
  {"v4, null hints", "127.0.0.1", NULL, 0, 0, 0, 0, 0},
  {"v4, port", "127.0.0.1", "8080", 1, AF_UNSPEC, 0, 0, 0},
  {"v4, stream", "127.0.0.1", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"v4, dgram", "10.1.2.3", "53", 1, AF_INET, SOCK_DGRAM, 0, 0},
  {"v4, udp protocol", "127.0.0.1", "53", 1, AF_UNSPEC, 0, IPPROTO_UDP, 0},
  {"v4 shorthand", "127.1", NULL, 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"v4 as one number", "2130706433", "1", 1, AF_INET, SOCK_STREAM, 0, 0},
  {"v6 loopback", "::1", "443", 0, 0, 0, 0, 0},
  {"v6 documentation", "2001:db8::1", "80", 1, AF_INET6, SOCK_STREAM, 0, 0},
  {"v6 mapped v4", "::ffff:192.0.2.1", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"v6 asked as v4", "::1", "80", 1, AF_INET, SOCK_STREAM, 0, 0},
  {"v4 asked as v6", "127.0.0.1", "80", 1, AF_INET6, SOCK_STREAM, 0, 0},
  {"v4 asked as v6, mapped", "127.0.0.1", "80", 1, AF_INET6, SOCK_STREAM, 0, AI_V4MAPPED},
  {"v4 with canonname", "127.0.0.1", NULL, 1, AF_INET, SOCK_STREAM, 0, AI_CANONNAME},
  {"numerichost, v4", "127.0.0.1", "80", 1, AF_UNSPEC, SOCK_DGRAM, 0, AI_NUMERICHOST},
  {"numerichost, a name", "localhost", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, AI_NUMERICHOST},
  {"numerichost, garbage", "1.2.3.4.5", NULL, 1, AF_UNSPEC, 0, 0, AI_NUMERICHOST},
  {"v4, passive ignored", "127.0.0.1", "80", 1, AF_INET, SOCK_STREAM, 0, AI_PASSIVE},
  {"v4, addrconfig", "127.0.0.1", "80", 1, AF_INET, SOCK_STREAM, 0, AI_ADDRCONFIG},
};

int main(void) {
  uv_loop_t loop;
  CHECK(uv_loop_init(&loop) == 0);
  say("-- numeric lookups");
  dns_run_cases(&loop, cases, (int) (sizeof cases / sizeof cases[0]));
  finish(&loop);
  return 0;
}
