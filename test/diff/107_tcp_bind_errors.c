// SPDX-License-Identifier: MIT
/* Bind rules: EADDRINUSE is reported by listen, not bind; IPV6ONLY with an
 * IPv4 address is EINVAL; an unknown family is EINVAL; names of an unbound
 * and an unconnected handle; IPv6 loopback listen/connect with names. */
#include "diff.h"
#include "diff_net.h"

static uv_loop_t loop;
static uv_tcp_t a, b, c6, s6, x;
static uv_connect_t creq;

static void on_conn6(uv_stream_t *s, int status) {
  uv_tcp_t *peer = malloc(sizeof *peer);
  struct sockaddr_storage ss;
  int len = sizeof ss;
  char name[64];
  say("  v6 connection: %s", rc_name(status));
  CHECK(uv_tcp_init(&loop, peer) == 0);
  CHECK(uv_accept(s, (uv_stream_t *) peer) == 0);
  CHECK(uv_tcp_getpeername(peer, (struct sockaddr *) &ss, &len) == 0);
  CHECK(uv_ip_name((struct sockaddr *) &ss, name, sizeof name) == 0);
  say("  peer family v6=%d name=%s len ok=%d", ss.ss_family == AF_INET6, name, len == sizeof(struct sockaddr_in6));
  uv_close((uv_handle_t *) peer, (uv_close_cb) free);
  uv_close((uv_handle_t *) s, NULL);
}

static void on_connect6(uv_connect_t *req, int status) {
  struct sockaddr_storage ss;
  int len = sizeof ss;
  char name[64];
  say("  v6 connect: %s", rc_name(status));
  CHECK(uv_tcp_getpeername((uv_tcp_t *) req->handle, (struct sockaddr *) &ss, &len) == 0);
  CHECK(uv_ip_name((struct sockaddr *) &ss, name, sizeof name) == 0);
  say("  connected to %s", name);
  uv_close((uv_handle_t *) req->handle, NULL);
}

int main(void) {
  struct sockaddr_in addr = net_v4(0);
  struct sockaddr_in6 addr6;
  struct sockaddr_storage ss;
  struct sockaddr bogus;
  int rc, len;

  CHECK(uv_loop_init(&loop) == 0);
  signal(SIGPIPE, SIG_IGN);
  CHECK(uv_tcp_init(&loop, &a) == 0);
  CHECK(uv_tcp_init(&loop, &b) == 0);
  len = sizeof ss;
  rc = uv_tcp_getsockname(&a, (struct sockaddr *) &ss, &len);
  say("getsockname before bind = %s", rc_name(rc));
  rc = uv_tcp_bind(&a, (const struct sockaddr *) &addr, UV_TCP_IPV6ONLY);
  say("bind v4 with IPV6ONLY = %s", rc_name(rc));
  memset(&bogus, 0, sizeof bogus);
  bogus.sa_family = AF_UNIX;
  rc = uv_tcp_bind(&a, &bogus, 0);
  say("bind AF_UNIX = %s", rc_name(rc));
  CHECK(uv_tcp_bind(&a, (const struct sockaddr *) &addr, 0) == 0);
  len = sizeof ss;
  rc = uv_tcp_getsockname(&a, (struct sockaddr *) &ss, &len);
  say("getsockname = %s family v4=%d len ok=%d", rc_name(rc), ss.ss_family == AF_INET,
      len == sizeof(struct sockaddr_in));
  len = sizeof ss;
  rc = uv_tcp_getpeername(&a, (struct sockaddr *) &ss, &len);
  say("getpeername unconnected = %s", rc_name(rc));
  CHECK(uv_listen((uv_stream_t *) &a, 1, NULL) == 0);

  addr = net_v4(net_port(&a));
  rc = uv_tcp_bind(&b, (const struct sockaddr *) &addr, 0);
  say("bind to a port in use = %s", rc_name(rc));
  len = sizeof ss;
  rc = uv_tcp_getsockname(&b, (struct sockaddr *) &ss, &len);
  say("getsockname after that = %s", rc_name(rc));
  rc = uv_listen((uv_stream_t *) &b, 1, NULL);
  say("listen = %s active=%d", rc_name(rc), uv_is_active((uv_handle_t *) &b));
  rc = uv_tcp_connect(&creq, &b, (const struct sockaddr *) &addr, NULL);
  say("connect = %s", rc_name(rc));
  run_say(&loop, UV_RUN_NOWAIT);
  uv_close((uv_handle_t *) &a, NULL);
  uv_close((uv_handle_t *) &b, NULL);
  rc = uv_tcp_bind(&a, (const struct sockaddr *) &addr, 0);
  say("bind on a closing handle = %s", rc_name(rc));
  rc = uv_listen((uv_stream_t *) &a, 1, NULL);
  say("listen on a closing handle = %s", rc_name(rc));
  run_say(&loop, UV_RUN_DEFAULT);

  /* Listen without bind: an ephemeral IPv4 port. */
  CHECK(uv_tcp_init(&loop, &x) == 0);
  rc = uv_listen((uv_stream_t *) &x, 1, NULL);
  len = sizeof ss;
  CHECK(uv_tcp_getsockname(&x, (struct sockaddr *) &ss, &len) == 0);
  say("listen unbound = %s family v4=%d", rc_name(rc), ss.ss_family == AF_INET);
  uv_close((uv_handle_t *) &x, NULL);

  /* IPv6 loopback. */
  CHECK(uv_ip6_addr("::1", 0, &addr6) == 0);
  CHECK(uv_tcp_init(&loop, &s6) == 0);
  rc = uv_tcp_bind(&s6, (const struct sockaddr *) &addr6, UV_TCP_IPV6ONLY);
  say("bind ::1 IPV6ONLY = %s", rc_name(rc));
  CHECK(uv_listen((uv_stream_t *) &s6, 4, on_conn6) == 0);
  CHECK(uv_ip6_addr("::1", net_port(&s6), &addr6) == 0);
  CHECK(uv_tcp_init(&loop, &c6) == 0);
  rc = uv_tcp_connect(&creq, &c6, (const struct sockaddr *) &addr6, on_connect6);
  say("connect ::1 = %s", rc_name(rc));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
