// SPDX-License-Identifier: MIT
/* Starting an already active idle/prepare/check handle is a successful
 * no-op (callback and position unchanged); starting an inactive one with a
 * NULL callback fails. */
#include "diff.h"

static uv_idle_t i1, i2;
static uv_prepare_t p1;
static uv_check_t c1;

static void idle_first(uv_idle_t *h) {
  say("  idle_first(%s)", (const char *) uv_handle_get_data((uv_handle_t *) h));
}
static void idle_second(uv_idle_t *h) {
  say("  idle_second(%s)", (const char *) uv_handle_get_data((uv_handle_t *) h));
}
static void prep_first(uv_prepare_t *h) { (void) h; say("  prep_first"); }
static void prep_second(uv_prepare_t *h) { (void) h; say("  prep_second"); }
static void check_first(uv_check_t *h) { (void) h; say("  check_first"); }

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_idle_init(&loop, &i1) == 0);
  CHECK(uv_idle_init(&loop, &i2) == 0);
  CHECK(uv_prepare_init(&loop, &p1) == 0);
  CHECK(uv_check_init(&loop, &c1) == 0);
  uv_handle_set_data((uv_handle_t *) &i1, "i1");
  uv_handle_set_data((uv_handle_t *) &i2, "i2");

  rc = uv_idle_start(&i1, NULL);
  say("idle_start(inactive, NULL) = %s", rc_name(rc));
  rc = uv_prepare_start(&p1, NULL);
  say("prepare_start(inactive, NULL) = %s", rc_name(rc));
  rc = uv_check_start(&c1, NULL);
  say("check_start(inactive, NULL) = %s", rc_name(rc));
  say("alive=%d", uv_loop_alive(&loop));

  CHECK(uv_idle_start(&i1, idle_first) == 0);
  CHECK(uv_idle_start(&i2, idle_first) == 0);
  CHECK(uv_prepare_start(&p1, prep_first) == 0);
  CHECK(uv_check_start(&c1, check_first) == 0);

  rc = uv_idle_start(&i1, idle_second);
  say("idle_start(active i1, other cb) = %s", rc_name(rc));
  rc = uv_idle_start(&i2, NULL);
  say("idle_start(active i2, NULL) = %s", rc_name(rc));
  rc = uv_prepare_start(&p1, prep_second);
  say("prepare_start(active, other cb) = %s", rc_name(rc));
  rc = uv_check_start(&c1, NULL);
  say("check_start(active, NULL) = %s", rc_name(rc));
  run_say(&loop, UV_RUN_ONCE);

  rc = uv_idle_stop(&i1);
  say("idle_stop(i1) = %s", rc_name(rc));
  rc = uv_idle_stop(&i1);
  say("idle_stop(i1) again = %s", rc_name(rc));
  CHECK(uv_idle_start(&i1, idle_second) == 0);
  say("i1 restarted with idle_second");
  run_say(&loop, UV_RUN_ONCE);
  finish(&loop);
  return 0;
}
