// SPDX-License-Identifier: MIT
/*
 * diff_udp.h -- helpers for the UDP scenarios (include after diff.h).
 *
 * Addresses are loopback only, ports are chosen by the kernel (bind to port
 * 0) and never printed: a scenario prints whether an address is the one it
 * expects (udp_same_addr) instead.
 */
#ifndef PHASELOOP_TEST_DIFF_UDP_H
#define PHASELOOP_TEST_DIFF_UDP_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* 127.0.0.1:port (port in host order). */
static struct sockaddr_in udp_v4(unsigned short port) DIFF_UNUSED;
static struct sockaddr_in udp_v4(unsigned short port) {
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

/* [::1]:port (port in host order). */
static struct sockaddr_in6 udp_v6(unsigned short port) DIFF_UNUSED;
static struct sockaddr_in6 udp_v6(unsigned short port) {
  struct sockaddr_in6 a;
  memset(&a, 0, sizeof a);
  a.sin6_family = AF_INET6;
  a.sin6_port = htons(port);
  a.sin6_addr = in6addr_loopback;
  return a;
}

/* Binds `h` to the loopback address of `family` on a kernel-chosen port and
 * stores the address it got in `out`. */
static void udp_bind_loopback(uv_udp_t *h, int family, struct sockaddr_storage *out) DIFF_UNUSED;
static void udp_bind_loopback(uv_udp_t *h, int family, struct sockaddr_storage *out) {
  int len = sizeof *out;
  if (family == AF_INET6) {
    struct sockaddr_in6 a = udp_v6(0);
    CHECK(uv_udp_bind(h, (const struct sockaddr *) &a, 0) == 0);
  } else {
    struct sockaddr_in a = udp_v4(0);
    CHECK(uv_udp_bind(h, (const struct sockaddr *) &a, 0) == 0);
  }
  CHECK(uv_udp_getsockname(h, (struct sockaddr *) out, &len) == 0);
}

/* True when `a` is `b`: same family and port, and same address unless `b`
 * is the wildcard address (a socket bound implicitly). */
static int udp_same_addr(const struct sockaddr *a, const struct sockaddr_storage *b) DIFF_UNUSED;
static int udp_same_addr(const struct sockaddr *a, const struct sockaddr_storage *b) {
  if (a == NULL || a->sa_family != b->ss_family) return 0;
  if (a->sa_family == AF_INET) {
    const struct sockaddr_in *x = (const struct sockaddr_in *) a, *y = (const struct sockaddr_in *) b;
    return x->sin_port == y->sin_port &&
           (y->sin_addr.s_addr == htonl(INADDR_ANY) || x->sin_addr.s_addr == y->sin_addr.s_addr);
  }
  if (a->sa_family == AF_INET6) {
    const struct sockaddr_in6 *x = (const struct sockaddr_in6 *) a, *y = (const struct sockaddr_in6 *) b;
    return x->sin6_port == y->sin6_port &&
           (memcmp(&y->sin6_addr, &in6addr_any, sizeof y->sin6_addr) == 0 ||
            memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) == 0);
  }
  return 0;
}

static const char *family_name(int family) DIFF_UNUSED;
static const char *family_name(int family) {
  switch (family) {
    case AF_INET: return "inet";
    case AF_INET6: return "inet6";
    case AF_UNSPEC: return "unspec";
  }
  return "other";
}

/* An alloc callback handing out one static 64 KiB buffer. */
static char udp_buffer[65536];
static void udp_alloc_static(uv_handle_t *h, size_t suggested, uv_buf_t *buf) DIFF_UNUSED;
static void udp_alloc_static(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void) h;
  CHECK(suggested == 65536);
  buf->base = udp_buffer;
  buf->len = sizeof udp_buffer;
}

/* Prints one line per phase marker; scenarios start these to show in which
 * phase callbacks ran. */
static void udp_phase_prepare(uv_prepare_t *h) DIFF_UNUSED;
static void udp_phase_prepare(uv_prepare_t *h) { (void) h; say("  [prepare]"); }
static void udp_phase_check(uv_check_t *h) DIFF_UNUSED;
static void udp_phase_check(uv_check_t *h) { (void) h; say("  [check]"); }

#endif /* PHASELOOP_TEST_DIFF_UDP_H */
