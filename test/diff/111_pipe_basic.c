// SPDX-License-Identifier: MIT
/* Unix domain pipes: bind (and its errors), listen, connect (success from
 * the poll phase, a missing path from the pending phase), names, chmod,
 * echo through the pipe, uv_pipe_open on a socketpair and on uv_pipe()
 * ends (readable/writable follow the open mode), pending_instances. */
#include "diff.h"
#include "diff_net.h"
#include <unistd.h>

static uv_loop_t loop;
static uv_pipe_t server, client, conn, bad, p_read, p_write;
static uv_connect_t creq, creq_bad;
static uv_write_t wreq;
static char path[128];

static void on_close(uv_handle_t *h) { (void) h; }

static void on_conn_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  if (nread > 0) {
    say("  server got '%.*s'", (int) nread, buf->base);
  } else if (nread == UV_EOF) {
    say("  server EOF");
    uv_close((uv_handle_t *) s, on_close);
    uv_close((uv_handle_t *) &server, on_close);
  }
}

static void on_connection(uv_stream_t *s, int status) {
  char name[256];
  size_t len = sizeof name;
  int rc;
  say("  connection: %s pending_count=%d", rc_name(status), uv_pipe_pending_count((uv_pipe_t *) s));
  CHECK(uv_pipe_init(&loop, &conn, 0) == 0);
  CHECK(uv_accept(s, (uv_stream_t *) &conn) == 0);
  rc = uv_pipe_getsockname(&conn, name, &len);
  say("  conn sockname = %s matches=%d", rc_name(rc), rc == 0 && strcmp(name, path) == 0);
  CHECK(uv_read_start((uv_stream_t *) &conn, net_alloc, on_conn_read) == 0);
}

static void on_write(uv_write_t *req, int status) {
  say("  write cb: %s", rc_name(status));
  uv_close((uv_handle_t *) req->handle, on_close);
}

static void on_connect(uv_connect_t *req, int status) {
  char name[256];
  size_t len = sizeof name;
  uv_buf_t b = uv_buf_init("via pipe", 8);
  int rc;
  say("  connect cb: %s readable=%d writable=%d", rc_name(status), uv_is_readable(req->handle),
      uv_is_writable(req->handle));
  rc = uv_pipe_getpeername((uv_pipe_t *) req->handle, name, &len);
  say("  peername = %s matches=%d len ok=%d", rc_name(rc), rc == 0 && strcmp(name, path) == 0, len == strlen(path));
  len = 4;
  rc = uv_pipe_getpeername((uv_pipe_t *) req->handle, name, &len);
  say("  peername small buffer = %s size ok=%d", rc_name(rc), len == strlen(path) + 1);
  CHECK(uv_write(&wreq, req->handle, &b, 1, on_write) == 0);
}

static void on_connect_bad(uv_connect_t *req, int status) {
  say("  bad connect cb: %s", rc_name(status));
  uv_close((uv_handle_t *) req->handle, on_close);
}

int main(void) {
  char name[256];
  size_t len;
  int rc, fds[2];

  CHECK(uv_loop_init(&loop) == 0);
  net_markers(&loop);
  snprintf(path, sizeof path, "%s/pl-diff-pipe-%d.sock", P_tmpdir, (int) getpid());
  unlink(path);

  CHECK(uv_pipe_init(&loop, &server, 0) == 0);
  say("init: type=%s ipc=%d readable=%d", uv_handle_type_name(server.type), server.ipc,
      uv_is_readable((uv_stream_t *) &server));
  rc = uv_pipe_bind(&server, "/nonexistent-dir/x.sock");
  say("bind in a missing dir = %s", rc_name(rc));
  len = sizeof name;
  rc = uv_pipe_getsockname(&server, name, &len);
  say("sockname unbound = %s", rc_name(rc));
  rc = uv_listen((uv_stream_t *) &server, 4, on_connection);
  say("listen unbound = %s", rc_name(rc));
  CHECK(uv_pipe_bind(&server, path) == 0);
  rc = uv_pipe_bind(&server, path);
  say("bind twice = %s", rc_name(rc));
  len = sizeof name;
  rc = uv_pipe_getsockname(&server, name, &len);
  say("sockname = %s matches=%d", rc_name(rc), rc == 0 && strcmp(name, path) == 0);
  rc = uv_pipe_chmod(&server, UV_READABLE | UV_WRITABLE);
  say("chmod = %s", rc_name(rc));
  rc = uv_pipe_chmod(&server, 0);
  say("chmod 0 = %s", rc_name(rc));
  uv_pipe_pending_instances(&server, 4);
  CHECK(uv_listen((uv_stream_t *) &server, 4, on_connection) == 0);

  CHECK(uv_pipe_init(&loop, &client, 0) == 0);
  uv_pipe_connect(&creq, &client, path, on_connect);
  say("connect started: alive=%d", uv_loop_alive(&loop));
  CHECK(uv_pipe_init(&loop, &bad, 0) == 0);
  uv_pipe_connect(&creq_bad, &bad, "/nonexistent-dir/none.sock", on_connect_bad);
  run_say(&loop, UV_RUN_DEFAULT);
  say("socket file removed on close: %d", access(path, F_OK) != 0);

  /* uv_pipe() ends: one readable, one writable. */
  CHECK(uv_pipe(fds, 0, 0) == 0);
  CHECK(uv_pipe_init(&loop, &p_read, 0) == 0);
  CHECK(uv_pipe_init(&loop, &p_write, 0) == 0);
  CHECK(uv_pipe_open(&p_read, fds[0]) == 0);
  CHECK(uv_pipe_open(&p_write, fds[1]) == 0);
  say("read end: readable=%d writable=%d; write end: readable=%d writable=%d",
      uv_is_readable((uv_stream_t *) &p_read), uv_is_writable((uv_stream_t *) &p_read),
      uv_is_readable((uv_stream_t *) &p_write), uv_is_writable((uv_stream_t *) &p_write));
  {
    uv_pipe_t again;
    CHECK(uv_read_start((uv_stream_t *) &p_read, net_alloc, on_conn_read) == 0);
    CHECK(uv_pipe_init(&loop, &again, 0) == 0);
    run_say(&loop, UV_RUN_NOWAIT);
    rc = uv_pipe_open(&again, fds[0]);
    say("open an fd the loop watches = %s", rc_name(rc));
    uv_close((uv_handle_t *) &again, NULL);
    run_say(&loop, UV_RUN_NOWAIT);
  }
  CHECK(uv_pipe_init(&loop, &bad, 0) == 0);
  rc = uv_pipe_open(&bad, 9999);
  say("open a closed fd = %s", rc_name(rc));
  net_markers_on = 0;
  finish(&loop);
  return 0;
}
