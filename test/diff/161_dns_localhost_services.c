// SPDX-License-Identifier: MIT
/* uv_getaddrinfo of /etc/hosts names and of services.  "localhost" comes
 * from /etc/hosts (which every system has for 127.0.0.1), so no name
 * server is asked; the canonical name is the hosts file's spelling of it.
 * A service name is looked up per socket type: "http" is TCP only, "tftp"
 * UDP only, "domain" both; an unknown service is EAI_SERVICE and a name
 * with AI_NUMERICSERV EAI_NONAME, both before any host lookup.  A port
 * number too large for 16 bits wraps, as in glibc. */
#include "diff.h"
#include "diff_dns.h"

static const struct dns_case cases[] = {
  {"localhost v4", "localhost", NULL, 1, AF_INET, 0, 0, 0},
  {"localhost v4 stream, canonname", "localhost", "80", 1, AF_INET, SOCK_STREAM, 0, AI_CANONNAME},
  {"LOCALHOST v4, canonname", "LOCALHOST", NULL, 1, AF_INET, SOCK_DGRAM, 0, AI_CANONNAME},
  {"localhost, any family", "localhost", "http", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"http", "127.0.0.1", "http", 1, AF_INET, 0, 0, 0},
  {"tftp", "127.0.0.1", "tftp", 1, AF_INET, 0, 0, 0},
  {"domain", "localhost", "domain", 1, AF_INET, 0, 0, 0},
  {"domain, stream only", "localhost", "domain", 1, AF_INET, SOCK_STREAM, 0, 0},
  {"tftp as stream", "127.0.0.1", "tftp", 1, AF_INET, SOCK_STREAM, 0, 0},
  {"unknown service", "localhost", "no-such-service", 1, AF_INET, 0, 0, 0},
  {"unknown service, numeric host", "127.0.0.1", "no-such-service", 1, AF_INET, 0, 0, 0},
  {"numericserv with a name", "localhost", "http", 1, AF_INET, 0, 0, AI_NUMERICSERV},
  {"numericserv with a port", "localhost", "8080", 1, AF_INET, SOCK_STREAM, 0, AI_NUMERICSERV},
  {"port 65536", "127.0.0.1", "65536", 1, AF_INET, SOCK_STREAM, 0, 0},
  {"empty service", "127.0.0.1", "", 1, AF_INET, SOCK_STREAM, 0, 0},
  {"service only, null hints", NULL, "http", 0, 0, 0, 0, 0},
};

int main(void) {
  uv_loop_t loop;
  CHECK(uv_loop_init(&loop) == 0);
  say("-- hosts-file names and services");
  dns_run_cases(&loop, cases, (int) (sizeof cases / sizeof cases[0]));
  finish(&loop);
  return 0;
}
