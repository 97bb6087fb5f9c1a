// SPDX-License-Identifier: MIT
/* stat, lstat and fstat: the deterministic fields (size, type and
 * permission bits, link count, owner, inode identity, times set with
 * utime) of a file, a hard link, a symbolic link (followed and not), a
 * directory, a FIFO and /dev/null; synchronous and asynchronous.  req->ptr
 * points at req->statbuf on success only, uv_fs_get_statbuf returns it. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uint64_t file_ino, file_dev;

static void show(const char *what, uv_fs_t *r) {
  const uv_stat_t *s = &r->statbuf;
  if (r->result < 0) {
    say("%-18s %s: %s ptr=%s", what, fs_type_name(r->fs_type), fs_res(r->result),
        r->ptr ? "set" : "NULL");
    return;
  }
  say("%-18s %s: %s kind=%s perm=%04o size=%llu nlink=%llu", what, fs_type_name(r->fs_type),
      fs_res(r->result), mode_kind(s->st_mode), (unsigned) (s->st_mode & 07777),
      (unsigned long long) s->st_size, (unsigned long long) s->st_nlink);
  say("%-18s uid/gid mine=%d/%d ptr=statbuf:%d getter=%d flags=%llu gen=%llu blksize>0=%d",
      "", s->st_uid == (uint64_t) getuid(), s->st_gid == (uint64_t) getgid(), r->ptr == s,
      uv_fs_get_statbuf(r) == s, (unsigned long long) s->st_flags, (unsigned long long) s->st_gen,
      s->st_blksize > 0);
  if (s->st_ino == file_ino && s->st_dev == file_dev)
    say("%-18s same inode as file, atime=%ld.%09ld mtime=%ld.%09ld", "",
        (long) s->st_atim.tv_sec, (long) s->st_atim.tv_nsec, (long) s->st_mtim.tv_sec,
        (long) s->st_mtim.tv_nsec);
  else
    say("%-18s another inode, rdev!=0:%d", "", s->st_rdev != 0);
}

static void on_stat(uv_fs_t *r) {
  show((const char *) r->data, r);
  uv_fs_req_cleanup(r);
  free(r);
}

typedef int (*stat_fn)(uv_loop_t *, uv_fs_t *, const char *, uv_fs_cb);

static void both(const char *what, stat_fn fn, const char *path) {
  uv_fs_t req, *ar;
  fn(NULL, &req, path, NULL);
  show(what, &req);
  uv_fs_req_cleanup(&req);
  ar = malloc(sizeof *ar);
  ar->data = (void *) what;
  CHECK(fn(&loop, ar, path, on_stat) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
}

static void both_fd(const char *what, int fd) {
  uv_fs_t req, *ar;
  uv_fs_fstat(NULL, &req, fd, NULL);
  show(what, &req);
  uv_fs_req_cleanup(&req);
  ar = malloc(sizeof *ar);
  ar->data = (void *) what;
  CHECK(uv_fs_fstat(&loop, ar, fd, on_stat) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  uv_fs_t req;
  int fd;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("file", "twelve bytes");
  CHECK(uv_fs_chmod(NULL, &req, "file", 0640, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_utime(NULL, &req, "file", 1000000000.25, 1234567890.5, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_stat(NULL, &req, "file", NULL) == 0);
  file_ino = req.statbuf.st_ino;
  file_dev = req.statbuf.st_dev;
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_link(NULL, &req, "file", "hard", NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_symlink(NULL, &req, "file", "soft", 0, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_symlink(NULL, &req, "nowhere", "dangling", 0, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_mkdir(NULL, &req, "dir", 0750, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(mkfifo("fifo", 0600) == 0);

  both("file", uv_fs_stat, "file");
  both("hard link", uv_fs_stat, "hard");
  both("symlink followed", uv_fs_stat, "soft");
  both("symlink itself", uv_fs_lstat, "soft");
  both("dangling stat", uv_fs_stat, "dangling");
  both("dangling lstat", uv_fs_lstat, "dangling");
  both("directory", uv_fs_stat, "dir");
  both("fifo", uv_fs_lstat, "fifo");
  both("/dev/null", uv_fs_stat, "/dev/null");

  fd = uv_fs_open(NULL, &req, "file", O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  CHECK(fd >= 0);
  both_fd("fstat file", fd);
  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  fd = uv_fs_open(NULL, &req, "dir", O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  both_fd("fstat dir", fd);
  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  both_fd("fstat closed fd", fd);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
