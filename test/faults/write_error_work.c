// SPDX-License-Identifier: MIT
/* write_error_work: after a stream's write fails, nothing more goes out on
 * it -- the requests queued behind the failed one and those made later
 * get its error -- so the peer never receives a byte stream with a hole
 * (docs/design.md, "When a system call fails"). Linked with
 * test/faults/inject.c, which fails write and writev with ENOMEM once the
 * program calls phaseloop_faults_set(1) (PHASELOOP_FAULTS_CALLS=write,writev).
 *
 * The client queues A (4 MiB, more than the socket takes at once) and B
 * before the server reads; then every write fails, and the server starts
 * reading. When A's callback has its error the failures stop and the
 * client writes C. The server checks that what it received is the start
 * of A. Prints each callback's status, uv_try_write's answer after the
 * failure, and the server's verdict. Run by test/faults/write_error.sh. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

void phaseloop_faults_set(double p);

#define A_LEN (4 << 20)
#define B_LEN 65536

static uv_loop_t* loop;
static uv_tcp_t server, client, conn;
static uv_connect_t creq;
static uv_write_t wa, wb, wc;
static char *a, *b, c[100];
static size_t got;
static int hole;
static uv_timer_t reader_start;

static unsigned char pattern(size_t i) { return (unsigned char)((i * 7 + i / 251) % 253); }

static void on_close(uv_handle_t* h) { (void)h; }

static void on_alloc(uv_handle_t* h, size_t size, uv_buf_t* buf) {
  static char space[65536];
  (void)h;
  (void)size;
  *buf = uv_buf_init(space, sizeof space);
}

static void on_server_read(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
  if (n > 0) {
    for (ssize_t i = 0; i < n; i++)
      if (got + (size_t)i >= A_LEN || (unsigned char)buf->base[i] != pattern(got + (size_t)i)) hole = 1;
    got += (size_t)n;
    return;
  }
  if (n == 0) return;
  printf("server: %s after %s bytes; a start of A: %s\n", uv_err_name((int)n), got > 0 ? "some" : "no",
         hole ? "no" : "yes");
  uv_close((uv_handle_t*)s, on_close);
  uv_close((uv_handle_t*)&server, on_close);
}

static void on_c(uv_write_t* req, int status) {
  (void)req;
  printf("C: %s\n", status < 0 ? uv_err_name(status) : "written");
  uv_buf_t t = uv_buf_init(c, sizeof c);
  int r = uv_try_write((uv_stream_t*)&client, &t, 1);
  printf("try_write after: %s\n", r < 0 ? uv_err_name(r) : "wrote");
  uv_close((uv_handle_t*)&client, on_close);
}

static void on_b(uv_write_t* req, int status) {
  (void)req;
  printf("B: %s\n", status < 0 ? uv_err_name(status) : "written");
}

static void on_a(uv_write_t* req, int status) {
  (void)req;
  printf("A: %s\n", status < 0 ? uv_err_name(status) : "written");
  phaseloop_faults_set(0);
  uv_buf_t t = uv_buf_init(c, sizeof c);
  if (uv_write(&wc, (uv_stream_t*)&client, &t, 1, on_c) != 0) {
    printf("C: refused at once\n");
    uv_close((uv_handle_t*)&client, on_close);
  }
}

static void start_reading(uv_timer_t* t) {
  uv_close((uv_handle_t*)t, on_close);
  uv_read_start((uv_stream_t*)&conn, on_alloc, on_server_read);
}

static void on_connection(uv_stream_t* s, int status) {
  if (status != 0 || uv_tcp_init(loop, &conn) != 0 || uv_accept(s, (uv_stream_t*)&conn) != 0) {
    printf("accept failed\n");
    exit(1);
  }
}

static void on_connect(uv_connect_t* req, int status) {
  (void)req;
  if (status != 0) {
    printf("connect: %s\n", uv_err_name(status));
    exit(1);
  }
  uv_buf_t ta = uv_buf_init(a, A_LEN), tb = uv_buf_init(b, B_LEN);
  if (uv_write(&wa, (uv_stream_t*)&client, &ta, 1, on_a) != 0 ||
      uv_write(&wb, (uv_stream_t*)&client, &tb, 1, on_b) != 0) {
    printf("write refused\n");
    exit(1);
  }
  if (uv_stream_get_write_queue_size((uv_stream_t*)&client) <= B_LEN) {
    printf("A went out whole: nothing queued to test\n");
    exit(1);
  }
  /* Every write fails from now on; the server reads once the connection
   * has been accepted (the next poll). */
  phaseloop_faults_set(1);
  uv_timer_init(loop, &reader_start);
  uv_timer_start(&reader_start, start_reading, 10, 0);
}

int main(void) {
  struct sockaddr_in addr;
  int len = sizeof addr;
  loop = uv_default_loop();
  a = malloc(A_LEN);
  b = malloc(B_LEN);
  if (a == NULL || b == NULL) return 1;
  for (size_t i = 0; i < A_LEN; i++) a[i] = (char)pattern(i);
  memset(b, 'B', B_LEN);
  memset(c, 'C', sizeof c);
  uv_ip4_addr("127.0.0.1", 0, &addr);
  if (uv_tcp_init(loop, &server) != 0 || uv_tcp_bind(&server, (struct sockaddr*)&addr, 0) != 0 ||
      uv_listen((uv_stream_t*)&server, 8, on_connection) != 0 ||
      uv_tcp_getsockname(&server, (struct sockaddr*)&addr, &len) != 0 || uv_tcp_init(loop, &client) != 0 ||
      uv_tcp_connect(&creq, &client, (struct sockaddr*)&addr, on_connect) != 0) {
    printf("setup failed\n");
    return 1;
  }
  uv_run(loop, UV_RUN_DEFAULT);
  return 0;
}
