// SPDX-License-Identifier: MIT
/* Handles of one kind run in reverse start order (each start pushes the
 * handle to the front of the phase list). */
#include "diff.h"

static uv_idle_t idles[4];
static uv_idle_t keepalive;

static void on_idle(uv_idle_t *h) {
  say("  idle %d", (int) (h - idles));
}

static void on_keepalive(uv_idle_t *h) { (void) h; }

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 4; i++)
    CHECK(uv_idle_init(&loop, &idles[i]) == 0);
  CHECK(uv_idle_init(&loop, &keepalive) == 0);

  for (i = 0; i < 4; i++)
    CHECK(uv_idle_start(&idles[i], on_idle) == 0);
  say("started 0,1,2,3");
  run_say(&loop, UV_RUN_ONCE);

  CHECK(uv_idle_stop(&idles[1]) == 0);
  CHECK(uv_idle_start(&idles[1], on_idle) == 0);
  say("restarted 1");
  run_say(&loop, UV_RUN_ONCE);

  CHECK(uv_idle_stop(&idles[3]) == 0);
  CHECK(uv_idle_stop(&idles[0]) == 0);
  say("stopped 3 and 0");
  run_say(&loop, UV_RUN_ONCE);

  CHECK(uv_idle_start(&idles[0], on_idle) == 0);
  CHECK(uv_idle_start(&idles[3], on_idle) == 0);
  say("started 0 then 3");
  run_say(&loop, UV_RUN_ONCE);

  for (i = 0; i < 4; i++)
    CHECK(uv_idle_stop(&idles[i]) == 0);
  /* Only keepalive left: the loop still runs without blocking. */
  CHECK(uv_idle_start(&keepalive, on_keepalive) == 0);
  run_say(&loop, UV_RUN_ONCE);
  finish(&loop);
  return 0;
}
