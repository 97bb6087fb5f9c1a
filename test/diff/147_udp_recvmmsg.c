// SPDX-License-Identifier: MIT
/* UV_UDP_RECVMMSG: a buffer of several 64 KiB slices receives several
 * datagrams per call; each comes with UV_UDP_MMSG_CHUNK and its own
 * slice, then the whole buffer with UV_UDP_MMSG_FREE; an empty socket gives
 * nread 0 with a NULL address. (A buffer smaller than one slice is not
 * tried: libuv 1.44 spins on it.) */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_udp_send_t reqs[5];
static struct sockaddr_storage server_addr, client_addr;
static char *big;
static size_t big_len = 3 * 65536;
static int datagrams;

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void) h;
  say("alloc suggested=%zu", suggested);
  buf->base = big;
  buf->len = big_len;
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h;
  say("recv nread=%zd slice=%ld len=%zu addr=%s flags=%s%s%s", nread, (long) ((buf->base - big) / 65536), buf->len,
      addr ? (udp_same_addr(addr, &client_addr) ? "client" : "other") : "NULL",
      flags & UV_UDP_MMSG_CHUNK ? "CHUNK " : "", flags & UV_UDP_MMSG_FREE ? "FREE " : "",
      flags & UV_UDP_PARTIAL ? "PARTIAL" : "");
  if (nread > 0) datagrams++;
  if (nread == 0 && addr == NULL && !(flags & UV_UDP_MMSG_FREE) && datagrams == 5) {
    uv_close((uv_handle_t *) &server, NULL);
    uv_close((uv_handle_t *) &client, NULL);
  }
}

int main(void) {
  uv_buf_t b;
  int i, len;
  char text[5][8];
  big = malloc(big_len);
  CHECK(big != NULL);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init_ex(&loop, &server, AF_INET | UV_UDP_RECVMMSG) == 0);
  say("using_recvmmsg = %d", uv_udp_using_recvmmsg(&server));
  CHECK(uv_udp_init(&loop, &client) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  for (i = 0; i < 5; i++) {
    snprintf(text[i], sizeof text[i], "dg%d", i);
    b = uv_buf_init(text[i], (unsigned) strlen(text[i]));
    CHECK(uv_udp_send(&reqs[i], &client, &b, 1, (const struct sockaddr *) &server_addr, NULL) == 0);
  }
  len = sizeof client_addr;
  CHECK(uv_udp_getsockname(&client, (struct sockaddr *) &client_addr, &len) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_udp_recv_start(&server, on_alloc, on_recv) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  free(big);
  return 0;
}
