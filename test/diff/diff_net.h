// SPDX-License-Identifier: MIT
/*
 * diff_net.h -- helpers for the stream scenarios (TCP, pipes): loopback
 * addresses, phase markers, and a printing allocator.  Include after diff.h.
 * Nothing printed may depend on ports or timing.
 */
#ifndef PHASELOOP_TEST_DIFF_NET_H
#define PHASELOOP_TEST_DIFF_NET_H

#include <signal.h>

/* Port of a bound TCP handle (never printed). */
static int net_port(uv_tcp_t *h) DIFF_UNUSED;
static int net_port(uv_tcp_t *h) {
  struct sockaddr_storage ss;
  int len = sizeof ss;
  CHECK(uv_tcp_getsockname(h, (struct sockaddr *) &ss, &len) == 0);
  if (ss.ss_family == AF_INET6)
    return ntohs(((struct sockaddr_in6 *) &ss)->sin6_port);
  return ntohs(((struct sockaddr_in *) &ss)->sin_port);
}

/* 127.0.0.1:port */
static struct sockaddr_in net_v4(int port) DIFF_UNUSED;
static struct sockaddr_in net_v4(int port) {
  struct sockaddr_in a;
  CHECK(uv_ip4_addr("127.0.0.1", port, &a) == 0);
  return a;
}

/* Phase markers: an unreferenced prepare and check that print their name,
 * so a trace shows which callbacks ran in the pending phase (before
 * "prepare") and which in the poll phase (between "prepare" and "check"). */
static uv_prepare_t net_prep;
static uv_check_t net_chk;
static int net_markers_on;
static void net_on_prepare(uv_prepare_t *h) { (void) h; if (net_markers_on) say("  [prepare]"); }
static void net_on_check(uv_check_t *h) { (void) h; if (net_markers_on) say("  [check]"); }
static void net_markers(uv_loop_t *loop) DIFF_UNUSED;
static void net_markers(uv_loop_t *loop) {
  CHECK(uv_prepare_init(loop, &net_prep) == 0);
  CHECK(uv_check_init(loop, &net_chk) == 0);
  CHECK(uv_prepare_start(&net_prep, net_on_prepare) == 0);
  CHECK(uv_check_start(&net_chk, net_on_check) == 0);
  uv_unref((uv_handle_t *) &net_prep);
  uv_unref((uv_handle_t *) &net_chk);
  net_markers_on = 1;
  signal(SIGPIPE, SIG_IGN);
}

/* An allocator handing out one static 64 KiB buffer. */
static char net_buf[65536];
static void net_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) DIFF_UNUSED;
static void net_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void) h;
  (void) suggested;
  buf->base = net_buf;
  buf->len = sizeof net_buf;
}

#endif /* PHASELOOP_TEST_DIFF_NET_H */
