// SPDX-License-Identifier: MIT
/* Which async sends end the next poll's wait.  A send wakes the poll once;
 * the pass that calls the handle takes the wake-up with it when the send
 * came before the pass began (here, from another descriptor's callback of
 * the same batch), so the next poll waits.  A send made by a callback of
 * the pass wakes the next poll even when the pass calls that handle
 * itself: the next iteration comes at once, with nothing to call.  A
 * handle sent and closed before any pass saw it wakes the next poll
 * too.  (The timer, due after the wait, ends each run.) */
#include <sys/socket.h>
#include <unistd.h>

#include "diff.h"

static uv_loop_t loop;
static uv_prepare_t prepare;
static uv_check_t check;
static uv_poll_t reader;
static uv_timer_t timer;
static uv_async_t a, b, c;
static int fds[2];
static int step;

static void on_prepare(uv_prepare_t *h) {
  (void) h;
  say("  [prepare]");
}

static void on_closed(uv_handle_t *h) {
  (void) h;
  say("  c closed");
}

static void on_check(uv_check_t *h) {
  (void) h;
  say("  [check]");
  if (step == 3) {
    step = 4;
    CHECK(uv_async_send(&c) == 0);
    uv_close((uv_handle_t *) &c, on_closed);
    say("  sent and closed c");
  }
}

static void on_async(uv_async_t *h) {
  say("  async %c", h == &a ? 'a' : h == &b ? 'b' : 'c');
  if (h == &a && step == 2) CHECK(uv_async_send(&b) == 0);
}

static void on_readable(uv_poll_t *h, int status, int events) {
  char byte;
  (void) h;
  CHECK(status == 0 && (events & UV_READABLE) != 0);
  CHECK(read(fds[0], &byte, 1) == 1);
  CHECK(uv_async_send(&b) == 0);
  say("  readable: sent b");
}

static void on_timer(uv_timer_t *h) {
  (void) h;
  say("  timer");
}

int main(void) {
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_async_init(&loop, &a, on_async) == 0);
  CHECK(uv_async_init(&loop, &b, on_async) == 0);
  CHECK(uv_async_init(&loop, &c, on_async) == 0);
  CHECK(uv_poll_init(&loop, &reader, fds[0]) == 0);
  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  CHECK(uv_check_start(&check, on_check) == 0);
  CHECK(uv_poll_start(&reader, UV_READABLE, on_readable) == 0);
  uv_unref((uv_handle_t *) &prepare);
  uv_unref((uv_handle_t *) &check);
  uv_unref((uv_handle_t *) &reader);
  uv_unref((uv_handle_t *) &a);
  uv_unref((uv_handle_t *) &b);
  uv_unref((uv_handle_t *) &c);

  say("-- a first look, which watches the socket");
  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);
  run_say(&loop, UV_RUN_NOWAIT);

  /* The socket becomes readable before the send: the batch has the socket
   * first, whose callback sends b before the pass. */
  say("-- a send from a callback of the batch, ahead of the pass");
  step = 1;
  CHECK(write(fds[1], "x", 1) == 1);
  CHECK(uv_async_send(&a) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 200, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- a send from a callback of the pass, to a handle it visits next");
  step = 2;
  CHECK(uv_async_send(&a) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 200, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- a handle sent and closed by a check callback");
  step = 3;
  CHECK(uv_async_send(&a) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 200, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  finish(&loop);
  close(fds[1]);
  close(fds[0]);
  return 0;
}
