// SPDX-License-Identifier: MIT
/* uv_backend_timeout in various loop states, measured after the loop has
 * gone through one iteration. */
#include "diff.h"

static uv_timer_t t, t0;
static uv_idle_t idle;
static uv_async_t async;
static uv_work_t w;
static uv_sem_t release;

static void on_timer(uv_timer_t *h) { (void) h; }
static void on_idle(uv_idle_t *h) { (void) h; }
static void blocking_work(uv_work_t *r) { (void) r; uv_sem_wait(&release); }

static void show(uv_loop_t *loop, const char *what) {
  int bt = uv_backend_timeout(loop);
  if (bt > 0 && bt <= 100)
    say("%-40s -> in (0,100]", what);
  else if (bt > 100)
    say("%-40s -> > 100 (%s)", what, bt <= 1000000 ? "<= 1000000" : "huge");
  else
    say("%-40s -> %d", what, bt);
}

int main(void) {
  uv_loop_t loop;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  /* One real iteration first (see 062 for the values before that). */
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_idle_stop(&idle) == 0);
  show(&loop, "no active handles");

  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 100, 0) == 0);
  show(&loop, "timer in 100ms");

  uv_unref((uv_handle_t *) &t);
  show(&loop, "timer unref'd");
  uv_ref((uv_handle_t *) &t);

  CHECK(uv_timer_init(&loop, &t0) == 0);
  CHECK(uv_timer_start(&t0, on_timer, 0, 0) == 0);
  show(&loop, "plus a timer due now");
  CHECK(uv_timer_stop(&t0) == 0);

  CHECK(uv_idle_start(&idle, on_idle) == 0);
  show(&loop, "idle active");
  uv_unref((uv_handle_t *) &idle);
  show(&loop, "idle active but unref'd");
  CHECK(uv_idle_stop(&idle) == 0);
  show(&loop, "idle stopped");

  uv_stop(&loop);
  show(&loop, "after uv_stop");
  run_say(&loop, UV_RUN_NOWAIT);
  show(&loop, "after the stopped run");

  CHECK(uv_timer_start(&t, on_timer, 1000000, 0) == 0);
  show(&loop, "timer in 1000000ms");
  CHECK(uv_timer_stop(&t) == 0);

  CHECK(uv_async_init(&loop, &async, NULL) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  show(&loop, "only an async handle (no timers)");
  uv_close((uv_handle_t *) &async, NULL);
  show(&loop, "async closing");
  run_say(&loop, UV_RUN_NOWAIT);

  CHECK(uv_queue_work(&loop, &w, blocking_work, NULL) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  show(&loop, "pending work request only");
  CHECK(uv_timer_start(&t, on_timer, 50, 0) == 0);
  show(&loop, "pending work + timer in 50ms");
  CHECK(uv_timer_stop(&t) == 0);
  uv_sem_post(&release);
  run_say(&loop, UV_RUN_DEFAULT);
  show(&loop, "all done");

  uv_sem_destroy(&release);
  finish(&loop);
  return 0;
}
