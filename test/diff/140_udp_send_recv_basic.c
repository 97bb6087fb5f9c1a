// SPDX-License-Identifier: MIT
/* UDP basics: a send made before uv_run is written at once and completes
 * in the pending phase of the first iteration; the datagram (two buffers)
 * arrives in the poll phase, followed by a read that finds nothing
 * (nread 0, addr NULL). The send queue counts the send until its callback. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_prepare_t prep;
static uv_check_t chk;
static uv_udp_send_t req;
static struct sockaddr_storage server_addr, client_addr;
static int reads;

static void on_close(uv_handle_t *h) {
  say("close %s", h == (uv_handle_t *) &server ? "server" : h == (uv_handle_t *) &client ? "client" : "marker");
}

static void on_send(uv_udp_send_t *r, int status) {
  say("send_cb status=%s handle=%s queue size=%zu count=%zu active=%d", rc_name(status),
      r->handle == &client ? "client" : "?", uv_udp_get_send_queue_size(&client),
      uv_udp_get_send_queue_count(&client), uv_is_active((uv_handle_t *) &client));
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h;
  reads++;
  if (nread > 0) {
    int len = sizeof client_addr;
    CHECK(uv_udp_getsockname(&client, (struct sockaddr *) &client_addr, &len) == 0);
    say("recv nread=%zd data=\"%.*s\" flags=%u from client=%d family=%s", nread, (int) nread, buf->base, flags,
        udp_same_addr(addr, &client_addr), family_name(addr->sa_family));
  } else {
    say("recv nread=%s addr=%s flags=%u", rc_name((int) nread), addr ? "set" : "NULL", flags);
    uv_close((uv_handle_t *) &server, on_close);
    uv_close((uv_handle_t *) &client, on_close);
    uv_close((uv_handle_t *) &prep, on_close);
    uv_close((uv_handle_t *) &chk, on_close);
  }
}

int main(void) {
  uv_buf_t bufs[2];
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  say("client active=%d size=%zu count=%zu", uv_is_active((uv_handle_t *) &client),
      uv_udp_get_send_queue_size(&client), uv_udp_get_send_queue_count(&client));
  udp_bind_loopback(&server, AF_INET, &server_addr);
  say("recv_start = %s", rc_name(uv_udp_recv_start(&server, udp_alloc_static, on_recv)));
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_prepare_start(&prep, udp_phase_prepare) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_check_start(&chk, udp_phase_check) == 0);

  bufs[0] = uv_buf_init("hello", 5);
  bufs[1] = uv_buf_init(" world", 6);
  say("send = %s", rc_name(uv_udp_send(&req, &client, bufs, 2, (const struct sockaddr *) &server_addr, on_send)));
  say("after send: type=%s size=%zu count=%zu active=%d", uv_req_type_name(req.type),
      uv_udp_get_send_queue_size(&client), uv_udp_get_send_queue_count(&client),
      uv_is_active((uv_handle_t *) &client));
  run_say(&loop, UV_RUN_DEFAULT);
  say("reads=%d", reads);
  finish(&loop);
  return 0;
}
