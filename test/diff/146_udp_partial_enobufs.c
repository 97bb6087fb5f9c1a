// SPDX-License-Identifier: MIT
/* Receive buffers: a datagram larger than the buffer is cut to it and
 * flagged UV_UDP_PARTIAL; an alloc callback that leaves the buffer empty
 * gets UV_ENOBUFS in the receive callback (once per readiness). */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_udp_send_t reqs[3];
static struct sockaddr_storage server_addr;
static char small[4];
static int allocs, round_no;

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void) h;
  allocs++;
  say("alloc #%d suggested=%zu round=%d", allocs, suggested, round_no);
  if (round_no == 0) {
    buf->base = NULL;
    buf->len = 0;
  } else {
    buf->base = small;
    buf->len = sizeof small;
  }
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h;
  if (nread < 0) {
    say("recv error %s base=%s len=%zu addr=%s", rc_name((int) nread), buf->base ? "set" : "NULL", buf->len,
        addr ? "set" : "NULL");
    round_no = 1;
    return;
  }
  if (nread == 0) {
    say("recv nread=0 addr=%s flags=%u", addr ? "set" : "NULL", flags);
    uv_close((uv_handle_t *) &server, NULL);
    uv_close((uv_handle_t *) &client, NULL);
    return;
  }
  say("recv nread=%zd data=\"%.*s\" partial=%d", nread, (int) nread, buf->base, (flags & UV_UDP_PARTIAL) != 0);
}

int main(void) {
  uv_buf_t b;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  b = uv_buf_init("0123456789", 10);
  CHECK(uv_udp_send(&reqs[0], &client, &b, 1, (const struct sockaddr *) &server_addr, NULL) == 0);
  b = uv_buf_init("abc", 3);
  CHECK(uv_udp_send(&reqs[1], &client, &b, 1, (const struct sockaddr *) &server_addr, NULL) == 0);
  b = uv_buf_init("wxyz", 4);
  CHECK(uv_udp_send(&reqs[2], &client, &b, 1, (const struct sockaddr *) &server_addr, NULL) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_udp_recv_start(&server, on_alloc, on_recv) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("allocs=%d", allocs);
  finish(&loop);
  return 0;
}
