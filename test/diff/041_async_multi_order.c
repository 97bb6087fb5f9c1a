// SPDX-License-Identifier: MIT
/* Several async handles pending in the same poll: callbacks run in the
 * order the handles were initialised, not the order of the sends. */
#include "diff.h"

static uv_async_t as[4];
static int calls;

static void on_async(uv_async_t *h) {
  calls++;
  say("  async %d", (int) (h - as));
}

static void sender(void *arg) {
  (void) arg;
  CHECK(uv_async_send(&as[1]) == 0);
  CHECK(uv_async_send(&as[3]) == 0);
  CHECK(uv_async_send(&as[0]) == 0);
}

int main(void) {
  uv_loop_t loop;
  uv_thread_t tid;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  /* Initialise in the order 2, 0, 3, 1. */
  CHECK(uv_async_init(&loop, &as[2], on_async) == 0);
  CHECK(uv_async_init(&loop, &as[0], on_async) == 0);
  CHECK(uv_async_init(&loop, &as[3], on_async) == 0);
  CHECK(uv_async_init(&loop, &as[1], on_async) == 0);

  say("sends from the loop thread: 3, 1, 2");
  CHECK(uv_async_send(&as[3]) == 0);
  CHECK(uv_async_send(&as[1]) == 0);
  CHECK(uv_async_send(&as[2]) == 0);
  run_say(&loop, UV_RUN_NOWAIT);

  say("sends from another thread: 1, 3, 0");
  CHECK(uv_thread_create(&tid, sender, NULL) == 0);
  CHECK(uv_thread_join(&tid) == 0);
  run_say(&loop, UV_RUN_NOWAIT);

  say("no sends:");
  run_say(&loop, UV_RUN_NOWAIT);
  say("calls=%d", calls);
  for (i = 0; i < 4; i++)
    uv_close((uv_handle_t *) &as[i], NULL);
  finish(&loop);
  return 0;
}
