// SPDX-License-Identifier: MIT
/* Cancelling a work request that is still queued: uv_cancel succeeds, its
 * work callback never runs and after_work gets UV_ECANCELED.  A single
 * pool thread is kept busy so the request cannot start early. */
#include "diff.h"

static uv_work_t blocker, victim, tail;
static uv_sem_t started, release;
static int victim_ran, tail_ran;

static void block_work(uv_work_t *req) {
  (void) req;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}

static void victim_work(uv_work_t *req) { (void) req; victim_ran = 1; }
static void tail_work(uv_work_t *req) { (void) req; tail_ran = 1; }

static void after(uv_work_t *req, int status) {
  const char *name = req == &blocker ? "blocker" : req == &victim ? "victim" : "tail";
  say("after_work %s status=%s", name, rc_name(status));
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);

  CHECK(uv_queue_work(&loop, &blocker, block_work, after) == 0);
  uv_sem_wait(&started);
  CHECK(uv_queue_work(&loop, &victim, victim_work, after) == 0);
  CHECK(uv_queue_work(&loop, &tail, tail_work, after) == 0);

  rc = uv_cancel((uv_req_t *) &victim);
  say("cancel(victim, queued) = %s", rc_name(rc));
  say("alive=%d", uv_loop_alive(&loop));
  uv_sem_post(&release);

  run_say(&loop, UV_RUN_DEFAULT);
  say("victim_ran=%d tail_ran=%d alive=%d", victim_ran, tail_ran, uv_loop_alive(&loop));
  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  finish(&loop);
  return 0;
}
