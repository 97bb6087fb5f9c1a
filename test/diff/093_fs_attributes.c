// SPDX-License-Identifier: MIT
/* ftruncate (grow with zeros, shrink), fsync and fdatasync, access with
 * each mode on files of different permissions, chmod and fchmod (read back
 * through stat), chown/fchown/lchown to the current owner, each
 * synchronous and asynchronous.  (The process may be root, for whom
 * access ignores permission bits: both libraries see the same kernel.) */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;

static void on_done(uv_fs_t *r) {
  say("  async %-9s result=%s", fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
}

#define BOTH(label, sync_call, async_call)                 \
  do {                                                     \
    uv_fs_t req;                                           \
    int rc_ = (sync_call);                                 \
    say("%-30s sync=%s", label, fs_res(rc_));              \
    uv_fs_req_cleanup(&req);                               \
    CHECK((async_call) == 0);                              \
    uv_run(&loop, UV_RUN_DEFAULT);                         \
  } while (0)

static uv_fs_t areq;

static void show_size_mode(const char *name) {
  uv_fs_t req;
  char text[64];
  CHECK(uv_fs_stat(NULL, &req, name, NULL) == 0);
  fs_get(name, text, sizeof text);
  say("  %s: size=%llu mode=%04o first bytes=[%s]", name, (unsigned long long) req.statbuf.st_size,
      (unsigned) (req.statbuf.st_mode & 07777), text);
  uv_fs_req_cleanup(&req);
}

int main(void) {
  uv_fs_t req;
  uv_uid_t uid = (uv_uid_t) getuid();
  uv_gid_t gid = (uv_gid_t) getgid();
  int fd;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("f", "abcdefgh");
  fd = uv_fs_open(NULL, &req, "f", O_RDWR, 0, NULL);
  uv_fs_req_cleanup(&req);

  BOTH("ftruncate to 3", uv_fs_ftruncate(NULL, &req, fd, 3, NULL), uv_fs_ftruncate(&loop, &areq, fd, 3, on_done));
  show_size_mode("f");
  BOTH("ftruncate to 5", uv_fs_ftruncate(NULL, &req, fd, 5, NULL), uv_fs_ftruncate(&loop, &areq, fd, 5, on_done));
  show_size_mode("f");
  BOTH("ftruncate to -1", uv_fs_ftruncate(NULL, &req, fd, -1, NULL), uv_fs_ftruncate(&loop, &areq, fd, -1, on_done));
  BOTH("fsync", uv_fs_fsync(NULL, &req, fd, NULL), uv_fs_fsync(&loop, &areq, fd, on_done));
  BOTH("fdatasync", uv_fs_fdatasync(NULL, &req, fd, NULL), uv_fs_fdatasync(&loop, &areq, fd, on_done));

  BOTH("chmod 0600", uv_fs_chmod(NULL, &req, "f", 0600, NULL), uv_fs_chmod(&loop, &areq, "f", 0604, on_done));
  show_size_mode("f");
  BOTH("fchmod 0751", uv_fs_fchmod(NULL, &req, fd, 0751, NULL), uv_fs_fchmod(&loop, &areq, fd, 04755, on_done));
  show_size_mode("f");
  BOTH("access F_OK", uv_fs_access(NULL, &req, "f", F_OK, NULL), uv_fs_access(&loop, &areq, "f", F_OK, on_done));
  BOTH("access R_OK|W_OK|X_OK", uv_fs_access(NULL, &req, "f", R_OK | W_OK | X_OK, NULL),
       uv_fs_access(&loop, &areq, "f", R_OK | W_OK | X_OK, on_done));
  fs_put("plain", "");
  BOTH("access X_OK on 0644", uv_fs_access(NULL, &req, "plain", X_OK, NULL),
       uv_fs_access(&loop, &areq, "plain", X_OK, on_done));
  BOTH("access bad mode", uv_fs_access(NULL, &req, "plain", 0x40, NULL),
       uv_fs_access(&loop, &areq, "plain", 0x40, on_done));
  CHECK(uv_fs_symlink(NULL, &req, "f", "ln", 0, NULL) == 0);
  uv_fs_req_cleanup(&req);
  BOTH("chown to myself", uv_fs_chown(NULL, &req, "f", uid, gid, NULL),
       uv_fs_chown(&loop, &areq, "f", uid, gid, on_done));
  BOTH("chown -1 -1", uv_fs_chown(NULL, &req, "f", (uv_uid_t) -1, (uv_gid_t) -1, NULL),
       uv_fs_chown(&loop, &areq, "f", (uv_uid_t) -1, (uv_gid_t) -1, on_done));
  BOTH("fchown to myself", uv_fs_fchown(NULL, &req, fd, uid, gid, NULL),
       uv_fs_fchown(&loop, &areq, fd, uid, gid, on_done));
  BOTH("lchown link to myself", uv_fs_lchown(NULL, &req, "ln", uid, gid, NULL),
       uv_fs_lchown(&loop, &areq, "ln", uid, gid, on_done));
  BOTH("lchown missing", uv_fs_lchown(NULL, &req, "none", uid, gid, NULL),
       uv_fs_lchown(&loop, &areq, "none", uid, gid, on_done));

  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
