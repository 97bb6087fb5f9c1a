/* server_main.h: what the example servers share around their own logic.
 *
 * Each server (echo_server.c, http_server.c, chat_server.c) is about what
 * it does with its connections; the scaffolding is the same for all three
 * and lives here, in plain C on libuv's public API only:
 *
 *  - the command line: --port N (default 0: the kernel picks a port),
 *    --host ADDR (default 127.0.0.1, IPv4 or IPv6) and at most one option
 *    of the server's own that takes an argument (http_server's --root);
 *  - the listening socket: bind, listen, and the line
 *    "listening on ADDR:PORT" on stdout once connections are accepted;
 *  - a clean stop: SIGINT or SIGTERM closes every handle, so the loop
 *    runs out, uv_loop_close() succeeds and the process exits 0 with
 *    nothing leaked;
 *  - SIGPIPE ignored: libuv leaves it to the program, and a write to a
 *    peer that reset the connection must fail with EPIPE, not kill us.
 *
 * A server fills in a server_t and calls, from main():
 *
 *   server_parse_args(&server, argc, argv)   -> 2 on bad usage
 *   uv_loop_init(&loop)
 *   server_run(&server, &loop)               -> the exit status
 *
 * The one convention: a connection's handle carries the connection in its
 * data field, while every other handle of the loop (the listener, the
 * signal watchers) has data NULL. That is how the stop tells connections,
 * which the server closes its own way (close_conn), from the rest.
 *
 * Everything is static: the header is included by one .c file each.
 */

#ifndef SERVER_MAIN_H
#define SERVER_MAIN_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

typedef struct {
  /* Filled in by the server before server_parse_args(). */
  const char* name;               /* prefix of error messages */
  const char* extra;              /* its own option, e.g. "--root", or NULL */
  const char* extra_arg;          /* that option's argument in usage: "DIR" */
  uv_connection_cb on_connection; /* a connection waits to be accepted */
  void (*close_conn)(void* conn); /* close a connection, given handle->data */

  /* Filled in by server_parse_args(). */
  const char* host;
  int port;
  const char* extra_value; /* the extra option's argument, or NULL */

  /* Set once SIGINT or SIGTERM asked the server to stop, before any
   * connection is closed: a server can then skip its goodbyes. */
  int stopping;

  /* Owned by server_run(); their data fields stay NULL. */
  uv_tcp_t listener;
  uv_signal_t sigint_watcher;
  uv_signal_t sigterm_watcher;
} server_t;

static int server_usage(const server_t* s, const char* prog) {
  fprintf(stderr, "usage: %s [--port N] [--host ADDR]", prog);
  if (s->extra != NULL) fprintf(stderr, " [%s %s]", s->extra, s->extra_arg);
  fputc('\n', stderr);
  return 2;
}

/* Reads the command line into s; returns 0, or 2 (the exit status for bad
 * usage) after printing the usage line. */
static int server_parse_args(server_t* s, int argc, char** argv) {
  s->host = "127.0.0.1";
  s->port = 0;
  s->extra_value = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      char* end;
      long v = strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 0 || v > 65535) return server_usage(s, argv[0]);
      s->port = (int)v;
    } else if (strcmp(argv[i], "--host") == 0 && i + 1 < argc) {
      s->host = argv[++i];
    } else if (s->extra != NULL && strcmp(argv[i], s->extra) == 0 && i + 1 < argc) {
      s->extra_value = argv[++i];
    } else {
      return server_usage(s, argv[0]);
    }
  }
  return 0;
}

/* Binds s->listener to s->host:s->port, listens, and prints the address
 * actually bound (the port the kernel picked, when it was 0). */
static int server_listen(server_t* s, uv_loop_t* loop) {
  struct sockaddr_storage ss;
  char name[64];
  int len = sizeof ss;
  int r;
  s->listener.data = NULL; /* not a connection (uv_tcp_init keeps data) */
  if (uv_ip4_addr(s->host, s->port, (struct sockaddr_in*)&ss) != 0 &&
      uv_ip6_addr(s->host, s->port, (struct sockaddr_in6*)&ss) != 0) {
    fprintf(stderr, "%s: bad address %s\n", s->name, s->host);
    return UV_EINVAL;
  }
  if ((r = uv_tcp_init(loop, &s->listener)) != 0 ||
      (r = uv_tcp_bind(&s->listener, (struct sockaddr*)&ss, 0)) != 0 ||
      (r = uv_listen((uv_stream_t*)&s->listener, SOMAXCONN, s->on_connection)) != 0 ||
      (r = uv_tcp_getsockname(&s->listener, (struct sockaddr*)&ss, &len)) != 0) {
    fprintf(stderr, "%s: %s:%d: %s\n", s->name, s->host, s->port, uv_strerror(r));
    return r;
  }
  if (ss.ss_family == AF_INET6) {
    struct sockaddr_in6* a = (struct sockaddr_in6*)&ss;
    uv_ip6_name(a, name, sizeof name);
    printf("listening on [%s]:%d\n", name, ntohs(a->sin6_port));
  } else {
    struct sockaddr_in* a = (struct sockaddr_in*)&ss;
    uv_ip4_name(a, name, sizeof name);
    printf("listening on %s:%d\n", name, ntohs(a->sin_port));
  }
  fflush(stdout); /* the tests wait for this line through a pipe */
  return 0;
}

/* uv_walk() callback: connections (data set) are closed by the server,
 * which also frees them; the rest are closed here without a callback. A
 * handle already closing is left alone (close_conn checks that itself). */
static void server_close_handle(uv_handle_t* h, void* arg) {
  server_t* s = arg;
  if (h->data != NULL) s->close_conn(h->data);
  else if (!uv_is_closing(h)) uv_close(h, NULL);
}

/* SIGINT or SIGTERM: with every handle closed, uv_run() returns. */
static void server_on_signal(uv_signal_t* w, int signum) {
  server_t* s = w->loop->data;
  (void)signum;
  s->stopping = 1;
  uv_walk(w->loop, server_close_handle, s);
}

/* Listens and runs the loop (initialised by the caller) until a signal
 * stops the server, then closes the loop. Returns the exit status: 0, or 1
 * when listening failed or the loop did not close cleanly. */
static int server_run(server_t* s, uv_loop_t* loop) {
  signal(SIGPIPE, SIG_IGN);
  loop->data = s; /* for server_on_signal */
  int status = server_listen(s, loop) == 0 ? 0 : 1;
  if (status == 0) {
    s->sigint_watcher.data = NULL;
    s->sigterm_watcher.data = NULL;
    uv_signal_init(loop, &s->sigint_watcher);
    uv_signal_init(loop, &s->sigterm_watcher);
    uv_signal_start(&s->sigint_watcher, server_on_signal, SIGINT);
    uv_signal_start(&s->sigterm_watcher, server_on_signal, SIGTERM);
  } else {
    /* The listener may be open already; close it so the loop can close. */
    uv_walk(loop, server_close_handle, s);
  }
  uv_run(loop, UV_RUN_DEFAULT);
  if (uv_loop_close(loop) != 0) {
    fprintf(stderr, "%s: loop not closed cleanly\n", s->name);
    status = 1;
  }
  return status;
}

#endif
