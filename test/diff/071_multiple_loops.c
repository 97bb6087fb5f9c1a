// SPDX-License-Identifier: MIT
/* Two private loops are independent: running one never runs the other's
 * callbacks, and each has its own alive/close state. */
#include "diff.h"

static uv_timer_t ta, tb;
static uv_idle_t ia;
static uv_async_t ab;

static void on_ta(uv_timer_t *h) { (void) h; say("  loop A timer"); }
static void on_tb(uv_timer_t *h) { (void) h; say("  loop B timer"); }
static void on_ia(uv_idle_t *h) { say("  loop A idle"); CHECK(uv_idle_stop(h) == 0); }
static void on_ab(uv_async_t *h) { say("  loop B async"); uv_close((uv_handle_t *) h, NULL); }

int main(void) {
  uv_loop_t a, b;
  int rc;

  CHECK(uv_loop_init(&a) == 0);
  CHECK(uv_loop_init(&b) == 0);
  CHECK(uv_timer_init(&a, &ta) == 0);
  CHECK(uv_timer_init(&b, &tb) == 0);
  CHECK(uv_idle_init(&a, &ia) == 0);
  CHECK(uv_async_init(&b, &ab, on_ab) == 0);

  CHECK(uv_timer_start(&ta, on_ta, 0, 0) == 0);
  CHECK(uv_timer_start(&tb, on_tb, 0, 0) == 0);
  CHECK(uv_idle_start(&ia, on_ia) == 0);
  CHECK(uv_async_send(&ab) == 0);
  say("alive: A=%d B=%d", uv_loop_alive(&a), uv_loop_alive(&b));

  say("run A:");
  run_say(&a, UV_RUN_DEFAULT);
  say("alive: A=%d B=%d", uv_loop_alive(&a), uv_loop_alive(&b));
  rc = uv_loop_close(&b);
  say("close B while its handles are open = %s", rc_name(rc));

  say("run B:");
  run_say(&b, UV_RUN_DEFAULT);
  say("alive: A=%d B=%d", uv_loop_alive(&a), uv_loop_alive(&b));

  uv_stop(&b);
  say("uv_stop(B), then run A:");
  CHECK(uv_timer_start(&ta, on_ta, 0, 0) == 0);
  run_say(&a, UV_RUN_DEFAULT);

  uv_close((uv_handle_t *) &tb, NULL);
  say("B closing its timer; the pending stop makes the next run return at once:");
  run_say(&b, UV_RUN_DEFAULT);
  finish(&b);
  finish(&a);
  return 0;
}
