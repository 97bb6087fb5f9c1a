// SPDX-License-Identifier: MIT
/* The default loop: same pointer on every call, usable like any other
 * loop, can be closed and then transparently recreated. */
#include "diff.h"

static uv_timer_t t;
static uv_idle_t idle;
static int idle_calls;

static void on_timer(uv_timer_t *h) {
  say("timer on default loop: loop is default=%d",
      uv_handle_get_loop((uv_handle_t *) h) == uv_default_loop());
}

static void on_idle(uv_idle_t *h) {
  idle_calls++;
  if (idle_calls == 3) {
    say("idle ran 3 times");
    CHECK(uv_idle_stop(h) == 0);
  }
}

int main(void) {
  uv_loop_t *loop = uv_default_loop();
  int rc;

  CHECK(loop != NULL);
  say("same pointer twice: %d", uv_default_loop() == loop);
  say("alive=%d backend_fd>=0: %d", uv_loop_alive(loop), uv_backend_fd(loop) >= 0);

  CHECK(uv_timer_init(loop, &t) == 0);
  CHECK(uv_idle_init(loop, &idle) == 0);
  CHECK(uv_timer_start(&t, on_timer, 0, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  run_say(loop, UV_RUN_DEFAULT);

  rc = uv_loop_close(loop);
  say("close default loop with handles = %s", rc_name(rc));
  uv_close((uv_handle_t *) &t, NULL);
  uv_close((uv_handle_t *) &idle, NULL);
  run_say(loop, UV_RUN_DEFAULT);
  rc = uv_loop_close(loop);
  say("close default loop = %s", rc_name(rc));

  loop = uv_default_loop();
  CHECK(loop != NULL);
  say("default loop recreated, alive=%d", uv_loop_alive(loop));
  CHECK(uv_timer_init(loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 0, 0) == 0);
  run_say(loop, UV_RUN_DEFAULT);
  finish(loop);
  return 0;
}
