// SPDX-License-Identifier: MIT
/*
 * diff_fs.h -- helpers for the file system scenarios (include after diff.h).
 *
 * A scenario calls fs_enter_tmpdir() first: it makes a fresh directory with
 * uv_fs_mkdtemp (in the current directory, which compare.sh makes a private
 * work directory) and changes into it, so that every path the scenario
 * uses is relative and deterministic.  fs_leave_tmpdir() goes back and
 * removes the directory with everything in it.  The helpers use libuv's
 * synchronous calls, so they run the same code under test on both sides.
 */
#ifndef PHASELOOP_TEST_DIFF_FS_H
#define PHASELOOP_TEST_DIFF_FS_H

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char fs_tmpdir[64];

/* A result as the trace shows it: the count, or the error's name. */
static const char *fs_res(ssize_t r) DIFF_UNUSED;
static const char *fs_res(ssize_t r) {
  static char buf[4][32];
  static int next;
  char *b;
  if (r < 0) return uv_err_name((int) r);
  b = buf[next++ % 4];
  snprintf(b, sizeof buf[0], "%ld", (long) r);
  return b;
}

/* A file descriptor result: "fd" (numbers differ between libuv and
 * phaseloop, whose loops hold different descriptors) or the error. */
static const char *fs_fd(ssize_t r) DIFF_UNUSED;
static const char *fs_fd(ssize_t r) {
  return r >= 0 ? "fd" : uv_err_name((int) r);
}

static const char *fs_type_name(uv_fs_type t) DIFF_UNUSED;
static const char *fs_type_name(uv_fs_type t) {
  static const char *const names[] = {
      "CUSTOM", "OPEN", "CLOSE", "READ", "WRITE", "SENDFILE", "STAT", "LSTAT",
      "FSTAT", "FTRUNCATE", "UTIME", "FUTIME", "ACCESS", "CHMOD", "FCHMOD",
      "FSYNC", "FDATASYNC", "UNLINK", "RMDIR", "MKDIR", "MKDTEMP", "RENAME",
      "SCANDIR", "LINK", "SYMLINK", "READLINK", "CHOWN", "FCHOWN", "REALPATH",
      "COPYFILE", "LCHOWN", "OPENDIR", "READDIR", "CLOSEDIR", "STATFS",
      "MKSTEMP", "LUTIME"};
  if (t < 0 || (size_t) t >= sizeof names / sizeof names[0]) return "UNKNOWN";
  return names[t];
}

static const char *dirent_type_name(uv_dirent_type_t t) DIFF_UNUSED;
static const char *dirent_type_name(uv_dirent_type_t t) {
  switch (t) {
    case UV_DIRENT_FILE: return "file";
    case UV_DIRENT_DIR: return "dir";
    case UV_DIRENT_LINK: return "link";
    case UV_DIRENT_FIFO: return "fifo";
    case UV_DIRENT_SOCKET: return "socket";
    case UV_DIRENT_CHAR: return "char";
    case UV_DIRENT_BLOCK: return "block";
    case UV_DIRENT_UNKNOWN: break;
  }
  return "unknown";
}

/* The kind of file a stat mode describes. */
static const char *mode_kind(uint64_t mode) DIFF_UNUSED;
static const char *mode_kind(uint64_t mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "regular";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symlink";
    case S_IFIFO: return "fifo";
    case S_IFSOCK: return "socket";
    case S_IFCHR: return "chardev";
    case S_IFBLK: return "blockdev";
  }
  return "other";
}

/* Creates (or replaces) `name` holding `text`. */
static void fs_put(const char *name, const char *text) DIFF_UNUSED;
static void fs_put(const char *name, const char *text) {
  uv_fs_t req;
  uv_buf_t buf;
  int fd = uv_fs_open(NULL, &req, name, O_WRONLY | O_CREAT | O_TRUNC, 0644, NULL);
  uv_fs_req_cleanup(&req);
  CHECK(fd >= 0);
  buf = uv_buf_init((char *) text, (unsigned) strlen(text));
  CHECK(uv_fs_write(NULL, &req, fd, &buf, 1, -1, NULL) == (int) buf.len);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_close(NULL, &req, fd, NULL) == 0);
  uv_fs_req_cleanup(&req);
}

/* The contents of `name` (at most size-1 bytes), NUL-terminated; "" if it
 * cannot be read. */
static const char *fs_get(const char *name, char *out, size_t size) DIFF_UNUSED;
static const char *fs_get(const char *name, char *out, size_t size) {
  uv_fs_t req;
  uv_buf_t buf;
  int n;
  int fd = uv_fs_open(NULL, &req, name, O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  out[0] = '\0';
  if (fd < 0) return out;
  buf = uv_buf_init(out, (unsigned) size - 1);
  n = uv_fs_read(NULL, &req, fd, &buf, 1, 0, NULL);
  uv_fs_req_cleanup(&req);
  out[n > 0 ? n : 0] = '\0';
  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  return out;
}

/* lstat's st_mode of `name`, 0 if it does not exist. */
static uint64_t fs_mode(const char *name) DIFF_UNUSED;
static uint64_t fs_mode(const char *name) {
  uv_fs_t req;
  uint64_t mode = 0;
  if (uv_fs_lstat(NULL, &req, name, NULL) == 0) mode = req.statbuf.st_mode;
  uv_fs_req_cleanup(&req);
  return mode;
}

/* Removes `path` and, for a directory, everything below it. */
static void fs_remove_tree(const char *path) DIFF_UNUSED;
static void fs_remove_tree(const char *path) {
  uv_fs_t req;
  uv_dirent_t ent;
  char child[1024];
  if (!S_ISDIR(fs_mode(path))) {
    uv_fs_unlink(NULL, &req, path, NULL);
    uv_fs_req_cleanup(&req);
    return;
  }
  uv_fs_chmod(NULL, &req, path, 0755, NULL);
  uv_fs_req_cleanup(&req);
  if (uv_fs_scandir(NULL, &req, path, 0, NULL) >= 0) {
    while (uv_fs_scandir_next(&req, &ent) == 0) {
      snprintf(child, sizeof child, "%s/%s", path, ent.name);
      fs_remove_tree(child);
    }
  }
  uv_fs_req_cleanup(&req);
  uv_fs_rmdir(NULL, &req, path, NULL);
  uv_fs_req_cleanup(&req);
}

static void fs_enter_tmpdir(void) DIFF_UNUSED;
static void fs_enter_tmpdir(void) {
  uv_fs_t req;
  CHECK(uv_fs_mkdtemp(NULL, &req, "fsdiff-XXXXXX", NULL) == 0);
  snprintf(fs_tmpdir, sizeof fs_tmpdir, "%s", req.path);
  uv_fs_req_cleanup(&req);
  CHECK(uv_chdir(fs_tmpdir) == 0);
  umask(022);
}

static void fs_leave_tmpdir(void) DIFF_UNUSED;
static void fs_leave_tmpdir(void) {
  CHECK(uv_chdir("..") == 0);
  fs_remove_tree(fs_tmpdir);
  CHECK(fs_mode(fs_tmpdir) == 0);
  say("tmpdir removed");
}

#endif /* PHASELOOP_TEST_DIFF_FS_H */
