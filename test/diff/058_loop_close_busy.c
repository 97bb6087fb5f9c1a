// SPDX-License-Identifier: MIT
/* uv_loop_close refuses (UV_EBUSY) while any user handle is still known
 * to the loop: active, merely initialised, or closing but not yet
 * finished.  Afterwards it succeeds. */
#include "diff.h"

static uv_timer_t active_t, inactive_t;
static uv_idle_t idle;

static void on_timer(uv_timer_t *h) { (void) h; }
static void on_idle(uv_idle_t *h) { (void) h; }

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &active_t) == 0);
  CHECK(uv_timer_init(&loop, &inactive_t) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_timer_start(&active_t, on_timer, 10000, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  uv_unref((uv_handle_t *) &idle);

  rc = uv_loop_close(&loop);
  say("close with active timer, unref'd idle, inactive timer = %s", rc_name(rc));

  CHECK(uv_timer_stop(&active_t) == 0);
  CHECK(uv_idle_stop(&idle) == 0);
  rc = uv_loop_close(&loop);
  say("close with only inactive handles = %s", rc_name(rc));

  uv_close((uv_handle_t *) &active_t, NULL);
  uv_close((uv_handle_t *) &inactive_t, NULL);
  uv_close((uv_handle_t *) &idle, NULL);
  rc = uv_loop_close(&loop);
  say("close with handles closing (not yet run) = %s", rc_name(rc));

  run_say(&loop, UV_RUN_DEFAULT);
  rc = uv_loop_close(&loop);
  say("close after run = %s", rc_name(rc));

  /* A closed loop can be initialised and used again. */
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &active_t) == 0);
  CHECK(uv_timer_start(&active_t, on_timer, 0, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
