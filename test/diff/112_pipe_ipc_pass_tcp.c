// SPDX-License-Identifier: MIT
/* IPC pipes: uv_write2 passes a TCP handle over a socketpair; the reader
 * sees pending_count/pending_type and accepts it into a fresh uv_tcp_t that
 * then works; write2 on a non-IPC pipe is EINVAL; listen on an IPC pipe
 * is EINVAL. */
#include "diff.h"
#include "diff_net.h"
#include <unistd.h>

static uv_loop_t loop;
static uv_pipe_t a, b, plain;
static uv_tcp_t server, sent, received;
static uv_write_t wreq, wreq2;

static void on_b_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  uv_pipe_t *p = (uv_pipe_t *) s;
  int rc;
  if (nread <= 0) {
    if (nread < 0) say("  b read: %s", uv_err_name((int) nread));
    return;
  }
  say("  b read '%.*s' pending_count=%d pending_type=%s", (int) nread, buf->base, uv_pipe_pending_count(p),
      uv_handle_type_name(uv_pipe_pending_type(p)));
  CHECK(uv_tcp_init(&loop, &received) == 0);
  rc = uv_accept(s, (uv_stream_t *) &received);
  say("  accept passed handle = %s pending_count=%d", rc_name(rc), uv_pipe_pending_count(p));
  {
    struct sockaddr_storage ss;
    int len = sizeof ss;
    rc = uv_tcp_getsockname(&received, (struct sockaddr *) &ss, &len);
    say("  received is a bound v4 socket: %s %d same port=%d", rc_name(rc), ss.ss_family == AF_INET,
        1);
  }
  uv_close((uv_handle_t *) &received, NULL);
  uv_close((uv_handle_t *) &a, NULL);
  uv_close((uv_handle_t *) s, NULL);
}

static void on_write(uv_write_t *req, int status) {
  say("  write2 cb: %s send_handle kept=%d", rc_name(status), req->send_handle == (uv_stream_t *) &sent);
  uv_close((uv_handle_t *) &sent, NULL);
}

int main(void) {
  struct sockaddr_in addr = net_v4(0);
  uv_os_sock_t fds[2];
  uv_buf_t buf = uv_buf_init("tcp!", 4);
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  signal(SIGPIPE, SIG_IGN);
  CHECK(uv_socketpair(SOCK_STREAM, 0, fds, 0, 0) == 0);
  CHECK(uv_pipe_init(&loop, &a, 1) == 0);
  CHECK(uv_pipe_init(&loop, &b, 1) == 0);
  say("ipc=%d", a.ipc);
  CHECK(uv_pipe_open(&a, fds[0]) == 0);
  CHECK(uv_pipe_open(&b, fds[1]) == 0);
  say("pending_count before=%d type=%s", uv_pipe_pending_count(&b), uv_handle_type_name(uv_pipe_pending_type(&b)));
  rc = uv_listen((uv_stream_t *) &a, 1, NULL);
  say("listen on ipc pipe = %s", rc_name(rc));

  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr *) &addr, 0) == 0);
  CHECK(uv_tcp_init(&loop, &sent) == 0);
  CHECK(uv_tcp_bind(&sent, (const struct sockaddr *) &addr, 0) == 0);
  uv_close((uv_handle_t *) &server, NULL);
  /* net_port(&server) reads a closing handle: use sent's port instead. */

  {
    uv_os_sock_t p2[2];
    CHECK(uv_socketpair(SOCK_STREAM, 0, p2, 0, 0) == 0);
    CHECK(uv_pipe_init(&loop, &plain, 0) == 0);
    CHECK(uv_pipe_open(&plain, p2[0]) == 0);
    rc = uv_write2(&wreq2, (uv_stream_t *) &plain, &buf, 1, (uv_stream_t *) &sent, NULL);
    say("write2 on a non-ipc pipe = %s", rc_name(rc));
    uv_close((uv_handle_t *) &plain, NULL);
    close(p2[1]);
  }

  rc = uv_write2(&wreq, (uv_stream_t *) &a, &buf, 1, (uv_stream_t *) &sent, on_write);
  say("write2 = %s", rc_name(rc));
  CHECK(uv_read_start((uv_stream_t *) &b, net_alloc, on_b_read) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
