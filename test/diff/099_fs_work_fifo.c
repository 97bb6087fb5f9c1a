// SPDX-License-Identifier: MIT
/* fs requests and uv_queue_work share the threadpool and one completion
 * queue: with a single pool thread, work and fs callbacks come in
 * submission order, whatever their kind.  A request submitted from a
 * callback goes to the back. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_work_t works[3];
static uv_fs_t fss[4], late;
static uv_sem_t started, release;

static void first_work(uv_work_t *w) {
  (void) w;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}
static void plain_work(uv_work_t *w) { (void) w; }
static void after_work(uv_work_t *w, int status) {
  say("work %d done status=%s", (int) (w - works), rc_name(status));
}

static void on_late(uv_fs_t *r) {
  say("late fs done: %s result=%s", fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
}

static void on_fs(uv_fs_t *r) {
  say("fs %d done: %s result=%s", (int) (r - fss), fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
  if (r == &fss[0]) CHECK(uv_fs_access(&loop, &late, "f", F_OK, on_late) == 0);
}

int main(void) {
  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("f", "x");

  CHECK(uv_queue_work(&loop, &works[0], first_work, after_work) == 0);
  uv_sem_wait(&started);
  CHECK(uv_fs_stat(&loop, &fss[0], "f", on_fs) == 0);
  CHECK(uv_queue_work(&loop, &works[1], plain_work, after_work) == 0);
  CHECK(uv_fs_unlink(&loop, &fss[1], "missing", on_fs) == 0);
  CHECK(uv_fs_mkdir(&loop, &fss[2], "d", 0700, on_fs) == 0);
  CHECK(uv_queue_work(&loop, &works[2], plain_work, after_work) == 0);
  CHECK(uv_fs_rmdir(&loop, &fss[3], "d", on_fs) == 0);
  uv_sem_post(&release);
  run_say(&loop, UV_RUN_DEFAULT);

  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
