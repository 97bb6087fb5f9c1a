// SPDX-License-Identifier: MIT
/*
 * 194: the API libuv added after 1.44, against the libuv that has it (built
 * for an older one, this prints one line and stops): clocks, memory, users
 * and groups, thread affinity, name and priority, WTF-8, TCP keepalive
 * settings, UDP open and batch send, abstract pipe names, the bytes a write
 * wrote, loop metrics.
 */
#include "diff.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#if UV_VERSION_HEX < 0x013500
int main(void) {
  say("built for libuv %d.%d: no API after 1.44 to try", UV_VERSION_MAJOR, UV_VERSION_MINOR);
  return 0;
}
#else

static uv_loop_t loop;

static void os_functions(void) {
  uv_timespec64_t ts;
  uv_passwd_t pw, pw2;
  uv_group_t gr;
  uv_rusage_t ru;
  int r;
  say("clock monotonic: %s", rc_name(uv_clock_gettime(UV_CLOCK_MONOTONIC, &ts)));
  r = uv_clock_gettime(UV_CLOCK_REALTIME, &ts);
  say("clock realtime: %s after 2020=%d", rc_name(r), ts.tv_sec > 1577836800);
  say("clock 7: %s", rc_name(uv_clock_gettime((uv_clock_id) 7, &ts)));
  say("clock NULL: %s", rc_name(uv_clock_gettime(UV_CLOCK_MONOTONIC, NULL)));
  say("available memory > 0: %d", uv_get_available_memory() > 0);
  CHECK(uv_os_get_passwd(&pw) == 0);
  say("passwd2 of euid: %s", rc_name(uv_os_get_passwd2(&pw2, geteuid())));
  say("  same user: %d uid %d", strcmp(pw.username, pw2.username) == 0, pw2.uid == (unsigned long) geteuid());
  uv_os_free_passwd(&pw);
  uv_os_free_passwd(&pw2);
  say("passwd2 of 4000000000: %s", rc_name(uv_os_get_passwd2(&pw2, 4000000000u)));
  say("group of gid 0: %s", rc_name(uv_os_get_group(&gr, 0)));
  say("  name %s gid %lu members listed %d", gr.groupname, gr.gid, gr.members != NULL);
  uv_os_free_group(&gr);
  say("  after free: members null %d", gr.members == NULL);
  say("group of 4000000000: %s", rc_name(uv_os_get_group(&gr, 4000000000u)));
  say("rusage of thread: %s", rc_name(uv_getrusage_thread(&ru)));
  say("newer codes: %s %s %s / %s", uv_err_name(UV_ENODATA), uv_err_name(UV_EUNATCH), uv_err_name(UV_ENOEXEC),
      uv_strerror(UV_ENOEXEC));
}

static void thread_entry(void* arg) { (void) arg; }

static void thread_functions(void) {
  char name[64];
  char mask[1024], old[1024];
  uv_thread_t self = uv_thread_self();
  uv_thread_t t;
  int prio = 99;
  int i, r, any = 0;
  say("cpumask size: %d", uv_cpumask_size());
  say("getaffinity: %s", rc_name(uv_thread_getaffinity(&self, mask, sizeof mask)));
  for (i = 0; i < (int) sizeof mask; i++) any |= mask[i];
  say("  some cpu allowed: %d", any);
  say("getaffinity, small mask: %s", rc_name(uv_thread_getaffinity(&self, mask, 8)));
  say("setaffinity, same mask: %s", rc_name(uv_thread_setaffinity(&self, mask, old, sizeof mask)));
  say("  old mask is the mask: %d", memcmp(mask, old, sizeof mask) == 0);
  say("getcpu >= 0: %d", uv_thread_getcpu() >= 0);
  say("setname: %s", rc_name(uv_thread_setname("phaseloop-a-long-thread-name")));
  r = uv_thread_getname(&self, name, sizeof name);
  say("getname: %s \"%s\"", rc_name(r), name);
  r = uv_thread_getname(&self, name, 5);
  say("getname, 5 bytes: %s \"%s\"", rc_name(r), name);
  say("getname, 0 bytes: %s", rc_name(uv_thread_getname(&self, name, 0)));
  say("setname NULL: %s", rc_name(uv_thread_setname(NULL)));
  r = uv_thread_getpriority(self, &prio);
  say("getpriority: %s %d", rc_name(r), prio);
  say("setpriority normal: %s", rc_name(uv_thread_setpriority(self, UV_THREAD_PRIORITY_NORMAL)));
  say("setpriority 3: %s", rc_name(uv_thread_setpriority(self, 3)));
  CHECK(uv_thread_create(&t, thread_entry, NULL) == 0);
  say("detach: %s", rc_name(uv_thread_detach(&t)));
}

static void show_wtf8(const char* label, const uint16_t* s, ssize_t len) {
  char* out = NULL;
  size_t n = 0;
  int r = uv_utf16_to_wtf8(s, len, &out, &n);
  size_t i;
  char hex[128] = "";
  for (i = 0; r == 0 && i < n && i < 40; i++) sprintf(hex + strlen(hex), "%02x", (unsigned char) out[i]);
  say("%s: length %zu, to_wtf8 %s %zu bytes %s", label, uv_utf16_length_as_wtf8(s, len), rc_name(r), n, hex);
  free(out);
}

static void text_functions(void) {
  static const uint16_t pair[] = {'a', 0xD83D, 0xDE00, 0x00E9, 0};
  static const uint16_t lone[] = {0xDC00, 'b', 0xD800, 0};
  static const uint16_t wide[] = {0x20AC, 0x20AC, 0x20AC, 0};
  char small[4];
  char* p = small;
  size_t n = 3;
  uint16_t back[8];
  ssize_t units;
  int r;
  show_wtf8("pair", pair, -1);
  show_wtf8("pair, 2 units", pair, 2);
  show_wtf8("lone surrogates", lone, -1);
  show_wtf8("euros", wide, 3);
  memset(small, 'x', sizeof small);
  r = uv_utf16_to_wtf8(wide, -1, &p, &n);
  say("euros into 3 bytes: %s, n %zu, byte 3 is NUL %d", rc_name(r), n, small[3] == 0);
  n = 4;
  memset(small, 'x', sizeof small);
  r = uv_utf16_to_wtf8(wide, -1, &p, &n);
  say("euros into 4 bytes: %s, n %zu", rc_name(r), n);
  n = 0;
  r = uv_utf16_to_wtf8(pair, -1, NULL, &n);
  say("length only: %s n %zu", rc_name(r), n);
  units = uv_wtf8_length_as_utf16("a\xf0\x9f\x98\x80\xed\xb0\x80");
  say("wtf8 to utf16: %zd units", units);
  if (units > 0 && units <= 8) {
    uv_wtf8_to_utf16("a\xf0\x9f\x98\x80\xed\xb0\x80", back, (size_t) units);
    say("  %04x %04x %04x %04x %04x", back[0], back[1], back[2], back[3], back[4]);
  }
  say("invalid wtf8: %zd", uv_wtf8_length_as_utf16("\x80"));
  say("overlong 4-byte: %zd", uv_wtf8_length_as_utf16("\xf5\x80\x80\x80"));
  say("empty: %zd", uv_wtf8_length_as_utf16(""));
}

static uv_pipe_t server, client, accepted;
static uv_connect_t conn;
static uv_write_t wreq;

static void on_written(uv_write_t* req, int status) {
  say("  write cb: %s nwritten %zu", rc_name(status), uv_write_nwritten(req));
  uv_close((uv_handle_t*) &client, NULL);
}

static void on_connect(uv_connect_t* req, int status) {
  uv_buf_t b = uv_buf_init("hello", 5);
  say("  connect2 cb: %s", rc_name(status));
  if (status == 0) CHECK(uv_write(&wreq, req->handle, &b, 1, on_written) == 0);
  else uv_close((uv_handle_t*) &client, NULL);
}

static char rbuf[64];
static void on_alloc(uv_handle_t* h, size_t size, uv_buf_t* b) {
  (void) h;
  (void) size;
  *b = uv_buf_init(rbuf, sizeof rbuf);
}

static void on_read(uv_stream_t* s, ssize_t n, const uv_buf_t* b) {
  (void) b;
  if (n == 0) return;
  say("  server read: %zd", n);
  uv_close((uv_handle_t*) s, NULL);
}

static void on_connection(uv_stream_t* s, int status) {
  say("  connection: %s", rc_name(status));
  CHECK(uv_pipe_init(&loop, &accepted, 0) == 0);
  CHECK(uv_accept(s, (uv_stream_t*) &accepted) == 0);
  CHECK(uv_read_start((uv_stream_t*) &accepted, on_alloc, on_read) == 0);
  uv_close((uv_handle_t*) s, NULL);
}

static void pipe_functions(void) {
  char name[64];
  size_t len;
  char longname[300];
  len = (size_t) snprintf(name, sizeof name, "%cphaseloop-194-%d", 0, (int) getpid());
  CHECK(uv_pipe_init(&loop, &server, 0) == 0);
  say("bind2, bad flags: %s", rc_name(uv_pipe_bind2(&server, name, len, 2)));
  say("bind2, NUL inside: %s", rc_name(uv_pipe_bind2(&server, "ab\0c", 4, 0)));
  memset(longname, 'a', sizeof longname);
  longname[0] = 0;
  say("bind2, too long, no truncate: %s", rc_name(uv_pipe_bind2(&server, longname, sizeof longname, UV_PIPE_NO_TRUNCATE)));
  say("bind2 abstract: %s", rc_name(uv_pipe_bind2(&server, name, len, 0)));
  CHECK(uv_listen((uv_stream_t*) &server, 4, on_connection) == 0);
  CHECK(uv_pipe_init(&loop, &client, 0) == 0);
  say("connect2 abstract: %s", rc_name(uv_pipe_connect2(&conn, &client, name, len, 0, on_connect)));
  run_say(&loop, UV_RUN_DEFAULT);
}

static void net_functions(void) {
  uv_tcp_t tcp;
  uv_udp_t udp;
  struct sockaddr_in a;
  int len = sizeof a;
  int fd;
  uv_buf_t b1 = uv_buf_init("one", 3), b2 = uv_buf_init("two", 3), b3 = uv_buf_init("three", 5);
  uv_buf_t* bufs[3] = {&b1, &b2, &b3};
  unsigned int nbufs[3] = {1, 1, 1};
  struct sockaddr* addrs[3];
  CHECK(uv_tcp_init(&loop, &tcp) == 0);
  say("keepalive_ex on, idle 0: %s", rc_name(uv_tcp_keepalive_ex(&tcp, 1, 0, 1, 1)));
  say("keepalive_ex before a socket: %s", rc_name(uv_tcp_keepalive_ex(&tcp, 1, 30, 5, 3)));
  CHECK(uv_ip4_addr("127.0.0.1", 0, &a) == 0);
  CHECK(uv_tcp_bind(&tcp, (const struct sockaddr*) &a, 0) == 0);
  say("keepalive_ex on a socket: %s", rc_name(uv_tcp_keepalive_ex(&tcp, 1, 30, 5, 3)));
  say("keepalive_ex off: %s", rc_name(uv_tcp_keepalive_ex(&tcp, 0, 0, 0, 0)));
  uv_close((uv_handle_t*) &tcp, NULL);

  CHECK(uv_udp_init(&loop, &udp) == 0);
  fd = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK(fd >= 0);
  say("udp_open_ex, bad flags: %s", rc_name(uv_udp_open_ex(&udp, fd, 1)));
  say("udp_open_ex reuseport: %s", rc_name(uv_udp_open_ex(&udp, fd, UV_UDP_REUSEPORT)));
  CHECK(uv_udp_bind(&udp, (const struct sockaddr*) &a, 0) == 0);
  CHECK(uv_udp_getsockname(&udp, (struct sockaddr*) &a, &len) == 0);
  addrs[0] = addrs[1] = addrs[2] = (struct sockaddr*) &a;
  say("try_send2 count 0: %s", rc_name(uv_udp_try_send2(&udp, 0, bufs, nbufs, addrs, 0)));
  say("try_send2 flags 1: %s", rc_name(uv_udp_try_send2(&udp, 3, bufs, nbufs, addrs, 1)));
  say("try_send2 three: %d", uv_udp_try_send2(&udp, 3, bufs, nbufs, addrs, 0));
  uv_close((uv_handle_t*) &udp, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
}

static void on_timer(uv_timer_t* t) { uv_close((uv_handle_t*) t, NULL); }

static void metrics(void) {
  uv_loop_t l;
  uv_metrics_t m;
  uv_timer_t t;
  int r;
  CHECK(uv_loop_init(&l) == 0);
  r = uv_metrics_info(&l, &m);
  say("metrics of a new loop: %s loops %llu events %llu waiting %llu", rc_name(r),
      (unsigned long long) m.loop_count, (unsigned long long) m.events, (unsigned long long) m.events_waiting);
  CHECK(uv_timer_init(&l, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 5, 0) == 0);
  CHECK(uv_run(&l, UV_RUN_DEFAULT) == 0);
  CHECK(uv_metrics_info(&l, &m) == 0);
  say("after one timer: loops %llu events %llu waiting %llu", (unsigned long long) m.loop_count,
      (unsigned long long) m.events, (unsigned long long) m.events_waiting);
  CHECK(uv_loop_close(&l) == 0);
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  os_functions();
  thread_functions();
  text_functions();
  pipe_functions();
  net_functions();
  metrics();
  finish(&loop);
  return 0;
}
#endif
