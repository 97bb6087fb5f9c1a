// SPDX-License-Identifier: MIT
/* A UDP handle sent over an IPC pipe (uv_write2), as Node's cluster and
 * child.send(msg, dgramSocket) do: the writer may pass a uv_udp_t as the
 * send handle; the reader sees UV_UDP as the pending type and uv_accept()
 * into a uv_udp_t yields the same bound socket, which then receives. */
#include "diff.h"
#include "diff_net.h"

#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t *loop;
static uv_pipe_t writer, reader;
static uv_udp_t sent, received, sender;
static uv_write_t wreq;
static uv_udp_send_t sreq;
static char buf[64], dbuf[64];
static int sent_port;

static int udp_port(uv_udp_t *u) {
  struct sockaddr_in a;
  int len = sizeof a;
  CHECK(uv_udp_getsockname(u, (struct sockaddr *) &a, &len) == 0);
  return ntohs(a.sin_port);
}

static void alloc_cb(uv_handle_t *h, size_t n, uv_buf_t *b) {
  (void) n;
  b->base = h->type == UV_UDP ? dbuf : buf;
  b->len = sizeof buf;
}

static void on_datagram(uv_udp_t *u, ssize_t n, const uv_buf_t *b,
                        const struct sockaddr *from, unsigned flags) {
  (void) flags;
  if (n == 0 && from == NULL) return;
  say("received datagram: %.*s", (int) n, b->base);
  uv_udp_recv_stop(u);
  uv_close((uv_handle_t *) u, NULL);
  uv_close((uv_handle_t *) &sender, NULL);
  uv_close((uv_handle_t *) &reader, NULL);
  uv_close((uv_handle_t *) &writer, NULL);
}

static void on_sent(uv_udp_send_t *r, int status) {
  (void) r;
  say("datagram sent: %s", rc_name(status));
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  struct sockaddr_in to;
  uv_buf_t msg = uv_buf_init("hello", 5);

  if (n <= 0) return;
  say("read %.*s", (int) n, b->base);
  say("pending count: %d", uv_pipe_pending_count((uv_pipe_t *) s));
  say("pending type is UV_UDP: %d",
      uv_pipe_pending_type((uv_pipe_t *) s) == UV_UDP);
  CHECK(uv_udp_init(loop, &received) == 0);
  say("accept: %s", rc_name(uv_accept(s, (uv_stream_t *) &received)));
  say("same port: %d", udp_port(&received) == sent_port);
  uv_read_stop(s);
  CHECK(uv_udp_recv_start(&received, alloc_cb, on_datagram) == 0);
  CHECK(uv_udp_init(loop, &sender) == 0);
  to = net_v4(sent_port);
  CHECK(uv_udp_send(&sreq, &sender, &msg, 1, (const struct sockaddr *) &to,
                    on_sent) == 0);
}

static void on_write(uv_write_t *r, int status) {
  (void) r;
  say("write2 callback: %s", rc_name(status));
  uv_close((uv_handle_t *) &sent, NULL);  /* the receiver has its own copy */
}

int main(void) {
  int sv[2];
  struct sockaddr_in a = net_v4(0);
  uv_buf_t b = uv_buf_init("udp", 3);
  uv_pipe_t plain;

  loop = uv_default_loop();
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  uv_pipe_init(loop, &writer, 1);
  uv_pipe_init(loop, &reader, 1);
  CHECK(uv_pipe_open(&writer, sv[0]) == 0);
  CHECK(uv_pipe_open(&reader, sv[1]) == 0);

  uv_udp_init(loop, &sent);
  CHECK(uv_udp_bind(&sent, (const struct sockaddr *) &a, 0) == 0);
  sent_port = udp_port(&sent);

  /* A pipe that is not an IPC pipe refuses a send handle. */
  uv_pipe_init(loop, &plain, 0);
  say("write2 of a UDP handle on a non-IPC pipe: %s",
      rc_name(uv_write2(&wreq, (uv_stream_t *) &plain, &b, 1,
                        (uv_stream_t *) &sent, on_write)));
  uv_close((uv_handle_t *) &plain, NULL);

  say("write2 of a UDP handle: %s",
      rc_name(uv_write2(&wreq, (uv_stream_t *) &writer, &b, 1,
                        (uv_stream_t *) &sent, on_write)));
  CHECK(uv_read_start((uv_stream_t *) &reader, alloc_cb, on_read) == 0);
  run_say(loop, UV_RUN_DEFAULT);
  finish(loop);
  return 0;
}
