// SPDX-License-Identifier: MIT
/* uv_loop_configure options and uv_metrics_idle_time sanity.  Idle time
 * values are never printed, only checked to be plausible.  To be sure the
 * loop really sleeps in the poll phase, it waits for an async send that a
 * thread makes some time after the loop reached its prepare phase. */
#include "diff.h"
#include <signal.h>

static uv_async_t wake;
static uv_prepare_t prep;
static uv_sem_t about_to_poll;
static int woke;

static void on_wake(uv_async_t *h) {
  woke++;
  uv_close((uv_handle_t *) h, NULL);
}

static void on_prepare(uv_prepare_t *h) {
  uv_sem_post(&about_to_poll);
  CHECK(uv_prepare_stop(h) == 0);
}

static void waker(void *arg) {
  (void) arg;
  uv_sem_wait(&about_to_poll);
  uv_sleep(50);
  CHECK(uv_async_send(&wake) == 0);
}

static uint64_t run_with_sleep(uv_loop_t *loop, uint64_t *wall) {
  uv_thread_t tid;
  uint64_t before;

  CHECK(uv_async_init(loop, &wake, on_wake) == 0);
  CHECK(uv_prepare_init(loop, &prep) == 0);
  CHECK(uv_prepare_start(&prep, on_prepare) == 0);
  CHECK(uv_thread_create(&tid, waker, NULL) == 0);
  before = uv_hrtime();
  run_say(loop, UV_RUN_DEFAULT);
  *wall = uv_hrtime() - before;
  CHECK(uv_thread_join(&tid) == 0);
  return uv_metrics_idle_time(loop);
}

int main(void) {
  uv_loop_t loop;
  uint64_t idle_time, wall;
  int rc;

  CHECK(uv_sem_init(&about_to_poll, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  rc = uv_loop_configure(&loop, UV_LOOP_BLOCK_SIGNAL, SIGPROF);
  say("BLOCK_SIGNAL SIGPROF = %s", rc_name(rc));
  rc = uv_loop_configure(&loop, UV_LOOP_BLOCK_SIGNAL, SIGUSR1);
  say("BLOCK_SIGNAL SIGUSR1 = %s", rc_name(rc));
  rc = uv_loop_configure(&loop, UV_METRICS_IDLE_TIME);
  say("METRICS_IDLE_TIME = %s", rc_name(rc));
  rc = uv_loop_configure(&loop, (uv_loop_option) 4242);
  say("unknown option = %s", rc_name(rc));

  say("idle time before running is 0: %d", uv_metrics_idle_time(&loop) == 0);
  idle_time = run_with_sleep(&loop, &wall);
  say("woke=%d", woke);
  say("idle time > 0: %d", idle_time > 0);
  say("idle time <= wall time of the run: %d", idle_time <= wall);
  finish(&loop);

  /* Without the option, idle time stays 0. */
  woke = 0;
  CHECK(uv_loop_init(&loop) == 0);
  idle_time = run_with_sleep(&loop, &wall);
  say("woke=%d", woke);
  say("idle time without option is 0: %d", idle_time == 0);
  finish(&loop);
  uv_sem_destroy(&about_to_poll);
  return 0;
}
