// SPDX-License-Identifier: MIT
/* Cancelling a request a second time, before its after_work callback ran:
 * libuv reports success again and moves the request to the back of the
 * loop's completion queue, so the callbacks run y, x (each once, with
 * UV_ECANCELED). A second request in the queue shows the move. */
#include "diff.h"

static uv_work_t blocker, x, y;
static uv_sem_t started, release;

static void block_work(uv_work_t *req) {
  (void) req;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}

static void nop_work(uv_work_t *req) { (void) req; say("work ran (unexpected)"); }

static void after(uv_work_t *req, int status) {
  const char *name = req == &blocker ? "blocker" : req == &x ? "x" : "y";
  say("after_work %s status=%s", name, rc_name(status));
}

static void release_blocker(uv_timer_t *t) {
  uv_sem_post(&release);
  uv_close((uv_handle_t *) t, NULL);
}

int main(void) {
  uv_loop_t loop;
  uv_timer_t t;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_queue_work(&loop, &blocker, block_work, after) == 0);
  uv_sem_wait(&started);  /* the only pool thread is now busy */
  CHECK(uv_queue_work(&loop, &x, nop_work, after) == 0);
  CHECK(uv_queue_work(&loop, &y, nop_work, after) == 0);
  say("cancel x: %s", rc_name(uv_cancel((uv_req_t *) &x)));
  say("cancel y: %s", rc_name(uv_cancel((uv_req_t *) &y)));
  say("cancel x again: %s", rc_name(uv_cancel((uv_req_t *) &x)));
  say("cancel blocker (running): %s", rc_name(uv_cancel((uv_req_t *) &blocker)));
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, release_blocker, 10, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  return 0;
}
