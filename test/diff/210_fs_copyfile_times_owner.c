// SPDX-License-Identifier: MIT
/* What uv_fs_copyfile gives the destination besides the bytes. From libuv
 * 1.49 (PR #4396) it sets the source's access and modification times on
 * the destination, and its owner where the kernel allows (as root here;
 * otherwise the chown of the source fails and the owner is the caller on
 * both sides). The times are set before the bytes are copied, so a
 * non-empty copy's modification time is that of the writing, and only an
 * empty one keeps the source's. libuv 1.44 gives the destination none of
 * them. Copying a file onto itself changes nothing. */
#include "diff.h"
#include "diff_fs.h"
#include <sys/stat.h>

static uv_loop_t loop;

static void show(const char *what, const char *src, const char *dst, ssize_t rc) {
  struct stat s, d;
  CHECK(stat(src, &s) == 0);
  CHECK(stat(dst, &d) == 0);
  say("%s: %s; access time the source's %d, modification time the source's %d, owner the source's %d", what,
      fs_res(rc), d.st_atime == 1000000, d.st_mtime == 2000000, d.st_uid == s.st_uid && d.st_gid == s.st_gid);
}

static void on_copy(uv_fs_t *r) {
  show(r->data, r->path, "async-copy", r->result);
  uv_fs_req_cleanup(r);
}

/* A copy without a loop, and what it gave the destination. */
static void copy(const char *what, const char *src, const char *dst) {
  uv_fs_t req;
  ssize_t rc = uv_fs_copyfile(NULL, &req, src, dst, 0, NULL);
  uv_fs_req_cleanup(&req);
  show(what, src, dst, rc);
}

/* A source with old times, owned by 4321:4322 if the chown may. */
static void make_source(const char *name, const char *text) {
  uv_fs_t req;
  fs_put(name, text);
  say("chown %s = %s", name, fs_res(uv_fs_chown(NULL, &req, name, 4321, 4322, NULL)));
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_utime(NULL, &req, name, 1000000, 2000000, NULL) == 0);
  uv_fs_req_cleanup(&req);
}

int main(void) {
  uv_fs_t areq;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  make_source("full", "some bytes");
  make_source("empty", "");

  copy("non-empty", "full", "full-copy");
  copy("empty", "empty", "empty-copy");
  fs_put("old", "previous content, longer");
  copy("empty onto an existing file", "empty", "old");
  copy("onto itself", "empty", "empty");

  areq.data = "async, empty";
  CHECK(uv_fs_copyfile(&loop, &areq, "empty", "async-copy", 0, on_copy) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
