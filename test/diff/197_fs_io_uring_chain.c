// SPDX-License-Identifier: MIT
/* File requests on a loop that asks for io_uring (UV_USE_IO_URING=1 and,
 * where the version has it, uv_loop_configure(UV_LOOP_USE_IO_URING_SQPOLL)):
 * libuv >= 1.49 then does open, close, read, write, the stat family, fsync,
 * fdatasync, ftruncate, rename, unlink, mkdir, link and symlink through its
 * SQPOLL ring and the rest on the threadpool; phaseloop with the same
 * profile through its own ring; libuv 1.44 (and phaseloop as 1.44) all on
 * the threadpool.  The trace must be the same: a chain of every operation,
 * each started from the previous one's callback, with its result, the
 * fields a program reads, and the phase its callback ran in (between the
 * prepare and check callbacks of an iteration: the poll phase).  A request
 * on the ring cannot be canceled (EBUSY), and one left to the threadpool
 * when queued behind a busy pool thread can; so that the cancel line is the
 * same on every version, it cancels a request the pool thread has
 * already run. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_prepare_t prepare;
static uv_check_t check;
static uv_fs_t req;
static const char *last = "none";
static uv_file fd = -1;
static char in[32];
static char out[] = "hello ring";
static uv_buf_t buf;
static int step;

static void on_prepare(uv_prepare_t *h) {
  (void) h;
  last = "prepare";
}

static void on_check(uv_check_t *h) {
  (void) h;
  last = "check";
}

static void next(void);

static void on_fs(uv_fs_t *r) {
  const char *phase = last;
  last = "fs";
  switch (r->fs_type) {
    case UV_FS_OPEN:
      say("%-9s %s (after %s)", fs_type_name(r->fs_type), fs_fd(r->result), phase);
      fd = (uv_file) r->result;
      break;
    case UV_FS_READ:
      say("%-9s %s [%.*s] (after %s)", fs_type_name(r->fs_type), fs_res(r->result),
          r->result > 0 ? (int) r->result : 0, in, phase);
      break;
    case UV_FS_STAT:
    case UV_FS_LSTAT:
    case UV_FS_FSTAT:
      say("%-9s %s ptr=%s size=%llu kind=%s (after %s)", fs_type_name(r->fs_type), fs_res(r->result),
          r->ptr == NULL ? "NULL" : r->ptr == &r->statbuf ? "statbuf" : "other",
          r->result == 0 ? (unsigned long long) r->statbuf.st_size : 0ULL,
          r->result == 0 ? mode_kind(r->statbuf.st_mode) : "-", phase);
      break;
    default:
      say("%-9s %s path=%s (after %s)", fs_type_name(r->fs_type), fs_res(r->result),
          r->path ? r->path : "NULL", phase);
      break;
  }
  uv_fs_req_cleanup(r);
  next();
}

static void next(void) {
  switch (step++) {
    case 0: CHECK(uv_fs_open(&loop, &req, "f", O_RDWR | O_CREAT | O_TRUNC, 0644, on_fs) == 0); break;
    case 1:
      buf = uv_buf_init(out, 10);
      CHECK(uv_fs_write(&loop, &req, fd, &buf, 1, -1, on_fs) == 0);
      break;
    case 2:
      buf = uv_buf_init(in, sizeof in);
      CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, 0, on_fs) == 0);
      break;
    case 3:
      buf = uv_buf_init(in, sizeof in);
      CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, -1, on_fs) == 0);  /* at the end */
      break;
    case 4: CHECK(uv_fs_fstat(&loop, &req, fd, on_fs) == 0); break;
    case 5: CHECK(uv_fs_ftruncate(&loop, &req, fd, 5, on_fs) == 0); break;
    case 6: CHECK(uv_fs_fsync(&loop, &req, fd, on_fs) == 0); break;
    case 7: CHECK(uv_fs_fdatasync(&loop, &req, fd, on_fs) == 0); break;
    case 8: CHECK(uv_fs_stat(&loop, &req, "f", on_fs) == 0); break;
    case 9: CHECK(uv_fs_link(&loop, &req, "f", "g", on_fs) == 0); break;
    case 10: CHECK(uv_fs_link(&loop, &req, "f", "g", on_fs) == 0); break;
    case 11: CHECK(uv_fs_symlink(&loop, &req, "f", "s", 0, on_fs) == 0); break;
    case 12: CHECK(uv_fs_lstat(&loop, &req, "s", on_fs) == 0); break;
    case 13: CHECK(uv_fs_stat(&loop, &req, "s", on_fs) == 0); break;
    case 14: CHECK(uv_fs_mkdir(&loop, &req, "d", 0755, on_fs) == 0); break;
    case 15: CHECK(uv_fs_mkdir(&loop, &req, "d", 0755, on_fs) == 0); break;
    case 16: CHECK(uv_fs_rename(&loop, &req, "g", "d/g", on_fs) == 0); break;
    case 17: CHECK(uv_fs_rename(&loop, &req, "missing", "d/h", on_fs) == 0); break;
    case 18: CHECK(uv_fs_unlink(&loop, &req, "d/g", on_fs) == 0); break;
    case 19: CHECK(uv_fs_unlink(&loop, &req, "d/g", on_fs) == 0); break;
    case 20: CHECK(uv_fs_rmdir(&loop, &req, "d", on_fs) == 0); break;  /* threadpool everywhere */
    case 21: CHECK(uv_fs_open(&loop, &req, "missing", O_RDONLY, 0, on_fs) == 0); break;
    case 22: CHECK(uv_fs_stat(&loop, &req, "missing", on_fs) == 0); break;
    case 23: CHECK(uv_fs_close(&loop, &req, fd, on_fs) == 0); break;
    case 24: CHECK(uv_fs_close(&loop, &req, fd, on_fs) == 0); break;
    case 25: CHECK(uv_fs_fstat(&loop, &req, fd, on_fs) == 0); break;
    case 26: CHECK(uv_fs_unlink(&loop, &req, "s", on_fs) == 0); break;
    case 27: CHECK(uv_fs_unlink(&loop, &req, "f", on_fs) == 0); break;
    default: break;
  }
}

/* A work item holds the one pool thread; the stat queued behind it is
 * canceled only once the pool ran it (the marker after it has run). */
static uv_work_t marker;
static uv_fs_t late;
static uv_sem_t marker_ran;

static void marker_work(uv_work_t *w) {
  (void) w;
  uv_sem_post(&marker_ran);
}
/* The two callbacks come in either order on the ring (its completion
 * and the pool's are separate events of one poll): both are printed after
 * the run. */
static char marker_line[64], late_line[64];
static void after_marker(uv_work_t *w, int status) {
  (void) w;
  snprintf(marker_line, sizeof marker_line, "marker done status=%s", rc_name(status));
}
static void on_late(uv_fs_t *r) {
  snprintf(late_line, sizeof late_line, "late %s %s", fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
}

int main(void) {
  CHECK(setenv("UV_USE_IO_URING", "1", 1) == 0);
  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  fs_enter_tmpdir();
  CHECK(uv_loop_init(&loop) == 0);
#ifdef UV_LOOP_USE_IO_URING_SQPOLL
  CHECK(uv_loop_configure(&loop, UV_LOOP_USE_IO_URING_SQPOLL) == 0);
#endif
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);
  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  CHECK(uv_check_start(&check, on_check) == 0);
  uv_unref((uv_handle_t *) &prepare);
  uv_unref((uv_handle_t *) &check);

  say("-- a chain of every operation");
  next();
  say("alive while the first request is in flight: %d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- a request the pool already ran");
  CHECK(uv_sem_init(&marker_ran, 0) == 0);
  CHECK(uv_fs_stat(&loop, &late, ".", on_late) == 0);
  CHECK(uv_queue_work(&loop, &marker, marker_work, after_marker) == 0);
  uv_sem_wait(&marker_ran);
  say("cancel it: %s", rc_name(uv_cancel((uv_req_t *) &late)));
  run_say(&loop, UV_RUN_DEFAULT);
  say("%s", marker_line);
  say("%s", late_line);
  uv_sem_destroy(&marker_ran);

  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
