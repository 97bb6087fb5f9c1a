// SPDX-License-Identifier: MIT
/* Terminals over a pseudo-terminal: uv_guess_handle on several kinds of
 * fd, uv_tty_init (a file is EINVAL), the window size, set_mode
 * normal/raw/io and back, uv_tty_reset_mode, writing to the tty and
 * reading the bytes back from the master. */
#include "diff.h"
#include "diff_net.h"
#include "diff_tty.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static uv_loop_t loop;
static uv_tty_t tty, bad;
static uv_write_t wreq;

static void on_write(uv_write_t *req, int status) {
  (void) req;
  say("  tty write cb: %s", rc_name(status));
}

int main(void) {
  struct winsize ws;
  struct termios t;
  int master, slave, fd, rc, w, h, fds[2];
  char buf[64];
  uv_buf_t b = uv_buf_init("hi\n", 3);
  ssize_t n;

  CHECK(uv_loop_init(&loop) == 0);
  master = pty_open(&slave);
  memset(&ws, 0, sizeof ws);
  ws.ws_col = 100;
  ws.ws_row = 40;
  CHECK(ioctl(master, TIOCSWINSZ, &ws) == 0);

  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
  fd = open("/proc/self/exe", O_RDONLY);
  CHECK(fd >= 0);
  say("guess: slave=%s socket=%s file=%s closed=%d", uv_handle_type_name(uv_guess_handle(slave)),
      uv_handle_type_name(uv_guess_handle(fds[0])), uv_handle_type_name(uv_guess_handle(fd)),
      uv_guess_handle(9999) == UV_UNKNOWN_HANDLE);
  rc = uv_tty_init(&loop, &bad, fd, 0);
  say("tty_init on a file = %s", rc_name(rc));
  close(fd);

  rc = uv_tty_init(&loop, &tty, slave, 1);
  say("tty_init = %s type=%s readable=%d writable=%d", rc_name(rc), uv_handle_type_name(tty.type),
      uv_is_readable((uv_stream_t *) &tty), uv_is_writable((uv_stream_t *) &tty));
  rc = uv_tty_get_winsize(&tty, &w, &h);
  say("winsize = %s %dx%d", rc_name(rc), w, h);
  rc = uv_tty_set_mode(&tty, UV_TTY_MODE_RAW);
  CHECK(tcgetattr(slave, &t) == 0);
  say("raw = %s echo=%d icanon=%d isig=%d", rc_name(rc), (t.c_lflag & ECHO) != 0, (t.c_lflag & ICANON) != 0,
      (t.c_lflag & ISIG) != 0);
  rc = uv_tty_set_mode(&tty, UV_TTY_MODE_IO);
  CHECK(tcgetattr(slave, &t) == 0);
  say("io = %s opost=%d", rc_name(rc), (t.c_oflag & OPOST) != 0);
  rc = uv_tty_set_mode(&tty, UV_TTY_MODE_NORMAL);
  CHECK(tcgetattr(slave, &t) == 0);
  say("normal = %s echo=%d icanon=%d", rc_name(rc), (t.c_lflag & ECHO) != 0, (t.c_lflag & ICANON) != 0);
  CHECK(uv_tty_set_mode(&tty, UV_TTY_MODE_RAW) == 0);
  rc = uv_tty_reset_mode();
  CHECK(tcgetattr(slave, &t) == 0);
  say("reset_mode = %s echo=%d icanon=%d", rc_name(rc), (t.c_lflag & ECHO) != 0, (t.c_lflag & ICANON) != 0);
  CHECK(uv_tty_set_mode(&tty, UV_TTY_MODE_NORMAL) == 0);

  rc = uv_write(&wreq, (uv_stream_t *) &tty, &b, 1, on_write);
  say("write = %s", rc_name(rc));
  run_say(&loop, UV_RUN_DEFAULT);
  n = read(master, buf, sizeof buf);
  say("master read %d bytes", (int) n);
  finish(&loop);
  close(master);
  close(fds[0]);
  close(fds[1]);
  return 0;
}
