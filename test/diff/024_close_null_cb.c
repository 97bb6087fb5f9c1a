// SPDX-License-Identifier: MIT
/* uv_close with a NULL callback, mixed with handles that have one. */
#include "diff.h"

static uv_timer_t t1, t2;
static uv_idle_t i1;

static void on_close(uv_handle_t *h) {
  say("close cb %s", (const char *) uv_handle_get_data(h));
}

static void on_t1(uv_timer_t *h) {
  (void) h;
  say("t1 fired; closing t1 (NULL cb) and i1 (cb)");
  uv_close((uv_handle_t *) &t1, NULL);
  uv_close((uv_handle_t *) &i1, on_close);
  say("t1 closing=%d i1 closing=%d", uv_is_closing((uv_handle_t *) &t1),
      uv_is_closing((uv_handle_t *) &i1));
}

static void on_idle(uv_idle_t *h) { (void) h; }

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t1) == 0);
  CHECK(uv_timer_init(&loop, &t2) == 0);
  CHECK(uv_idle_init(&loop, &i1) == 0);
  uv_handle_set_data((uv_handle_t *) &i1, "i1");
  uv_handle_set_data((uv_handle_t *) &t2, "t2");
  CHECK(uv_idle_start(&i1, on_idle) == 0);
  CHECK(uv_timer_start(&t1, on_t1, 1, 1) == 0);
  uv_close((uv_handle_t *) &t2, NULL);

  run_say(&loop, UV_RUN_DEFAULT);
  say("after run: t1 closing=%d active=%d, t2 closing=%d, i1 closing=%d",
      uv_is_closing((uv_handle_t *) &t1), uv_is_active((uv_handle_t *) &t1),
      uv_is_closing((uv_handle_t *) &t2), uv_is_closing((uv_handle_t *) &i1));
  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
