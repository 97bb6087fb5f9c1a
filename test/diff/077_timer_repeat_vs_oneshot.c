// SPDX-License-Identifier: MIT
/* A repeating timer's re-arm counts as a new start: a one-shot timer due
 * at the same moment as the second repeat fires before it.  Also a huge
 * timeout is clamped rather than wrapping. */
#include "diff.h"
#include <limits.h>

static uv_timer_t rep, one, huge;
static int rep_n;

static void on_rep(uv_timer_t *h) {
  rep_n++;
  say("  rep #%d", rep_n);
  if (rep_n == 3)
    CHECK(uv_timer_stop(h) == 0);
}

static void on_one(uv_timer_t *h) { (void) h; say("  one"); }
static void on_huge(uv_timer_t *h) { (void) h; say("  huge (unexpected)"); }

int main(void) {
  uv_loop_t loop;
  int bt;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &rep) == 0);
  CHECK(uv_timer_init(&loop, &one) == 0);
  CHECK(uv_timer_init(&loop, &huge) == 0);

  CHECK(uv_timer_start(&rep, on_rep, 0, 40) == 0);
  CHECK(uv_timer_start(&one, on_one, 40, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  CHECK(uv_timer_start(&huge, on_huge, UINT64_MAX, 0) == 0);
  say("huge: active=%d due_in > 2^62: %d", uv_is_active((uv_handle_t *) &huge),
      uv_timer_get_due_in(&huge) > ((uint64_t) 1 << 62));
  run_say(&loop, UV_RUN_NOWAIT);
  bt = uv_backend_timeout(&loop);
  say("backend_timeout == INT_MAX: %d", bt == INT_MAX);
  CHECK(uv_timer_stop(&huge) == 0);
  finish(&loop);
  return 0;
}
