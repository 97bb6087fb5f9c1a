// SPDX-License-Identifier: MIT
/* Timers fire ordered by timeout, not by start order. */
#include "diff.h"

static const char *names[] = { "t40", "t10", "t30", "t0", "t20" };
static const unsigned timeouts[] = { 40, 10, 30, 0, 20 };
static uv_timer_t timers[5];
static int fired;

static void on_timer(uv_timer_t *t) {
  const char *name = uv_handle_get_data((uv_handle_t *) t);
  fired++;
  say("fire %s (#%d)", name, fired);
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 5; i++) {
    CHECK(uv_timer_init(&loop, &timers[i]) == 0);
    uv_handle_set_data((uv_handle_t *) &timers[i], (void *) names[i]);
    CHECK(uv_timer_start(&timers[i], on_timer, timeouts[i], 0) == 0);
  }
  say("loop alive = %d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("fired = %d", fired);
  say("loop alive = %d", uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
