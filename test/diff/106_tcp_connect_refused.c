// SPDX-License-Identifier: MIT
/* Connecting to a loopback port nobody listens on: ECONNREFUSED reaches the
 * connect callback from the pending phase; a second connect while the
 * first is in progress is EALREADY; a write queued behind the connect is
 * canceled; try_write while connecting is EAGAIN. */
#include "diff.h"
#include "diff_net.h"

static uv_loop_t loop;
static uv_tcp_t probe, client;
static uv_connect_t creq, creq2;
static uv_write_t wreq;

static void on_write(uv_write_t *req, int status) {
  (void) req;
  say("  write cb: %s queue=%d", rc_name(status), (int) client.write_queue_size);
}

static void on_connect(uv_connect_t *req, int status) {
  say("  connect cb: %s readable=%d writable=%d", rc_name(status), uv_is_readable(req->handle),
      uv_is_writable(req->handle));
}

static void on_connect2(uv_connect_t *req, int status) {
  (void) req;
  say("  connect 2 cb: %s", rc_name(status));
}

static void on_close(uv_handle_t *h) {
  (void) h;
  say("  close cb");
}

int main(void) {
  struct sockaddr_in addr = net_v4(0);
  uv_buf_t b = uv_buf_init("abc", 3);
  int port, rc;

  CHECK(uv_loop_init(&loop) == 0);
  net_markers(&loop);
  /* Find a free port: bind, note it, close. */
  CHECK(uv_tcp_init(&loop, &probe) == 0);
  CHECK(uv_tcp_bind(&probe, (const struct sockaddr *) &addr, 0) == 0);
  port = net_port(&probe);
  uv_close((uv_handle_t *) &probe, NULL);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  addr = net_v4(port);

  CHECK(uv_tcp_init(&loop, &client) == 0);
  rc = uv_tcp_connect(&creq, &client, (const struct sockaddr *) &addr, on_connect);
  say("connect = %s alive=%d", rc_name(rc), uv_loop_alive(&loop));
  rc = uv_tcp_connect(&creq2, &client, (const struct sockaddr *) &addr, on_connect2);
  say("connect again = %s", rc_name(rc));
  rc = uv_try_write((uv_stream_t *) &client, &b, 1);
  say("try_write while connecting = %s", rc_name(rc));
  rc = uv_write(&wreq, (uv_stream_t *) &client, &b, 1, on_write);
  say("write while connecting = %s queue=%d", rc_name(rc), (int) client.write_queue_size);
  {
    struct sockaddr_storage ss;
    int len = sizeof ss;
    rc = uv_tcp_getpeername(&client, (struct sockaddr *) &ss, &len);
    say("getpeername while refused = %s", rc_name(rc));
  }
  run_say(&loop, UV_RUN_DEFAULT);

  /* A second attempt on the same handle. */
  rc = uv_tcp_connect(&creq, &client, (const struct sockaddr *) &addr, on_connect);
  say("connect after failure = %s", rc_name(rc));
  run_say(&loop, UV_RUN_DEFAULT);
  uv_close((uv_handle_t *) &client, on_close);
  net_markers_on = 0;
  finish(&loop);
  return 0;
}
