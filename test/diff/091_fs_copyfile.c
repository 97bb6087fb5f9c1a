// SPDX-License-Identifier: MIT
/* uv_fs_copyfile: copies contents and permission bits; replaces (and
 * truncates) an existing destination; UV_FS_COPYFILE_EXCL refuses one
 * (EEXIST, destination untouched); copying a file onto itself succeeds and
 * leaves it as it was; FICLONE falls back to a plain copy, FICLONE_FORCE
 * reports the file system's answer; unknown flag bits are EINVAL at once;
 * a missing source or destination directory fails without leaving a
 * destination; a large file (several copy chunks) arrives whole. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;

static void report(const char *what, uv_fs_t *r) {
  char text[64];
  say("%-22s %s result=%s ptr=%s", what, fs_type_name(r->fs_type), fs_res(r->result),
      r->ptr ? "set" : "NULL");
  say("  dst=[%s] mode=%04o", fs_get("dst", text, sizeof text), (unsigned) (fs_mode("dst") & 07777));
}

static void on_copy(uv_fs_t *r) {
  report(r->data, r);
  uv_fs_req_cleanup(r);
}

static void both(const char *what, const char *src, const char *dst, int flags, const char *reset) {
  uv_fs_t req;
  int rc;
  if (reset) fs_put("dst", reset);
  rc = uv_fs_copyfile(NULL, &req, src, dst, flags, NULL);
  say("sync rc=%s", fs_res(rc));
  report(what, &req);
  uv_fs_req_cleanup(&req);
  if (reset) fs_put("dst", reset);
  req.data = (void *) what;
  rc = uv_fs_copyfile(&loop, &req, src, dst, flags, on_copy);
  say("async rc=%s", fs_res(rc));
  uv_run(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  uv_fs_t req;
  uv_buf_t buf;
  static char big[300000];
  size_t i;
  int fd;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("src", "source text");
  CHECK(uv_fs_chmod(NULL, &req, "src", 0640, NULL) == 0);
  uv_fs_req_cleanup(&req);

  both("new destination", "src", "dst", 0, NULL);
  both("replace longer", "src", "dst", 0, "a much longer previous content");
  both("excl onto existing", "src", "dst", UV_FS_COPYFILE_EXCL, "old");
  CHECK(uv_fs_unlink(NULL, &req, "dst", NULL) == 0);
  uv_fs_req_cleanup(&req);
  both("excl, new", "src", "dst", UV_FS_COPYFILE_EXCL, NULL);
  CHECK(uv_fs_unlink(NULL, &req, "dst", NULL) == 0);
  uv_fs_req_cleanup(&req);
  both("ficlone", "src", "dst", UV_FS_COPYFILE_FICLONE, NULL);
  both("ficlone force", "src", "dst", UV_FS_COPYFILE_FICLONE_FORCE, "before");
  both("bad flags", "src", "dst", 8, "before");
  both("missing source", "nothing", "dst", 0, "before");
  both("onto itself", "dst", "dst", 0, "self");
  both("source is a directory", ".", "dst", 0, "before");
  both("missing dst directory", "src", "no/dst", 0, "before");
  say("no/dst made: %d", fs_mode("no/dst") != 0);

  for (i = 0; i < sizeof big; i++) big[i] = (char) ('a' + i % 26);
  fd = uv_fs_open(NULL, &req, "big", O_WRONLY | O_CREAT | O_TRUNC, 0600, NULL);
  uv_fs_req_cleanup(&req);
  buf = uv_buf_init(big, sizeof big);
  CHECK(uv_fs_write(NULL, &req, fd, &buf, 1, -1, NULL) == (int) sizeof big);
  uv_fs_req_cleanup(&req);
  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  say("copy big = %s", fs_res(uv_fs_copyfile(NULL, &req, "big", "big2", 0, NULL)));
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_stat(NULL, &req, "big2", NULL) == 0);
  say("big2 size=%llu mode=%04o", (unsigned long long) req.statbuf.st_size,
      (unsigned) (req.statbuf.st_mode & 07777));
  uv_fs_req_cleanup(&req);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
