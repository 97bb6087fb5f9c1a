// SPDX-License-Identifier: MIT
/* uv_tty_set_mode with the modes a program may pass by mistake or from a
 * newer libuv, on a pseudo-terminal: from 1.53 a mode libuv does not know
 * is EINVAL and leaves the terminal as it was; before, it was taken, with
 * the terminal set as in normal mode. Mode 3 (UV_TTY_MODE_RAW_VT, 1.51)
 * is raw mode on Unix from 1.51, and a mode 1.44 and 1.50 do not know.
 * Each call prints its result and the terminal's echo and canonical
 * flags after it. */
#include "diff.h"
#include "diff_tty.h"

int main(void) {
  static const int modes[] = {42, -1, UV_TTY_MODE_RAW, 7, UV_TTY_MODE_NORMAL, 3, UV_TTY_MODE_IO, 3, UV_TTY_MODE_NORMAL};
  uv_loop_t loop;
  uv_tty_t tty;
  struct termios t;
  int master, slave, rc;
  size_t i;

  CHECK(uv_loop_init(&loop) == 0);
  master = pty_open(&slave);
  CHECK(uv_tty_init(&loop, &tty, slave, 1) == 0);
  for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    rc = uv_tty_set_mode(&tty, (uv_tty_mode_t) modes[i]);
    CHECK(tcgetattr(slave, &t) == 0);
    say("set_mode(%d) = %s: echo %d, canonical %d", modes[i], rc_name(rc), !!(t.c_lflag & ECHO),
        !!(t.c_lflag & ICANON));
  }
  say("reset_mode = %s", rc_name(uv_tty_reset_mode()));
  uv_close((uv_handle_t *) &tty, NULL);
  finish(&loop);
  close(master);
  return 0;
}
