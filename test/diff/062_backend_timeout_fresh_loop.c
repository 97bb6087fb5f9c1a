// SPDX-License-Identifier: MIT
/* uv_backend_timeout on a loop that has never iterated.  In the reference
 * implementation the loop's internal watchers are only registered by the
 * first iteration, and until then uv_backend_timeout reports 0 even with
 * a pending timer.  A run that does not iterate (nothing alive) does not
 * change that. */
#include "diff.h"

static uv_timer_t t;

static void on_timer(uv_timer_t *h) { (void) h; say("timer fired (unexpected)"); }

static void show(uv_loop_t *loop, const char *what) {
  int bt = uv_backend_timeout(loop);
  if (bt > 0 && bt <= 1000)
    say("%-36s -> in (0,1000]", what);
  else
    say("%-36s -> %d", what, bt);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  show(&loop, "fresh loop");
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 1000, 0) == 0);
  show(&loop, "timer in 1000ms, never iterated");
  uv_unref((uv_handle_t *) &t);
  run_say(&loop, UV_RUN_NOWAIT);
  uv_ref((uv_handle_t *) &t);
  show(&loop, "after a non-iterating run");
  run_say(&loop, UV_RUN_NOWAIT);
  show(&loop, "after one NOWAIT iteration");
  CHECK(uv_timer_stop(&t) == 0);
  show(&loop, "timer stopped");
  finish(&loop);
  return 0;
}
