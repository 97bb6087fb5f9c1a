// SPDX-License-Identifier: MIT
/* Closing an async handle with a send still pending: its callback never
 * runs.  An async handle with a NULL callback accepts sends silently. */
#include "diff.h"

static uv_async_t pending, nocb, plain;
static int calls;

static void on_async(uv_async_t *h) {
  (void) h;
  calls++;
  say("async cb (%s)", (const char *) uv_handle_get_data((uv_handle_t *) h));
}

static void on_close(uv_handle_t *h) {
  say("close cb %s active=%d", (const char *) uv_handle_get_data(h),
      uv_is_active(h));
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_async_init(&loop, &pending, on_async) == 0);
  CHECK(uv_async_init(&loop, &nocb, NULL) == 0);
  CHECK(uv_async_init(&loop, &plain, on_async) == 0);
  uv_handle_set_data((uv_handle_t *) &pending, "pending");
  uv_handle_set_data((uv_handle_t *) &nocb, "nocb");
  uv_handle_set_data((uv_handle_t *) &plain, "plain");
  say("alive with three asyncs = %d", uv_loop_alive(&loop));

  CHECK(uv_async_send(&pending) == 0);
  uv_close((uv_handle_t *) &pending, on_close);
  CHECK(uv_async_send(&nocb) == 0);
  CHECK(uv_async_send(&plain) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  say("calls=%d", calls);

  uv_close((uv_handle_t *) &nocb, on_close);
  uv_close((uv_handle_t *) &plain, on_close);
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);
  finish(&loop);
  return 0;
}
