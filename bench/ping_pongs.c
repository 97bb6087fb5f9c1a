// SPDX-License-Identifier: MIT
/* phaseloop benchmark: TCP round trips over loopback.
 *
 * A listening socket and its clients share one loop and one thread, as in
 * libuv's ping_pongs benchmark.  Each client sends "PING\n"; the server
 * writes whatever it reads straight back; once the client has received the
 * five bytes it sends the next ping.  A round trip therefore costs two
 * small writes, two reads and at least two trips through epoll_wait, which
 * makes this the best measure of per-event overhead in the stream code.
 *
 * Both variants run on a fresh loop: one client, then eight clients with
 * the same total number of round trips split between them (so every poll
 * returns several ready sockets).  TCP_NODELAY is set on every socket so
 * that Nagle's algorithm cannot hold a ping back.  Timing starts once every
 * client is connected and stops when the last pong has arrived; the
 * clients then close, the server sides see EOF and close, and the loop is
 * run to completion and closed.
 *
 * usage: ping_pongs [round_trips]      (default 100000, total per variant)
 * output: RESULT ping_pongs_<N>c <round trips/s> trips/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "ping_pongs: check failed at line %d: %s\n",        \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define MAX_CLIENTS 64
#define ECHO_MAX 64 /* the server never holds more than one ping per socket */

static const char PING[] = "PING\n";
#define PING_LEN (sizeof(PING) - 1)

struct client {
  uv_tcp_t tcp; /* first member: callbacks cast back from the handle */
  uv_connect_t connect;
  uv_write_t write;
  unsigned long quota;
  unsigned long done;
  size_t got; /* bytes of the current pong received so far */
  char rbuf[ECHO_MAX];
};

/* An echo in flight: the request and a copy of the bytes it writes, kept
 * on a free list so that steady state does not allocate. */
struct echo {
  uv_write_t req;
  struct echo* next;
  char data[ECHO_MAX];
};

struct peer {
  uv_tcp_t tcp;
  char rbuf[ECHO_MAX];
};

static uv_loop_t loop;
static uv_tcp_t server;
static struct client clients[MAX_CLIENTS];
static unsigned nclients;
static unsigned connected;
static unsigned finished;
static unsigned peers_open;
static struct echo* echo_free;
static uint64_t t_start, t_end;

static void send_ping(struct client* c);

static void on_client_close(uv_handle_t* h) {
  (void) h;
  finished++;
  if (finished == nclients)
    uv_close((uv_handle_t*) &server, NULL);
}

static void client_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  struct client* c = (struct client*) h;
  (void) suggested;
  buf->base = c->rbuf;
  buf->len = sizeof(c->rbuf);
}

static void client_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  struct client* c = (struct client*) s;
  (void) buf;

  if (nread == 0)
    return;
  CHECK(nread > 0);
  c->got += (size_t) nread;
  CHECK(c->got <= PING_LEN);
  if (c->got < PING_LEN)
    return;
  c->got = 0;
  c->done++;
  if (c->done < c->quota) {
    send_ping(c);
    return;
  }
  t_end = uv_hrtime();
  uv_close((uv_handle_t*) &c->tcp, on_client_close);
}

static void on_ping_written(uv_write_t* req, int status) {
  (void) req;
  CHECK(status == 0);
}

static void send_ping(struct client* c) {
  uv_buf_t b = uv_buf_init((char*) PING, PING_LEN);
  CHECK(uv_write(&c->write, (uv_stream_t*) &c->tcp, &b, 1,
                 on_ping_written) == 0);
}

static void on_connect(uv_connect_t* req, int status) {
  struct client* c = (struct client*) req->handle;
  unsigned i;

  CHECK(status == 0);
  CHECK(uv_tcp_nodelay(&c->tcp, 1) == 0);
  CHECK(uv_read_start((uv_stream_t*) &c->tcp, client_alloc, client_read) == 0);
  if (++connected < nclients)
    return;
  /* Everyone is connected: start the clock and every client's first ping. */
  t_start = uv_hrtime();
  for (i = 0; i < nclients; i++)
    send_ping(&clients[i]);
}

static void on_peer_close(uv_handle_t* h) {
  free(h);
  peers_open--;
}

static void on_echo_written(uv_write_t* req, int status) {
  struct echo* e = (struct echo*) req;
  CHECK(status == 0);
  e->next = echo_free;
  echo_free = e;
}

static void peer_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  struct peer* p = (struct peer*) h;
  (void) suggested;
  buf->base = p->rbuf;
  buf->len = sizeof(p->rbuf);
}

static void peer_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  struct echo* e;
  uv_buf_t out;

  if (nread == 0)
    return;
  if (nread == UV_EOF) {
    uv_close((uv_handle_t*) s, on_peer_close);
    return;
  }
  CHECK(nread > 0 && (size_t) nread <= ECHO_MAX);
  e = echo_free;
  if (e != NULL) {
    echo_free = e->next;
  } else {
    e = malloc(sizeof(*e));
    CHECK(e != NULL);
  }
  memcpy(e->data, buf->base, (size_t) nread);
  out = uv_buf_init(e->data, (unsigned) nread);
  CHECK(uv_write(&e->req, s, &out, 1, on_echo_written) == 0);
}

static void on_connection(uv_stream_t* srv, int status) {
  struct peer* p;

  CHECK(status == 0);
  p = malloc(sizeof(*p));
  CHECK(p != NULL);
  CHECK(uv_tcp_init(&loop, &p->tcp) == 0);
  CHECK(uv_accept(srv, (uv_stream_t*) &p->tcp) == 0);
  CHECK(uv_tcp_nodelay(&p->tcp, 1) == 0);
  CHECK(uv_read_start((uv_stream_t*) &p->tcp, peer_alloc, peer_read) == 0);
  peers_open++;
}

static void run_variant(unsigned n, unsigned long trips) {
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int len = sizeof(bound);
  unsigned long total = 0;
  unsigned i;

  CHECK(n > 0 && n <= MAX_CLIENTS && trips >= n);
  nclients = n;
  connected = finished = 0;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr*) &addr, 0) == 0);
  CHECK(uv_listen((uv_stream_t*) &server, 128, on_connection) == 0);
  CHECK(uv_tcp_getsockname(&server, (struct sockaddr*) &bound, &len) == 0);

  for (i = 0; i < n; i++) {
    struct client* c = &clients[i];
    memset(c, 0, sizeof(*c));
    c->quota = trips / n + (i < trips % n ? 1 : 0);
    CHECK(uv_tcp_init(&loop, &c->tcp) == 0);
    CHECK(uv_tcp_connect(&c->connect, &c->tcp,
                         (const struct sockaddr*) &bound, on_connect) == 0);
  }

  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  CHECK(peers_open == 0);
  CHECK(uv_loop_close(&loop) == 0);

  for (i = 0; i < n; i++) {
    CHECK(clients[i].done == clients[i].quota);
    total += clients[i].done;
  }
  CHECK(total == trips);
  while (echo_free != NULL) {
    struct echo* e = echo_free;
    echo_free = e->next;
    free(e);
  }

  if (t_end <= t_start) t_end = t_start + 1;
  printf("RESULT ping_pongs_%uc %.0f trips/s\n",
         n, (double) total * 1e9 / (double) (t_end - t_start));
  fflush(stdout);
}

int main(int argc, char** argv) {
  unsigned long trips = 100000UL;

  if (argc > 1) {
    trips = strtoul(argv[1], NULL, 10);
    CHECK(trips >= 8);
  }

  run_variant(1, trips);
  run_variant(8, trips);
  return 0;
}
