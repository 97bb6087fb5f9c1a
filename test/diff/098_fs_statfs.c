// SPDX-License-Identifier: MIT
/* uv_fs_statfs: req->ptr is a uv_statfs_t (freed by uv_fs_req_cleanup)
 * with the file system's figures; the same file system gives the same
 * type and block size for two paths on it; a missing path is ENOENT with
 * ptr NULL.  Synchronous and asynchronous. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_statfs_t first;

static void show(const char *what, uv_fs_t *r) {
  const uv_statfs_t *s = r->ptr;
  say("%-8s %s result=%s ptr=%s", what, fs_type_name(r->fs_type), fs_res(r->result), s ? "set" : "NULL");
  if (s == NULL) return;
  /* (f_spare is not printed: libuv leaves it uninitialised.) */
  say("  bsize>0=%d blocks>=bfree=%d bfree>=bavail=%d files>=ffree=%d", s->f_bsize > 0,
      s->f_blocks >= s->f_bfree, s->f_bfree >= s->f_bavail, s->f_files >= s->f_ffree);
  if (first.f_bsize == 0) first = *s;
  say("  same type and block size as the first: %d", s->f_type == first.f_type && s->f_bsize == first.f_bsize);
}

static void on_statfs(uv_fs_t *r) {
  show("async", r);
  uv_fs_req_cleanup(r);
  say("  after cleanup ptr=%s", r->ptr ? "set" : "NULL");
}

int main(void) {
  uv_fs_t req;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("file", "x");

  rc = uv_fs_statfs(NULL, &req, ".", NULL);
  say("sync statfs(.) = %s", fs_res(rc));
  show("sync", &req);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_statfs(&loop, &req, "file", on_statfs) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  rc = uv_fs_statfs(NULL, &req, "missing", NULL);
  say("sync statfs(missing) = %s", fs_res(rc));
  show("sync", &req);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_statfs(&loop, &req, "file/x", on_statfs) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
