// SPDX-License-Identifier: MIT
/* refused_work: what a handle's callback hears when the kernel will not watch
 * its descriptor (every epoll_ctl fails from some point on), on the
 * drop-in: the error, once, and the loop ends instead of waiting for
 * events that cannot come (docs/design.md, "When a system call fails").
 * Linked with test/faults/inject.c, which fails epoll_ctl once the program
 * calls phaseloop_faults_set(1) -- after a first loop iteration, so that
 * the loop's own descriptors are watched already.
 *
 *   refused_work connect|read|write|udp|poll|listen|own
 * Prints "CASE: ERRNAME" for the error the callback got; "own" fails from
 * the start, and the process must end with the call named. Run by
 * test/faults/refused.sh. */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

void phaseloop_faults_set(double p);

static const char* which;
static int told;

static void tell(const char* what, int err) {
  printf("%s: %s\n", what, err < 0 ? uv_err_name(err) : "no error");
  told++;
}

static void on_close(uv_handle_t* h) { (void)h; }

static void on_connect(uv_connect_t* req, int status) {
  tell("connect", status);
  uv_close((uv_handle_t*)req->handle, on_close);
}

static void on_alloc(uv_handle_t* h, size_t size, uv_buf_t* buf) {
  (void)h;
  (void)size;
  static char space[64];
  *buf = uv_buf_init(space, sizeof space);
}

static void on_read(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
  (void)buf;
  if (n == 0) return;
  tell("read", (int)n);
  uv_close((uv_handle_t*)s, on_close);
}

static void on_write(uv_write_t* req, int status) {
  tell("write", status);
  uv_close((uv_handle_t*)req->handle, on_close);
}

static void on_recv(uv_udp_t* u, ssize_t n, const uv_buf_t* buf, const struct sockaddr* a, unsigned flags) {
  (void)buf;
  (void)a;
  (void)flags;
  if (n == 0) return;
  tell("recv", (int)n);
  uv_close((uv_handle_t*)u, on_close);
}

static void on_poll(uv_poll_t* p, int status, int events) {
  (void)events;
  tell("poll", status);
  uv_close((uv_handle_t*)p, on_close);
}

static void on_connection(uv_stream_t* s, int status) {
  tell("connection", status);
  uv_close((uv_handle_t*)s, on_close);
}

/* A listening TCP socket made without libuv (no epoll_ctl); its port. */
static int plain_listener(int* port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, (struct sockaddr*)&a, len) != 0 || listen(fd, 4) != 0 ||
      getsockname(fd, (struct sockaddr*)&a, &len) != 0)
    return -1;
  *port = ntohs(a.sin_port);
  return fd;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: refused_work connect|read|write|udp|poll|listen|own\n");
    return 64;
  }
  which = argv[1];
  setvbuf(stdout, NULL, _IONBF, 0);
  uv_loop_t* loop = uv_default_loop();
  /* A pending timer keeps the loop alive, so that a run polls: the first
   * poll registers the loop's own descriptors. */
  uv_timer_t t;
  uv_timer_init(loop, &t);
  uv_timer_start(&t, (uv_timer_cb)on_close, 60000, 0);
  if (strcmp(which, "own") == 0) {
    phaseloop_faults_set(1);
    for (int i = 0; i < 1000; i++) uv_run(loop, UV_RUN_NOWAIT);
    printf("own: the loop went on\n");
    return 1;
  }
  uv_run(loop, UV_RUN_NOWAIT);
  uv_close((uv_handle_t*)&t, on_close);
  static uv_tcp_t tcp;
  static uv_pipe_t pipe_;
  static uv_udp_t udp;
  static uv_poll_t poll_;
  static uv_connect_t conn;
  static uv_write_t wreq;
  int fds[2];
  int port = 0;
  if (strcmp(which, "connect") == 0) {
    if (plain_listener(&port) < 0) return 1;
    struct sockaddr_in a;
    uv_ip4_addr("127.0.0.1", port, &a);
    uv_tcp_init(loop, &tcp);
    phaseloop_faults_set(1);
    if (uv_tcp_connect(&conn, &tcp, (const struct sockaddr*)&a, on_connect) != 0) return 1;
  } else if (strcmp(which, "read") == 0 || strcmp(which, "write") == 0) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 1;
    uv_pipe_init(loop, &pipe_, 0);
    if (uv_pipe_open(&pipe_, fds[0]) != 0) return 1;
    phaseloop_faults_set(1);
    if (which[0] == 'r') {
      uv_read_start((uv_stream_t*)&pipe_, on_alloc, on_read);
    } else {
      /* Fill the socket first, so that the write must wait to be watched. */
      static char big[1 << 20];
      uv_buf_t b = uv_buf_init(big, sizeof big);
      if (uv_write(&wreq, (uv_stream_t*)&pipe_, &b, 1, on_write) != 0) return 1;
    }
  } else if (strcmp(which, "udp") == 0) {
    struct sockaddr_in a;
    uv_ip4_addr("127.0.0.1", 0, &a);
    uv_udp_init(loop, &udp);
    if (uv_udp_bind(&udp, (const struct sockaddr*)&a, 0) != 0) return 1;
    phaseloop_faults_set(1);
    uv_udp_recv_start(&udp, on_alloc, on_recv);
  } else if (strcmp(which, "poll") == 0) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 1;
    uv_poll_init(loop, &poll_, fds[0]);
    phaseloop_faults_set(1);
    uv_poll_start(&poll_, UV_READABLE, on_poll);
  } else if (strcmp(which, "listen") == 0) {
    struct sockaddr_in a;
    uv_ip4_addr("127.0.0.1", 0, &a);
    uv_tcp_init(loop, &tcp);
    if (uv_tcp_bind(&tcp, (const struct sockaddr*)&a, 0) != 0) return 1;
    phaseloop_faults_set(1);
    if (uv_listen((uv_stream_t*)&tcp, 4, on_connection) != 0) return 1;
  } else {
    fprintf(stderr, "refused_work: unknown case %s\n", which);
    return 64;
  }
  uv_run(loop, UV_RUN_DEFAULT);
  phaseloop_faults_set(0);
  if (told != 1) printf("%s: the loop ended with %d callbacks\n", which, told);
  return uv_loop_close(loop) == 0 && told == 1 ? 0 : 1;
}
