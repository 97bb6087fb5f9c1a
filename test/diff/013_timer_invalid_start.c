// SPDX-License-Identifier: MIT
/* uv_timer_start with a NULL callback, and starting a closing timer. */
#include "diff.h"

static uv_timer_t t, closing;
static int fired;

static void on_timer(uv_timer_t *h) {
  (void) h;
  fired++;
}

static void on_close(uv_handle_t *h) {
  say("close cb: closing=%d active=%d", uv_is_closing(h), uv_is_active(h));
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_init(&loop, &closing) == 0);

  rc = uv_timer_start(&t, NULL, 10, 0);
  say("start(NULL cb) = %s", rc_name(rc));
  say("active=%d alive=%d", uv_is_active((uv_handle_t *) &t), uv_loop_alive(&loop));

  rc = uv_timer_start(&t, on_timer, 10, 0);
  say("start(cb) = %s active=%d", rc_name(rc), uv_is_active((uv_handle_t *) &t));
  rc = uv_timer_start(&t, NULL, 10, 0);
  say("restart active with NULL cb = %s active=%d", rc_name(rc),
      uv_is_active((uv_handle_t *) &t));

  uv_close((uv_handle_t *) &closing, on_close);
  rc = uv_timer_start(&closing, on_timer, 0, 0);
  say("start(closing) = %s active=%d", rc_name(rc),
      uv_is_active((uv_handle_t *) &closing));
  rc = uv_timer_again(&closing);
  say("again(closing, never started) = %s", rc_name(rc));

  run_say(&loop, UV_RUN_DEFAULT);
  say("fired=%d", fired);
  finish(&loop);
  return 0;
}
