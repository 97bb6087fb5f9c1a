// SPDX-License-Identifier: MIT
/*
 * 196: argument checks libuv 1.53 added, each against what the version
 * built for does:
 *   - UDP sends of no buffer: libuv 1.44 asserts (so this part needs a
 *     newer one); 1.50 refuses uv_udp_try_send, and uv_udp_send asserts
 *     in a build with assertions (Debian's) and sends an empty datagram in
 *     one without, so it is tried only when built for 1.53, from which
 *     both refuse with EINVAL;
 *   - uv_try_write2 with a handle to send on a pipe that is not an IPC
 *     pipe: before 1.53 the handle is not checked (the bytes are written);
 *     from 1.53 it is, as uv_write2 does: EINVAL;
 *   - a UDP socket receiving with recvmmsg given a buffer smaller than one
 *     64 KiB slice: from 1.53 the receive callback gets EINVAL (an older
 *     libuv reads nothing into it again and again, never returning: that
 *     part runs only when built for 1.53).
 */
#include "diff.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t loop;

#if UV_VERSION_HEX >= 0x013200
static uv_udp_t rx, tx;
static int got, expected;

static void on_alloc(uv_handle_t* h, size_t size, uv_buf_t* buf) {
  static char slab[256];
  (void) h;
  (void) size;
  *buf = uv_buf_init(slab, sizeof slab);
}

static void on_recv(uv_udp_t* h, ssize_t nread, const uv_buf_t* buf, const struct sockaddr* addr, unsigned flags) {
  (void) buf;
  (void) flags;
  if (nread == 0 && addr == NULL) return; /* nothing more to read */
  say("received a datagram of %d bytes", (int) nread);
  if (++got == expected) uv_close((uv_handle_t*) h, NULL);
}

#if UV_VERSION_HEX >= 0x013500
static void on_send(uv_udp_send_t* req, int status) {
  (void) req;
  say("send of no buffer completes: %s", rc_name(status));
}
#endif

static void udp_empty(void) {
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int len = sizeof bound;
  uv_buf_t none = uv_buf_init(NULL, 0);
  uv_udp_send_t req;
  int r;
  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_udp_init(&loop, &rx) == 0);
  CHECK(uv_udp_init(&loop, &tx) == 0);
  CHECK(uv_udp_bind(&rx, (const struct sockaddr*) &addr, 0) == 0);
  CHECK(uv_udp_getsockname(&rx, (struct sockaddr*) &bound, &len) == 0);
  CHECK(uv_udp_recv_start(&rx, on_alloc, on_recv) == 0);
  r = uv_udp_try_send(&tx, &none, 0, (const struct sockaddr*) &bound);
  say("try_send of no buffer: %s", rc_name(r));
  if (r >= 0) expected++;
#if UV_VERSION_HEX >= 0x013500
  r = uv_udp_send(&req, &tx, &none, 0, (const struct sockaddr*) &bound, on_send);
  say("send of no buffer: %s", rc_name(r));
  if (r == 0) expected++;
#else
  (void) req;
  say("send of no buffer: not tried (libuv %d.%d asserts on it when built with assertions)", UV_VERSION_MAJOR,
      UV_VERSION_MINOR);
#endif
  if (expected == 0) uv_close((uv_handle_t*) &rx, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
  uv_close((uv_handle_t*) &tx, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
}
#else
static void udp_empty(void) { say("built for libuv %d.%d, which asserts on a UDP send of no buffer", UV_VERSION_MAJOR, UV_VERSION_MINOR); }
#endif

static void say_written(const char* what, int r) {
  if (r >= 0) say("%s: wrote %d", what, r);
  else say("%s: %s", what, rc_name(r));
}

static void try_write2_not_ipc(void) {
  int fds[2];
  uv_pipe_t a, b;
  uv_tcp_t t;
  uv_buf_t buf = uv_buf_init("x", 1);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  CHECK(uv_pipe_init(&loop, &a, 0) == 0);
  CHECK(uv_pipe_init(&loop, &b, 0) == 0);
  CHECK(uv_pipe_open(&a, fds[0]) == 0);
  CHECK(uv_pipe_open(&b, fds[1]) == 0);
  CHECK(uv_tcp_init(&loop, &t) == 0);
  CHECK(uv_tcp_open(&t, socket(AF_INET, SOCK_STREAM, 0)) == 0);
  say_written("try_write2 with a handle on a pipe that is not IPC", uv_try_write2((uv_stream_t*) &a, &buf, 1, (uv_stream_t*) &t));
  say_written("try_write2 without a handle", uv_try_write2((uv_stream_t*) &a, &buf, 1, NULL));
  uv_close((uv_handle_t*) &a, NULL);
  uv_close((uv_handle_t*) &b, NULL);
  uv_close((uv_handle_t*) &t, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
}

#if UV_VERSION_HEX >= 0x013500
static uv_udp_t mm;

static void small_alloc(uv_handle_t* h, size_t size, uv_buf_t* buf) {
  static char small[1000];
  (void) h;
  (void) size;
  *buf = uv_buf_init(small, sizeof small);
}

static void on_mm_recv(uv_udp_t* h, ssize_t nread, const uv_buf_t* buf, const struct sockaddr* addr, unsigned flags) {
  (void) buf;
  (void) addr;
  (void) flags;
  say("recvmmsg into 1000 bytes: %s", rc_name((int) nread));
  uv_close((uv_handle_t*) h, NULL);
}

static void recvmmsg_small_buffer(void) {
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int len = sizeof bound;
  uv_buf_t one = uv_buf_init("x", 1);
  uv_udp_t out;
  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_udp_init_ex(&loop, &mm, AF_INET | UV_UDP_RECVMMSG) == 0);
  CHECK(uv_udp_bind(&mm, (const struct sockaddr*) &addr, 0) == 0);
  CHECK(uv_udp_getsockname(&mm, (struct sockaddr*) &bound, &len) == 0);
  CHECK(uv_udp_recv_start(&mm, small_alloc, on_mm_recv) == 0);
  CHECK(uv_udp_init(&loop, &out) == 0);
  CHECK(uv_udp_try_send(&out, &one, 1, (const struct sockaddr*) &bound) == 1);
  uv_close((uv_handle_t*) &out, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
}
#else
static void recvmmsg_small_buffer(void) {}
#endif

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  udp_empty();
  try_write2_not_ipc();
  recvmmsg_small_buffer();
  finish(&loop);
  return 0;
}
