// SPDX-License-Identifier: MIT
/* An unreferenced timer does not keep the loop alive, but still fires
 * while something else keeps the loop running. */
#include "diff.h"

static uv_timer_t weak, strong;
static int weak_n, strong_n;

static void on_weak(uv_timer_t *h) {
  weak_n++;
  say("weak #%d has_ref=%d active=%d", weak_n, uv_has_ref((uv_handle_t *) h),
      uv_is_active((uv_handle_t *) h));
}

static void on_strong(uv_timer_t *h) {
  (void) h;
  strong_n++;
  say("strong fired");
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &weak) == 0);
  CHECK(uv_timer_init(&loop, &strong) == 0);

  CHECK(uv_timer_start(&weak, on_weak, 1, 0) == 0);
  uv_unref((uv_handle_t *) &weak);
  say("weak alone: alive=%d has_ref=%d", uv_loop_alive(&loop),
      uv_has_ref((uv_handle_t *) &weak));
  run_say(&loop, UV_RUN_DEFAULT);
  say("weak_n=%d", weak_n);

  /* A referenced timer further away keeps the loop going long enough. */
  CHECK(uv_timer_start(&strong, on_strong, 60, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("weak_n=%d strong_n=%d", weak_n, strong_n);

  /* An unref'd repeating timer keeps firing only while strong is pending. */
  CHECK(uv_timer_start(&weak, on_weak, 1, 1000) == 0);
  CHECK(uv_timer_start(&strong, on_strong, 60, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("weak active=%d after strong finished", uv_is_active((uv_handle_t *) &weak));

  /* Re-referencing makes it keep the loop alive again. */
  uv_ref((uv_handle_t *) &weak);
  say("weak re-ref'd: alive=%d has_ref=%d", uv_loop_alive(&loop),
      uv_has_ref((uv_handle_t *) &weak));
  CHECK(uv_timer_stop(&weak) == 0);
  say("weak stopped: alive=%d has_ref=%d", uv_loop_alive(&loop),
      uv_has_ref((uv_handle_t *) &weak));
  finish(&loop);
  return 0;
}
