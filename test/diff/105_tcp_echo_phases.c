// SPDX-License-Identifier: MIT
/* TCP over loopback: listen, connect, accept, read, a write of three
 * buffers and a queued second write; write callbacks come from the pending
 * phase of the next iteration; shutdown gives the peer UV_EOF.  A failed
 * operation (only under injected faults: test/faults) closes everything,
 * so that the loop ends instead of waiting for bytes that cannot come. */
#include "diff.h"
#include "diff_net.h"

static uv_loop_t loop;
static uv_tcp_t server, client, conn;
static uv_connect_t creq;
static uv_write_t w1, w2, echo_req;
static uv_shutdown_t sreq;
static char echo_copy[256];
static size_t client_got;

static void on_close(uv_handle_t *h) {
  say("  close cb: %s", h == (uv_handle_t *) &server ? "server" : h == (uv_handle_t *) &conn ? "conn" : "client");
}

static void close_if_open(uv_handle_t *h) {
  if (h->type != UV_UNKNOWN_HANDLE && !uv_is_closing(h)) uv_close(h, on_close);
}

static void give_up(int status) {
  if (status == 0) return;
  close_if_open((uv_handle_t *) &server);
  close_if_open((uv_handle_t *) &conn);
  close_if_open((uv_handle_t *) &client);
}

static void on_echo_written(uv_write_t *req, int status) {
  (void) req;
  say("  server echo written: %s", rc_name(status));
  give_up(status);
}

static void on_server_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  if (nread > 0) {
    uv_buf_t b;
    say("  server read %d bytes", (int) nread);
    memcpy(echo_copy, buf->base, (size_t) nread);
    b = uv_buf_init(echo_copy, (unsigned) nread);
    CHECK(uv_write(&echo_req, s, &b, 1, on_echo_written) == 0);
  } else if (nread == UV_EOF) {
    say("  server read EOF: readable=%d writable=%d active=%d", uv_is_readable(s), uv_is_writable(s),
        uv_is_active((uv_handle_t *) s));
    uv_close((uv_handle_t *) s, on_close);
    uv_close((uv_handle_t *) &server, on_close);
  } else if (nread < 0) {
    say("  server read error %s", uv_err_name((int) nread));
    give_up((int) nread);
  }
}

static void on_connection(uv_stream_t *s, int status) {
  int rc;
  say("  connection cb: %s", rc_name(status));
  CHECK(uv_tcp_init(&loop, &conn) == 0);
  rc = uv_accept(s, (uv_stream_t *) &conn);
  say("  accept = %s readable=%d writable=%d", rc_name(rc), uv_is_readable((uv_stream_t *) &conn),
      uv_is_writable((uv_stream_t *) &conn));
  rc = uv_accept(s, (uv_stream_t *) &conn);
  say("  accept again = %s", rc_name(rc));
  CHECK(uv_read_start((uv_stream_t *) &conn, net_alloc, on_server_read) == 0);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  say("  shutdown cb: %s writable=%d", rc_name(status), uv_is_writable(req->handle));
  give_up(status);
}

static void on_client_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  (void) buf;
  if (nread > 0) {
    client_got += (size_t) nread;
    say("  client read, total %d bytes", (int) client_got);
    if (client_got == 11) {
      CHECK(uv_shutdown(&sreq, s, on_shutdown) == 0);
      say("  shutdown again = %s", rc_name(uv_shutdown(&sreq, s, on_shutdown)));
    }
  } else if (nread == UV_EOF) {
    say("  client read EOF");
    uv_close((uv_handle_t *) s, on_close);
  } else if (nread < 0) {
    say("  client read error %s", uv_err_name((int) nread));
    give_up((int) nread);
  }
}

static void on_w1(uv_write_t *req, int status) {
  say("  write 1 cb: %s handle ok=%d queue=%d", rc_name(status), req->handle == (uv_stream_t *) &client,
      (int) client.write_queue_size);
  give_up(status);
}

static void on_w2(uv_write_t *req, int status) {
  (void) req;
  say("  write 2 cb: %s", rc_name(status));
  give_up(status);
}

static void on_connect(uv_connect_t *req, int status) {
  uv_buf_t bufs[3];
  uv_buf_t b2;
  int rc;
  say("  connect cb: %s handle ok=%d readable=%d writable=%d", rc_name(status),
      req->handle == (uv_stream_t *) &client, uv_is_readable(req->handle), uv_is_writable(req->handle));
  if (status != 0) {
    give_up(status);
    return;
  }
  CHECK(uv_read_start(req->handle, net_alloc, on_client_read) == 0);
  bufs[0] = uv_buf_init("hel", 3);
  bufs[1] = uv_buf_init("lo ", 3);
  bufs[2] = uv_buf_init("", 0);
  rc = uv_write(&w1, req->handle, bufs, 3, on_w1);
  say("  write 1 = %s queue=%d", rc_name(rc), (int) uv_stream_get_write_queue_size(req->handle));
  b2 = uv_buf_init("world", 5);
  rc = uv_write(&w2, req->handle, &b2, 1, on_w2);
  say("  write 2 = %s queue=%d", rc_name(rc), (int) uv_stream_get_write_queue_size(req->handle));
}

int main(void) {
  struct sockaddr_in addr = net_v4(0);
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  net_markers(&loop);
  CHECK(uv_tcp_init(&loop, &server) == 0);
  say("fresh tcp: readable=%d writable=%d type=%s", uv_is_readable((uv_stream_t *) &server),
      uv_is_writable((uv_stream_t *) &server), uv_handle_type_name(server.type));
  CHECK(uv_tcp_bind(&server, (const struct sockaddr *) &addr, 0) == 0);
  rc = uv_listen((uv_stream_t *) &server, 16, on_connection);
  say("listen = %s active=%d readable=%d", rc_name(rc), uv_is_active((uv_handle_t *) &server),
      uv_is_readable((uv_stream_t *) &server));
  addr = net_v4(net_port(&server));

  CHECK(uv_tcp_init(&loop, &client) == 0);
  rc = uv_tcp_connect(&creq, &client, (const struct sockaddr *) &addr, on_connect);
  say("connect = %s active=%d alive=%d", rc_name(rc), uv_is_active((uv_handle_t *) &client),
      uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  net_markers_on = 0;
  finish(&loop);
  return 0;
}
