/* UV_RUN_ONCE blocks for the next timer when nothing else is pending, but
 * does not block when an idle handle is active. */
#include "diff.h"

static uv_timer_t t1, t2;
static uv_idle_t idle;
static int idle_calls;

static void on_timer(uv_timer_t *h) {
  say("  timer %s", (const char *) uv_handle_get_data((uv_handle_t *) h));
}

static void on_idle(uv_idle_t *h) {
  (void) h;
  idle_calls++;
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t1) == 0);
  CHECK(uv_timer_init(&loop, &t2) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  uv_handle_set_data((uv_handle_t *) &t1, "t1");
  uv_handle_set_data((uv_handle_t *) &t2, "t2");

  /* Refresh the loop clock so the timeouts count from here. */
  uv_update_time(&loop);
  CHECK(uv_timer_start(&t1, on_timer, 20, 0) == 0);
  CHECK(uv_timer_start(&t2, on_timer, 300, 0) == 0);
  say("ONCE with timers at 20 and 300:");
  run_say(&loop, UV_RUN_ONCE);
  say("t1 active=%d t2 active=%d", uv_is_active((uv_handle_t *) &t1),
      uv_is_active((uv_handle_t *) &t2));

  CHECK(uv_idle_start(&idle, on_idle) == 0);
  say("ONCE with idle active and t2 pending:");
  run_say(&loop, UV_RUN_ONCE);
  say("idle_calls=%d t2 active=%d", idle_calls, uv_is_active((uv_handle_t *) &t2));
  CHECK(uv_idle_stop(&idle) == 0);

  say("ONCE again, only t2 left:");
  run_say(&loop, UV_RUN_ONCE);
  say("t2 active=%d alive=%d", uv_is_active((uv_handle_t *) &t2), uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
