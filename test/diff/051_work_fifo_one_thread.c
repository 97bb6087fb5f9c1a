// SPDX-License-Identifier: MIT
/* With a single threadpool thread, work items run and complete in FIFO
 * order; after_work callbacks see status 0. */
#include "diff.h"

#define N 6

static uv_work_t reqs[N];
static int ran_order[N];
static int ran_count;
static uv_mutex_t lock;
static int done;

static void work(uv_work_t *req) {
  uv_mutex_lock(&lock);
  ran_order[ran_count++] = (int) (req - reqs);
  uv_mutex_unlock(&lock);
}

static void after(uv_work_t *req, int status) {
  done++;
  say("after_work %d status=%s", (int) (req - reqs), rc_name(status));
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_mutex_init(&lock) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  say("alive before queueing=%d", uv_loop_alive(&loop));
  for (i = 0; i < N; i++)
    CHECK(uv_queue_work(&loop, &reqs[i], work, after) == 0);
  say("alive after queueing=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("done=%d alive=%d", done, uv_loop_alive(&loop));
  for (i = 0; i < ran_count; i++)
    say("work ran #%d: %d", i, ran_order[i]);
  uv_mutex_destroy(&lock);
  finish(&loop);
  return 0;
}
