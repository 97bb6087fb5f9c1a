// SPDX-License-Identifier: MIT
/* UDP over ::1: bind with UV_UDP_IPV6ONLY, send and receive, addresses
 * reported as AF_INET6; an IPv6-only socket cannot reach 127.0.0.1. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client, v4;
static uv_udp_send_t req, req4;
static struct sockaddr_storage server_addr, client_addr, v4_addr;

static void on_send(uv_udp_send_t *r, int status) {
  say("send_cb %s status=%s", r == &req ? "v6" : "v6->v4", rc_name(status));
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h;
  if (nread == 0 && addr == NULL) {
    say("recv nothing more");
    uv_close((uv_handle_t *) &server, NULL);
    uv_close((uv_handle_t *) &client, NULL);
    uv_close((uv_handle_t *) &v4, NULL);
    return;
  }
  say("recv \"%.*s\" family=%s from client=%d flags=%u", (int) nread, buf->base, family_name(addr->sa_family),
      udp_same_addr(addr, &client_addr), flags);
}

int main(void) {
  struct sockaddr_in6 any6 = udp_v6(0);
  uv_buf_t b = uv_buf_init("six", 3);
  int len;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init_ex(&loop, &server, AF_INET6) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  CHECK(uv_udp_init(&loop, &v4) == 0);
  udp_bind_loopback(&v4, AF_INET, &v4_addr);
  any6.sin6_addr = in6addr_loopback;
  say("bind ::1 IPV6ONLY = %s", rc_name(uv_udp_bind(&server, (const struct sockaddr *) &any6, UV_UDP_IPV6ONLY)));
  len = sizeof server_addr;
  CHECK(uv_udp_getsockname(&server, (struct sockaddr *) &server_addr, &len) == 0);
  say("server family=%s len=%d", family_name(server_addr.ss_family), len);
  CHECK(uv_udp_recv_start(&server, udp_alloc_static, on_recv) == 0);
  any6 = udp_v6(0);
  say("client bind ::1 = %s", rc_name(uv_udp_bind(&client, (const struct sockaddr *) &any6, UV_UDP_IPV6ONLY)));
  len = sizeof client_addr;
  CHECK(uv_udp_getsockname(&client, (struct sockaddr *) &client_addr, &len) == 0);
  say("set_ttl = %s, multicast_ttl = %s, multicast_loop = %s", rc_name(uv_udp_set_ttl(&client, 9)),
      rc_name(uv_udp_set_multicast_ttl(&client, 3)), rc_name(uv_udp_set_multicast_loop(&client, 0)));
  say("send = %s", rc_name(uv_udp_send(&req, &client, &b, 1, (const struct sockaddr *) &server_addr, on_send)));
  say("send to 127.0.0.1 = %s",
      rc_name(uv_udp_send(&req4, &client, &b, 1, (const struct sockaddr *) &v4_addr, on_send)));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
