// SPDX-License-Identifier: MIT
/* uv_udp_open adopts a socket (EBUSY on a handle that has one; a socket
 * already connected makes the handle connected); a send of 8 buffers is
 * one datagram, counted in the send queue size until its callback. */
#include "diff.h"
#include "diff_udp.h"
#include <unistd.h>

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_udp_send_t req;
static struct sockaddr_storage server_addr;

static void on_send(uv_udp_send_t *r, int status) {
  (void) r;
  say("send_cb status=%s size=%zu count=%zu", rc_name(status), uv_udp_get_send_queue_size(&client),
      uv_udp_get_send_queue_count(&client));
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h;
  (void) flags;
  if (nread == 0 && addr == NULL) return;
  say("recv nread=%zd \"%.*s\"", nread, (int) nread, buf->base);
  uv_close((uv_handle_t *) &server, NULL);
  uv_close((uv_handle_t *) &client, NULL);
}

int main(void) {
  static char parts[8][4] = {"a", "bb", "ccc", "", "dd", "e", "ffff", "g"};
  uv_buf_t bufs[8];
  struct sockaddr_storage peer;
  int fd, fd2, i, len, r;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  CHECK(uv_udp_recv_start(&server, udp_alloc_static, on_recv) == 0);

  fd = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK(fd >= 0);
  CHECK(connect(fd, (const struct sockaddr *) &server_addr, sizeof(struct sockaddr_in)) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  say("open = %s", rc_name(uv_udp_open(&client, fd)));
  fd2 = socket(AF_INET, SOCK_DGRAM, 0);
  say("open again = %s", rc_name(uv_udp_open(&client, fd2)));
  close(fd2);
  len = sizeof peer;
  r = uv_udp_getpeername(&client, (struct sockaddr *) &peer, &len);
  say("getpeername = %s same=%d", rc_name(r), udp_same_addr((struct sockaddr *) &peer, &server_addr));
  say("send with addr = %s",
      rc_name(uv_udp_send(&req, &client, bufs, 1, (const struct sockaddr *) &server_addr, on_send)));
  for (i = 0; i < 8; i++) bufs[i] = uv_buf_init(parts[i], (unsigned) strlen(parts[i]));
  say("send 8 bufs = %s", rc_name(uv_udp_send(&req, &client, bufs, 8, NULL, on_send)));
  say("size=%zu count=%zu", uv_udp_get_send_queue_size(&client), uv_udp_get_send_queue_count(&client));
  memset(bufs, 0, sizeof bufs); /* the request holds its own copy of the array */
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
