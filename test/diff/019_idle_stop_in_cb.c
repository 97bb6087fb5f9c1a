// SPDX-License-Identifier: MIT
/* Stopping handles from inside a phase pass: a stopped handle that has not
 * run yet is skipped; a handle stopped and restarted during the pass is
 * moved to the front and does not run again in that pass. */
#include "diff.h"

static uv_idle_t a, b, c;
static int iteration;

static void on_idle(uv_idle_t *h);

static void act(uv_idle_t *h) {
  if (iteration == 1 && h == &c) {
    CHECK(uv_idle_stop(&a) == 0);
    say("    c stopped a");
  } else if (iteration == 1 && h == &b) {
    CHECK(uv_idle_stop(&b) == 0);
    say("    b stopped itself, active=%d", uv_is_active((uv_handle_t *) &b));
  } else if (iteration == 2 && h == &c) {
    CHECK(uv_idle_start(&a, on_idle) == 0);
    CHECK(uv_idle_start(&b, on_idle) == 0);
    say("    c started a, b");
  } else if (iteration == 3 && h == &b) {
    CHECK(uv_idle_stop(&c) == 0);
    CHECK(uv_idle_start(&c, on_idle) == 0);
    say("    b restarted c");
  } else if (iteration == 4 && h == &c) {
    CHECK(uv_idle_stop(&c) == 0);
    CHECK(uv_idle_start(&c, on_idle) == 0);
    say("    c restarted itself");
  }
}

static void on_idle(uv_idle_t *h) {
  say("  idle %s", (const char *) uv_handle_get_data((uv_handle_t *) h));
  act(h);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_idle_init(&loop, &a) == 0);
  CHECK(uv_idle_init(&loop, &b) == 0);
  CHECK(uv_idle_init(&loop, &c) == 0);
  uv_handle_set_data((uv_handle_t *) &a, "a");
  uv_handle_set_data((uv_handle_t *) &b, "b");
  uv_handle_set_data((uv_handle_t *) &c, "c");
  CHECK(uv_idle_start(&a, on_idle) == 0);
  CHECK(uv_idle_start(&b, on_idle) == 0);
  CHECK(uv_idle_start(&c, on_idle) == 0);

  for (iteration = 1; iteration <= 5; iteration++) {
    say("iteration %d", iteration);
    run_say(&loop, UV_RUN_ONCE);
  }
  finish(&loop);
  return 0;
}
