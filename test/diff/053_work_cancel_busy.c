// SPDX-License-Identifier: MIT
/* uv_cancel on a running work request and on completed ones returns
 * UV_EBUSY; the running request still completes normally. */
#include "diff.h"

static uv_work_t running, quick;
static uv_sem_t started, release;

static void slow_work(uv_work_t *req) {
  (void) req;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}

static void quick_work(uv_work_t *req) { (void) req; }

static void after(uv_work_t *req, int status) {
  int rc = uv_cancel((uv_req_t *) req);
  say("after_work %s status=%s; cancel inside after_work = %s",
      req == &running ? "running" : "quick", rc_name(status), rc_name(rc));
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);

  CHECK(uv_queue_work(&loop, &running, slow_work, after) == 0);
  uv_sem_wait(&started);
  rc = uv_cancel((uv_req_t *) &running);
  say("cancel(running) = %s", rc_name(rc));
  uv_sem_post(&release);
  run_say(&loop, UV_RUN_DEFAULT);

  CHECK(uv_queue_work(&loop, &quick, quick_work, after) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  rc = uv_cancel((uv_req_t *) &quick);
  say("cancel(quick, long finished) = %s", rc_name(rc));

  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  finish(&loop);
  return 0;
}
