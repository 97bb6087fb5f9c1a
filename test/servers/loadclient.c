// SPDX-License-Identifier: MIT
/* loadclient: the client the tests of the example servers drive
 * (test/servers/NAME.sh). Plain POSIX sockets and epoll, neither libuv nor
 * phaseloop, so that it judges both the same way.
 *
 *   loadclient MODE --port N [--host ADDR] [--pid SERVER_PID] [options]
 *
 * Echo modes. Connection i sends `--bytes` bytes of its own pseudo-random
 * stream (seeded by i), shuts down its write side, and checks every byte
 * that comes back against the stream (so order, content and count are
 * checked), then expects end of input.
 *   echo   --conns N --bytes B
 *          All N connections are open before any sends.
 *   slow   --conns N --bytes B --slow S --slow-bytes B2 --rss-budget KIB
 *          [--hold-ms M]
 *          S connections send B2 bytes each but read nothing while the N
 *          normal ones run to the end, and for M ms more; then they read
 *          and must get everything back. The server's VmRSS (from
 *          /proc/PID/status) may not grow by more than KIB meanwhile.
 *   reset  --resets R --reset-bytes B2 --conns N --bytes B
 *          R connections send without reading; half of them reset
 *          (SO_LINGER 0) at once, half once the server has stopped
 *          taking their bytes; then N normal connections.
 *   storm  --storm K --hold-ms M --conns N --bytes B
 *          K connections at once, each sending a few bytes; after M ms
 *          they are closed; then N normal connections.
 * With --pid, every echo mode ends by waiting until the server holds as
 * many descriptors as when it began (each closed connection was closed).
 *
 * HTTP:
 *   http   --conns N --requests R [--pipeline] --get PATH=FILE... --post B
 *          Each connection makes R requests (a GET of each PATH, whose
 *          body must equal FILE, and a POST /echo of B bytes, in turn),
 *          one after another, or all at once with --pipeline; the last
 *          says "Connection: close" and the server must then close.
 *   raw    [--half-close]
 *          Sends standard input, then copies what comes back to standard
 *          output until the server closes.
 * Chat:
 *   chat   Three clients, nicknames, interleaved senders, a client that
 *          never reads (must be dropped while the others go on), leaving.
 *
 * Prints one summary line on success and exits 0; on failure prints why
 * on stderr and exits 1. Every wait is bounded (--timeout S, default 60).
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 65536

/* ---- options and small helpers ------------------------------------------ */

static struct {
  const char* host;
  int port;
  int pid;
  int conns;
  long long bytes;
  int slow;
  long long slow_bytes;
  long long rss_budget_kib;
  int hold_ms;
  int resets;
  long long reset_bytes;
  int storm;
  int requests;
  int pipeline;
  long long post;
  int half_close;
  int timeout_s;
} opt = {"127.0.0.1", 0, 0, 0, 0, 0, 0, 0, 1000, 0, 0, 0, 1, 0, 0, 0, 60};

static double t_start;
static unsigned char scratch[CHUNK];
static unsigned char expect_buf[CHUNK];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "loadclient: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

static void check_deadline(const char* what) {
  if (now() - t_start > opt.timeout_s) die("timed out after %d s: %s", opt.timeout_s, what);
}

static void* xmalloc(size_t n) {
  void* p = calloc(1, n);
  if (p == NULL) die("out of memory");
  return p;
}

/* Enough descriptors for every connection at once. */
static void raise_fd_limit(int want) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  if (rl.rlim_cur >= (rlim_t)want) return;
  rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= (rlim_t)want ? (rlim_t)want : rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
  if (rl.rlim_cur < (rlim_t)want) die("need %d descriptors, the hard limit is %lu", want, (unsigned long)rl.rlim_max);
}

static struct sockaddr_in server_addr(void) {
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)opt.port);
  if (inet_pton(AF_INET, opt.host, &a.sin_addr) != 1) die("bad address %s", opt.host);
  return a;
}

/* A non-blocking socket, connecting (or connected). */
static int connect_nb(void) {
  struct sockaddr_in a = server_addr();
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket: %s", strerror(errno));
  if (connect(fd, (struct sockaddr*)&a, sizeof a) != 0 && errno != EINPROGRESS)
    die("connect: %s", strerror(errno));
  return fd;
}

/* Closing with SO_LINGER {1, 0} sends a reset instead of a FIN. */
static void close_reset(int fd) {
  struct linger l = {1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  close(fd);
}

/* ---- the server process ----------------------------------------------------- */

static long rss_kib(void) {
  char path[64], line[256];
  long kib = -1;
  snprintf(path, sizeof path, "/proc/%d/status", opt.pid);
  FILE* f = fopen(path, "r");
  if (f == NULL) die("server %d is gone", opt.pid);
  while (fgets(line, sizeof line, f) != NULL)
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

static int fd_count(void) {
  char path[64];
  int n = 0;
  snprintf(path, sizeof path, "/proc/%d/fd", opt.pid);
  DIR* d = opendir(path);
  if (d == NULL) die("server %d is gone", opt.pid);
  for (struct dirent* e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

static int fd_base = -1;

static void note_fd_base(void) {
  if (opt.pid > 0) fd_base = fd_count();
}

/* Every connection the server had is closed again. */
static void wait_fd_base(void) {
  if (fd_base < 0) return;
  double until = now() + 10;
  int n;
  while ((n = fd_count()) > fd_base) {
    if (now() > until) die("the server holds %d descriptors, %d before the test", n, fd_base);
    usleep(20000);
  }
}

/* ---- the byte streams -------------------------------------------------------- */

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Bytes [pos, pos + len) of stream `seed`: byte k is byte k % 8 of
 * mix(seed * 2^32 + k / 8), so any part can be made on its own. */
static void fill(uint64_t seed, uint64_t pos, unsigned char* out, size_t len) {
  while (len > 0) {
    uint64_t w = mix((seed << 32) + (pos >> 3));
    unsigned off = (unsigned)(pos & 7);
    size_t take = 8 - off < len ? 8 - off : len;
    for (size_t i = 0; i < take; i++) out[i] = (unsigned char)(w >> (8 * (off + i)));
    out += take;
    pos += take;
    len -= take;
  }
}

/* ---- echo connections -------------------------------------------------------- */

enum { C_CONNECTING, C_OPEN, C_DONE, C_FAILED };

typedef struct {
  int fd;
  int state;
  int go;             /* may send and read once connected */
  int reading;        /* reads when readable (slow ones wait) */
  int writing;        /* EPOLLOUT wanted */
  uint64_t seed;
  uint64_t total;
  uint64_t sent;
  uint64_t received;
  double last_progress;
} echo_conn;

static int ep = -1;

static void ep_set(echo_conn* c) {
  struct epoll_event ev = {0};
  ev.events = (c->reading ? EPOLLIN : 0) | (c->writing ? EPOLLOUT : 0);
  ev.data.ptr = c;
  if (epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) != 0) die("epoll_ctl: %s", strerror(errno));
}

static void open_conns(echo_conn* cs, int n, uint64_t seed0, uint64_t total) {
  for (int i = 0; i < n; i++) {
    echo_conn* c = &cs[i];
    c->fd = connect_nb();
    c->state = C_CONNECTING;
    c->seed = seed0 + (uint64_t)i;
    c->total = total;
    c->writing = 1;
    struct epoll_event ev = {0};
    ev.events = EPOLLOUT;
    ev.data.ptr = c;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) != 0) die("epoll_ctl: %s", strerror(errno));
  }
}

static void conn_fail(echo_conn* c, int err, int strict, const char* what) {
  if (strict)
    die("connection %llu: %s: %s (sent %llu, received %llu of %llu)", (unsigned long long)c->seed, what,
        err ? strerror(err) : "end of input", (unsigned long long)c->sent, (unsigned long long)c->received,
        (unsigned long long)c->total);
  c->state = C_FAILED;
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
}

/* One readiness event. `strict`: any failure ends the run. */
static void conn_event(echo_conn* c, unsigned events, int strict) {
  if (c->state == C_CONNECTING) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      conn_fail(c, err, strict, "connect");
      return;
    }
    c->state = C_OPEN;
    c->writing = c->go && c->total > 0;
    c->last_progress = now();
    ep_set(c);
    return;
  }
  if (c->state != C_OPEN) return;
  if ((events & EPOLLOUT) && c->sent < c->total) {
    size_t n = c->total - c->sent < CHUNK ? (size_t)(c->total - c->sent) : CHUNK;
    fill(c->seed, c->sent, scratch, n);
    ssize_t w = send(c->fd, scratch, n, MSG_NOSIGNAL);
    if (w < 0 && errno != EAGAIN && errno != EINTR) {
      conn_fail(c, errno, strict, "send");
      return;
    }
    if (w > 0) {
      c->sent += (uint64_t)w;
      c->last_progress = now();
    }
    if (c->sent == c->total) {
      shutdown(c->fd, SHUT_WR);
      c->writing = 0;
      ep_set(c);
    }
  }
  if ((events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && c->reading) {
    ssize_t r = recv(c->fd, scratch, CHUNK, 0);
    if (r < 0) {
      if (errno != EAGAIN && errno != EINTR) conn_fail(c, errno, strict, "recv");
      return;
    }
    if (r == 0) {
      if (c->received != c->total || c->sent != c->total) {
        conn_fail(c, 0, strict, "early end of input");
        return;
      }
      c->state = C_DONE;
      epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
      return;
    }
    if (c->received + (uint64_t)r > c->sent) die("connection %llu: got bytes never sent", (unsigned long long)c->seed);
    fill(c->seed, c->received, expect_buf, (size_t)r);
    if (memcmp(scratch, expect_buf, (size_t)r) != 0) {
      size_t i = 0;
      while (scratch[i] == expect_buf[i]) i++;
      die("connection %llu: wrong byte at offset %llu", (unsigned long long)c->seed,
          (unsigned long long)(c->received + i));
    }
    c->received += (uint64_t)r;
  }
}

/* Waits for events until `until` returns true; calls `tick` every pass. */
static void pump(int (*until)(void*), void* arg, void (*tick)(void*), int strict, const char* what) {
  struct epoll_event evs[256];
  while (!until(arg)) {
    check_deadline(what);
    int n = epoll_wait(ep, evs, 256, 20);
    if (n < 0 && errno != EINTR) die("epoll_wait: %s", strerror(errno));
    for (int i = 0; i < n; i++) conn_event(evs[i].data.ptr, evs[i].events, strict);
    if (tick) tick(arg);
  }
}

typedef struct {
  echo_conn* cs;
  int n;
} conn_set;

static int all_connected(void* arg) {
  conn_set* s = arg;
  for (int i = 0; i < s->n; i++)
    if (s->cs[i].state == C_CONNECTING) return 0;
  return 1;
}

static int all_done(void* arg) {
  conn_set* s = arg;
  for (int i = 0; i < s->n; i++)
    if (s->cs[i].state == C_CONNECTING || s->cs[i].state == C_OPEN) return 0;
  return 1;
}

/* Lets open connections send, and read if `read`. */
static void start_conns(echo_conn* cs, int n, int read) {
  for (int i = 0; i < n; i++) {
    cs[i].go = 1;
    cs[i].reading = read;
    cs[i].writing = cs[i].total > 0;
    ep_set(&cs[i]);
  }
}

/* N connections of B bytes each, all open before any sends. */
static void echo_phase(int n, uint64_t bytes, uint64_t seed0) {
  echo_conn* cs = xmalloc(sizeof *cs * (size_t)n);
  conn_set s = {cs, n};
  open_conns(cs, n, seed0, bytes);
  pump(all_connected, &s, NULL, 1, "connecting");
  start_conns(cs, n, 1);
  pump(all_done, &s, NULL, 1, "echoing");
  for (int i = 0; i < n; i++) close(cs[i].fd);
  free(cs);
}

static int mode_echo(void) {
  note_fd_base();
  double t0 = now();
  echo_phase(opt.conns, (uint64_t)opt.bytes, 0);
  double t = now() - t0;
  wait_fd_base();
  printf("echo: %d connections x %lld bytes, %lld bytes echoed byte-exact in %.1f s\n", opt.conns, opt.bytes,
         (long long)opt.conns * opt.bytes, t);
  return 0;
}

/* ---- slow readers ------------------------------------------------------------ */

typedef struct {
  echo_conn* slow;
  echo_conn* normal;
  long base;
  long peak;
  double normal_done_at; /* 0 until the normal connections are done */
  double sampled_at;
  uint64_t slow_sent_at_release;
  int released;
} slow_run;

static void slow_tick(void* arg) {
  slow_run* r = arg;
  if (now() - r->sampled_at >= 0.01) {
    long rss = rss_kib();
    if (rss > r->peak) r->peak = rss;
    r->sampled_at = now();
  }
  if (r->released) return;
  if (r->normal_done_at == 0) {
    conn_set s = {r->normal, opt.conns};
    if (all_done(&s)) r->normal_done_at = now();
    return;
  }
  if (now() - r->normal_done_at < opt.hold_ms / 1000.0) return;
  r->released = 1;
  for (int i = 0; i < opt.slow; i++) {
    r->slow_sent_at_release += r->slow[i].sent;
    r->slow[i].reading = 1;
    ep_set(&r->slow[i]);
  }
}

static int slow_finished(void* arg) {
  slow_run* r = arg;
  conn_set s = {r->slow, opt.slow};
  return r->released && all_done(&s);
}

static int mode_slow(void) {
  if (opt.pid <= 0 || opt.rss_budget_kib <= 0) die("slow needs --pid and --rss-budget");
  note_fd_base();
  slow_run r = {0};
  int total = opt.slow + opt.conns;
  echo_conn* cs = xmalloc(sizeof *cs * (size_t)total);
  conn_set all = {cs, total};
  r.slow = cs;
  r.normal = cs + opt.slow;
  r.base = r.peak = rss_kib();
  open_conns(r.slow, opt.slow, 0, (uint64_t)opt.slow_bytes);
  open_conns(r.normal, opt.conns, 100000, (uint64_t)opt.bytes);
  pump(all_connected, &all, NULL, 1, "connecting");
  start_conns(r.slow, opt.slow, 0);
  start_conns(r.normal, opt.conns, 1);
  double t0 = now();
  pump(slow_finished, &r, slow_tick, 1, "slow readers");
  double t = now() - t0;
  for (int i = 0; i < total; i++) close(cs[i].fd);
  free(cs);
  wait_fd_base();
  printf("slow: %d normal connections x %lld bytes done while %d readers stalled (%.1f MiB of their %.1f MiB "
         "sent by then), all byte-exact in %.1f s; server VmRSS %ld -> peak %ld KiB (+%ld, budget %lld)\n",
         opt.conns, opt.bytes, opt.slow, r.slow_sent_at_release / 1048576.0,
         opt.slow * (double)opt.slow_bytes / 1048576.0, t, r.base, r.peak, r.peak - r.base, opt.rss_budget_kib);
  if (r.peak - r.base > opt.rss_budget_kib)
    die("the server's VmRSS grew by %ld KiB, more than %lld", r.peak - r.base, opt.rss_budget_kib);
  return 0;
}

/* ---- resets ---------------------------------------------------------------- */

typedef struct {
  echo_conn* cs;
  int n;
  int reset;
} reset_run;

/* Even connections reset as soon as they have sent something; odd ones
 * once the server has stopped taking their bytes for 200 ms (its write
 * queue is then full, and it is in the middle of writing to them). */
static void reset_tick(void* arg) {
  reset_run* r = arg;
  double t = now();
  for (int i = 0; i < r->n; i++) {
    echo_conn* c = &r->cs[i];
    if (c->state != C_OPEN || c->sent == 0) continue;
    if (i % 2 == 0 || c->sent == c->total || t - c->last_progress > 0.2) {
      epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
      close_reset(c->fd);
      c->fd = -1;
      c->state = C_DONE;
      r->reset++;
    }
  }
}

static int reset_finished(void* arg) {
  reset_run* r = arg;
  return r->reset == r->n;
}

static int mode_reset(void) {
  note_fd_base();
  reset_run r = {xmalloc(sizeof(echo_conn) * (size_t)opt.resets), opt.resets, 0};
  conn_set s = {r.cs, r.n};
  open_conns(r.cs, r.n, 0, (uint64_t)opt.reset_bytes);
  pump(all_connected, &s, NULL, 1, "connecting");
  start_conns(r.cs, r.n, 0);
  pump(reset_finished, &r, reset_tick, 1, "resetting");
  free(r.cs);
  /* The server must have closed every reset connection, and serve on. */
  wait_fd_base();
  echo_phase(opt.conns, (uint64_t)opt.bytes, 100000);
  wait_fd_base();
  printf("reset: %d connections reset mid-transfer; then %d connections x %lld bytes byte-exact\n", opt.resets,
         opt.conns, opt.bytes);
  return 0;
}

/* ---- EMFILE storm ------------------------------------------------------------ */

typedef struct {
  double until;
} storm_run;

static int storm_over(void* arg) {
  return now() >= ((storm_run*)arg)->until;
}

static int mode_storm(void) {
  note_fd_base();
  echo_conn* cs = xmalloc(sizeof *cs * (size_t)opt.storm);
  open_conns(cs, opt.storm, 0, 16);
  for (int i = 0; i < opt.storm; i++) cs[i].go = cs[i].reading = 1;
  storm_run r = {now() + opt.hold_ms / 1000.0};
  /* Not strict: the server may drop any of them. */
  pump(storm_over, &r, NULL, 0, "storm");
  int echoed = 0, dropped = 0, waiting = 0;
  for (int i = 0; i < opt.storm; i++) {
    if (cs[i].state == C_DONE || (cs[i].state == C_OPEN && cs[i].received == cs[i].total)) echoed++;
    else if (cs[i].state == C_FAILED) dropped++;
    else waiting++;
    if (cs[i].state != C_FAILED) epoll_ctl(ep, EPOLL_CTL_DEL, cs[i].fd, NULL);
    close(cs[i].fd);
  }
  free(cs);
  fprintf(stderr, "storm: %d connections: %d echoed, %d dropped by the server, %d still waiting\n", opt.storm,
          echoed, dropped, waiting);
  if (echoed == 0) die("the server echoed nothing during the storm");
  wait_fd_base();
  echo_phase(opt.conns, (uint64_t)opt.bytes, 100000);
  wait_fd_base();
  printf("storm: %d connections at once survived; then %d connections x %lld bytes byte-exact\n", opt.storm,
         opt.conns, opt.bytes);
  return 0;
}

/* ---- HTTP ---------------------------------------------------------------------- */

typedef struct {
  const char* path;
  unsigned char* body; /* expected body of a GET; NULL for the POST */
  size_t len;
} http_kind;

static http_kind kinds[16];
static int nkinds;

typedef struct {
  int fd;
  int index;
  int next_send;     /* requests fully sent */
  int next_recv;     /* responses fully checked */
  char out[512];     /* the request head being sent */
  size_t out_len, out_off;
  uint64_t body_sent; /* of a POST being sent */
  char head[8192];
  size_t head_len;
  int in_body;
  uint64_t body_len, body_got;
  int done;
} http_conn;

static const http_kind* kind_of(const http_conn* c, int j) {
  return &kinds[(c->index + j) % nkinds];
}

static uint64_t post_seed(const http_conn* c, int j) {
  return (uint64_t)c->index * 1000 + (uint64_t)j + 1;
}

/* Makes the head of request j. */
static void http_prepare(http_conn* c, int j) {
  const http_kind* k = kind_of(c, j);
  const char* close_it = j == opt.requests - 1 ? "Connection: close\r\n" : "";
  int n;
  if (k->body != NULL)
    n = snprintf(c->out, sizeof c->out, "GET %s HTTP/1.1\r\nHost: loadclient\r\n%s\r\n", k->path, close_it);
  else
    n = snprintf(c->out, sizeof c->out, "POST /echo HTTP/1.1\r\nHost: loadclient\r\nContent-Length: %lld\r\n%s\r\n",
                 opt.post, close_it);
  c->out_len = (size_t)n;
  c->out_off = 0;
  c->body_sent = 0;
}

static int http_may_send(const http_conn* c) {
  return c->next_send < opt.requests && (opt.pipeline || c->next_send == c->next_recv);
}

static void http_send(http_conn* c) {
  while (http_may_send(c)) {
    ssize_t w;
    const http_kind* k = kind_of(c, c->next_send);
    if (c->out_off < c->out_len) {
      w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
      if (w > 0) c->out_off += (size_t)w;
    } else if (k->body == NULL && c->body_sent < (uint64_t)opt.post) {
      size_t n = opt.post - c->body_sent < CHUNK ? (size_t)(opt.post - c->body_sent) : CHUNK;
      fill(post_seed(c, c->next_send), c->body_sent, scratch, n);
      w = send(c->fd, scratch, n, MSG_NOSIGNAL);
      if (w > 0) c->body_sent += (uint64_t)w;
    } else {
      c->next_send++;
      if (c->next_send < opt.requests) http_prepare(c, c->next_send);
      continue;
    }
    if (w < 0) {
      if (errno == EAGAIN) return;
      die("http connection %d: send: %s", c->index, strerror(errno));
    }
  }
}

/* Checks the bytes of a response body against what request j expects. */
static void http_body(http_conn* c, const unsigned char* p, size_t n) {
  const http_kind* k = kind_of(c, c->next_recv);
  if (k->body != NULL) {
    if (memcmp(p, k->body + c->body_got, n) != 0)
      die("http connection %d: GET %s: wrong body near byte %llu", c->index, k->path,
          (unsigned long long)c->body_got);
  } else {
    fill(post_seed(c, c->next_recv), c->body_got, expect_buf, n);
    if (memcmp(p, expect_buf, n) != 0) {
      size_t at = 0;
      while (p[at] == expect_buf[at]) at++;
      char got[40], want[40];
      for (size_t i = 0; i < 8 && at + i < n; i++) {
        snprintf(got + 3 * i, 4, "%02x ", p[at + i]);
        snprintf(want + 3 * i, 4, "%02x ", expect_buf[at + i]);
      }
      die("http connection %d: POST /echo: wrong body at byte %llu of %llu (request %d): got %s, expected %s",
          c->index, (unsigned long long)(c->body_got + at), (unsigned long long)c->body_len, c->next_recv, got, want);
    }
  }
  c->body_got += n;
}

/* Parses the head of the response to request j. */
static void http_head(http_conn* c) {
  const http_kind* k = kind_of(c, c->next_recv);
  int last = c->next_recv == opt.requests - 1;
  c->head[c->head_len] = '\0';
  if (strncmp(c->head, "HTTP/1.1 200 OK\r\n", 17) != 0)
    die("http connection %d: request %d (%s): %.*s", c->index, c->next_recv, k->path,
        (int)strcspn(c->head, "\r"), c->head);
  char* cl = strcasestr(c->head, "\r\nContent-Length:");
  if (cl == NULL) die("http connection %d: no Content-Length", c->index);
  c->body_len = strtoull(cl + 17, NULL, 10);
  uint64_t want = k->body != NULL ? k->len : (uint64_t)opt.post;
  if (c->body_len != want)
    die("http connection %d: %s: Content-Length %llu, expected %llu", c->index, k->path,
        (unsigned long long)c->body_len, (unsigned long long)want);
  int says_close = strcasestr(c->head, "\r\nConnection: close\r\n") != NULL;
  if (says_close != last) die("http connection %d: Connection: close %s", c->index, last ? "missing" : "unexpected");
  c->in_body = 1;
  c->body_got = 0;
}

static void http_response_done(http_conn* c) {
  c->next_recv++;
  c->in_body = 0;
  c->head_len = 0;
}

static void http_recv(http_conn* c) {
  ssize_t r = recv(c->fd, scratch, CHUNK, 0);
  if (r < 0) {
    if (errno == EAGAIN) return;
    die("http connection %d: recv: %s", c->index, strerror(errno));
  }
  if (r == 0) {
    if (c->next_recv != opt.requests) die("http connection %d: closed after %d responses", c->index, c->next_recv);
    c->done = 1;
    return;
  }
  size_t off = 0;
  while (off < (size_t)r) {
    if (c->next_recv == opt.requests) die("http connection %d: bytes after the last response", c->index);
    if (!c->in_body) {
      /* Byte by byte up to the blank line: heads are small. */
      c->head[c->head_len++] = (char)scratch[off++];
      if (c->head_len >= 4 && memcmp(c->head + c->head_len - 4, "\r\n\r\n", 4) == 0) http_head(c);
      else if (c->head_len == sizeof c->head - 1) die("http connection %d: response head too long", c->index);
    } else {
      size_t n = r - off < c->body_len - c->body_got ? r - off : (size_t)(c->body_len - c->body_got);
      http_body(c, scratch + off, n);
      off += n;
    }
    if (c->in_body && c->body_got == c->body_len) http_response_done(c);
  }
  http_send(c);
}

static unsigned char* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) die("%s: %s", path, strerror(errno));
  struct stat st;
  fstat(fileno(f), &st);
  unsigned char* p = xmalloc((size_t)st.st_size + 1);
  if (fread(p, 1, (size_t)st.st_size, f) != (size_t)st.st_size) die("%s: short read", path);
  fclose(f);
  *len = (size_t)st.st_size;
  return p;
}

static int mode_http(void) {
  if (nkinds == 0) die("http needs --get PATH=FILE or --post BYTES");
  http_conn* cs = xmalloc(sizeof *cs * (size_t)opt.conns);
  for (int i = 0; i < opt.conns; i++) {
    cs[i].fd = connect_nb();
    cs[i].index = i;
    http_prepare(&cs[i], 0);
    struct epoll_event ev = {0};
    ev.events = EPOLLIN | EPOLLOUT;
    ev.data.ptr = &cs[i];
    if (epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev) != 0) die("epoll_ctl: %s", strerror(errno));
  }
  int left = opt.conns;
  struct epoll_event evs[256];
  double t0 = now();
  while (left > 0) {
    check_deadline("http");
    int n = epoll_wait(ep, evs, 256, 100);
    for (int i = 0; i < n; i++) {
      http_conn* c = evs[i].data.ptr;
      if (c->done) continue;
      if (evs[i].events & EPOLLOUT) http_send(c);
      if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) http_recv(c);
      if (c->done) {
        epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        left--;
      } else {
        /* Asks for writability only while there is something to send. */
        struct epoll_event ev = {0};
        ev.events = EPOLLIN | (http_may_send(c) ? EPOLLOUT : 0);
        ev.data.ptr = c;
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
      }
    }
  }
  printf("http: %d connections x %d requests%s, every response checked, in %.1f s\n", opt.conns, opt.requests,
         opt.pipeline ? " (pipelined)" : "", now() - t0);
  free(cs);
  return 0;
}

/* Standard input to the server, its answer to standard output. */
static int mode_raw(void) {
  size_t cap = 1 << 16, len = 0;
  char* in = xmalloc(cap);
  for (ssize_t r; (r = read(0, in + len, cap - len)) > 0;) {
    len += (size_t)r;
    if (len == cap) {
      in = realloc(in, cap *= 2);
      if (in == NULL) die("out of memory");
    }
  }
  int fd = connect_nb();
  struct pollfd p = {fd, POLLOUT, 0};
  size_t off = 0;
  int shut = 0;
  for (;;) {
    check_deadline("raw");
    p.events = POLLIN | (off < len || (opt.half_close && !shut) ? POLLOUT : 0);
    if (poll(&p, 1, 100) <= 0) continue;
    if (p.revents & POLLOUT) {
      if (off < len) {
        ssize_t w = send(fd, in + off, len - off, MSG_NOSIGNAL);
        if (w < 0 && errno != EAGAIN && errno != EINPROGRESS) die("send: %s", strerror(errno));
        if (w > 0) off += (size_t)w;
      } else {
        shutdown(fd, SHUT_WR);
        shut = 1;
      }
    }
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t r = recv(fd, scratch, CHUNK, 0);
      if (r == 0) break;
      if (r < 0) {
        if (errno == EAGAIN) continue;
        die("recv: %s", strerror(errno));
      }
      if (fwrite(scratch, 1, (size_t)r, stdout) != (size_t)r) die("stdout: %s", strerror(errno));
    }
  }
  close(fd);
  free(in);
  return 0;
}

/* ---- chat -------------------------------------------------------------------- */

typedef struct {
  const char* who;
  int fd;
  char buf[1 << 16];
  size_t len;
  unsigned long lines;
} chat_client;

static void chat_connect(chat_client* c, const char* who) {
  c->who = who;
  c->fd = connect_nb();
  c->len = 0;
}

/* Sends all of s (blocking, bounded by the deadline). */
static void chat_send(chat_client* c, const char* s) {
  size_t n = strlen(s), off = 0;
  while (off < n) {
    check_deadline("chat send");
    ssize_t w = send(c->fd, s + off, n - off, MSG_NOSIGNAL);
    if (w > 0) off += (size_t)w;
    else if (w < 0 && errno != EAGAIN && errno != ENOTCONN) die("%s: send: %s", c->who, strerror(errno));
    else {
      struct pollfd p = {c->fd, POLLOUT, 0};
      poll(&p, 1, 100);
    }
  }
}

/* A complete line already received, without its "\n"; NULL if none. */
static char* chat_take(chat_client* c, char* line, size_t cap) {
  char* nl = memchr(c->buf, '\n', c->len);
  if (nl == NULL) return NULL;
  size_t n = (size_t)(nl - c->buf);
  if (n >= cap) die("%s: line too long", c->who);
  memcpy(line, c->buf, n);
  line[n] = '\0';
  memmove(c->buf, nl + 1, c->len - n - 1);
  c->len -= n + 1;
  c->lines++;
  return line;
}

/* Reads what is there; 0 at end of input. */
static int chat_fill(chat_client* c) {
  if (c->len == sizeof c->buf) die("%s: buffer full", c->who);
  ssize_t r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
  if (r == 0) return 0;
  if (r < 0) {
    if (errno == EAGAIN) return 1;
    die("%s: recv: %s", c->who, strerror(errno));
  }
  c->len += (size_t)r;
  return 1;
}

static char* chat_line(chat_client* c, char* line, size_t cap) {
  for (;;) {
    if (chat_take(c, line, cap) != NULL) return line;
    check_deadline("chat read");
    struct pollfd p = {c->fd, POLLIN, 0};
    if (poll(&p, 1, 100) > 0 && !chat_fill(c)) die("%s: unexpected end of input", c->who);
  }
}

static void chat_expect(chat_client* c, const char* want) {
  char line[1024];
  chat_line(c, line, sizeof line);
  if (strcmp(line, want) != 0) die("%s: got \"%s\", expected \"%s\"", c->who, line, want);
}

/* "* you are guestN": returns guestN. */
static void chat_welcome(chat_client* c, char* name, size_t cap) {
  char line[1024];
  chat_line(c, line, sizeof line);
  if (strncmp(line, "* you are ", 10) != 0) die("%s: got \"%s\", expected a welcome", c->who, line);
  if (strlen(line + 10) >= cap) die("%s: name too long", c->who);
  memcpy(name, line + 10, strlen(line + 10) + 1);
}

static int mode_chat(void) {
  chat_client a, b, cc, d;
  char na[64], nb[64], nc[64], nd[64], want[1200], line[1200];

  chat_connect(&a, "A");
  chat_welcome(&a, na, sizeof na);
  chat_connect(&b, "B");
  chat_welcome(&b, nb, sizeof nb);
  snprintf(want, sizeof want, "* %s joined", nb);
  chat_expect(&a, want);
  chat_connect(&cc, "C");
  chat_welcome(&cc, nc, sizeof nc);
  snprintf(want, sizeof want, "* %s joined", nc);
  chat_expect(&a, want);
  chat_expect(&b, want);

  /* Nicknames: everyone, the renamed one too, hears of each. */
  const char* nicks[3] = {"alice", "bob", "carol"};
  chat_client* who[3] = {&a, &b, &cc};
  char* old[3] = {na, nb, nc};
  for (int i = 0; i < 3; i++) {
    snprintf(want, sizeof want, "/nick %s\n", nicks[i]);
    chat_send(who[i], want);
    snprintf(want, sizeof want, "* %s is now %s", old[i], nicks[i]);
    for (int j = 0; j < 3; j++) chat_expect(who[j], want);
  }
  chat_send(&cc, "/nick alice\n");
  chat_expect(&cc, "* nick taken");
  chat_send(&cc, "/nick not valid\n");
  chat_expect(&cc, "* invalid nick");

  /* A line goes to the others only; CRLF ends a line too. */
  chat_send(&a, "hello from alice\r\n");
  chat_expect(&b, "alice: hello from alice");
  chat_expect(&cc, "alice: hello from alice");

  /* Two senders at once: each sender's lines arrive in order. */
  enum { LINES = 300 };
  char* text = xmalloc(LINES * 32);
  for (int s = 0; s < 2; s++) {
    size_t n = 0;
    for (int i = 0; i < LINES; i++) n += (size_t)sprintf(text + n, "%c %d\n", s == 0 ? 'a' : 'b', i);
    chat_send(s == 0 ? &a : &b, text);
  }
  free(text);
  int next_a = 0, next_b = 0;
  for (int i = 0; i < 2 * LINES; i++) {
    chat_line(&cc, line, sizeof line);
    int *next = NULL, k;
    char sender;
    if (sscanf(line, "alice: %c %d", &sender, &k) == 2 && sender == 'a') next = &next_a;
    else if (sscanf(line, "bob: %c %d", &sender, &k) == 2 && sender == 'b') next = &next_b;
    if (next == NULL || k != *next) die("C: got \"%s\" out of order", line);
    (*next)++;
  }
  for (int i = 0; i < LINES; i++) {
    snprintf(want, sizeof want, "bob: b %d", i);
    chat_expect(&a, want);
    snprintf(want, sizeof want, "alice: a %d", i);
    chat_expect(&b, want);
  }

  /* D never reads. alice sends far more than the server will hold for
   * D, paced by what B and C have read; B and C must get every line, and
   * the notice that D was dropped. */
  chat_connect(&d, "D");
  chat_welcome(&d, nd, sizeof nd);
  snprintf(want, sizeof want, "* %s joined", nd);
  for (int j = 0; j < 3; j++) chat_expect(who[j], want);
  enum { FLOOD = 60000, WINDOW = 1000 };
  char payload[201];
  memset(payload, 'x', 200);
  payload[200] = '\0';
  int sent = 0, got[2] = {0, 0}, left_seen[2] = {0, 0};
  chat_client* readers[2] = {&b, &cc};
  snprintf(want, sizeof want, "* %s left", nd);
  while (got[0] < FLOOD || got[1] < FLOOD) {
    check_deadline("chat flood");
    int low = got[0] < got[1] ? got[0] : got[1];
    while (sent < FLOOD && sent - low < WINDOW) {
      char msg[256];
      snprintf(msg, sizeof msg, "%d %s\n", sent, payload);
      chat_send(&a, msg);
      sent++;
    }
    struct pollfd p[2] = {{b.fd, POLLIN, 0}, {cc.fd, POLLIN, 0}};
    poll(p, 2, 100);
    for (int r = 0; r < 2; r++) {
      if (p[r].revents && !chat_fill(readers[r])) die("%s: dropped", readers[r]->who);
      while (chat_take(readers[r], line, sizeof line) != NULL) {
        int k;
        if (strcmp(line, want) == 0) {
          left_seen[r]++;
          continue;
        }
        if (sscanf(line, "alice: %d ", &k) != 1 || k != got[r])
          die("%s: got \"%.40s\", expected line %d", readers[r]->who, line, got[r]);
        got[r]++;
      }
    }
  }
  if (left_seen[0] != 1 || left_seen[1] != 1) die("the slow client was not dropped (or announced twice)");
  chat_expect(&a, want);
  /* D: whatever was sent, then the end. */
  for (;;) {
    check_deadline("D's end");
    struct pollfd p = {d.fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    d.len = 0;
    ssize_t r = recv(d.fd, d.buf, sizeof d.buf, 0);
    if (r == 0 || (r < 0 && errno == ECONNRESET)) break;
  }
  close(d.fd);

  /* Leaving. */
  close(b.fd);
  chat_expect(&a, "* bob left");
  chat_expect(&cc, "* bob left");
  close(a.fd);
  chat_expect(&cc, "* alice left");
  close(cc.fd);
  printf("chat: nicks, %d interleaved lines in order, a stalled reader dropped while %d lines went to two "
         "others, leave notices\n",
         2 * LINES, FLOOD);
  return 0;
}

/* ---- main ------------------------------------------------------------------------ */

static long long num(const char* s) {
  char* end;
  long long v = strtoll(s, &end, 10);
  if (*end != '\0' || v < 0) die("bad number %s", s);
  return v;
}

int main(int argc, char** argv) {
  if (argc < 2) die("usage: loadclient echo|slow|reset|storm|http|raw|chat --port N [options]");
  const char* mode = argv[1];
  for (int i = 2; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--pipeline") == 0) opt.pipeline = 1;
    else if (strcmp(a, "--half-close") == 0) opt.half_close = 1;
    else if (v == NULL) die("%s needs a value", a);
    else if (++i, strcmp(a, "--host") == 0) opt.host = v; /* ++i: v is taken */
    else if (strcmp(a, "--port") == 0) opt.port = (int)num(v);
    else if (strcmp(a, "--pid") == 0) opt.pid = (int)num(v);
    else if (strcmp(a, "--conns") == 0) opt.conns = (int)num(v);
    else if (strcmp(a, "--bytes") == 0) opt.bytes = num(v);
    else if (strcmp(a, "--slow") == 0) opt.slow = (int)num(v);
    else if (strcmp(a, "--slow-bytes") == 0) opt.slow_bytes = num(v);
    else if (strcmp(a, "--rss-budget") == 0) opt.rss_budget_kib = num(v);
    else if (strcmp(a, "--hold-ms") == 0) opt.hold_ms = (int)num(v);
    else if (strcmp(a, "--resets") == 0) opt.resets = (int)num(v);
    else if (strcmp(a, "--reset-bytes") == 0) opt.reset_bytes = num(v);
    else if (strcmp(a, "--storm") == 0) opt.storm = (int)num(v);
    else if (strcmp(a, "--requests") == 0) opt.requests = (int)num(v);
    else if (strcmp(a, "--timeout") == 0) opt.timeout_s = (int)num(v);
    else if (strcmp(a, "--post") == 0) {
      opt.post = num(v);
      if (nkinds == 16) die("too many request kinds");
      kinds[nkinds++] = (http_kind){"/echo", NULL, 0};
    } else if (strcmp(a, "--get") == 0) {
      const char* eq = strchr(v, '=');
      if (eq == NULL || nkinds == 16) die("--get PATH=FILE");
      http_kind* k = &kinds[nkinds++];
      k->path = strndup(v, (size_t)(eq - v));
      k->body = read_file(eq + 1, &k->len);
    } else die("unknown option %s", a);
  }
  if (opt.port <= 0) die("--port is required");
  if (opt.requests < 1) die("--requests must be at least 1");
  raise_fd_limit(opt.conns + opt.slow + opt.resets + opt.storm + 64);
  t_start = now();
  ep = epoll_create1(EPOLL_CLOEXEC);
  if (ep < 0) die("epoll_create1: %s", strerror(errno));
  int r;
  if (strcmp(mode, "echo") == 0) r = mode_echo();
  else if (strcmp(mode, "slow") == 0) r = mode_slow();
  else if (strcmp(mode, "reset") == 0) r = mode_reset();
  else if (strcmp(mode, "storm") == 0) r = mode_storm();
  else if (strcmp(mode, "http") == 0) r = mode_http();
  else if (strcmp(mode, "raw") == 0) r = mode_raw();
  else if (strcmp(mode, "chat") == 0) r = mode_chat();
  else die("unknown mode %s", mode);
  for (int i = 0; i < nkinds; i++) {
    if (kinds[i].body != NULL) free((void*)kinds[i].path);
    free(kinds[i].body);
  }
  close(ep);
  return r;
}
