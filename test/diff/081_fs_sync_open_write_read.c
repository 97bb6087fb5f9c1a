// SPDX-License-Identifier: MIT
/* Synchronous file requests (cb == NULL): uv_fs_* returns the result and
 * also leaves it in req->result.  Writes with several buffers at the file
 * position (offset -1) and at an offset; reads with several buffers, at an
 * offset (the position does not move) and at the position; end of file is
 * a read of 0; closing twice is EBADF. */
#include "diff.h"
#include "diff_fs.h"

static uv_fs_t req;

static void show(const char *what, int rc) {
  int is_fd = req.fs_type == UV_FS_OPEN;
  say("%-28s rc=%s result=%s type=%s ptr=%s", what, is_fd ? fs_fd(rc) : fs_res(rc),
      is_fd ? fs_fd(req.result) : fs_res(req.result), fs_type_name(req.fs_type),
      req.ptr == NULL ? "NULL" : "set");
}

int main(void) {
  uv_loop_t loop;
  char a[4], b[8], c[32];
  uv_buf_t wb[3], rb[2], one;
  int fd, rc;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();

  fd = uv_fs_open(&loop, &req, "data.txt", O_RDWR | O_CREAT | O_EXCL, 0644, NULL);
  show("open O_CREAT|O_EXCL", fd);
  say("path is the caller's string: %d, cb NULL: %d, loop kept: %d",
      strcmp(req.path, "data.txt") == 0, req.cb == NULL, req.loop == &loop);
  uv_fs_req_cleanup(&req);
  say("after cleanup path=%s", req.path == NULL ? "NULL" : "set");

  wb[0] = uv_buf_init("hello ", 6);
  wb[1] = uv_buf_init("", 0);
  wb[2] = uv_buf_init("world\n", 6);
  rc = uv_fs_write(NULL, &req, fd, wb, 3, -1, NULL);
  show("write 3 bufs at position", rc);
  uv_fs_req_cleanup(&req);

  one = uv_buf_init("W", 1);
  rc = uv_fs_write(NULL, &req, fd, &one, 1, 6, NULL);
  show("write 1 buf at offset 6", rc);
  uv_fs_req_cleanup(&req);

  one = uv_buf_init("!!", 2);
  rc = uv_fs_write(NULL, &req, fd, &one, 1, -1, NULL);
  show("write at position (appends)", rc);
  uv_fs_req_cleanup(&req);

  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  rb[0] = uv_buf_init(a, sizeof a);
  rb[1] = uv_buf_init(b, sizeof b);
  rc = uv_fs_read(NULL, &req, fd, rb, 2, 0, NULL);
  show("read 2 bufs at offset 0", rc);
  say("  a=[%.4s] b=[%.8s]", a, b);
  uv_fs_req_cleanup(&req);

  rb[0] = uv_buf_init(c, sizeof c);
  rc = uv_fs_read(NULL, &req, fd, rb, 1, -1, NULL);
  show("read at position (at end)", rc);
  uv_fs_req_cleanup(&req);

  rc = uv_fs_read(NULL, &req, fd, rb, 1, 3, NULL);
  show("read at offset 3", rc);
  say("  c=[%.*s]", rc > 0 ? rc - 1 : 0, c);
  uv_fs_req_cleanup(&req);

  rc = uv_fs_read(NULL, &req, fd, rb, 1, 100, NULL);
  show("read past the end", rc);
  uv_fs_req_cleanup(&req);

  rc = uv_fs_close(NULL, &req, fd, NULL);
  show("close", rc);
  uv_fs_req_cleanup(&req);
  rc = uv_fs_close(NULL, &req, fd, NULL);
  show("close again", rc);
  say("system error of EBADF = %d", uv_fs_get_system_error(&req) == EBADF);
  uv_fs_req_cleanup(&req);

  fd = uv_fs_open(NULL, &req, "data.txt", O_RDONLY, 0, NULL);
  show("reopen read-only", fd);
  uv_fs_req_cleanup(&req);
  rb[0] = uv_buf_init(c, sizeof c);
  rc = uv_fs_read(NULL, &req, fd, rb, 1, -1, NULL);
  show("read whole file", rc);
  say("  [%.*s] then [%.*s]", rc > 3 ? rc - 3 : 0, c, rc > 3 ? 2 : 0, c + rc - 2);
  uv_fs_req_cleanup(&req);
  one = uv_buf_init("x", 1);
  rc = uv_fs_write(NULL, &req, fd, &one, 1, -1, NULL);
  show("write to read-only fd", rc);
  uv_fs_req_cleanup(&req);
  rc = uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);

  rc = uv_fs_unlink(NULL, &req, "data.txt", NULL);
  show("unlink", rc);
  uv_fs_req_cleanup(&req);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
