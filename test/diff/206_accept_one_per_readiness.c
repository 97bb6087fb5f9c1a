// SPDX-License-Identifier: MIT
/* Connections that wait together: three clients connect to a Unix pipe
 * server, then three to a TCP server, before the loop runs. libuv 1.44
 * accepts until accept() says EAGAIN, so one poll pass gives a server's
 * three connection callbacks; from 1.45 (PR #3696) it accepts one
 * connection a readiness, and the poll finds the next one at its next
 * pass, with [check] and [prepare] between them. The clients are plain
 * blocking sockets: a Unix connect() queues its connection before it
 * returns, and for TCP the listener's queue (TCP_INFO's tcpi_unacked on a
 * listening socket) is waited for. A 5 s timer ends a run that goes wrong
 * (under injected faults: test/faults). */
#include "diff.h"
#include "diff_net.h"
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define CLIENTS 3

static uv_loop_t loop;
static uv_pipe_t pserver, pconns[CLIENTS];
static uv_tcp_t tserver, tconns[CLIENTS];
static uv_timer_t guard;
static int fds[CLIENTS];
static int accepted;
static char path[128];

static void end_round(void) {
  int i;
  uv_walk(&loop, diff_close_any, NULL);
  for (i = 0; i < CLIENTS; i++) {
    if (fds[i] >= 0) close(fds[i]);
    fds[i] = -1;
  }
}

static void on_guard(uv_timer_t *t) {
  (void) t;
  say("  gave up after 5 s with %d accepted", accepted);
  end_round();
}

static void on_connection(uv_stream_t *s, int status) {
  int rc;
  uv_stream_t *c;
  if (status != 0) {
    say("  connection cb: %s", rc_name(status));
    return;
  }
  if (accepted == CLIENTS) return;
  if (s->type == UV_NAMED_PIPE) {
    CHECK(uv_pipe_init(&loop, &pconns[accepted], 0) == 0);
    c = (uv_stream_t *) &pconns[accepted];
  } else {
    CHECK(uv_tcp_init(&loop, &tconns[accepted]) == 0);
    c = (uv_stream_t *) &tconns[accepted];
  }
  rc = uv_accept(s, c);
  accepted++;
  say("  connection cb: accepted %d: %s", accepted, rc_name(rc));
  if (accepted == CLIENTS) {
    say("  all accepted: closing");
    end_round();
  }
}

static void start_round(void) {
  int i;
  accepted = 0;
  for (i = 0; i < CLIENTS; i++) fds[i] = -1;
  net_markers(&loop);
  CHECK(uv_timer_init(&loop, &guard) == 0);
  CHECK(uv_timer_start(&guard, on_guard, 5000, 0) == 0);
}

/* The TCP listener's queue holds `n` connections, or 2 s have gone. */
static int tcp_queue_holds(uv_tcp_t *server, unsigned n) {
  uv_os_fd_t fd;
  int tries;
  CHECK(uv_fileno((uv_handle_t *) server, &fd) == 0);
  for (tries = 0; tries < 2000; tries++) {
    struct tcp_info info;
    socklen_t len = sizeof info;
    struct timespec ms = {0, 1000000};
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 && info.tcpi_unacked >= n) return 1;
    nanosleep(&ms, NULL);
  }
  return 0;
}

int main(void) {
  struct sockaddr_un un;
  struct sockaddr_in in;
  int i, port;

  CHECK(uv_loop_init(&loop) == 0);

  say("pipe server, %d clients waiting", CLIENTS);
  start_round();
  snprintf(path, sizeof path, "%s/pl-diff-accept-%d.sock", P_tmpdir, (int) getpid());
  unlink(path);
  CHECK(uv_pipe_init(&loop, &pserver, 0) == 0);
  CHECK(uv_pipe_bind(&pserver, path) == 0);
  CHECK(uv_listen((uv_stream_t *) &pserver, 16, on_connection) == 0);
  memset(&un, 0, sizeof un);
  un.sun_family = AF_UNIX;
  memcpy(un.sun_path, path, strlen(path) + 1);
  for (i = 0; i < CLIENTS; i++) {
    fds[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(fds[i] >= 0);
    CHECK(connect(fds[i], (struct sockaddr *) &un, sizeof un) == 0);
  }
  run_say(&loop, UV_RUN_DEFAULT);
  unlink(path);

  say("tcp server, %d clients waiting", CLIENTS);
  start_round();
  CHECK(uv_tcp_init(&loop, &tserver) == 0);
  in = net_v4(0);
  CHECK(uv_tcp_bind(&tserver, (const struct sockaddr *) &in, 0) == 0);
  CHECK(uv_listen((uv_stream_t *) &tserver, 16, on_connection) == 0);
  port = net_port(&tserver);
  in = net_v4(port);
  for (i = 0; i < CLIENTS; i++) {
    fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(fds[i] >= 0);
    CHECK(connect(fds[i], (struct sockaddr *) &in, sizeof in) == 0);
  }
  CHECK(tcp_queue_holds(&tserver, CLIENTS));
  run_say(&loop, UV_RUN_DEFAULT);

  finish(&loop);
  return 0;
}
