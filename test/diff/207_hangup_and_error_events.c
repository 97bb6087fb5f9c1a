// SPDX-License-Identifier: MIT
/* What a hang-up or an error reported by epoll wakes.
 *
 * Before libuv 1.53 the poll phase turned an EPOLLHUP or EPOLLERR that came
 * alone into the events its watcher asked for. From 1.53 (PR #3250, with
 * the fix of PR #5186) it delivers them as they are: a uv_poll_t mixes the
 * events it asked for into every callback that comes with a hang-up or an
 * error, not only with one alone; a stream whose pipe hung up with nothing
 * left to read ends without a read (no allocation, a NULL buffer); a UDP
 * socket with an error receives, and sends what it has queued, to find it.
 *
 * The pipes are pipe(2) pairs: a read end whose writer is gone reports
 * EPOLLHUP alone when it is empty and EPOLLIN|EPOLLHUP while it holds data
 * (never EPOLLRDHUP: that is for sockets). The UDP socket is connected to
 * a loopback port nobody listens on: a datagram sent there brings back
 * ICMP port unreachable, which a connected socket holds as its error
 * before send() returns; bound with UV_UDP_LINUX_RECVERR (IP_RECVERR) it
 * also queues the error, with the address that sent it, on its error
 * queue, which libuv reads from 1.52 (PR #4902). libuv 1.53 reports such
 * an error as an nread of 2^32 minus its number (it negates the unsigned
 * ee_errno), positive. A 5 s timer ends a part that goes wrong. */
#include "diff.h"
#include "diff_net.h"
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t loop;
static uv_poll_t poll_h;
static uv_pipe_t pipe_h;
static uv_udp_t udp_h;
static uv_udp_send_t send_req;
static uv_timer_t guard;
static uv_timer_t later;
static int allocs, recvs, close_on_error;

static void on_guard(uv_timer_t *t) {
  (void) t;
  say("  gave up after 5 s");
  uv_walk(&loop, diff_close_any, NULL);
}

static void guard_start(void) {
  CHECK(uv_timer_init(&loop, &guard) == 0);
  CHECK(uv_timer_start(&guard, on_guard, 5000, 0) == 0);
}

static void guard_end(void) {
  if (!uv_is_closing((uv_handle_t *) &guard)) uv_close((uv_handle_t *) &guard, NULL);
}

/* A pipe whose writer wrote `data` (if any) and went away. */
static int hung_up_pipe(const char *data) {
  int fds[2];
  CHECK(pipe(fds) == 0);
  if (data != NULL) CHECK(write(fds[1], data, strlen(data)) == (ssize_t) strlen(data));
  CHECK(close(fds[1]) == 0);
  return fds[0];
}

static void on_poll(uv_poll_t *h, int status, int events) {
  say("  poll cb: status=%s events=%d", rc_name(status), events);
  uv_close((uv_handle_t *) h, NULL);
  guard_end();
}

static void poll_part(const char *what, const char *data, int interest) {
  int fd = hung_up_pipe(data);
  say("poll, %s, asking for %d", what, interest);
  CHECK(uv_poll_init(&loop, &poll_h, fd) == 0);
  CHECK(uv_poll_start(&poll_h, interest, on_poll) == 0);
  guard_start();
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(close(fd) == 0);
}

static void counting_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  allocs++;
  net_alloc(h, suggested, buf);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  say("  read cb: %s after %d allocation(s), buffer %s", nread < 0 ? rc_name((int) nread) : "data",
      allocs, buf->base == NULL ? "NULL" : "given");
  if (nread < 0) {
    uv_close((uv_handle_t *) s, NULL);
    guard_end();
  }
}

static void stream_part(void) {
  int fd = hung_up_pipe(NULL);
  say("stream on an empty pipe whose writer is gone");
  allocs = 0;
  CHECK(uv_pipe_init(&loop, &pipe_h, 0) == 0);
  CHECK(uv_pipe_open(&pipe_h, fd) == 0);
  CHECK(uv_read_start((uv_stream_t *) &pipe_h, counting_alloc, on_read) == 0);
  guard_start();
  run_say(&loop, UV_RUN_DEFAULT);
}

/* The pass after the error: what the receive callback heard by then. */
static void on_later(uv_timer_t *t) {
  say("  timer: %d receive callback(s)", recvs);
  uv_close((uv_handle_t *) t, NULL);
  uv_close((uv_handle_t *) &udp_h, NULL);
  guard_end();
}

static void on_recv(uv_udp_t *u, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr,
                    unsigned flags) {
  (void) buf;
  recvs++;
  if (nread < 0)
    say("  recv cb %d: %s, address %s, flags %u", recvs, rc_name((int) nread), addr == NULL ? "none" : "given", flags);
  else
    say("  recv cb %d: nread %lld, address %s, flags %u", recvs, (long long) nread, addr == NULL ? "none" : "given",
        flags);
  if (nread < 0 && close_on_error) {
    uv_close((uv_handle_t *) u, NULL);
    guard_end();
  } else if (nread < 0) {
    CHECK(uv_timer_init(&loop, &later) == 0);
    CHECK(uv_timer_start(&later, on_later, 0, 0) == 0);
  }
}

static void on_sent(uv_udp_send_t *r, int status) {
  (void) r;
  say("  send cb: %s", rc_name(status));
}

/* A loopback UDP port that was bound and is free again. */
static int free_udp_port(void) {
  struct sockaddr_in a;
  socklen_t len = sizeof a;
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK(fd >= 0);
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  CHECK(bind(fd, (struct sockaddr *) &a, sizeof a) == 0);
  CHECK(getsockname(fd, (struct sockaddr *) &a, &len) == 0);
  CHECK(close(fd) == 0);
  return ntohs(a.sin_port);
}

static void udp_part(int close_it, unsigned bind_flags, unsigned init_flags) {
  struct sockaddr_in to, any;
  uv_buf_t b = uv_buf_init("x", 1);
  say("udp connected to a port nobody listens on, %s on an error%s%s", close_it ? "closed" : "left open",
      bind_flags & UV_UDP_LINUX_RECVERR ? ", bound with UV_UDP_LINUX_RECVERR" : "",
      init_flags & UV_UDP_RECVMMSG ? ", receiving with recvmmsg" : "");
  recvs = 0;
  close_on_error = close_it;
  CHECK(uv_ip4_addr("127.0.0.1", free_udp_port(), &to) == 0);
  CHECK(uv_ip4_addr("127.0.0.1", 0, &any) == 0);
  CHECK(uv_udp_init_ex(&loop, &udp_h, AF_INET | init_flags) == 0);
  CHECK(uv_udp_bind(&udp_h, (const struct sockaddr *) &any, bind_flags) == 0);
  CHECK(uv_udp_connect(&udp_h, (const struct sockaddr *) &to) == 0);
  CHECK(uv_udp_recv_start(&udp_h, net_alloc, on_recv) == 0);
  say("  send = %s", rc_name(uv_udp_send(&send_req, &udp_h, &b, 1, NULL, on_sent)));
  guard_start();
  run_say(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  net_markers(&loop);
  poll_part("an empty pipe whose writer is gone", NULL, UV_READABLE);
  poll_part("an empty pipe whose writer is gone", NULL, UV_WRITABLE);
  poll_part("a pipe holding data whose writer is gone", "x", UV_READABLE);
  poll_part("a pipe holding data whose writer is gone", "x", UV_READABLE | UV_DISCONNECT);
  poll_part("a pipe holding data whose writer is gone", "x", UV_READABLE | UV_WRITABLE);
  stream_part();
  udp_part(1, 0, 0);
  udp_part(0, 0, 0);
  udp_part(0, UV_UDP_LINUX_RECVERR, 0);
  udp_part(0, UV_UDP_LINUX_RECVERR, UV_UDP_RECVMMSG);
  finish(&loop);
  return 0;
}
