// SPDX-License-Identifier: MIT
/* A pending fs request keeps the loop alive (uv_loop_alive, uv_run's
 * return value), makes uv_loop_close EBUSY and an iterated loop's
 * uv_backend_timeout -1; UV_RUN_NOWAIT returns 1 while it is held back;
 * inside its callback it no longer counts.  UV_RUN_ONCE waits for a
 * request and returns 0 after its callback.  The single pool thread is
 * held by a work item to keep the request pending. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_work_t blocker;
static uv_fs_t req;
static uv_sem_t started, release;

static void block_work(uv_work_t *w) {
  (void) w;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}
static void after_work(uv_work_t *w, int status) {
  (void) w;
  say("after_work status=%s alive=%d", rc_name(status), uv_loop_alive(&loop));
}

static void on_stat(uv_fs_t *r) {
  say("stat cb: result=%s alive=%d", fs_res(r->result), uv_loop_alive(&loop));
  uv_fs_req_cleanup(r);
}

static void on_mkdir(uv_fs_t *r) {
  say("mkdir cb: result=%s alive=%d; queueing a stat from the callback", fs_res(r->result),
      uv_loop_alive(&loop));
  uv_fs_req_cleanup(r);
  CHECK(uv_fs_stat(&loop, r, "d", on_stat) == 0);
  say("  alive=%d", uv_loop_alive(&loop));
}

int main(void) {
  int r;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();

  CHECK(uv_queue_work(&loop, &blocker, block_work, after_work) == 0);
  uv_sem_wait(&started);
  CHECK(uv_fs_mkdir(&loop, &req, "d", 0755, on_mkdir) == 0);
  say("queued: alive=%d", uv_loop_alive(&loop));
  r = uv_run(&loop, UV_RUN_NOWAIT);
  say("uv_run(NOWAIT) = %d (no callback yet)", r);
  say("backend_timeout=%d", uv_backend_timeout(&loop));
  say("uv_loop_close = %s", rc_name(uv_loop_close(&loop)));
  uv_sem_post(&release);
  run_say(&loop, UV_RUN_DEFAULT);
  say("after run: alive=%d backend_timeout=%d", uv_loop_alive(&loop), uv_backend_timeout(&loop));

  CHECK(uv_fs_rmdir(&loop, &req, "d", on_stat) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("d gone: %d", fs_mode("d") == 0);

  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
