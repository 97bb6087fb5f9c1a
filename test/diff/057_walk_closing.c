// SPDX-License-Identifier: MIT
/* uv_walk still visits handles that are closing (before their close
 * callback ran) and no longer visits them afterwards; closing everything
 * from inside a walk callback works. */
#include "diff.h"

static uv_timer_t ts[4];
static int closed;

static void show(uv_handle_t *h, void *arg) {
  (void) arg;
  say("  timer %d closing=%d", (int) ((uv_timer_t *) h - ts), uv_is_closing(h));
}

static void on_close(uv_handle_t *h) {
  closed++;
  say("  close cb timer %d", (int) ((uv_timer_t *) h - ts));
}

static void close_it(uv_handle_t *h, void *arg) {
  (void) arg;
  if (!uv_is_closing(h)) {
    say("  walk closes timer %d", (int) ((uv_timer_t *) h - ts));
    uv_close(h, on_close);
  }
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 4; i++)
    CHECK(uv_timer_init(&loop, &ts[i]) == 0);

  uv_close((uv_handle_t *) &ts[1], on_close);
  uv_close((uv_handle_t *) &ts[2], on_close);
  say("walk with 1 and 2 closing:");
  uv_walk(&loop, show, NULL);
  run_say(&loop, UV_RUN_NOWAIT);
  say("walk after run:");
  uv_walk(&loop, show, NULL);

  say("close the rest from a walk:");
  uv_walk(&loop, close_it, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
  say("walk after all closed:");
  uv_walk(&loop, show, NULL);
  say("closed=%d", closed);
  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
