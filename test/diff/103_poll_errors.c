// SPDX-License-Identifier: MIT
/* uv_poll errors: a regular file cannot be polled (EPERM), a closed fd
 * neither (EBADF); two handles on one fd (EEXIST on start); a pipe whose
 * reader is gone reports an error (EBADF) and the handle stops. */
#include "diff.h"
#include <fcntl.h>
#include <unistd.h>

static uv_poll_t p1, p2, pw;
static int werr_calls;

static void on_any(uv_poll_t *h, int status, int events) {
  (void) h;
  say("  unexpected cb status=%s events=%d", rc_name(status), events);
}

static void on_w(uv_poll_t *h, int status, int events) {
  werr_calls++;
  say("  w: status=%s events=%d active=%d", rc_name(status), events,
      uv_is_active((uv_handle_t *) h));
}

int main(void) {
  uv_loop_t loop;
  uv_poll_t bad;
  int rc, fd, pfd[2], fl;

  CHECK(uv_loop_init(&loop) == 0);

  fd = open("/proc/self/exe", O_RDONLY);
  CHECK(fd >= 0);
  rc = uv_poll_init(&loop, &bad, fd);
  say("init on a regular file = %s", rc_name(rc));
  close(fd);
  rc = uv_poll_init(&loop, &bad, fd);
  say("init on a closed fd = %s", rc_name(rc));
  say("alive=%d", uv_loop_alive(&loop));

  CHECK(pipe(pfd) == 0);
  rc = uv_poll_init(&loop, &p1, pfd[0]);
  say("init p1 = %s", rc_name(rc));
  fl = fcntl(pfd[0], F_GETFL);
  say("init made the fd non-blocking: %d", (fl & O_NONBLOCK) != 0);
  rc = uv_poll_init(&loop, &p2, pfd[0]);
  say("init p2 on the same fd before p1 starts = %s", rc_name(rc));
  CHECK(uv_poll_start(&p1, UV_READABLE, on_any) == 0);
  rc = uv_poll_start(&p2, UV_READABLE, on_any);
  say("start p2 while p1 watches = %s active=%d", rc_name(rc), uv_is_active((uv_handle_t *) &p2));
  {
    uv_poll_t p3;
    rc = uv_poll_init(&loop, &p3, pfd[0]);
    say("init p3 while p1 watches = %s", rc_name(rc));
  }
  uv_close((uv_handle_t *) &p1, NULL);
  uv_close((uv_handle_t *) &p2, NULL);
  run_say(&loop, UV_RUN_DEFAULT);

  /* Writer with no reader: EPOLLERR. */
  CHECK(uv_poll_init(&loop, &pw, pfd[1]) == 0);
  close(pfd[0]);
  CHECK(uv_poll_start(&pw, UV_WRITABLE, on_w) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("w calls=%d active=%d", werr_calls, uv_is_active((uv_handle_t *) &pw));
  finish(&loop);
  close(pfd[1]);
  return 0;
}
