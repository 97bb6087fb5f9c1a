// SPDX-License-Identifier: MIT
/* Many uv_async_send calls from another thread, all completed before the
 * loop polls, coalesce into a single callback. */
#include "diff.h"

#define SENDS 1000

static uv_async_t async;
static int calls;

static void sender(void *arg) {
  int i;
  (void) arg;
  for (i = 0; i < SENDS; i++)
    CHECK(uv_async_send(&async) == 0);
}

static void on_async(uv_async_t *h) {
  calls++;
  say("async cb #%d", calls);
  uv_close((uv_handle_t *) h, NULL);
}

int main(void) {
  uv_loop_t loop;
  uv_thread_t tid;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_async_init(&loop, &async, on_async) == 0);
  say("async active=%d alive=%d", uv_is_active((uv_handle_t *) &async),
      uv_loop_alive(&loop));
  CHECK(uv_thread_create(&tid, sender, NULL) == 0);
  CHECK(uv_thread_join(&tid) == 0);
  say("sender joined after %d sends", SENDS);
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);
  finish(&loop);
  return 0;
}
