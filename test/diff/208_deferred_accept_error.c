// SPDX-License-Identifier: MIT
/* A server whose connection callback leaves the connection waiting stops
 * listening until uv_accept takes it. When that uv_accept fails (here:
 * the stream it accepts into already has a descriptor, UV_EBUSY), the
 * connection is closed; libuv before 1.53 then never listened again, and
 * the next client waits for ever (PR "stream: fix server stop accepting
 * after uv_accept() error"); 1.53 listens again. A second uv_accept of
 * the same connection is UV_EAGAIN.
 *
 * Two clients of a Unix pipe server connect before the loop runs (a Unix
 * connect() queues its connection before it returns). The first
 * connection is accepted from a check callback, into a pipe opened on one
 * end of a socketpair; a 2 s timer ends the wait for the second. */
#include "diff.h"
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define CLIENTS 2

static uv_loop_t loop;
static uv_pipe_t server, busy, conn;
static uv_check_t later;
static uv_timer_t guard;
static int clients[CLIENTS], pair[2];
static int connections;

static void end(void) {
  int i;
  uv_walk(&loop, diff_close_any, NULL);
  for (i = 0; i < CLIENTS; i++) close(clients[i]);
  close(pair[1]);
}

static void on_guard(uv_timer_t *t) {
  (void) t;
  say("  2 s gone, %d connection callback(s)", connections);
  end();
}

static void on_later(uv_check_t *c) {
  say("  check: accept into an open pipe = %s", rc_name(uv_accept((uv_stream_t *) &server, (uv_stream_t *) &busy)));
  say("  check: accept again = %s", rc_name(uv_accept((uv_stream_t *) &server, (uv_stream_t *) &busy)));
  CHECK(uv_check_stop(c) == 0);
}

static void on_connection(uv_stream_t *s, int status) {
  connections++;
  say("  connection cb %d: %s", connections, rc_name(status));
  if (connections == 1) {
    CHECK(uv_check_start(&later, on_later) == 0);
    return;
  }
  CHECK(uv_pipe_init(&loop, &conn, 0) == 0);
  say("  accept = %s", rc_name(uv_accept(s, (uv_stream_t *) &conn)));
  end();
}

int main(void) {
  struct sockaddr_un un;
  char path[128];
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
  CHECK(uv_pipe_init(&loop, &busy, 0) == 0);
  CHECK(uv_pipe_open(&busy, pair[0]) == 0);
  CHECK(uv_check_init(&loop, &later) == 0);
  CHECK(uv_timer_init(&loop, &guard) == 0);
  CHECK(uv_timer_start(&guard, on_guard, 2000, 0) == 0);

  snprintf(path, sizeof path, "%s/pl-diff-deferred-%d.sock", P_tmpdir, (int) getpid());
  unlink(path);
  CHECK(uv_pipe_init(&loop, &server, 0) == 0);
  CHECK(uv_pipe_bind(&server, path) == 0);
  CHECK(uv_listen((uv_stream_t *) &server, 16, on_connection) == 0);
  memset(&un, 0, sizeof un);
  un.sun_family = AF_UNIX;
  memcpy(un.sun_path, path, strlen(path) + 1);
  for (i = 0; i < CLIENTS; i++) {
    clients[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(clients[i] >= 0);
    CHECK(connect(clients[i], (struct sockaddr *) &un, sizeof un) == 0);
  }
  say("%d clients waiting", CLIENTS);
  run_say(&loop, UV_RUN_DEFAULT);
  unlink(path);
  finish(&loop);
  return 0;
}
