// SPDX-License-Identifier: MIT
/* A pending work request keeps the loop alive (even with no handles) and
 * makes uv_loop_close fail with UV_EBUSY; NULL work_cb is rejected; NULL
 * after_work_cb is allowed; work can be queued from after_work. */
#include "diff.h"

static uv_work_t w1, w2, w3, bad;
static uv_sem_t release;
static int chain;
static uv_loop_t loop;

static void wait_work(uv_work_t *req) { (void) req; uv_sem_wait(&release); }
static void plain_work(uv_work_t *req) { (void) req; }

static void after_chain(uv_work_t *req, int status) {
  (void) req;
  chain++;
  say("after_work chain #%d status=%s", chain, rc_name(status));
  if (chain < 3)
    CHECK(uv_queue_work(&loop, &w2, plain_work, after_chain) == 0);
}

static void after_first(uv_work_t *req, int status) {
  (void) req;
  say("after_work first status=%s alive=%d", rc_name(status),
      uv_loop_alive(&loop));
  CHECK(uv_queue_work(&loop, &w2, plain_work, after_chain) == 0);
}

int main(void) {
  int rc;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);

  rc = uv_queue_work(&loop, &bad, NULL, NULL);
  say("queue_work(NULL work_cb) = %s alive=%d", rc_name(rc), uv_loop_alive(&loop));

  CHECK(uv_queue_work(&loop, &w1, wait_work, after_first) == 0);
  say("pending work: alive=%d", uv_loop_alive(&loop));
  rc = uv_loop_close(&loop);
  say("loop_close with pending work = %s", rc_name(rc));
  uv_sem_post(&release);
  run_say(&loop, UV_RUN_DEFAULT);
  say("chain=%d", chain);

  /* NULL after_work callback. */
  CHECK(uv_queue_work(&loop, &w3, plain_work, NULL) == 0);
  say("NULL after_work queued: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("alive=%d", uv_loop_alive(&loop));

  uv_sem_destroy(&release);
  finish(&loop);
  return 0;
}
