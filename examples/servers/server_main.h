// SPDX-License-Identifier: MIT
/* server_main.h: what the example servers share around their own logic.
 *
 * Each server (echo_server.c, http_server.c, chat_server.c) is about what
 * it does with its connections; the scaffolding is the same for all three
 * and lives here, in plain C on libuv's public API only:
 *
 *  - the command line: --port N (default 0: the kernel picks a port),
 *    --host ADDR (default 127.0.0.1, IPv4 or IPv6), --loops N for the
 *    servers that allow it, --tick MS (a repeating timer of MS ms on
 *    every loop that refreshes the loop's cached wall-clock second, as
 *    servers keep one for their Date headers and logs; bench/fixed-load.py
 *    measures an idle server with it), and at most one option of the
 *    server's own that takes an argument (http_server's --root);
 *  - the listening sockets: bind, listen, and the line
 *    "listening on ADDR:PORT" on stdout once connections are accepted;
 *  - one loop per thread with --loops N (N > 1): every loop has its own
 *    listening socket on the same address, each with SO_REUSEPORT, so the
 *    kernel spreads the incoming connections over the loops and a
 *    connection lives on the loop that accepted it;
 *  - a clean stop: SIGINT or SIGTERM closes every handle of every loop,
 *    so the loops run out, uv_loop_close() succeeds and the process exits
 *    0 with nothing leaked;
 *  - SIGPIPE ignored: libuv leaves it to the program, and a write to a
 *    peer that reset the connection must fail with EPIPE, not kill us.
 *
 * A server fills in a server_t and calls, from main():
 *
 *   server_parse_args(&server, argc, argv)   -> 2 on bad usage
 *   server_run(&server)                      -> the exit status
 *
 * Its callbacks then find their loop through their handles (h->loop):
 * with --loops they run on several threads at once, so what they share
 * must be read-only or atomic.
 *
 * The one convention: a connection's handle carries the connection in its
 * data field, while every other handle of a loop (the listener, the
 * signal watchers, the stop request) has data NULL. That is how the stop
 * tells connections, which the server closes its own way (close_conn),
 * from the rest.
 *
 * Everything is static: the header is included by one .c file each.
 */

#ifndef SERVER_MAIN_H
#define SERVER_MAIN_H

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define SERVER_MAX_LOOPS 64

/* One loop and its thread (the first loop runs on the main thread). */
typedef struct {
  uv_loop_t loop;
  uv_tcp_t listener;
  uv_async_t stop; /* loops after the first: the first asks them to stop */
  uv_timer_t tick; /* --tick MS */
  long second;     /* the wall-clock second the last tick saw */
  uv_thread_t thread;
} server_loop_t;

typedef struct {
  /* Filled in by the server before server_parse_args(). */
  const char* name;               /* prefix of error messages */
  const char* extra;              /* its own option, e.g. "--root", or NULL */
  const char* extra_arg;          /* that option's argument in usage: "DIR" */
  int multi_loop;                 /* the server takes --loops N */
  uv_connection_cb on_connection; /* a connection waits to be accepted */
  void (*close_conn)(void* conn); /* close a connection, given handle->data */

  /* Filled in by server_parse_args(). */
  const char* host;
  int port;
  int loops;               /* --loops N (default 1) */
  int tick_ms;             /* --tick MS (default 0: no tick) */
  const char* extra_value; /* the extra option's argument, or NULL */

  /* Set once SIGINT or SIGTERM asked the server to stop, before any
   * connection is closed: a server can then skip its goodbyes. */
  int stopping;

  /* Owned by server_run(); their data fields stay NULL. */
  server_loop_t* each; /* `loops` of them */
  uv_signal_t sigint_watcher;
  uv_signal_t sigterm_watcher;
} server_t;

static int server_usage(const server_t* s, const char* prog) {
  fprintf(stderr, "usage: %s [--port N] [--host ADDR] [--tick MS]", prog);
  if (s->multi_loop) fprintf(stderr, " [--loops N]");
  if (s->extra != NULL) fprintf(stderr, " [%s %s]", s->extra, s->extra_arg);
  fputc('\n', stderr);
  return 2;
}

/* Reads the command line into s; returns 0, or 2 (the exit status for bad
 * usage) after printing the usage line. */
static int server_parse_args(server_t* s, int argc, char** argv) {
  s->host = "127.0.0.1";
  s->port = 0;
  s->loops = 1;
  s->tick_ms = 0;
  s->extra_value = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
      char* end;
      long v = strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 0 || v > 65535) return server_usage(s, argv[0]);
      s->port = (int)v;
    } else if (strcmp(argv[i], "--host") == 0 && i + 1 < argc) {
      s->host = argv[++i];
    } else if (strcmp(argv[i], "--tick") == 0 && i + 1 < argc) {
      char* end;
      long v = strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > 3600000) {
        fprintf(stderr, "%s: --tick takes 1 to 3600000 (ms), not %s\n", s->name, argv[i]);
        return 2;
      }
      s->tick_ms = (int)v;
    } else if (s->multi_loop && strcmp(argv[i], "--loops") == 0 && i + 1 < argc) {
      char* end;
      long v = strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > SERVER_MAX_LOOPS) {
        fprintf(stderr, "%s: --loops takes 1 to %d, not %s\n", s->name, SERVER_MAX_LOOPS, argv[i]);
        return 2;
      }
      s->loops = (int)v;
    } else if (s->extra != NULL && strcmp(argv[i], s->extra) == 0 && i + 1 < argc) {
      s->extra_value = argv[++i];
    } else {
      return server_usage(s, argv[0]);
    }
  }
  return 0;
}

/* Binds loop l's listener to s->host:port and listens; *bound gets the
 * port actually bound (the kernel's pick when port is 0). With reuseport
 * the socket is made first and given SO_REUSEPORT, so that every loop can
 * bind the same address. */
static int server_listen(server_t* s, server_loop_t* l, int port, int reuseport, int* bound) {
  struct sockaddr_storage ss;
  int len = sizeof ss;
  int r;
  l->listener.data = NULL; /* not a connection (uv_tcp_init keeps data) */
  if (uv_ip4_addr(s->host, port, (struct sockaddr_in*)&ss) != 0 &&
      uv_ip6_addr(s->host, port, (struct sockaddr_in6*)&ss) != 0) {
    fprintf(stderr, "%s: bad address %s\n", s->name, s->host);
    return UV_EINVAL;
  }
  if (reuseport) {
    uv_os_fd_t fd;
    int on = 1;
    if ((r = uv_tcp_init_ex(&l->loop, &l->listener, ss.ss_family)) != 0) goto failed;
    if ((r = uv_fileno((uv_handle_t*)&l->listener, &fd)) != 0) goto failed;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) {
      r = uv_translate_sys_error(errno);
      goto failed;
    }
  } else if ((r = uv_tcp_init(&l->loop, &l->listener)) != 0) {
    goto failed;
  }
  if ((r = uv_tcp_bind(&l->listener, (struct sockaddr*)&ss, 0)) != 0 ||
      (r = uv_listen((uv_stream_t*)&l->listener, SOMAXCONN, s->on_connection)) != 0 ||
      (r = uv_tcp_getsockname(&l->listener, (struct sockaddr*)&ss, &len)) != 0) {
    goto failed;
  }
  *bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6*)&ss)->sin6_port
                                          : ((struct sockaddr_in*)&ss)->sin_port);
  return 0;
failed:
  fprintf(stderr, "%s: %s:%d: %s\n", s->name, s->host, port, uv_strerror(r));
  return r;
}

/* Which of the server's loops `loop` is: 0 for the first. */
static inline int server_loop_index(const server_t* s, const uv_loop_t* loop) {
  const server_loop_t* l = (const server_loop_t*)((const char*)loop - offsetof(server_loop_t, loop));
  return (int)(l - s->each);
}

/* uv_walk() callback: connections (data set) are closed by the server,
 * which also frees them; the rest are closed here without a callback. A
 * handle already closing is left alone (close_conn checks that itself). */
static void server_close_handle(uv_handle_t* h, void* arg) {
  server_t* s = arg;
  if (h->data != NULL) s->close_conn(h->data);
  else if (!uv_is_closing(h)) uv_close(h, NULL);
}

/* A loop after the first was asked to stop: it closes its handles. */
static void server_on_stop(uv_async_t* a) {
  uv_walk(a->loop, server_close_handle, a->loop->data);
}

/* SIGINT or SIGTERM, on the first loop: with every handle of every loop
 * closed, each uv_run() returns. */
static void server_on_signal(uv_signal_t* w, int signum) {
  server_t* s = w->loop->data;
  (void)signum;
  s->stopping = 1;
  for (int i = 1; i < s->loops; i++) uv_async_send(&s->each[i].stop);
  uv_walk(w->loop, server_close_handle, s);
}

/* --tick: the loop's cached wall-clock second. */
static void server_on_tick(uv_timer_t* t) {
  server_loop_t* l = (server_loop_t*)((char*)t - offsetof(server_loop_t, tick));
  uv_timeval64_t now;
  if (uv_gettimeofday(&now) == 0) l->second = (long)now.tv_sec;
}

static void server_thread(void* arg) {
  server_loop_t* l = arg;
  uv_run(&l->loop, UV_RUN_DEFAULT);
}

/* Makes the loops, listens on each, runs the first loop on this thread
 * and the others on threads of their own until a signal stops the
 * server, then closes every loop. Returns the exit status: 0, or 1 when
 * setting up failed or a loop did not close cleanly. */
static int server_run(server_t* s) {
  int status = 0, inited = 0, threads = 0, port = s->port;
  signal(SIGPIPE, SIG_IGN);
  s->each = calloc((size_t)s->loops, sizeof *s->each);
  if (s->each == NULL) {
    fprintf(stderr, "%s: out of memory\n", s->name);
    return 1;
  }
  for (; inited < s->loops && status == 0; inited++) {
    server_loop_t* l = &s->each[inited];
    if (uv_loop_init(&l->loop) != 0) {
      fprintf(stderr, "%s: uv_loop_init failed\n", s->name);
      status = 1;
      break;
    }
    l->loop.data = s; /* for server_on_signal and server_on_stop */
    if (server_listen(s, l, port, s->loops > 1, &port) != 0) status = 1;
    l->stop.data = NULL;
    if (inited > 0 && uv_async_init(&l->loop, &l->stop, server_on_stop) != 0) status = 1;
    l->tick.data = NULL;
    if (s->tick_ms > 0 && (uv_timer_init(&l->loop, &l->tick) != 0 ||
                           uv_timer_start(&l->tick, server_on_tick, (uint64_t)s->tick_ms, (uint64_t)s->tick_ms) != 0))
      status = 1;
  }
  if (status == 0) {
    s->sigint_watcher.data = NULL;
    s->sigterm_watcher.data = NULL;
    uv_signal_init(&s->each[0].loop, &s->sigint_watcher);
    uv_signal_init(&s->each[0].loop, &s->sigterm_watcher);
    uv_signal_start(&s->sigint_watcher, server_on_signal, SIGINT);
    uv_signal_start(&s->sigterm_watcher, server_on_signal, SIGTERM);
    for (threads = 1; threads < s->loops; threads++) {
      if (uv_thread_create(&s->each[threads].thread, server_thread, &s->each[threads]) != 0) {
        fprintf(stderr, "%s: cannot start loop %d's thread\n", s->name, threads);
        status = 1;
        break;
      }
    }
  }
  if (status == 0) {
    if (strchr(s->host, ':') != NULL) printf("listening on [%s]:%d\n", s->host, port);
    else printf("listening on %s:%d\n", s->host, port);
    fflush(stdout); /* the tests wait for this line through a pipe */
  } else {
    /* Close what is open, so that every loop can close; a thread already
     * started stops as on a signal. */
    s->stopping = 1;
    for (int i = 1; i < threads; i++) uv_async_send(&s->each[i].stop);
    for (int i = threads > 0 ? threads : 1; i < inited; i++) {
      uv_walk(&s->each[i].loop, server_close_handle, s);
      uv_run(&s->each[i].loop, UV_RUN_DEFAULT);
    }
    if (inited > 0) uv_walk(&s->each[0].loop, server_close_handle, s);
  }
  if (inited > 0) uv_run(&s->each[0].loop, UV_RUN_DEFAULT);
  for (int i = 1; i < threads; i++) uv_thread_join(&s->each[i].thread);
  for (int i = 0; i < inited; i++) {
    if (uv_loop_close(&s->each[i].loop) != 0) {
      fprintf(stderr, "%s: loop %d not closed cleanly\n", s->name, i);
      status = 1;
    }
  }
  free(s->each);
  s->each = NULL;
  return status;
}

#endif
