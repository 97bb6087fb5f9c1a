// SPDX-License-Identifier: MIT
/* uv_poll UV_DISCONNECT: the peer shuts down its write side; prioritized
 * alone on a socket without urgent data gives no callback. */
#include "diff.h"
#include <sys/socket.h>
#include <unistd.h>

static uv_poll_t pa;
static uv_timer_t t;
static int fds[2];
static int calls;

static void on_a(uv_poll_t *h, int status, int events) {
  calls++;
  say("  a: status=%s events=%d", rc_name(status), events);
  CHECK(uv_poll_stop(h) == 0);
}

static void on_timer(uv_timer_t *h) {
  say("  timer: calls=%d, now shut down the peer", calls);
  CHECK(shutdown(fds[1], SHUT_WR) == 0);
  CHECK(uv_poll_start(&pa, UV_DISCONNECT, on_a) == 0);
  uv_close((uv_handle_t *) h, NULL);
}

int main(void) {
  uv_loop_t loop;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  CHECK(uv_poll_init(&loop, &pa, fds[0]) == 0);
  CHECK(uv_poll_start(&pa, UV_PRIORITIZED, on_a) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 20, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);

  CHECK(uv_poll_start(&pa, UV_READABLE | UV_DISCONNECT, on_a) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);
  finish(&loop);
  close(fds[0]);
  close(fds[1]);
  return 0;
}
