// SPDX-License-Identifier: MIT
/* phaseloop benchmark: TCP connect/accept rate.
 *
 * A listening socket and a pool of client handles share one loop.  Each
 * client slot connects to the server, closes as soon as the connect has
 * completed and, from its close callback, starts the next connection while
 * any are left; the server accepts every connection and closes it at once.
 * So at most <concurrency> connections are in flight and each one costs a
 * socket, a connect, an accept and two closes.
 *
 * A connection counts once both sides are closed; the clock runs from the
 * first connect until the last close, then the server closes too.  Each
 * variant runs on a fresh loop with its own listening port, so the
 * TIME_WAIT sockets a previous run leaves behind cannot collide with it.
 *
 * Variants: pound_c100 (100 connections in flight) and pound_c1000.
 *
 * usage: pound [connections]      (default 20000, per variant)
 * output: RESULT pound_c<N> <connections/s> conns/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "pound: check failed at line %d: %s\n",             \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define MAX_CONCURRENCY 1000

struct client {
  uv_tcp_t tcp; /* first member: callbacks cast back from the handle */
  uv_connect_t connect;
};

/* Accepted sockets come from a free list: steady state does not allocate. */
struct peer {
  uv_tcp_t tcp;
  struct peer* next;
};

static uv_loop_t loop;
static uv_tcp_t server;
static struct sockaddr_storage server_addr;
static struct client clients[MAX_CONCURRENCY];
static struct peer* peer_free;
static unsigned long target;
static unsigned long started;
static unsigned long client_closed;
static unsigned long peer_closed;
static uint64_t t_end;

static void maybe_finish(void) {
  if (client_closed == target && peer_closed == target) {
    t_end = uv_hrtime();
    uv_close((uv_handle_t*) &server, NULL);
  }
}

static void start_connect(struct client* c);

static void on_client_close(uv_handle_t* h) {
  client_closed++;
  if (started < target)
    start_connect((struct client*) h);
  else
    maybe_finish();
}

static void on_connect(uv_connect_t* req, int status) {
  CHECK(status == 0);
  uv_close((uv_handle_t*) req->handle, on_client_close);
}

static void start_connect(struct client* c) {
  started++;
  CHECK(uv_tcp_init(&loop, &c->tcp) == 0);
  CHECK(uv_tcp_connect(&c->connect, &c->tcp,
                       (const struct sockaddr*) &server_addr,
                       on_connect) == 0);
}

static void on_peer_close(uv_handle_t* h) {
  struct peer* p = (struct peer*) h;
  p->next = peer_free;
  peer_free = p;
  peer_closed++;
  maybe_finish();
}

static void on_connection(uv_stream_t* srv, int status) {
  struct peer* p;

  CHECK(status == 0);
  p = peer_free;
  if (p != NULL) {
    peer_free = p->next;
  } else {
    p = malloc(sizeof(*p));
    CHECK(p != NULL);
  }
  CHECK(uv_tcp_init(&loop, &p->tcp) == 0);
  CHECK(uv_accept(srv, (uv_stream_t*) &p->tcp) == 0);
  uv_close((uv_handle_t*) &p->tcp, on_peer_close);
}

static void run_variant(unsigned concurrency, unsigned long conns) {
  struct sockaddr_in addr;
  int len = sizeof(server_addr);
  uint64_t t_start;
  unsigned i;

  CHECK(concurrency > 0 && concurrency <= MAX_CONCURRENCY);
  target = conns;
  started = client_closed = peer_closed = 0;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr*) &addr, 0) == 0);
  /* The backlog must hold every connection in flight, or the kernel drops
   * SYNs and the retransmit timer (a second) dominates the figure. */
  CHECK(uv_listen((uv_stream_t*) &server, (int) concurrency + 1,
                  on_connection) == 0);
  CHECK(uv_tcp_getsockname(&server, (struct sockaddr*) &server_addr,
                           &len) == 0);

  t_start = uv_hrtime();
  for (i = 0; i < concurrency && started < target; i++)
    start_connect(&clients[i]);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  CHECK(uv_loop_close(&loop) == 0);
  CHECK(client_closed == target && peer_closed == target);
  while (peer_free != NULL) {
    struct peer* p = peer_free;
    peer_free = p->next;
    free(p);
  }

  if (t_end <= t_start) t_end = t_start + 1;
  printf("RESULT pound_c%u %.0f conns/s\n", concurrency,
         (double) conns * 1e9 / (double) (t_end - t_start));
  fflush(stdout);
}

int main(int argc, char** argv) {
  unsigned long conns = 20000UL;

  if (argc > 1) {
    conns = strtoul(argv[1], NULL, 10);
    CHECK(conns >= 1);
  }

  run_variant(100, conns);
  run_variant(1000, conns);
  return 0;
}
