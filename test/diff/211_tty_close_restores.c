// SPDX-License-Identifier: MIT
/* Closing a terminal handle in raw mode: from libuv 1.49 (PR #4399) the
 * close puts back the settings the first uv_tty_set_mode saved and
 * forgets them, so a later uv_tty_reset_mode has nothing to do; libuv
 * 1.44 leaves the terminal raw, and uv_tty_reset_mode then writes to the
 * descriptor it saved, closed by then (here reopened on /dev/null, so
 * that the answer is ENOTTY whoever would have taken the number). */
#include "diff.h"
#include "diff_tty.h"

static int echo_of(int fd) {
  struct termios t;
  CHECK(tcgetattr(fd, &t) == 0);
  return !!(t.c_lflag & ECHO);
}

int main(void) {
  uv_loop_t loop;
  uv_tty_t tty;
  int master, slave, other, devnull, rc;

  CHECK(uv_loop_init(&loop) == 0);
  master = pty_open(&slave);
  other = pty_again(master);
  CHECK(uv_tty_init(&loop, &tty, slave, 1) == 0);
  rc = uv_tty_set_mode(&tty, UV_TTY_MODE_RAW);
  say("set_mode(raw) = %s, echo %d", rc_name(rc), echo_of(other));
  uv_close((uv_handle_t *) &tty, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
  say("closed: echo %d", echo_of(other));
  devnull = open("/dev/null", O_RDWR);
  CHECK(devnull >= 0);
  CHECK(dup2(devnull, slave) == slave);
  rc = uv_tty_reset_mode();
  say("reset_mode = %s, echo %d", rc_name(rc), echo_of(other));
  close(slave);
  close(devnull);
  close(other);
  close(master);
  finish(&loop);
  return 0;
}
