// SPDX-License-Identifier: MIT
/* UDP argument and state errors, with libuv's codes. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;

static void on_send(uv_udp_send_t *r, int status) {
  (void) r;
  say("send_cb status=%s", rc_name(status));
}

static void on_recv(uv_udp_t *h, ssize_t n, const uv_buf_t *buf, const struct sockaddr *a, unsigned f) {
  (void) h; (void) n; (void) buf; (void) a; (void) f;
}

int main(void) {
  uv_udp_t a, b, c, d, e;
  uv_udp_send_t req;
  struct sockaddr_storage a_addr, got;
  struct sockaddr_in v4 = udp_v4(0);
  struct sockaddr_in6 v6 = udp_v6(0);
  struct sockaddr bad;
  uv_buf_t buf = uv_buf_init("zz", 2);
  int len;

  memset(&bad, 0, sizeof bad);
  bad.sa_family = AF_UNSPEC;
  CHECK(uv_loop_init(&loop) == 0);

  say("init_ex family 99 = %s", rc_name(uv_udp_init_ex(&loop, &d, 99)));
  say("init_ex flag 512 = %s", rc_name(uv_udp_init_ex(&loop, &d, AF_INET | 512)));
  /* The low byte is the family: AF_INET | UV_UDP_PARTIAL is AF_INET. */
  say("init_ex AF_INET|PARTIAL = %s", rc_name(uv_udp_init_ex(&loop, &d, AF_INET | UV_UDP_PARTIAL)));
  say("init_ex AF_INET|RECVMMSG = %s", rc_name(uv_udp_init_ex(&loop, &a, AF_INET | UV_UDP_RECVMMSG)));
  say("using_recvmmsg = %d", uv_udp_using_recvmmsg(&a));
  CHECK(uv_udp_init(&loop, &b) == 0);
  say("using_recvmmsg(plain) = %d", uv_udp_using_recvmmsg(&b));
  CHECK(uv_udp_init_ex(&loop, &c, AF_INET6) == 0);

  len = sizeof got;
  say("getsockname unbound = %s", rc_name(uv_udp_getsockname(&b, (struct sockaddr *) &got, &len)));
  len = sizeof got;
  say("getsockname init_ex(AF_INET) unbound = %s", rc_name(uv_udp_getsockname(&a, (struct sockaddr *) &got, &len)));
  len = sizeof got;
  say("getpeername unconnected = %s", rc_name(uv_udp_getpeername(&a, (struct sockaddr *) &got, &len)));
  say("connect NULL unconnected = %s", rc_name(uv_udp_connect(&b, NULL)));
  say("connect AF_UNSPEC = %s", rc_name(uv_udp_connect(&b, &bad)));
  say("bind AF_UNSPEC = %s", rc_name(uv_udp_bind(&b, &bad, 0)));
  say("bind flags 2 = %s", rc_name(uv_udp_bind(&b, (const struct sockaddr *) &v4, UV_UDP_PARTIAL)));
  say("bind IPV6ONLY on v4 = %s", rc_name(uv_udp_bind(&b, (const struct sockaddr *) &v4, UV_UDP_IPV6ONLY)));
  say("bind v6 on AF_INET socket = %s", rc_name(uv_udp_bind(&a, (const struct sockaddr *) &v6, 0)));
  udp_bind_loopback(&a, AF_INET, &a_addr);
  say("bound: family=%s", family_name(a_addr.ss_family));
  say("bind again = %s", rc_name(uv_udp_bind(&a, (const struct sockaddr *) &v4, 0)));
  say("bind in-use port = %s", rc_name(uv_udp_bind(&b, (const struct sockaddr *) &a_addr, 0)));
  say("bind v4 on AF_INET6 socket = %s", rc_name(uv_udp_bind(&c, (const struct sockaddr *) &v4, 0)));

  say("send unconnected NULL addr = %s", rc_name(uv_udp_send(&req, &b, &buf, 1, NULL, on_send)));
  say("send AF_UNSPEC addr = %s", rc_name(uv_udp_send(&req, &b, &buf, 1, &bad, on_send)));
  say("try_send unconnected NULL addr = %s", rc_name(uv_udp_try_send(&b, &buf, 1, NULL)));
  say("try_send AF_UNSPEC = %s", rc_name(uv_udp_try_send(&b, &buf, 1, &bad)));
  say("recv_start NULL alloc = %s", rc_name(uv_udp_recv_start(&a, NULL, on_recv)));
  say("recv_start NULL recv = %s", rc_name(uv_udp_recv_start(&a, udp_alloc_static, NULL)));
  say("recv_start = %s", rc_name(uv_udp_recv_start(&a, udp_alloc_static, on_recv)));
  say("recv_start again = %s", rc_name(uv_udp_recv_start(&a, udp_alloc_static, on_recv)));
  say("recv_stop = %s", rc_name(uv_udp_recv_stop(&a)));
  say("recv_stop again = %s", rc_name(uv_udp_recv_stop(&a)));
  CHECK(uv_udp_init(&loop, &e) == 0);
  say("recv_stop never started = %s", rc_name(uv_udp_recv_stop(&e)));

  say("connect = %s", rc_name(uv_udp_connect(&b, (const struct sockaddr *) &a_addr)));
  say("connect again = %s", rc_name(uv_udp_connect(&b, (const struct sockaddr *) &a_addr)));
  say("send with addr while connected = %s",
      rc_name(uv_udp_send(&req, &b, &buf, 1, (const struct sockaddr *) &a_addr, on_send)));
  say("try_send with addr while connected = %s", rc_name(uv_udp_try_send(&b, &buf, 1, (const struct sockaddr *) &a_addr)));
  say("try_send connected = %d", uv_udp_try_send(&b, &buf, 1, NULL));
  say("disconnect = %s", rc_name(uv_udp_connect(&b, NULL)));
  say("disconnect again = %s", rc_name(uv_udp_connect(&b, NULL)));

  say("set_ttl 0 = %s", rc_name(uv_udp_set_ttl(&a, 0)));
  say("set_ttl 256 = %s", rc_name(uv_udp_set_ttl(&a, 256)));
  say("set_ttl 64 = %s", rc_name(uv_udp_set_ttl(&a, 64)));
  say("set_multicast_ttl -1 = %s", rc_name(uv_udp_set_multicast_ttl(&a, -1)));
  say("set_multicast_ttl 256 = %s", rc_name(uv_udp_set_multicast_ttl(&a, 256)));
  say("set_multicast_loop 300 = %s", rc_name(uv_udp_set_multicast_loop(&a, 300)));
  say("set_multicast_interface junk = %s", rc_name(uv_udp_set_multicast_interface(&a, "junk")));
  say("set_membership junk = %s", rc_name(uv_udp_set_membership(&a, "junk", NULL, UV_JOIN_GROUP)));
  say("set_membership bad iface = %s", rc_name(uv_udp_set_membership(&a, "239.1.2.3", "junk", UV_JOIN_GROUP)));
  say("set_membership bad action = %s", rc_name(uv_udp_set_membership(&a, "239.1.2.3", NULL, (uv_membership) 7)));
  say("set_source_membership junk group = %s",
      rc_name(uv_udp_set_source_membership(&a, "junk", NULL, "127.0.0.1", UV_JOIN_GROUP)));
  say("set_source_membership junk source = %s",
      rc_name(uv_udp_set_source_membership(&a, "232.1.2.3", NULL, "junk", UV_JOIN_GROUP)));
  say("set_broadcast unbound handle = %s", rc_name(uv_udp_set_broadcast(&e, 1)));
  say("set_ttl unbound handle = %s", rc_name(uv_udp_set_ttl(&e, 5)));
  say("set_broadcast init_ex(AF_INET) = %s", rc_name(uv_udp_set_broadcast(&d, 1)));

  uv_close((uv_handle_t *) &a, NULL);
  len = sizeof got;
  say("getsockname closing = %s", rc_name(uv_udp_getsockname(&a, (struct sockaddr *) &got, &len)));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
