// SPDX-License-Identifier: MIT
/* What uv_getaddrinfo and uv_getnameinfo refuse.  Refused at once with
 * EINVAL (nothing queued, the loop stays dead): no node and no service, an
 * empty node or one that is not UTF-8 (libuv converts names to punycode
 * first; Debian's 1.44.2 carries libuv 1.48's IDNA fixes), a NULL or
 * non-IP address for getnameinfo.  Reported through the callback, as
 * glibc's codes: unknown flags, an unsupported family or socket type, a
 * socket type that does not fit the protocol, a service with raw sockets,
 * AI_CANONNAME without a node, unknown NI_* flags. */
#include "diff.h"
#include "diff_dns.h"

static const struct dns_case cases[] = {
  {"bad ai_flags", "127.0.0.1", "80", 1, AF_UNSPEC, 0, 0, 0x10000},
  {"bad ai_family", "127.0.0.1", "80", 1, 99, 0, 0, 0},
  {"AF_UNIX", "127.0.0.1", "80", 1, AF_UNIX, 0, 0, 0},
  {"bad ai_socktype", "127.0.0.1", "80", 1, AF_UNSPEC, 99, 0, 0},
  {"stream with udp", "127.0.0.1", "80", 1, AF_UNSPEC, SOCK_STREAM, IPPROTO_UDP, 0},
  {"unknown protocol", "127.0.0.1", "80", 1, AF_UNSPEC, 0, 99, 0},
  {"raw with a port", "127.0.0.1", "80", 1, AF_UNSPEC, SOCK_RAW, 0, 0},
  {"raw without a port", "127.0.0.1", NULL, 1, AF_UNSPEC, SOCK_RAW, 0, 0},
  {"canonname without node", NULL, "80", 1, AF_UNSPEC, 0, 0, AI_CANONNAME},
  {"empty node", "", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"bad flags and a name", "localhost", "80", 1, AF_UNSPEC, 0, 0, 0x10000},
  {"no node, no service", NULL, NULL, 0, 0, 0, 0, 0},
  {"not utf-8", "bad\xff.invalid", "80", 0, 0, 0, 0, 0},
  {"trailing space", "127.0.0.1 ", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, AI_NUMERICHOST},
};

static void on_name(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  say("  getnameinfo cb: %s host=%s service=%s", rc_name(status), host ? host : "(null)",
      service ? service : "(null)");
}

int main(void) {
  uv_loop_t loop;
  uv_getnameinfo_t nreq;
  struct sockaddr_in v4;
  struct sockaddr_storage other;

  CHECK(uv_loop_init(&loop) == 0);
  say("-- getaddrinfo");
  dns_run_cases(&loop, cases, (int) (sizeof cases / sizeof cases[0]));
  say("uv_getaddrinfo(NULL req) = %s", rc_name(uv_getaddrinfo(&loop, NULL, NULL, "127.0.0.1", NULL, NULL)));
  say("alive=%d", uv_loop_alive(&loop));

  say("-- getnameinfo");
  CHECK(uv_ip4_addr("127.0.0.1", 80, &v4) == 0);
  memset(&other, 0, sizeof other);
  other.ss_family = AF_UNIX;
  say("NULL addr = %s", rc_name(uv_getnameinfo(&loop, &nreq, on_name, NULL, 0)));
  say("AF_UNIX addr = %s", rc_name(uv_getnameinfo(&loop, &nreq, on_name, (struct sockaddr *) &other, 0)));
  say("NULL req = %s", rc_name(uv_getnameinfo(&loop, NULL, on_name, (struct sockaddr *) &v4, 0)));
  say("alive=%d", uv_loop_alive(&loop));
  say("bad NI flags = %s", rc_name(uv_getnameinfo(&loop, &nreq, on_name, (struct sockaddr *) &v4, 0x1000)));
  run_say(&loop, UV_RUN_DEFAULT);
  say("numerichost + namereqd = %s",
      rc_name(uv_getnameinfo(&loop, &nreq, on_name, (struct sockaddr *) &v4, NI_NUMERICHOST | NI_NAMEREQD)));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
