// SPDX-License-Identifier: MIT
/* uv_fs_scandir lists a directory without "." and "..", sorted by strcmp
 * (upper case before lower case), with each entry's type; the result is
 * the entry count.  uv_fs_scandir_next walks the list and returns UV_EOF
 * at the end (and again after it); req->ptr is NULL after the end, for an
 * empty directory and after an error, where scandir_next returns the
 * error.  Synchronous and asynchronous; a cleanup in the middle of the
 * walk frees the rest. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;

static void walk(const char *what, uv_fs_t *r) {
  uv_dirent_t ent;
  int rc;
  say("%s: result=%s ptr=%s", what, fs_res(r->result), r->ptr ? "set" : "NULL");
  while ((rc = uv_fs_scandir_next(r, &ent)) == 0)
    say("  %-8s %s", ent.name, dirent_type_name(ent.type));
  say("  next=%s, again=%s, ptr=%s", fs_res(rc), fs_res(uv_fs_scandir_next(r, &ent)),
      r->ptr ? "set" : "NULL");
}

static void on_scandir(uv_fs_t *r) {
  walk((const char *) r->data, r);
  uv_fs_req_cleanup(r);
}

static void both(const char *what, const char *path) {
  uv_fs_t req;
  int rc = uv_fs_scandir(NULL, &req, path, 0, NULL);
  say("sync scandir(%s) = %s, type=%s", path, fs_res(rc), fs_type_name(req.fs_type));
  walk(what, &req);
  uv_fs_req_cleanup(&req);
  req.data = (void *) what;
  CHECK(uv_fs_scandir(&loop, &req, path, 0, on_scandir) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  uv_fs_t req;
  uv_dirent_t ent;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  CHECK(uv_fs_mkdir(NULL, &req, "top", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  fs_put("top/b", "");
  fs_put("top/a", "");
  fs_put("top/C", "");
  fs_put("top/.hidden", "");
  fs_put("top/a0", "");
  CHECK(uv_fs_mkdir(NULL, &req, "top/dir", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_symlink(NULL, &req, "a", "top/link", 0, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(mkfifo("top/fifo", 0600) == 0);
  CHECK(uv_fs_mkdir(NULL, &req, "empty", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);

  both("top", "top");
  both("empty", "empty");
  both("missing", "missing");
  both("a file", "top/a");

  /* Stop after two entries: cleanup frees the rest (and the current one). */
  CHECK(uv_fs_scandir(NULL, &req, "top", 0, NULL) == 8);
  CHECK(uv_fs_scandir_next(&req, &ent) == 0);
  CHECK(uv_fs_scandir_next(&req, &ent) == 0);
  say("stopped at %s", ent.name);
  uv_fs_req_cleanup(&req);
  say("after cleanup: ptr=%s next=%s", req.ptr ? "set" : "NULL",
      fs_res(uv_fs_scandir_next(&req, &ent)));
  uv_fs_req_cleanup(&req);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
