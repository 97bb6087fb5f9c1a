// SPDX-License-Identifier: MIT
/* Reading and writing edge cases: read_start rules (EALREADY, ENOTCONN,
 * EINVAL), an allocator giving an empty buffer (ENOBUFS), the peer
 * resetting the connection (ECONNRESET via uv_tcp_close_reset), writing
 * after that (EPIPE or a failed write), uv_try_write, read_stop. */
#include "diff.h"
#include "diff_net.h"

static uv_loop_t loop;
static uv_tcp_t server, client, conn, idle_tcp;
static uv_connect_t creq;
static uv_write_t wreq;
static int enobufs_once;

static void on_close(uv_handle_t *h) {
  say("  close cb %s", h == (uv_handle_t *) &conn ? "conn" : h == (uv_handle_t *) &client ? "client" : "server");
}

static void empty_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void) h;
  say("  alloc suggested=%d", (int) suggested);
  buf->base = NULL;
  buf->len = 0;
}

static void on_write(uv_write_t *req, int status) {
  (void) req;
  say("  write cb: %s", rc_name(status));
}

static void on_client_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  (void) buf;
  say("  client read: %s readable=%d writable=%d active=%d", nread >= 0 ? "data" : uv_err_name((int) nread),
      uv_is_readable(s), uv_is_writable(s), uv_is_active((uv_handle_t *) s));
  if (nread < 0) {
    uv_buf_t b = uv_buf_init("x", 1);
    int rc = uv_try_write(s, &b, 1);
    say("  try_write after reset = %s", rc_name(rc));
    rc = uv_write(&wreq, s, &b, 1, on_write);
    say("  write after reset = %s", rc_name(rc));
    uv_close((uv_handle_t *) s, on_close);
    uv_close((uv_handle_t *) &server, on_close);
  }
}

static void on_conn_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  say("  conn read: nread=%s base null=%d", nread >= 0 ? "n" : uv_err_name((int) nread), buf->base == NULL);
  if (nread == UV_ENOBUFS && !enobufs_once) {
    enobufs_once = 1;
    CHECK(uv_read_stop(s) == 0);
    say("  read_stop: active=%d, read_stop again = %s", uv_is_active((uv_handle_t *) s), rc_name(uv_read_stop(s)));
    /* Reset the connection: the client reads ECONNRESET. */
    say("  close_reset = %s", rc_name(uv_tcp_close_reset(&conn, on_close)));
  }
}

static void on_connection(uv_stream_t *s, int status) {
  int rc;
  say("  connection: %s", rc_name(status));
  CHECK(uv_tcp_init(&loop, &conn) == 0);
  CHECK(uv_accept(s, (uv_stream_t *) &conn) == 0);
  CHECK(uv_read_start((uv_stream_t *) &conn, empty_alloc, on_conn_read) == 0);
  rc = uv_read_start((uv_stream_t *) &conn, empty_alloc, on_conn_read);
  say("  read_start twice = %s", rc_name(rc));
}

static void on_connect(uv_connect_t *req, int status) {
  uv_buf_t b = uv_buf_init("ping", 4);
  int rc;
  say("  connect cb: %s", rc_name(status));
  rc = uv_try_write(req->handle, &b, 1);
  say("  try_write = %d", rc);
  CHECK(uv_read_start(req->handle, net_alloc, on_client_read) == 0);
}

int main(void) {
  struct sockaddr_in addr = net_v4(0);
  uv_buf_t b = uv_buf_init("x", 1);
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  signal(SIGPIPE, SIG_IGN);
  CHECK(uv_tcp_init(&loop, &idle_tcp) == 0);
  rc = uv_read_start((uv_stream_t *) &idle_tcp, net_alloc, on_client_read);
  say("read_start unconnected = %s", rc_name(rc));
  rc = uv_read_start((uv_stream_t *) &idle_tcp, NULL, on_client_read);
  say("read_start without alloc = %s", rc_name(rc));
  rc = uv_try_write((uv_stream_t *) &idle_tcp, &b, 1);
  say("try_write unconnected = %s", rc_name(rc));
  rc = uv_write(&wreq, (uv_stream_t *) &idle_tcp, &b, 1, on_write);
  say("write unconnected = %s", rc_name(rc));
  {
    uv_shutdown_t sr;
    rc = uv_shutdown(&sr, (uv_stream_t *) &idle_tcp, NULL);
    say("shutdown unconnected = %s", rc_name(rc));
  }
  say("read_stop unconnected = %s", rc_name(uv_read_stop((uv_stream_t *) &idle_tcp)));
  uv_close((uv_handle_t *) &idle_tcp, NULL);

  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr *) &addr, 0) == 0);
  CHECK(uv_listen((uv_stream_t *) &server, 4, on_connection) == 0);
  addr = net_v4(net_port(&server));
  CHECK(uv_tcp_init(&loop, &client) == 0);
  CHECK(uv_tcp_connect(&creq, &client, (const struct sockaddr *) &addr, on_connect) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
