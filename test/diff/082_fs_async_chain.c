// SPDX-License-Identifier: MIT
/* Asynchronous requests chained from their callbacks: open, write, fstat,
 * read, close, unlink.  Each uv_fs_* returns 0 at once; the callback sees
 * the result, the operation type, the loop and a private copy of the path.
 * A pending request keeps the loop alive and is counted by uv_loop_alive
 * only until its callback starts. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_t req;
static char name[] = "chain.txt";
static char text[] = "0123456789";
static char back[16];
static uv_buf_t buf;
static int fd = -1;

static void on_unlink(uv_fs_t *r);
static void on_close(uv_fs_t *r);
static void on_read(uv_fs_t *r);
static void on_fstat(uv_fs_t *r);
static void on_write(uv_fs_t *r);

static void trace(uv_fs_t *r) {
  say("cb %-6s result=%s loop=%d alive=%d same req=%d", fs_type_name(r->fs_type),
      r->fs_type == UV_FS_OPEN ? fs_fd(r->result) : fs_res(r->result), r->loop == &loop,
      uv_loop_alive(&loop), r == &req);
}

static void on_open(uv_fs_t *r) {
  trace(r);
  say("  path copied: %d, equal: %d", r->path != name, strcmp(r->path, name) == 0);
  fd = (int) r->result;
  uv_fs_req_cleanup(r);
  buf = uv_buf_init(text, 10);
  CHECK(uv_fs_write(&loop, &req, fd, &buf, 1, -1, on_write) == 0);
  say("  write queued, alive=%d", uv_loop_alive(&loop));
}

static void on_write(uv_fs_t *r) {
  trace(r);
  uv_fs_req_cleanup(r);
  CHECK(uv_fs_fstat(&loop, &req, fd, on_fstat) == 0);
}

static void on_fstat(uv_fs_t *r) {
  trace(r);
  say("  size=%llu kind=%s perm=%03o ptr is statbuf=%d", (unsigned long long) r->statbuf.st_size,
      mode_kind(r->statbuf.st_mode), (unsigned) (r->statbuf.st_mode & 0777), r->ptr == &r->statbuf);
  uv_fs_req_cleanup(r);
  buf = uv_buf_init(back, sizeof back);
  CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, 2, on_read) == 0);
}

static void on_read(uv_fs_t *r) {
  trace(r);
  say("  read [%.*s]", (int) r->result, back);
  uv_fs_req_cleanup(r);
  CHECK(uv_fs_close(&loop, &req, fd, on_close) == 0);
}

static void on_close(uv_fs_t *r) {
  trace(r);
  uv_fs_req_cleanup(r);
  CHECK(uv_fs_unlink(&loop, &req, name, on_unlink) == 0);
}

static void on_unlink(uv_fs_t *r) {
  trace(r);
  uv_fs_req_cleanup(r);
  uv_fs_req_cleanup(r);
  say("  cleanup twice: path=%s ptr=%s", r->path ? "set" : "NULL", r->ptr ? "set" : "NULL");
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  say("alive before=%d", uv_loop_alive(&loop));
  req.data = &fd;
  CHECK(uv_fs_open(&loop, &req, name, O_RDWR | O_CREAT | O_TRUNC, 0600, on_open) == 0);
  say("open queued: alive=%d type=%s cb set=%d data kept=%d", uv_loop_alive(&loop),
      fs_type_name(req.fs_type), req.cb == on_open, req.data == &fd);
  say("req type=%s", uv_req_type_name(req.type));
  run_say(&loop, UV_RUN_DEFAULT);
  say("file gone: %d", fs_mode(name) == 0);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
