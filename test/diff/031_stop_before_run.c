// SPDX-License-Identifier: MIT
/* uv_stop before uv_run: the next uv_run returns at once without running
 * any callback (the flag is consumed); the run after that proceeds. */
#include "diff.h"

static uv_timer_t t;
static uv_idle_t idle;
static int fired;

static void on_timer(uv_timer_t *h) { (void) h; fired++; say("timer fired"); }
static void on_idle(uv_idle_t *h) {
  say("idle");
  CHECK(uv_idle_stop(h) == 0);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);

  /* Stop on an empty loop. */
  uv_stop(&loop);
  say("backend_timeout after stop (empty) = %d", uv_backend_timeout(&loop));
  run_say(&loop, UV_RUN_DEFAULT);

  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_timer_start(&t, on_timer, 0, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);

  uv_stop(&loop);
  uv_stop(&loop);
  say("backend_timeout after stop = %d", uv_backend_timeout(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("fired=%d", fired);
  uv_stop(&loop);
  run_say(&loop, UV_RUN_ONCE);
  uv_stop(&loop);
  run_say(&loop, UV_RUN_NOWAIT);
  say("fired=%d", fired);
  run_say(&loop, UV_RUN_DEFAULT);
  say("fired=%d", fired);
  finish(&loop);
  return 0;
}
