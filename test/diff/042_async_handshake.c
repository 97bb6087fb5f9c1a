// SPDX-License-Identifier: MIT
/* A worker thread sends, then waits for the loop to acknowledge each
 * callback before sending again: every send yields exactly one callback. */
#include "diff.h"

#define ROUNDS 20

static uv_async_t async;
static uv_sem_t ack;
static int calls;

static void worker(void *arg) {
  int i;
  (void) arg;
  for (i = 0; i < ROUNDS; i++) {
    CHECK(uv_async_send(&async) == 0);
    uv_sem_wait(&ack);
  }
}

static void on_async(uv_async_t *h) {
  calls++;
  if (calls % 5 == 0)
    say("async cb #%d", calls);
  if (calls == ROUNDS)
    uv_close((uv_handle_t *) h, NULL);
  uv_sem_post(&ack);
}

int main(void) {
  uv_loop_t loop;
  uv_thread_t tid;

  CHECK(uv_sem_init(&ack, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_async_init(&loop, &async, on_async) == 0);
  CHECK(uv_thread_create(&tid, worker, NULL) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_thread_join(&tid) == 0);
  say("calls=%d", calls);
  uv_sem_destroy(&ack);
  finish(&loop);
  return 0;
}
