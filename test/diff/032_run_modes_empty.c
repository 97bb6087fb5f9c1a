// SPDX-License-Identifier: MIT
/* uv_run return values on a loop without active referenced handles. */
#include "diff.h"

static uv_timer_t t;
static uv_idle_t idle;
static int calls;

static void on_timer(uv_timer_t *h) { (void) h; calls++; say("timer cb"); }
static void on_idle(uv_idle_t *h) { (void) h; calls++; say("idle cb"); }

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  say("empty loop, alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  run_say(&loop, UV_RUN_ONCE);
  run_say(&loop, UV_RUN_NOWAIT);

  /* Initialised but never started handles do not keep the loop alive. */
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  say("inactive handles, alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  run_say(&loop, UV_RUN_ONCE);
  run_say(&loop, UV_RUN_NOWAIT);

  /* Active but unreferenced handles: the loop does not even iterate, so
   * their callbacks do not run. */
  CHECK(uv_timer_start(&t, on_timer, 0, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  uv_unref((uv_handle_t *) &t);
  uv_unref((uv_handle_t *) &idle);
  say("unref'd active handles, alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  run_say(&loop, UV_RUN_ONCE);
  run_say(&loop, UV_RUN_NOWAIT);
  say("calls=%d", calls);
  finish(&loop);
  return 0;
}
