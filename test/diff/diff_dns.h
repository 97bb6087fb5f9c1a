// SPDX-License-Identifier: MIT
/*
 * diff_dns.h -- helpers for the DNS scenarios (160-169): canonical printing
 * of addrinfo lists and a runner for a table of getaddrinfo cases, each
 * started from the previous one's callback, so that the trace never
 * depends on which pool thread finished first.  Include after diff.h.
 *
 * Scenarios only use what the C library answers without a name server
 * (numeric addresses, a NULL node, /etc/hosts entries for localhost and
 * 127.0.0.1): with real libuv every lookup goes through glibc, which would
 * ask the name servers of /etc/resolv.conf for anything else.
 */
#ifndef PHASELOOP_TEST_DIFF_DNS_H
#define PHASELOOP_TEST_DIFF_DNS_H

static const char *dns_family(int family) DIFF_UNUSED;
static const char *dns_family(int family) {
  switch (family) {
    case AF_INET: return "inet";
    case AF_INET6: return "inet6";
    case AF_UNSPEC: return "unspec";
  }
  return "other";
}

static const char *dns_socktype(int socktype) DIFF_UNUSED;
static const char *dns_socktype(int socktype) {
  switch (socktype) {
    case SOCK_STREAM: return "stream";
    case SOCK_DGRAM: return "dgram";
    case SOCK_RAW: return "raw";
    case SOCK_SEQPACKET: return "seqpacket";
    case 0: return "any";
  }
  return "other";
}

/* One line per entry: family, socket type, protocol, flags, address, port
 * and the canonical name where there is one. */
static void dns_print(const struct addrinfo *ai) DIFF_UNUSED;
static void dns_print(const struct addrinfo *ai) {
  for (; ai != NULL; ai = ai->ai_next) {
    char text[64] = "?";
    int port = -1;
    if (ai->ai_family == AF_INET) {
      const struct sockaddr_in *a = (const struct sockaddr_in *) ai->ai_addr;
      uv_ip4_name(a, text, sizeof text);
      port = ntohs(a->sin_port);
    } else if (ai->ai_family == AF_INET6) {
      const struct sockaddr_in6 *a = (const struct sockaddr_in6 *) ai->ai_addr;
      uv_ip6_name(a, text, sizeof text);
      port = ntohs(a->sin6_port);
    }
    say("    %s %s proto=%d flags=%#x addrlen=%d %s port=%d%s%s", dns_family(ai->ai_family),
        dns_socktype(ai->ai_socktype), ai->ai_protocol, (unsigned) ai->ai_flags, (int) ai->ai_addrlen, text,
        port, ai->ai_canonname ? " canon=" : "", ai->ai_canonname ? ai->ai_canonname : "");
  }
}

/* A getaddrinfo case: hints are used when use_hints is set. */
struct dns_case {
  const char *label;
  const char *node;
  const char *service;
  int use_hints;
  int family;
  int socktype;
  int protocol;
  int flags;
};

static uv_getaddrinfo_t dns_req;
static const struct dns_case *dns_cases;
static int dns_ncases, dns_next;
static uv_loop_t *dns_loop;

static void dns_start_next(void);

static void dns_on_case(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
  CHECK(req == &dns_req);
  say("  %s: status %s", dns_cases[dns_next - 1].label, rc_name(status));
  CHECK((status == 0) == (res != NULL));
  dns_print(res);
  uv_freeaddrinfo(res);
  dns_start_next();
}

static void dns_start_next(void) {
  while (dns_next < dns_ncases) {
    const struct dns_case *c = &dns_cases[dns_next++];
    struct addrinfo hints;
    int rc;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = c->family;
    hints.ai_socktype = c->socktype;
    hints.ai_protocol = c->protocol;
    hints.ai_flags = c->flags;
    rc = uv_getaddrinfo(dns_loop, &dns_req, dns_on_case, c->node, c->service, c->use_hints ? &hints : NULL);
    if (rc == 0) return;
    say("  %s: uv_getaddrinfo = %s", c->label, rc_name(rc));
  }
}

/* Runs every case in order, one lookup in flight at a time. */
static void dns_run_cases(uv_loop_t *loop, const struct dns_case *cases, int n) DIFF_UNUSED;
static void dns_run_cases(uv_loop_t *loop, const struct dns_case *cases, int n) {
  dns_loop = loop;
  dns_cases = cases;
  dns_ncases = n;
  dns_next = 0;
  dns_start_next();
  CHECK(uv_run(loop, UV_RUN_DEFAULT) == 0);
  CHECK(dns_next == n);
}

#endif /* PHASELOOP_TEST_DIFF_DNS_H */
