// SPDX-License-Identifier: MIT
/* Loop and handle user data accessors, uv_handle_get_loop and
 * uv_handle_get_type.  uv_loop_init keeps a data pointer set before it. */
#include "diff.h"

static int marker_a, marker_b;
static uv_timer_t t;
static uv_idle_t idle;

static void on_timer(uv_timer_t *h) {
  uv_loop_t *loop = uv_handle_get_loop((uv_handle_t *) h);
  say("timer cb: data is marker_a=%d, loop data is marker_b=%d",
      uv_handle_get_data((uv_handle_t *) h) == &marker_a,
      uv_loop_get_data(loop) == &marker_b);
}

int main(void) {
  uv_loop_t loop;
  uv_loop_t other;

  memset(&loop, 0, sizeof(loop));
  uv_loop_set_data(&loop, &marker_b);
  CHECK(uv_loop_init(&loop) == 0);
  say("loop data preserved by uv_loop_init: %d", uv_loop_get_data(&loop) == &marker_b);

  memset(&other, 0, sizeof(other));
  CHECK(uv_loop_init(&other) == 0);
  say("zeroed loop data after init is NULL: %d", uv_loop_get_data(&other) == NULL);
  uv_loop_set_data(&other, &marker_a);
  say("set/get loop data: %d", uv_loop_get_data(&other) == &marker_a);
  CHECK(uv_loop_close(&other) == 0);
  say("loop data kept after close: %d", uv_loop_get_data(&other) == &marker_a);

  uv_handle_set_data((uv_handle_t *) &t, &marker_b);
  CHECK(uv_timer_init(&loop, &t) == 0);
  say("handle data kept by init: %d", uv_handle_get_data((uv_handle_t *) &t) == &marker_b);
  uv_handle_set_data((uv_handle_t *) &t, &marker_a);
  say("handle data set: %d", uv_handle_get_data((uv_handle_t *) &t) == &marker_a);
  say("handle loop matches: %d", uv_handle_get_loop((uv_handle_t *) &t) == &loop);
  say("handle type: %s (== UV_TIMER: %d)",
      uv_handle_type_name(uv_handle_get_type((uv_handle_t *) &t)),
      uv_handle_get_type((uv_handle_t *) &t) == UV_TIMER);

  CHECK(uv_idle_init(&loop, &idle) == 0);
  say("idle type: %s", uv_handle_type_name(uv_handle_get_type((uv_handle_t *) &idle)));

  CHECK(uv_timer_start(&t, on_timer, 0, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  say("loop data after close: %d", uv_loop_get_data(&loop) == &marker_b);
  return 0;
}
