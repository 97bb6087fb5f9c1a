// SPDX-License-Identifier: MIT
/* The public fields of uv_fs_t and their getters: type, fs_type, loop,
 * cb, result, ptr, path, statbuf.  `data` survives every uv_fs_* call;
 * a synchronous request points at the caller's path, an asynchronous one
 * at a copy; uv_fs_req_cleanup clears path and ptr and may be called
 * twice, on NULL, and on a zeroed request.  uv_fs_get_system_error is the
 * positive errno of a failed request.  statbuf is left alone by requests
 * that do not stat. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static char path[] = "file";
static int marker;

static const char *caller_path;

/* `queued`: the request is in flight, only the fields set at the call are
 * stable (a pool thread may be writing result and ptr). */
static void dump(const char *what, uv_fs_t *r, int queued) {
  say("%-12s type=%s fs_type=%s getter=%d loop=%s cb=%s data kept=%d", what, uv_req_type_name(r->type),
      fs_type_name(r->fs_type), uv_fs_get_type(r) == r->fs_type,
      r->loop == &loop ? "loop" : r->loop ? "other" : "NULL", r->cb ? "set" : "NULL", r->data == &marker);
  say("%-12s path=%s get_path=%d", "",
      r->path == NULL ? "NULL" : r->path == caller_path ? "caller's" : "copy", uv_fs_get_path(r) == r->path);
  if (queued) return;
  say("%-12s result=%s get_result=%d sys=%s ptr=%s get_ptr=%d statbuf getter=%d", "",
      r->fs_type == UV_FS_OPEN ? fs_fd(r->result) : fs_res(r->result), uv_fs_get_result(r) == r->result,
      r->result < 0 ? uv_err_name(-uv_fs_get_system_error(r)) : "-", r->ptr == NULL ? "NULL"
      : r->ptr == &r->statbuf ? "statbuf" : "other", uv_fs_get_ptr(r) == r->ptr,
      uv_fs_get_statbuf(r) == &r->statbuf);
}

static void on_done(uv_fs_t *r) {
  dump("async cb", r, 0);
  uv_fs_req_cleanup(r);
  dump("cleaned", r, 0);
  uv_fs_req_cleanup(r);
}

int main(void) {
  uv_fs_t req;
  uint64_t ino;
  int fd;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  say("uv_req_size(UV_FS) == sizeof(uv_fs_t): %d", uv_req_size(UV_FS) == sizeof(uv_fs_t));
  say("uv_fs_req_cleanup(NULL) returns");
  uv_fs_req_cleanup(NULL);
  memset(&req, 0, sizeof req);
  uv_fs_req_cleanup(&req);
  say("cleanup of a zeroed request: path=%s ptr=%s", req.path ? "set" : "NULL", req.ptr ? "set" : "NULL");

  req.data = &marker;
  caller_path = path;
  fd = uv_fs_open(&loop, &req, path, O_RDWR | O_CREAT, 0644, NULL);
  dump("sync open", &req, 0);
  uv_fs_req_cleanup(&req);
  dump("cleaned", &req, 0);
  uv_fs_req_cleanup(&req);

  uv_fs_fstat(NULL, &req, fd, NULL);
  dump("sync fstat", &req, 0);
  uv_fs_req_cleanup(&req);
  dump("cleaned", &req, 0);

  caller_path = "missing";
  uv_fs_stat(NULL, &req, caller_path, NULL);
  dump("sync ENOENT", &req, 0);
  uv_fs_req_cleanup(&req);

  CHECK(uv_fs_fstat(NULL, &req, fd, NULL) == 0);
  ino = req.statbuf.st_ino;
  uv_fs_req_cleanup(&req);
  uv_fs_close(&loop, &req, fd, NULL);
  dump("sync close", &req, 0);
  say("statbuf of the earlier fstat still there: %d", req.statbuf.st_ino == ino && ino != 0);
  uv_fs_req_cleanup(&req);

  caller_path = path;
  CHECK(uv_fs_stat(&loop, &req, path, on_done) == 0);
  dump("queued stat", &req, 1);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_fs_lstat(&loop, &req, "missing", on_done) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_fs_rename(&loop, &req, path, "other", on_done) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_fs_readlink(&loop, &req, "other", on_done) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_fs_realpath(&loop, &req, "other", on_done) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
