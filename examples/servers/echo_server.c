// SPDX-License-Identifier: MIT
/* echo_server: sends every byte it receives back to its sender.
 *
 * Written against libuv's public API only, so the same source builds
 * against Debian's libuv and against phaseloop (see README.md).
 *
 *   echo_server [--port N] [--host ADDR] [--loops N]
 *
 * Prints "listening on ADDR:PORT" once it accepts connections, and exits
 * with status 0 after closing everything on SIGINT or SIGTERM.
 *
 * Per connection:
 *  - a read buffer inside the connection; what the kernel takes at once
 *    (uv_try_write) is never copied, the rest is copied into a write
 *    request and queued;
 *  - back-pressure: above HIGH_WATER bytes queued but unsent, reading stops
 *    until the queue drains below LOW_WATER, so a peer that sends without
 *    reading costs at most about HIGH_WATER + 2 * READ_SIZE bytes;
 *  - end of input: the write side is shut down once everything read has
 *    been written, then the connection is closed; an error (a reset) closes
 *    it at once.
 * Accepting when out of file descriptors fails with EMFILE: libuv then
 * accepts and drops what waits (its spare-descriptor trick), so clients
 * see their connection closed; the server counts the failure and goes on.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "server_main.h" /* command line, listening, stopping on signals */

#define READ_SIZE 65536
#define HIGH_WATER (256 * 1024)
#define LOW_WATER (64 * 1024)

typedef struct {
  uv_tcp_t tcp; /* first, so a handle pointer is a connection pointer */
  int paused;   /* reading stopped by back-pressure */
  uv_shutdown_t shutdown;
  char buf[READ_SIZE];
} conn_t;

/* A queued write owns a copy of the bytes the kernel did not take. */
typedef struct {
  uv_write_t req;
  char data[];
} write_t;

static server_t srv; /* see server_main.h */
/* Per loop (--loops): each counts on its own thread. */
static unsigned long long accepted[SERVER_MAX_LOOPS], accept_errors[SERVER_MAX_LOOPS];

static void on_close(uv_handle_t* h) {
  free(h->data);
}

static void close_conn(conn_t* c) {
  if (!uv_is_closing((uv_handle_t*)&c->tcp)) uv_close((uv_handle_t*)&c->tcp, on_close);
}

static void on_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  conn_t* c = h->data;
  (void)suggested;
  *buf = uv_buf_init(c->buf, sizeof c->buf);
}

static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf);

static void on_write(uv_write_t* req, int status) {
  conn_t* c = req->handle->data;
  free(req);
  if (uv_is_closing((uv_handle_t*)&c->tcp)) return;
  if (status < 0) {
    close_conn(c);
    return;
  }
  if (c->paused && uv_stream_get_write_queue_size((uv_stream_t*)&c->tcp) < LOW_WATER) {
    c->paused = 0;
    if (uv_read_start((uv_stream_t*)&c->tcp, on_alloc, on_read) != 0) close_conn(c);
  }
}

static void echo(conn_t* c, const char* p, size_t n) {
  uv_stream_t* s = (uv_stream_t*)&c->tcp;
  uv_buf_t b = uv_buf_init((char*)p, (unsigned)n);
  /* Fails with EAGAIN while writes are queued, which keeps the order. */
  int w = uv_try_write(s, &b, 1);
  if (w == (int)n) return;
  if (w < 0 && w != UV_EAGAIN) {
    close_conn(c);
    return;
  }
  if (w > 0) {
    p += w;
    n -= (size_t)w;
  }
  write_t* req = malloc(sizeof *req + n);
  if (req == NULL) {
    close_conn(c);
    return;
  }
  memcpy(req->data, p, n);
  b = uv_buf_init(req->data, (unsigned)n);
  if (uv_write(&req->req, s, &b, 1, on_write) != 0) {
    free(req);
    close_conn(c);
    return;
  }
  if (uv_stream_get_write_queue_size(s) > HIGH_WATER) {
    uv_read_stop(s);
    c->paused = 1;
  }
}

static void on_shutdown(uv_shutdown_t* req, int status) {
  (void)status;
  close_conn(req->handle->data);
}

static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  conn_t* c = s->data;
  if (nread > 0) {
    echo(c, buf->base, (size_t)nread);
  } else if (nread == UV_EOF) {
    /* libuv has stopped reading; the shutdown waits for queued writes. */
    if (uv_shutdown(&c->shutdown, s, on_shutdown) != 0) close_conn(c);
  } else if (nread < 0) {
    close_conn(c);
  }
}

static void on_connection(uv_stream_t* server, int status) {
  if (status < 0) {
    accept_errors[server_loop_index(&srv, server->loop)]++;
    return;
  }
  conn_t* c = malloc(sizeof *c);
  if (c == NULL) {
    fprintf(stderr, "echo_server: out of memory\n");
    abort();
  }
  c->paused = 0;
  uv_tcp_init(server->loop, &c->tcp);
  c->tcp.data = c;
  if (uv_accept(server, (uv_stream_t*)&c->tcp) != 0) {
    close_conn(c);
    return;
  }
  accepted[server_loop_index(&srv, server->loop)]++;
  uv_tcp_nodelay(&c->tcp, 1);
  if (uv_read_start((uv_stream_t*)&c->tcp, on_alloc, on_read) != 0) close_conn(c);
}

/* server_main.h stops the server with this: it calls it for every
 * connection (a handle whose data is set) when SIGINT or SIGTERM comes. */
static void stop_conn(void* c) {
  close_conn(c);
}

int main(int argc, char** argv) {
  srv.name = "echo_server";
  srv.on_connection = on_connection;
  srv.close_conn = stop_conn;
  srv.multi_loop = 1;
  if (server_parse_args(&srv, argc, argv) != 0) return 2;
  int status = server_run(&srv);
  unsigned long long total = 0, errors = 0;
  for (int i = 0; i < srv.loops; i++) {
    total += accepted[i];
    errors += accept_errors[i];
  }
  fprintf(stderr, "echo_server: %llu connections, %llu accept errors", total, errors);
  if (srv.loops > 1) {
    fprintf(stderr, " (connections per loop:");
    for (int i = 0; i < srv.loops; i++) fprintf(stderr, " %llu", accepted[i]);
    fprintf(stderr, ")");
  }
  fprintf(stderr, "\n");
  return status;
}
