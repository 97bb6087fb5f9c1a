// SPDX-License-Identifier: MIT
/* uv_getaddrinfo with a NULL node: the loopback addresses, or with
 * AI_PASSIVE the wildcard ones to bind to, per family and socket type, in
 * glibc's order (which differs between the two). */
#include "diff.h"
#include "diff_dns.h"

static const struct dns_case cases[] = {
  {"null node, stream", NULL, "80", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"null node, passive stream", NULL, "80", 1, AF_UNSPEC, SOCK_STREAM, 0, AI_PASSIVE},
  {"null node, passive v4", NULL, "8080", 1, AF_INET, 0, 0, AI_PASSIVE},
  {"null node, passive v6 dgram", NULL, "53", 1, AF_INET6, SOCK_DGRAM, 0, AI_PASSIVE},
  {"null node, v6", NULL, "443", 1, AF_INET6, SOCK_STREAM, 0, 0},
  {"null node, passive, service name", NULL, "domain", 1, AF_UNSPEC, 0, 0, AI_PASSIVE},
  {"null node, passive, numericserv", NULL, "7", 1, AF_INET, SOCK_DGRAM, 0, AI_PASSIVE | AI_NUMERICSERV},
  {"null node, null hints", NULL, "9", 0, 0, 0, 0, 0},
  {"null node, canonname", NULL, "80", 1, AF_UNSPEC, SOCK_STREAM, 0, AI_CANONNAME},
};

int main(void) {
  uv_loop_t loop;
  CHECK(uv_loop_init(&loop) == 0);
  say("-- NULL node");
  dns_run_cases(&loop, cases, (int) (sizeof cases / sizeof cases[0]));
  finish(&loop);
  return 0;
}
