// SPDX-License-Identifier: MIT
/* Error results, each case run synchronously (the return value) and
 * asynchronously (0 returned, the error in req->result in the callback):
 * ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, EBADF, EINVAL.  Invalid
 * arguments (no buffers, bad copyfile flags, NULL uv_dir_t, NULL request)
 * are refused at once, before anything is queued: no callback, the loop
 * is not kept alive. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_t req;
static int called;
static char buf_mem[8];
static uv_buf_t buf;

typedef int (*fs_case)(uv_loop_t *loop, uv_fs_t *req, uv_fs_cb cb);

#define CASE(name, call)                                              \
  static int name(uv_loop_t *loop, uv_fs_t *req, uv_fs_cb cb) {       \
    return call;                                                      \
  }

CASE(open_missing, uv_fs_open(loop, req, "missing", O_RDONLY, 0, cb))
CASE(open_excl, uv_fs_open(loop, req, "file", O_WRONLY | O_CREAT | O_EXCL, 0644, cb))
CASE(open_notdir, uv_fs_open(loop, req, "file/x", O_RDONLY, 0, cb))
CASE(open_isdir, uv_fs_open(loop, req, "dir", O_WRONLY, 0, cb))
CASE(stat_missing, uv_fs_stat(loop, req, "missing", cb))
CASE(stat_notdir, uv_fs_stat(loop, req, "file/x", cb))
CASE(lstat_missing, uv_fs_lstat(loop, req, "missing/x", cb))
CASE(fstat_badf, uv_fs_fstat(loop, req, -1, cb))
CASE(unlink_missing, uv_fs_unlink(loop, req, "missing", cb))
CASE(unlink_dir, uv_fs_unlink(loop, req, "dir", cb))
CASE(rmdir_missing, uv_fs_rmdir(loop, req, "missing", cb))
CASE(rmdir_file, uv_fs_rmdir(loop, req, "file", cb))
CASE(rmdir_notempty, uv_fs_rmdir(loop, req, "full", cb))
CASE(mkdir_exists, uv_fs_mkdir(loop, req, "dir", 0755, cb))
CASE(mkdir_noparent, uv_fs_mkdir(loop, req, "missing/sub", 0755, cb))
CASE(rename_missing, uv_fs_rename(loop, req, "missing", "other", cb))
CASE(rename_dir_onto_file, uv_fs_rename(loop, req, "dir", "file", cb))
CASE(rename_onto_full, uv_fs_rename(loop, req, "dir", "full", cb))
CASE(link_missing, uv_fs_link(loop, req, "missing", "other", cb))
CASE(link_exists, uv_fs_link(loop, req, "file", "full/inside", cb))
CASE(symlink_exists, uv_fs_symlink(loop, req, "anything", "file", 0, cb))
CASE(readlink_file, uv_fs_readlink(loop, req, "file", cb))
CASE(readlink_missing, uv_fs_readlink(loop, req, "missing", cb))
CASE(realpath_missing, uv_fs_realpath(loop, req, "missing/..", cb))
CASE(scandir_missing, uv_fs_scandir(loop, req, "missing", 0, cb))
CASE(scandir_file, uv_fs_scandir(loop, req, "file", 0, cb))
CASE(opendir_missing, uv_fs_opendir(loop, req, "missing", cb))
CASE(access_missing, uv_fs_access(loop, req, "missing", F_OK, cb))
CASE(chmod_missing, uv_fs_chmod(loop, req, "missing", 0644, cb))
CASE(utime_missing, uv_fs_utime(loop, req, "missing", 1, 2, cb))
CASE(lutime_missing, uv_fs_lutime(loop, req, "missing", 1, 2, cb))
CASE(chown_missing, uv_fs_chown(loop, req, "missing", (uv_uid_t) -1, (uv_gid_t) -1, cb))
CASE(statfs_missing, uv_fs_statfs(loop, req, "missing", cb))
CASE(copyfile_missing, uv_fs_copyfile(loop, req, "missing", "copy", 0, cb))
CASE(copyfile_noparent, uv_fs_copyfile(loop, req, "file", "missing/copy", 0, cb))
CASE(close_badf, uv_fs_close(loop, req, -1, cb))
CASE(read_badf, uv_fs_read(loop, req, 9999, &buf, 1, -1, cb))
CASE(write_badf, uv_fs_write(loop, req, 9999, &buf, 1, 0, cb))
CASE(ftruncate_badf, uv_fs_ftruncate(loop, req, -1, 0, cb))
CASE(fsync_badf, uv_fs_fsync(loop, req, -1, cb))
CASE(fdatasync_badf, uv_fs_fdatasync(loop, req, -1, cb))
CASE(fchmod_badf, uv_fs_fchmod(loop, req, -1, 0644, cb))
CASE(futime_badf, uv_fs_futime(loop, req, -1, 1, 2, cb))
CASE(fchown_badf, uv_fs_fchown(loop, req, -1, (uv_uid_t) -1, (uv_gid_t) -1, cb))
CASE(sendfile_badf, uv_fs_sendfile(loop, req, -1, -1, 0, 10, cb))
CASE(mkstemp_badtpl, uv_fs_mkstemp(loop, req, "no-x-here", cb))
CASE(mkdtemp_badtpl, uv_fs_mkdtemp(loop, req, "no-x-hereX", cb))
CASE(read_nbufs0, uv_fs_read(loop, req, 0, &buf, 0, -1, cb))
CASE(read_nullbufs, uv_fs_read(loop, req, 0, NULL, 1, -1, cb))
CASE(write_nbufs0, uv_fs_write(loop, req, 1, &buf, 0, -1, cb))
CASE(copyfile_badflags, uv_fs_copyfile(loop, req, "file", "copy", 8, cb))
CASE(readdir_nulldir, uv_fs_readdir(loop, req, NULL, cb))
CASE(closedir_nulldir, uv_fs_closedir(loop, req, NULL, cb))
CASE(null_req, uv_fs_stat(loop, NULL, "file", cb))

static const struct {
  const char *name;
  fs_case fn;
} cases[] = {
#define C(n) {#n, n}
    C(open_missing), C(open_excl), C(open_notdir), C(open_isdir), C(stat_missing),
    C(stat_notdir), C(lstat_missing), C(fstat_badf), C(unlink_missing), C(unlink_dir),
    C(rmdir_missing), C(rmdir_file), C(rmdir_notempty), C(mkdir_exists), C(mkdir_noparent),
    C(rename_missing), C(rename_dir_onto_file), C(rename_onto_full), C(link_missing),
    C(link_exists), C(symlink_exists), C(readlink_file), C(readlink_missing),
    C(realpath_missing), C(scandir_missing), C(scandir_file), C(opendir_missing),
    C(access_missing), C(chmod_missing), C(utime_missing), C(lutime_missing),
    C(chown_missing), C(statfs_missing), C(copyfile_missing), C(copyfile_noparent),
    C(close_badf), C(read_badf), C(write_badf), C(ftruncate_badf), C(fsync_badf),
    C(fdatasync_badf), C(fchmod_badf), C(futime_badf), C(fchown_badf), C(sendfile_badf),
    C(mkstemp_badtpl), C(mkdtemp_badtpl), C(read_nbufs0), C(read_nullbufs), C(write_nbufs0),
    C(copyfile_badflags), C(readdir_nulldir), C(closedir_nulldir), C(null_req),
#undef C
};

static void on_done(uv_fs_t *r) {
  called++;
  say("  async cb: %s result=%s sys=%d ptr=%s", fs_type_name(r->fs_type), fs_res(r->result),
      uv_fs_get_system_error(r) == -(int) r->result, r->ptr ? "set" : "NULL");
  if (r->fs_type == UV_FS_MKSTEMP || r->fs_type == UV_FS_MKDTEMP)
    say("  path after: [%s]", r->path);
}

int main(void) {
  size_t i;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("file", "content");
  fs_put("keep", "x");
  CHECK(uv_fs_mkdir(NULL, &req, "dir", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_mkdir(NULL, &req, "full", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  fs_put("full/inside", "y");
  buf = uv_buf_init(buf_mem, sizeof buf_mem);

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memset(&req, 0, sizeof req);
    rc = cases[i].fn(&loop, &req, NULL);
    say("%-22s sync=%s", cases[i].name, fs_res(rc));
    if (rc >= 0 && req.fs_type == UV_FS_OPEN) uv_fs_close(NULL, &req, rc, NULL);
    uv_fs_req_cleanup(&req);

    called = 0;
    memset(&req, 0, sizeof req);
    rc = cases[i].fn(&loop, &req, on_done);
    say("%-22s async=%s alive=%d", "", fs_res(rc), uv_loop_alive(&loop));
    uv_run(&loop, UV_RUN_DEFAULT);
    say("%-22s callbacks=%d", "", called);
    uv_fs_req_cleanup(&req);
  }

  say("nothing created: copy=%d other=%d", fs_mode("copy") == 0, fs_mode("other") == 0);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
