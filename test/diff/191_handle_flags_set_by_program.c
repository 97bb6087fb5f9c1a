// SPDX-License-Identifier: MIT
/* A program may set libuv's readable bit (0x4000) in a handle's `flags`
 * itself: uvloop does so on the write end of a pipe before
 * uv_read_start(), to hear when the reading side goes away.  libuv then
 * accepts the read start and reports the failed read to the read
 * callback; the same must happen here. */
#include "diff.h"

#include <unistd.h>

#define READABLE_BIT 0x4000u

static uv_loop_t *loop;
static uv_pipe_t w;
static char buf[16];
static int reads;

static void alloc_cb(uv_handle_t *h, size_t n, uv_buf_t *b) {
  (void) h;
  (void) n;
  b->base = buf;
  b->len = sizeof buf;
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  (void) b;
  if (reads++ == 0) say("read_cb nread=%s", n < 0 ? rc_name((int) n) : "data");
  if (n < 0) {
    uv_read_stop(s);
    uv_close((uv_handle_t *) s, NULL);
  }
}

int main(void) {
  uv_file fds[2];
  uv_pipe_t plain;

  loop = uv_default_loop();
  CHECK(uv_pipe(fds, 0, 0) == 0);

  /* Without the bit, a write end cannot be read from. */
  uv_pipe_init(loop, &plain, 0);
  CHECK(uv_pipe_open(&plain, dup(fds[1])) == 0);
  say("read_start on a write end: %s",
      rc_name(uv_read_start((uv_stream_t *) &plain, alloc_cb, read_cb)));
  uv_close((uv_handle_t *) &plain, NULL);

  uv_pipe_init(loop, &w, 0);
  CHECK(uv_pipe_open(&w, fds[1]) == 0);
  say("readable bit before: %d", (w.flags & READABLE_BIT) != 0);
  w.flags |= READABLE_BIT;
  say("read_start with the bit set: %s",
      rc_name(uv_read_start((uv_stream_t *) &w, alloc_cb, read_cb)));
  say("is_readable: %d, is_active: %d", uv_is_readable((uv_stream_t *) &w),
      uv_is_active((uv_handle_t *) &w));
  close(fds[0]);  /* the reader goes away */
  run_say(loop, UV_RUN_DEFAULT);
  say("read callbacks: %s", reads > 0 ? "some" : "none");
  finish(loop);
  return 0;
}
