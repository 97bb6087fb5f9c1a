// SPDX-License-Identifier: MIT
/* Closing a not-yet-run handle of the same phase from a callback removes
 * it from the current pass. */
#include "diff.h"

static uv_idle_t idles[3];
static uv_check_t checks[2];

static void on_close(uv_handle_t *h) {
  say("  close cb %s", (const char *) uv_handle_get_data(h));
}

static void on_idle(uv_idle_t *h) {
  int i = (int) (h - idles);
  say("  idle %d", i);
  if (i == 2 && !uv_is_closing((uv_handle_t *) &idles[1])) {
    uv_close((uv_handle_t *) &idles[1], on_close);
    say("  idle 2 closed idle 1");
  }
}

static void on_check(uv_check_t *h) {
  int i = (int) (h - checks);
  say("  check %d", i);
  if (i == 1 && !uv_is_closing((uv_handle_t *) &checks[0])) {
    uv_close((uv_handle_t *) &checks[0], on_close);
    uv_close((uv_handle_t *) &idles[2], on_close);
    say("  check 1 closed check 0 and idle 2");
  }
}

int main(void) {
  uv_loop_t loop;
  static const char *inames[3] = { "idle0", "idle1", "idle2" };
  static const char *cnames[2] = { "check0", "check1" };
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 3; i++) {
    CHECK(uv_idle_init(&loop, &idles[i]) == 0);
    uv_handle_set_data((uv_handle_t *) &idles[i], (void *) inames[i]);
    CHECK(uv_idle_start(&idles[i], on_idle) == 0);
  }
  for (i = 0; i < 2; i++) {
    CHECK(uv_check_init(&loop, &checks[i]) == 0);
    uv_handle_set_data((uv_handle_t *) &checks[i], (void *) cnames[i]);
    CHECK(uv_check_start(&checks[i], on_check) == 0);
  }
  say("iteration 1");
  run_say(&loop, UV_RUN_ONCE);
  say("iteration 2");
  run_say(&loop, UV_RUN_ONCE);
  finish(&loop);
  return 0;
}
