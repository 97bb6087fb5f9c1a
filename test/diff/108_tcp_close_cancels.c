// SPDX-License-Identifier: MIT
/* Closing a stream with work in flight: writes still queued (the peer does
 * not read, so the socket fills) and a pending shutdown are canceled with
 * ECANCELED in the closing phase, before the close callback; a connect in
 * progress when its handle closes is canceled too. write_queue_size counts
 * what is left. (How many writes the kernel took before the close depends
 * on its socket buffers, which grow with time: only whether some did, and
 * that every other one was canceled, is printed; and the loop runs until
 * the close callback without saying in which run each came.) */
#include "diff.h"
#include "diff_net.h"

#define NWRITES 64
#define CHUNK (256 * 1024)

static uv_loop_t loop;
static uv_tcp_t server, client, conn, late;
static uv_connect_t creq, creq2;
static uv_write_t wreqs[NWRITES];
static uv_shutdown_t sreq;
static char *chunk;
static int done_ok, done_canceled, done_other;
static int first_pending = -1;
static int client_closed;

static void on_close(uv_handle_t *h) {
  if (h == (uv_handle_t *) &client) client_closed = 1;
  say("  close cb %s: some ok=%d some canceled=%d ok+canceled=%d other=%d queue=%d",
      h == (uv_handle_t *) &client ? "client" : "other", done_ok > 0, done_canceled > 0, done_ok + done_canceled,
      done_other, (int) client.write_queue_size);
}

static void on_write(uv_write_t *req, int status) {
  (void) req;
  if (status == 0) done_ok++;
  else if (status == UV_ECANCELED) done_canceled++;
  else done_other++;
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  (void) req;
  say("  shutdown cb: %s (every write done before it: %d)", rc_name(status), done_ok + done_canceled == NWRITES);
}

static void on_timer(uv_timer_t *t) {
  say("  timer: queue non-empty=%d; closing the client", client.write_queue_size > 0);
  uv_close((uv_handle_t *) &client, on_close);
  uv_close((uv_handle_t *) t, NULL);
}

static uv_timer_t timer;

static void on_connect(uv_connect_t *req, int status) {
  int i;
  uv_buf_t b = uv_buf_init(chunk, CHUNK);
  say("  connect cb: %s", rc_name(status));
  for (i = 0; i < NWRITES; i++) {
    CHECK(uv_write(&wreqs[i], req->handle, &b, 1, on_write) == 0);
    if (first_pending < 0 && req->handle->write_queue_size > 0) first_pending = i;
  }
  say("  some write queued=%d shutdown=%s", first_pending >= 0, rc_name(uv_shutdown(&sreq, req->handle, on_shutdown)));
  say("  write after shutdown = %s", rc_name(uv_write(&wreqs[0], req->handle, &b, 1, on_write)));
  CHECK(uv_timer_start(&timer, on_timer, 50, 0) == 0);
}

static void on_connection(uv_stream_t *s, int status) {
  uv_tcp_t *c = &conn;
  say("  connection: %s", rc_name(status));
  if (uv_is_active((uv_handle_t *) s) && conn.type == UV_TCP) {
    /* The second connection (from the canceled connect): drop it. */
    c = malloc(sizeof *c);
    CHECK(uv_tcp_init(&loop, c) == 0);
    CHECK(uv_accept(s, (uv_stream_t *) c) == 0);
    uv_close((uv_handle_t *) c, (uv_close_cb) free);
    return;
  }
  CHECK(uv_tcp_init(&loop, c) == 0);
  CHECK(uv_accept(s, (uv_stream_t *) c) == 0);
  /* Never reads. */
}

static void on_late_connect(uv_connect_t *req, int status) {
  (void) req;
  say("  late connect cb: %s", rc_name(status));
}

int main(void) {
  struct sockaddr_in addr = net_v4(0);
  CHECK(uv_loop_init(&loop) == 0);
  signal(SIGPIPE, SIG_IGN);
  chunk = calloc(1, CHUNK);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr *) &addr, 0) == 0);
  CHECK(uv_listen((uv_stream_t *) &server, 4, on_connection) == 0);
  addr = net_v4(net_port(&server));
  CHECK(uv_tcp_init(&loop, &client) == 0);
  CHECK(uv_tcp_connect(&creq, &client, (const struct sockaddr *) &addr, on_connect) == 0);
  /* In which ONCE run the 50 ms timer comes due depends on the machine's
   * load (the connect callback queues 16 MiB): the runs until the client's
   * close callback print nothing. */
  while (!client_closed) uv_run(&loop, UV_RUN_ONCE);
  run_say(&loop, UV_RUN_NOWAIT);
  say("after close: ok+canceled=%d other=%d", done_ok + done_canceled, done_other);

  /* A connect canceled by close. */
  CHECK(uv_tcp_init(&loop, &late) == 0);
  CHECK(uv_tcp_connect(&creq2, &late, (const struct sockaddr *) &addr, on_late_connect) == 0);
  uv_close((uv_handle_t *) &late, NULL);
  run_say(&loop, UV_RUN_NOWAIT);
  finish(&loop);
  free(chunk);
  return 0;
}
