// SPDX-License-Identifier: MIT
/* uv_fs_sendfile copies from in_fd at an offset (in_fd's own position does
 * not move) to out_fd at its position (which advances).  The result is the
 * byte count: short at the end of the input, 0 past it.  File to file,
 * file to pipe (read back), pipe to file (no offsets on a pipe), bad
 * descriptors.  Synchronous and asynchronous. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static int in_fd, out_fd;

static off_t pos(int fd) { return lseek(fd, 0, SEEK_CUR); }

static void on_send(uv_fs_t *r) {
  say("  async: %s result=%s", fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
}

static void both(const char *what, int out, int in, int64_t off, size_t len) {
  uv_fs_t req;
  int rc = uv_fs_sendfile(NULL, &req, out, in, off, len, NULL);
  say("%-28s sync=%s", what, fs_res(rc));
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_sendfile(&loop, &req, out, in, off, len, on_send) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  if (in == in_fd || out == out_fd)
    say("  positions: in=%ld out=%ld", (long) pos(in_fd), (long) pos(out_fd));
}

int main(void) {
  uv_fs_t req;
  char text[64];
  int p[2];
  ssize_t n;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("in", "0123456789abcdefghij");
  in_fd = uv_fs_open(NULL, &req, "in", O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  out_fd = uv_fs_open(NULL, &req, "out", O_WRONLY | O_CREAT | O_TRUNC, 0644, NULL);
  uv_fs_req_cleanup(&req);
  CHECK(in_fd >= 0 && out_fd >= 0);

  both("5 bytes from offset 2", out_fd, in_fd, 2, 5);
  both("from offset 15, ask 10", out_fd, in_fd, 15, 10);
  both("past the end", out_fd, in_fd, 100, 10);
  both("zero bytes", out_fd, in_fd, 0, 0);
  say("out=[%s]", fs_get("out", text, sizeof text));

  CHECK(pipe(p) == 0);
  both("file to pipe", p[1], in_fd, 10, 4);
  n = read(p[0], text, sizeof text);
  say("  pipe had [%.*s]", (int) n, text);
  CHECK(write(p[1], "PIPE", 4) == 4);
  close(p[1]);
  both("pipe to file", out_fd, p[0], 0, 100);
  close(p[0]);
  say("out=[%s]", fs_get("out", text, sizeof text));

  both("bad in_fd", out_fd, -1, 0, 10);
  both("bad out_fd", -1, in_fd, 0, 10);
  both("write to a read-only fd", in_fd, in_fd, 0, 10);

  uv_fs_close(NULL, &req, in_fd, NULL);
  uv_fs_req_cleanup(&req);
  uv_fs_close(NULL, &req, out_fd, NULL);
  uv_fs_req_cleanup(&req);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
