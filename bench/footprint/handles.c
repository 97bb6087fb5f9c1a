// SPDX-License-Identifier: MIT
/* handles.c -- what one more handle costs on the libuv this program runs
 * on (built against Debian's uv.h; bench/footprint/run.sh runs it on real
 * libuv and on phaseloop's drop-in libuv.so.1).
 *
 * For each kind, N handles are made on one loop and started (a timer
 * armed, a TCP socket listening, a UDP socket receiving, a signal or an
 * fd watched; the loop runs once so that registrations reach the kernel), and
 * the growth of the heap (glibc's mallinfo2: bytes in use) and of the
 * resident set (VmRSS) is divided by N. The handles' own memory is the
 * program's (an array made before the first measurement), so what is
 * reported is what the library adds (after a first, unmeasured round that
 * pages in the code and one-time state). Prints "heap_per_KIND BYTES" and
 * "rss_per_KIND BYTES" lines, and "mapped PATH" (the libuv it ran on).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <link.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

static long rss_bytes(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f != NULL && fgets(line, sizeof line, f) != NULL)
    if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  if (f != NULL) fclose(f);
  return kb * 1024;
}

static size_t heap_bytes(void) { return mallinfo2().uordblks; }

static void close_all(uv_handle_t* h, void* arg) {
  (void) arg;
  if (!uv_is_closing(h)) uv_close(h, NULL);
}

static void on_signal(uv_signal_t* s, int n) { (void) s, (void) n; }
static void on_poll(uv_poll_t* p, int st, int ev) { (void) p, (void) st, (void) ev; }
static void on_timer(uv_timer_t* t) { (void) t; }
static void on_idle(uv_idle_t* i) { (void) i; }
static void on_async(uv_async_t* a) { (void) a; }
static void on_connection(uv_stream_t* s, int st) { (void) s, (void) st; }
static void on_alloc(uv_handle_t* h, size_t n, uv_buf_t* b) { (void) h, (void) n, *b = uv_buf_init(NULL, 0); }
static void on_recv(uv_udp_t* u, ssize_t n, const uv_buf_t* b, const struct sockaddr* a, unsigned f) {
  (void) u, (void) n, (void) b, (void) a, (void) f;
}

/* measure KIND N SIZE PRINT: makes and starts N handles of KIND, prints
 * the growth per handle (when PRINT), closes them. */
static void measure_once(const char* kind, int n, size_t size, int print) {
  uv_loop_t loop;
  char* mem;
  int i, (*fds)[2] = NULL;
  size_t h0;
  long r0;
  if (uv_loop_init(&loop) != 0) exit(1);
  mem = calloc((size_t) n, size);
  if (strcmp(kind, "poll") == 0) {
    fds = calloc((size_t) n, sizeof *fds);
    for (i = 0; i < n; i++)
      if (pipe(fds[i]) != 0) exit(1);
  }
  /* Touch everything the program itself owns before the first reading. */
  memset(mem, 0, (size_t) n * size);
  uv_run(&loop, UV_RUN_NOWAIT);
  h0 = heap_bytes();
  r0 = rss_bytes();
  for (i = 0; i < n; i++) {
    void* h = mem + (size_t) i * size;
    if (strcmp(kind, "timer") == 0) {
      uv_timer_init(&loop, h);
      uv_timer_start(h, on_timer, 100000, 0);
    } else if (strcmp(kind, "idle") == 0) {
      uv_idle_init(&loop, h);
      uv_idle_start(h, on_idle);
    } else if (strcmp(kind, "async") == 0) {
      uv_async_init(&loop, h, on_async);
    } else if (strcmp(kind, "tcp") == 0) {
      struct sockaddr_in a;
      uv_ip4_addr("127.0.0.1", 0, &a);
      uv_tcp_init(&loop, h);
      if (uv_tcp_bind(h, (const struct sockaddr*) &a, 0) != 0) exit(1);
      if (uv_listen(h, 8, on_connection) != 0) exit(1);
    } else if (strcmp(kind, "udp") == 0) {
      struct sockaddr_in a;
      uv_ip4_addr("127.0.0.1", 0, &a);
      uv_udp_init(&loop, h);
      if (uv_udp_bind(h, (const struct sockaddr*) &a, 0) != 0) exit(1);
      if (uv_udp_recv_start(h, on_alloc, on_recv) != 0) exit(1);
    } else if (strcmp(kind, "signal") == 0) {
      uv_signal_init(&loop, h);
      uv_signal_start(h, on_signal, SIGUSR1 + (i % 2));
    } else if (strcmp(kind, "poll") == 0) {
      uv_poll_init(&loop, h, fds[i][0]);
      uv_poll_start(h, UV_READABLE, on_poll);
    }
  }
  /* The poll phase registers what was started. */
  uv_run(&loop, UV_RUN_NOWAIT);
  if (print) {
    printf("heap_per_%s %.0f\n", kind, (double) (heap_bytes() - h0) / n);
    printf("rss_per_%s %.0f\n", kind, (double) (rss_bytes() - r0) / n);
  }
  uv_walk(&loop, close_all, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  if (uv_loop_close(&loop) != 0) exit(1);
  if (fds != NULL) {
    for (i = 0; i < n; i++) close(fds[i][0]), close(fds[i][1]);
    free(fds);
  }
  free(mem);
}

/* A first round of a few handles pages in the code and the one-time state
 * of the kind (not what one more handle costs); then the measured one. */
static void measure(const char* kind, int n, size_t size) {
  measure_once(kind, 8, size, 0);
  measure_once(kind, n, size, 1);
}

static int find_libuv(struct dl_phdr_info* info, size_t size, void* data) {
  (void) size;
  if (strstr(info->dlpi_name, "libuv.so") != NULL) {
    *(const char**) data = info->dlpi_name;
    return 1;
  }
  return 0;
}

int main(void) {
  const char* mapped = "?";
  measure("timer", 10000, sizeof(uv_timer_t));
  measure("idle", 10000, sizeof(uv_idle_t));
  measure("async", 10000, sizeof(uv_async_t));
  measure("signal", 10000, sizeof(uv_signal_t));
  /* Descriptors: stay under the usual limit of 1024. */
  measure("tcp", 400, sizeof(uv_tcp_t));
  measure("udp", 400, sizeof(uv_udp_t));
  measure("poll", 400, sizeof(uv_poll_t));
  dl_iterate_phdr(find_libuv, &mapped);
  printf("mapped %s\n", mapped);
  return 0;
}
