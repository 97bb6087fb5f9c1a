// SPDX-License-Identifier: MIT
/* uv_timer_again: on a never-started timer, on a one-shot timer and on a
 * timer with a repeat value. */
#include "diff.h"

static uv_timer_t never, oneshot, rep;
static int rep_count;

static void on_oneshot(uv_timer_t *t) {
  say("oneshot fired, active=%d", uv_is_active((uv_handle_t *) t));
  /* Still no repeat: again is a successful no-op. */
  int rc = uv_timer_again(t);
  say("again(oneshot) in cb = %s, active=%d", rc_name(rc),
      uv_is_active((uv_handle_t *) t));
}

static void on_rep(uv_timer_t *t) {
  rep_count++;
  say("rep fired #%d due_in=%d", rep_count, (int) uv_timer_get_due_in(t));
  if (rep_count == 3)
    CHECK(uv_timer_stop(t) == 0);
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &never) == 0);
  CHECK(uv_timer_init(&loop, &oneshot) == 0);
  CHECK(uv_timer_init(&loop, &rep) == 0);

  rc = uv_timer_again(&never);
  say("again(never started) = %s", rc_name(rc));
  say("never active=%d", uv_is_active((uv_handle_t *) &never));

  CHECK(uv_timer_start(&oneshot, on_oneshot, 5, 0) == 0);
  rc = uv_timer_again(&oneshot);
  say("again(oneshot) = %s, active=%d due_in=%d", rc_name(rc),
      uv_is_active((uv_handle_t *) &oneshot),
      (int) uv_timer_get_due_in(&oneshot));

  CHECK(uv_timer_start(&rep, on_rep, 80, 0) == 0);
  say("rep due_in=%d", (int) uv_timer_get_due_in(&rep));
  uv_timer_set_repeat(&rep, 20);
  rc = uv_timer_again(&rep);
  say("again(rep, repeat=20) = %s", rc_name(rc));
  say("rep due_in=%d repeat=%d active=%d", (int) uv_timer_get_due_in(&rep),
      (int) uv_timer_get_repeat(&rep), uv_is_active((uv_handle_t *) &rep));

  run_say(&loop, UV_RUN_DEFAULT);

  /* After being stopped, again restarts a timer that has a repeat. */
  rc = uv_timer_again(&rep);
  say("again(stopped rep) = %s, active=%d due_in=%d",
      rc_name(rc), uv_is_active((uv_handle_t *) &rep),
      (int) uv_timer_get_due_in(&rep));
  CHECK(uv_timer_stop(&rep) == 0);

  finish(&loop);
  return 0;
}
