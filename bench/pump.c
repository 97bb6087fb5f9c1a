// SPDX-License-Identifier: MIT
/* phaseloop benchmark: stream throughput.
 *
 * Writers push 64 KiB buffers as fast as the loop lets them to readers on
 * the same loop.  Each writer keeps at most WRITES_IN_FLIGHT writes queued
 * (so the write queue stays full but bounded: 512 KiB) and queues the next
 * one from every write callback.  Once all of a writer's share has been
 * written it shuts its side down (a pipe's write end is closed instead);
 * the reader counts what arrives and closes on EOF, which is when its
 * share is checked.  The clock runs from the first write to the last EOF.
 *
 * Variants, each on a fresh loop with the same total byte count:
 *   pump_tcp_1c  - one TCP connection over loopback
 *   pump_tcp_4c  - four TCP connections sharing the total
 *   pump_pipe    - one anonymous pipe (uv_pipe + uv_pipe_open on both ends)
 * The readers read into one shared buffer and never look at the bytes:
 * this measures the loop's write queue and read path, not memcpy.
 *
 * usage: pump [mebibytes]      (default 1024, total per variant)
 * output: RESULT pump_<variant> <MB/s> MB/s      (MB = 10^6 bytes)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "pump: check failed at line %d: %s\n",              \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define CHUNK (64 * 1024)
#define WRITES_IN_FLIGHT 8
#define MAX_CONNS 8

/* A stream handle large enough for either kind; the union puts the
 * handle at offset 0, so a uv_stream_t* can be cast back to its end. */
union stream_any {
  uv_tcp_t tcp;
  uv_pipe_t pipe;
  uv_stream_t stream;
  uv_handle_t handle;
};

struct writer {
  union stream_any s; /* first member */
  uv_connect_t connect;
  uv_shutdown_t shutdown;
  uv_write_t writes[WRITES_IN_FLIGHT];
  unsigned long long quota; /* bytes */
  unsigned long long queued;
  unsigned in_flight;
};

struct reader {
  union stream_any s; /* first member */
  unsigned long long expected;
  unsigned long long got;
};

static uv_loop_t loop;
static uv_tcp_t server;
static struct writer writers[MAX_CONNS];
static struct reader readers[MAX_CONNS];
static unsigned nconns;
static int over_tcp; /* the TCP variants also own the listening server */
static unsigned accepted;
static unsigned connected;
static unsigned readers_done;
static unsigned long long received;
static char out_buf[CHUNK];
static char in_buf[CHUNK];
static uint64_t t_start, t_end;

static void start_writing(void);
static void pump_more(struct writer* w);

static void on_close(uv_handle_t* h) {
  (void) h;
}

static void on_shutdown(uv_shutdown_t* req, int status) {
  CHECK(status == 0);
  uv_close((uv_handle_t*) req->handle, on_close);
}

static void on_written(uv_write_t* req, int status) {
  struct writer* w = (struct writer*) req->handle;
  CHECK(status == 0);
  w->in_flight--;
  pump_more(w);
}

/* Refills the writer's queue.  Requests are reused in a ring: with
 * in-order completion the slot after the newest in flight is always free. */
static void pump_more(struct writer* w) {
  uv_buf_t b;

  while (w->in_flight < WRITES_IN_FLIGHT && w->queued < w->quota) {
    unsigned long long left = w->quota - w->queued;
    unsigned slot = (unsigned) ((w->queued / CHUNK) % WRITES_IN_FLIGHT);
    b = uv_buf_init(out_buf, left < CHUNK ? (unsigned) left : CHUNK);
    CHECK(uv_write(&w->writes[slot], &w->s.stream, &b, 1, on_written) == 0);
    w->queued += b.len;
    w->in_flight++;
  }
  if (w->queued < w->quota || w->in_flight > 0)
    return;
  /* shutdown(2) is for sockets; an anonymous pipe's reader sees EOF once
   * the write end is closed. */
  if (over_tcp)
    CHECK(uv_shutdown(&w->shutdown, &w->s.stream, on_shutdown) == 0);
  else
    uv_close(&w->s.handle, on_close);
}

static void reader_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  (void) h;
  (void) suggested;
  buf->base = in_buf;
  buf->len = sizeof(in_buf);
}

static void reader_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  struct reader* r = (struct reader*) s;
  (void) buf;

  if (nread > 0) {
    r->got += (unsigned long long) nread;
    received += (unsigned long long) nread;
    return;
  }
  if (nread == 0)
    return;
  CHECK(nread == UV_EOF);
  CHECK(r->got == r->expected);
  uv_close(&r->s.handle, on_close);
  if (++readers_done == nconns) {
    t_end = uv_hrtime();
    if (over_tcp)
      uv_close((uv_handle_t*) &server, on_close);
  }
}

static void start_writing(void) {
  unsigned i;
  t_start = uv_hrtime();
  for (i = 0; i < nconns; i++)
    pump_more(&writers[i]);
}

/* The TCP variants start once every connection is both connected and
 * accepted, so that no writer gets a head start. */
static void maybe_start(void) {
  if (connected == nconns && accepted == nconns)
    start_writing();
}

static void on_connect(uv_connect_t* req, int status) {
  (void) req;
  CHECK(status == 0);
  connected++;
  maybe_start();
}

static void on_connection(uv_stream_t* srv, int status) {
  struct reader* r;

  CHECK(status == 0);
  CHECK(accepted < nconns);
  /* Accept order need not match connect order; every connection carries
   * the same share, so any reader may take any of them. */
  r = &readers[accepted++];
  CHECK(uv_tcp_init(&loop, &r->s.tcp) == 0);
  CHECK(uv_accept(srv, &r->s.stream) == 0);
  CHECK(uv_read_start(&r->s.stream, reader_alloc, reader_read) == 0);
  maybe_start();
}

static void setup_tcp(void) {
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int len = sizeof(bound);
  unsigned i;

  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr*) &addr, 0) == 0);
  CHECK(uv_listen((uv_stream_t*) &server, 128, on_connection) == 0);
  CHECK(uv_tcp_getsockname(&server, (struct sockaddr*) &bound, &len) == 0);
  for (i = 0; i < nconns; i++) {
    CHECK(uv_tcp_init(&loop, &writers[i].s.tcp) == 0);
    CHECK(uv_tcp_connect(&writers[i].connect, &writers[i].s.tcp,
                         (const struct sockaddr*) &bound, on_connect) == 0);
  }
}

static void setup_pipe(void) {
  uv_file fds[2];

  CHECK(uv_pipe(fds, 0, 0) == 0);
  CHECK(uv_pipe_init(&loop, &readers[0].s.pipe, 0) == 0);
  CHECK(uv_pipe_open(&readers[0].s.pipe, fds[0]) == 0);
  CHECK(uv_pipe_init(&loop, &writers[0].s.pipe, 0) == 0);
  CHECK(uv_pipe_open(&writers[0].s.pipe, fds[1]) == 0);
  CHECK(uv_read_start(&readers[0].s.stream, reader_alloc, reader_read) == 0);
  start_writing();
}

static void run_variant(const char* name, int use_pipe, unsigned n,
                        unsigned long long total) {
  unsigned long long share = total / n;
  unsigned i;

  CHECK(n > 0 && n <= MAX_CONNS);
  memset(writers, 0, sizeof(writers));
  memset(readers, 0, sizeof(readers));
  nconns = n;
  over_tcp = !use_pipe;
  accepted = connected = readers_done = 0;
  received = 0;
  for (i = 0; i < n; i++) {
    writers[i].quota = share;
    readers[i].expected = share;
  }

  CHECK(uv_loop_init(&loop) == 0);
  if (use_pipe)
    setup_pipe();
  else
    setup_tcp();
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  CHECK(uv_loop_close(&loop) == 0);
  CHECK(readers_done == n && received == share * n);

  if (t_end <= t_start) t_end = t_start + 1;
  printf("RESULT %s %.0f MB/s\n", name,
         (double) received * 1e3 / (double) (t_end - t_start));
  fflush(stdout);
}

int main(int argc, char** argv) {
  unsigned long long mib = 1024;

  if (argc > 1) {
    mib = strtoull(argv[1], NULL, 10);
    CHECK(mib >= 1);
  }
  memset(out_buf, 'x', sizeof(out_buf));

  run_variant("pump_tcp_1c", 0, 1, mib << 20);
  run_variant("pump_tcp_4c", 0, 4, mib << 20);
  run_variant("pump_pipe", 1, 1, mib << 20);
  return 0;
}
