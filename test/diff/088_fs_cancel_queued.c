// SPDX-License-Identifier: MIT
/* uv_cancel on fs requests still queued behind a busy pool thread: each
 * succeeds, the callback gets UV_ECANCELED in req->result (scandir_next
 * returns it too; a mkdtemp keeps its template; cleanup frees the copies).
 * Canceling one again before its callback succeeds and moves it to the
 * back.  A request that already ran, callback pending, is EBUSY, and so is
 * one whose callback has run.  The one pool thread is held by a work item
 * until everything is queued.  (Canceling a canceled request again after
 * its callback makes libuv 1.44 queue it once more and abort at
 * uv_loop_close; phaseloop says EBUSY.  Not part of this trace.) */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_work_t blocker, marker;
static uv_fs_t stat_req, scan_req, tmp_req, write_req, open_req;
static uv_sem_t started, release, marker_ran;
static uv_buf_t bufs[6];
static char bytes[6] = "abcdef";

static void block_work(uv_work_t *w) {
  (void) w;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}
static void marker_work(uv_work_t *w) {
  (void) w;
  uv_sem_post(&marker_ran);
}
static void after_work(uv_work_t *w, int status) {
  say("after_work %s status=%s", w == &blocker ? "blocker" : "marker", rc_name(status));
}

static const char *name_of(uv_fs_t *r) {
  return r == &stat_req ? "stat" : r == &scan_req ? "scandir" : r == &tmp_req ? "mkdtemp"
         : r == &write_req ? "write" : "open";
}

static void on_fs(uv_fs_t *r) {
  uv_dirent_t ent;
  say("fs cb %-7s type=%s result=%s", name_of(r), fs_type_name(r->fs_type),
      r->fs_type == UV_FS_OPEN ? fs_fd(r->result) : fs_res(r->result));
  if (r == &scan_req) say("  scandir_next=%s", fs_res(uv_fs_scandir_next(r, &ent)));
  if (r == &tmp_req) say("  path still the template: %s", r->path);
  if (r == &stat_req) say("  ptr=%s", r->ptr ? "set" : "NULL");
  if (r == &open_req && r->result >= 0) {
    uv_fs_t c;
    uv_fs_close(NULL, &c, (uv_file) r->result, NULL);
    uv_fs_req_cleanup(&c);
  }
  uv_fs_req_cleanup(r);
}

int main(void) {
  int i;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_sem_init(&marker_ran, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("file", "content");

  CHECK(uv_queue_work(&loop, &blocker, block_work, after_work) == 0);
  uv_sem_wait(&started);

  for (i = 0; i < 6; i++) bufs[i] = uv_buf_init(bytes + i, 1);
  CHECK(uv_fs_stat(&loop, &stat_req, "file", on_fs) == 0);
  CHECK(uv_fs_scandir(&loop, &scan_req, ".", 0, on_fs) == 0);
  CHECK(uv_fs_mkdtemp(&loop, &tmp_req, "tmp-XXXXXX", on_fs) == 0);
  CHECK(uv_fs_write(&loop, &write_req, 1, bufs, 6, -1, on_fs) == 0);
  CHECK(uv_fs_open(&loop, &open_req, "file", O_RDONLY, 0, on_fs) == 0);
  CHECK(uv_queue_work(&loop, &marker, marker_work, after_work) == 0);

  say("cancel stat    = %s", rc_name(uv_cancel((uv_req_t *) &stat_req)));
  say("cancel scandir = %s", rc_name(uv_cancel((uv_req_t *) &scan_req)));
  say("cancel mkdtemp = %s", rc_name(uv_cancel((uv_req_t *) &tmp_req)));
  say("cancel write   = %s", rc_name(uv_cancel((uv_req_t *) &write_req)));
  say("cancel stat again (moves it last) = %s", rc_name(uv_cancel((uv_req_t *) &stat_req)));
  say("alive=%d", uv_loop_alive(&loop));

  uv_sem_post(&release);
  uv_sem_wait(&marker_ran);
  say("cancel open after it ran = %s", rc_name(uv_cancel((uv_req_t *) &open_req)));

  run_say(&loop, UV_RUN_DEFAULT);
  say("cancel open after its callback = %s", rc_name(uv_cancel((uv_req_t *) &open_req)));
  say("nothing made by the canceled mkdtemp; alive=%d", uv_loop_alive(&loop));

  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  uv_sem_destroy(&marker_ran);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
