// SPDX-License-Identifier: MIT
/* Work completion interleaved with loop phases in a deterministic way:
 * the work item is released from a timer callback, and its after_work
 * callback runs in a later poll phase, never before the timer. */
#include "diff.h"

static uv_work_t req;
static uv_timer_t t;
static uv_sem_t release;
static int timer_fired;

static void work(uv_work_t *r) { (void) r; uv_sem_wait(&release); }

static void after(uv_work_t *r, int status) {
  (void) r;
  say("after_work status=%s timer_fired=%d", rc_name(status), timer_fired);
}

static void on_timer(uv_timer_t *h) {
  (void) h;
  timer_fired = 1;
  say("timer fired, releasing work");
  uv_sem_post(&release);
}

int main(void) {
  uv_loop_t loop;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_queue_work(&loop, &req, work, after) == 0);
  CHECK(uv_timer_start(&t, on_timer, 10, 0) == 0);
  uv_unref((uv_handle_t *) &t);
  say("timer unref'd; the work request alone keeps the loop alive=%d",
      uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  uv_sem_destroy(&release);
  finish(&loop);
  return 0;
}
