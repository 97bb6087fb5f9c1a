// SPDX-License-Identifier: MIT
/* A connected UDP socket: getpeername is the server, sends go without an
 * address (uv_udp_send and uv_udp_try_send), the server sees them coming
 * from the client's address; after disconnecting, getpeername fails and
 * sends need an address again. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_udp_send_t req1, req2;
static struct sockaddr_storage server_addr, client_addr;
static int datagrams;

static void on_send(uv_udp_send_t *r, int status) {
  say("send_cb %s status=%s", r == &req1 ? "connected" : "after disconnect", rc_name(status));
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h;
  if (nread == 0 && addr == NULL) return;
  CHECK(nread > 0);
  say("recv \"%.*s\" from client=%d flags=%u", (int) nread, buf->base, udp_same_addr(addr, &client_addr), flags);
  if (++datagrams == 3) {
    uv_close((uv_handle_t *) &server, NULL);
    uv_close((uv_handle_t *) &client, NULL);
  }
}

int main(void) {
  struct sockaddr_storage peer;
  uv_buf_t b;
  int len, r;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  CHECK(uv_udp_recv_start(&server, udp_alloc_static, on_recv) == 0);

  say("connect = %s", rc_name(uv_udp_connect(&client, (const struct sockaddr *) &server_addr)));
  len = sizeof client_addr;
  say("client getsockname = %s", rc_name(uv_udp_getsockname(&client, (struct sockaddr *) &client_addr, &len)));
  say("client family=%s loopback=%d", family_name(client_addr.ss_family),
      ((struct sockaddr_in *) &client_addr)->sin_addr.s_addr == htonl(INADDR_LOOPBACK));
  len = sizeof peer;
  r = uv_udp_getpeername(&client, (struct sockaddr *) &peer, &len);
  say("getpeername = %s same=%d len=%d", rc_name(r), udp_same_addr((struct sockaddr *) &peer, &server_addr), len);

  b = uv_buf_init("one", 3);
  say("send = %s", rc_name(uv_udp_send(&req1, &client, &b, 1, NULL, on_send)));
  b = uv_buf_init("two", 3);
  r = uv_udp_try_send(&client, &b, 1, NULL);
  say("try_send while a send is queued = %s", rc_name(r));
  run_say(&loop, UV_RUN_NOWAIT);
  r = uv_udp_try_send(&client, &b, 1, NULL);
  say("try_send = %d", r);

  say("disconnect = %s", rc_name(uv_udp_connect(&client, NULL)));
  len = sizeof peer;
  say("getpeername = %s", rc_name(uv_udp_getpeername(&client, (struct sockaddr *) &peer, &len)));
  b = uv_buf_init("three", 5);
  say("send NULL addr = %s", rc_name(uv_udp_send(&req2, &client, &b, 1, NULL, on_send)));
  say("send = %s", rc_name(uv_udp_send(&req2, &client, &b, 1, (const struct sockaddr *) &server_addr, on_send)));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
