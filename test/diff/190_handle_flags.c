// SPDX-License-Identifier: MIT
/* The `flags` word of every handle type (offset 88, libuv's private state
 * bits), printed through each state change: init, start, stop, ref/unref,
 * close and the close callback; for streams and UDP also bind, listen,
 * connect, accept, read start/stop, shutdown, the TCP options and
 * uv_udp_connect; a TTY on a pseudo-terminal in both directions; a child
 * process; fs events and fs polling.  Programs read these bits (libuv's own tty test reads
 * the blocking-writes bit), so they must be libuv's. */
#include "diff.h"
#include "diff_net.h"

#include <fcntl.h>
#include <pty.h>
#include <stdlib.h>
#include <unistd.h>

static uv_loop_t *loop;

static void show(const char *what, const void *h) {
  say("%-34s flags=0x%08x", what, ((const uv_handle_t *) h)->flags);
}

static void closed(uv_handle_t *h) { show("  close callback", h); }

static void close_show(const char *what, void *h) {
  uv_close((uv_handle_t *) h, closed);
  show(what, h);
}

static void timer_cb(uv_timer_t *t) { (void) t; }
static void idle_cb(uv_idle_t *h) { (void) h; }
static void async_cb(uv_async_t *h) { (void) h; }
static void signal_cb(uv_signal_t *h, int s) { (void) h; (void) s; }
static void poll_cb(uv_poll_t *h, int s, int e) { (void) h; (void) s; (void) e; }

static void prepare_cb(uv_prepare_t *h) { (void) h; }
static void fs_event_cb(uv_fs_event_t *h, const char *f, int e, int s) { (void) h; (void) f; (void) e; (void) s; }
static void fs_poll_cb(uv_fs_poll_t *h, int s, const uv_stat_t *p, const uv_stat_t *c) {
  (void) h; (void) s; (void) p; (void) c;
}

static void exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("process exit status=%d signal=%d", (int) status, sig);
  show("process at exit", p);
  close_show("process close", p);
}

static void other_handles(void) {
  uv_prepare_t p;
  uv_check_t c;
  uv_fs_event_t e;
  uv_fs_poll_t fp;
  uv_process_t proc;
  uv_process_options_t o;
  char *args[] = {"true", NULL};
  const char *tmp = getenv("TMPDIR");

  uv_prepare_init(loop, &p);
  uv_prepare_start(&p, prepare_cb);
  show("prepare start", &p);
  uv_prepare_stop(&p);
  show("prepare stop", &p);
  close_show("prepare close", &p);
  uv_check_init(loop, &c);
  uv_unref((uv_handle_t *) &c);
  show("check init unref", &c);
  close_show("check close", &c);

  uv_fs_event_init(loop, &e);
  show("fs_event init", &e);
  CHECK(uv_fs_event_start(&e, fs_event_cb, tmp ? tmp : "/tmp", 0) == 0);
  show("fs_event start", &e);
  uv_fs_event_stop(&e);
  show("fs_event stop", &e);
  close_show("fs_event close", &e);

  uv_fs_poll_init(loop, &fp);
  show("fs_poll init", &fp);
  CHECK(uv_fs_poll_start(&fp, fs_poll_cb, "/", 1000) == 0);
  show("fs_poll start", &fp);
  uv_fs_poll_stop(&fp);
  show("fs_poll stop", &fp);
  close_show("fs_poll close", &fp);
  run_say(loop, UV_RUN_DEFAULT);

  memset(&o, 0, sizeof o);
  o.file = "true";
  o.args = args;
  o.exit_cb = exit_cb;
  CHECK(uv_spawn(loop, &proc, &o) == 0);
  show("process spawned", &proc);
  run_say(loop, UV_RUN_DEFAULT);
}

static void tty_handles(void) {
  uv_tty_t in, out;
  int master, slave, slave2;

  if (openpty(&master, &slave, NULL, NULL, NULL) != 0) {
    say("no pseudo-terminal");
    return;
  }
  slave2 = open(ttyname(slave), O_RDWR);
  CHECK(slave2 >= 0);
  CHECK(uv_tty_init(loop, &out, slave, 0) == 0);
  show("tty init (writing)", &out);
  CHECK(uv_tty_init(loop, &in, slave2, 1) == 0);
  show("tty init (reading)", &in);
  CHECK(uv_tty_set_mode(&in, UV_TTY_MODE_RAW) == 0);
  show("tty raw mode", &in);
  CHECK(uv_tty_set_mode(&in, UV_TTY_MODE_NORMAL) == 0);
  show("tty normal mode", &in);
  close_show("tty close (writing)", &out);
  close_show("tty close (reading)", &in);
  run_say(loop, UV_RUN_DEFAULT);
  close(master);
}

static void basic_handles(void) {
  uv_timer_t t;
  uv_idle_t i;
  uv_async_t a;
  uv_signal_t s;
  uv_poll_t p;
  int fds[2];

  uv_timer_init(loop, &t);
  show("timer init", &t);
  uv_timer_start(&t, timer_cb, 1000, 0);
  show("timer start", &t);
  uv_unref((uv_handle_t *) &t);
  show("timer unref", &t);
  uv_ref((uv_handle_t *) &t);
  show("timer ref", &t);
  uv_timer_stop(&t);
  show("timer stop", &t);
  close_show("timer close", &t);

  uv_idle_init(loop, &i);
  uv_idle_start(&i, idle_cb);
  show("idle start", &i);
  close_show("idle close (active)", &i);

  uv_async_init(loop, &a, async_cb);
  show("async init", &a);
  close_show("async close", &a);

  uv_signal_init(loop, &s);
  show("signal init", &s);
  uv_signal_start_oneshot(&s, signal_cb, SIGUSR2);
  show("signal start_oneshot", &s);
  uv_signal_stop(&s);
  show("signal stop", &s);
  uv_signal_start(&s, signal_cb, SIGUSR2);
  show("signal start", &s);
  close_show("signal close", &s);

  CHECK(pipe(fds) == 0);
  uv_poll_init(loop, &p, fds[0]);
  show("poll init", &p);
  uv_poll_start(&p, UV_READABLE, poll_cb);
  show("poll start", &p);
  uv_poll_stop(&p);
  show("poll stop", &p);
  close_show("poll close", &p);
  run_say(loop, UV_RUN_DEFAULT);
  close(fds[0]);
  close(fds[1]);
}

static uv_tcp_t server, client, accepted;
static uv_connect_t creq;
static uv_shutdown_t sreq;
static char buf[64];

static void alloc_cb(uv_handle_t *h, size_t n, uv_buf_t *b) {
  (void) h;
  (void) n;
  b->base = buf;
  b->len = sizeof buf;
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  (void) b;
  if (n == UV_EOF) {
    show("accepted after EOF", s);
    close_show("accepted close", s);
    close_show("server close", &server);
  }
}

static void shutdown_cb(uv_shutdown_t *r, int status) {
  say("shutdown status=%s", rc_name(status));
  show("client after shutdown", r->handle);
  close_show("client close", r->handle);
}

static void on_connection(uv_stream_t *srv, int status) {
  CHECK(status == 0);
  show("server at connection", srv);
  uv_tcp_init(loop, &accepted);
  show("accepted init", &accepted);
  CHECK(uv_accept(srv, (uv_stream_t *) &accepted) == 0);
  show("accepted accept", &accepted);
  uv_read_start((uv_stream_t *) &accepted, alloc_cb, read_cb);
  show("accepted read_start", &accepted);
}

static void on_connect(uv_connect_t *r, int status) {
  say("connect status=%s", rc_name(status));
  show("client connected", r->handle);
  uv_tcp_nodelay(&client, 1);
  show("client nodelay on", &client);
  uv_tcp_keepalive(&client, 1, 60);
  show("client keepalive on", &client);
  uv_tcp_nodelay(&client, 0);
  show("client nodelay off", &client);
  uv_read_start((uv_stream_t *) &client, alloc_cb, read_cb);
  show("client read_start", &client);
  uv_read_stop((uv_stream_t *) &client);
  show("client read_stop", &client);
  CHECK(uv_shutdown(&sreq, (uv_stream_t *) &client, shutdown_cb) == 0);
  show("client shutdown", &client);
}

static void tcp_handles(void) {
  struct sockaddr_in a = net_v4(0);
  struct sockaddr_in6 a6;
  uv_tcp_t t6;

  uv_tcp_init(loop, &server);
  show("tcp init", &server);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr *) &a, 0) == 0);
  show("tcp bind", &server);
  CHECK(uv_listen((uv_stream_t *) &server, 8, on_connection) == 0);
  show("tcp listen", &server);
  uv_tcp_init(loop, &client);
  a = net_v4(net_port(&server));
  CHECK(uv_tcp_connect(&creq, &client, (const struct sockaddr *) &a, on_connect) == 0);
  show("client connect", &client);

  uv_tcp_init(loop, &t6);
  CHECK(uv_ip6_addr("::1", 0, &a6) == 0);
  if (uv_tcp_bind(&t6, (const struct sockaddr *) &a6, UV_TCP_IPV6ONLY) == 0)
    show("tcp6 bind", &t6);
  else
    say("no ::1 here");
  close_show("tcp6 close", &t6);
  run_say(loop, UV_RUN_DEFAULT);
}

static void pipe_handles(void) {
  uv_pipe_t r, w, ipc;
  uv_file fds[2];

  uv_pipe_init(loop, &ipc, 1);
  show("pipe init ipc", &ipc);
  close_show("pipe close ipc", &ipc);
  CHECK(uv_pipe(fds, 0, 0) == 0);
  uv_pipe_init(loop, &r, 0);
  uv_pipe_init(loop, &w, 0);
  show("pipe init", &r);
  CHECK(uv_pipe_open(&r, fds[0]) == 0);
  show("pipe open (read end)", &r);
  CHECK(uv_pipe_open(&w, fds[1]) == 0);
  show("pipe open (write end)", &w);
  close_show("pipe close r", &r);
  close_show("pipe close w", &w);
  run_say(loop, UV_RUN_DEFAULT);
}

static uv_udp_t u, um;

static void udp_handles(void) {
  struct sockaddr_in a = net_v4(0), peer;
  int len = sizeof peer;

  uv_udp_init(loop, &u);
  show("udp init", &u);
  CHECK(uv_udp_bind(&u, (const struct sockaddr *) &a, 0) == 0);
  show("udp bind", &u);
  CHECK(uv_udp_getsockname(&u, (struct sockaddr *) &peer, &len) == 0);
  CHECK(uv_udp_connect(&u, (const struct sockaddr *) &peer) == 0);
  show("udp connect", &u);
  CHECK(uv_udp_connect(&u, NULL) == 0);
  show("udp disconnect", &u);
  close_show("udp close", &u);
  uv_udp_init_ex(loop, &um, AF_INET | UV_UDP_RECVMMSG);
  show("udp init_ex recvmmsg", &um);
  close_show("udp close", &um);
  run_say(loop, UV_RUN_DEFAULT);
}

int main(void) {
  loop = uv_default_loop();
  basic_handles();
  tcp_handles();
  pipe_handles();
  udp_handles();
  other_handles();
  tty_handles();
  finish(loop);
  return 0;
}
