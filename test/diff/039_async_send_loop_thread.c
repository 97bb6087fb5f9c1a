// SPDX-License-Identifier: MIT
/* uv_async_send from the loop thread itself: before uv_run, and from the
 * async callback (which schedules one more callback). */
#include "diff.h"

static uv_async_t async;
static uv_idle_t idle;
static int calls, idle_calls;

static void on_async(uv_async_t *h) {
  calls++;
  say("  async cb #%d", calls);
  if (calls < 3) {
    CHECK(uv_async_send(h) == 0);
    CHECK(uv_async_send(h) == 0);
    say("  re-sent twice from cb");
  } else {
    uv_close((uv_handle_t *) h, NULL);
  }
}

static void on_idle(uv_idle_t *h) {
  idle_calls++;
  say("  idle #%d", idle_calls);
  if (idle_calls == 5)
    CHECK(uv_idle_stop(h) == 0);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_async_init(&loop, &async, on_async) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_async_send(&async) == 0);
  CHECK(uv_async_send(&async) == 0);
  CHECK(uv_async_send(&async) == 0);
  say("sent three times before run");
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d idle_calls=%d", calls, idle_calls);
  finish(&loop);
  return 0;
}
