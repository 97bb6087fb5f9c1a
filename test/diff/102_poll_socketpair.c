// SPDX-License-Identifier: MIT
/* uv_poll on a socketpair: readable and writable events, the phase the
 * callback runs in, stopping from the callback, restarting with other
 * events, and a poll handle keeping the loop alive while active. */
#include "diff.h"
#include <sys/socket.h>
#include <unistd.h>

static uv_poll_t pa, pb;
static uv_prepare_t prep;
static uv_check_t chk;
static int fds[2];
static int a_calls, b_calls;

static void on_prepare(uv_prepare_t *h) { (void) h; say("  prepare"); }
static void on_check(uv_check_t *h) { (void) h; say("  check"); }

static void on_b(uv_poll_t *h, int status, int events) {
  b_calls++;
  say("  b: status=%s events=%d", rc_name(status), events);
  /* Writable at once; write one byte to the peer and stop. */
  CHECK(write(fds[1], "x", 1) == 1);
  CHECK(uv_poll_stop(h) == 0);
  say("  b stopped: active=%d", uv_is_active((uv_handle_t *) h));
}

static void on_a(uv_poll_t *h, int status, int events) {
  char c;
  a_calls++;
  say("  a: status=%s events=%d", rc_name(status), events);
  CHECK(read(fds[0], &c, 1) == 1);
  say("  a read '%c'", c);
  CHECK(uv_poll_stop(h) == 0);
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_prepare_start(&prep, on_prepare) == 0);
  CHECK(uv_check_start(&chk, on_check) == 0);
  uv_unref((uv_handle_t *) &prep);
  uv_unref((uv_handle_t *) &chk);

  CHECK(uv_poll_init(&loop, &pa, fds[0]) == 0);
  CHECK(uv_poll_init_socket(&loop, &pb, fds[1]) == 0);
  say("init: type=%s active=%d alive=%d", uv_handle_type_name(uv_handle_get_type((uv_handle_t *) &pa)),
      uv_is_active((uv_handle_t *) &pa), uv_loop_alive(&loop));

  rc = uv_poll_start(&pb, UV_WRITABLE, on_b);
  say("start b = %s active=%d alive=%d", rc_name(rc), uv_is_active((uv_handle_t *) &pb),
      uv_loop_alive(&loop));
  say("backend_timeout with a pending registration = %d", uv_backend_timeout(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("b_calls=%d", b_calls);

  rc = uv_poll_start(&pa, UV_READABLE, on_a);
  say("start a = %s", rc_name(rc));
  run_say(&loop, UV_RUN_DEFAULT);
  say("a_calls=%d", a_calls);

  /* Nothing to read now: a readable watch alone keeps the loop alive;
   * NOWAIT returns with it still active. */
  rc = uv_poll_start(&pa, UV_READABLE, on_a);
  say("restart a = %s", rc_name(rc));
  run_say(&loop, UV_RUN_NOWAIT);
  say("a_calls=%d active=%d", a_calls, uv_is_active((uv_handle_t *) &pa));
  /* Changing the events of an active handle. */
  rc = uv_poll_start(&pa, UV_READABLE | UV_WRITABLE, on_a);
  say("restart a readable|writable = %s", rc_name(rc));
  CHECK(write(fds[1], "y", 1) == 1);
  run_say(&loop, UV_RUN_ONCE);
  say("a_calls=%d", a_calls);

  /* Start with no events: stops. */
  rc = uv_poll_start(&pb, UV_WRITABLE, on_b);
  rc = uv_poll_start(&pb, 0, on_b);
  say("start b with 0 events = %s active=%d", rc_name(rc), uv_is_active((uv_handle_t *) &pb));
  rc = uv_poll_stop(&pb);
  say("stop again = %s", rc_name(rc));

  /* Closing an active poll handle. */
  CHECK(uv_poll_start(&pa, UV_READABLE, on_a) == 0);
  uv_close((uv_handle_t *) &pa, NULL);
  say("closed a: alive=%d", uv_loop_alive(&loop));
  finish(&loop);
  close(fds[0]);
  close(fds[1]);
  return 0;
}
