// SPDX-License-Identifier: MIT
/* Close callbacks run in reverse order of the uv_close calls. */
#include "diff.h"

static uv_timer_t t1, t2;
static uv_idle_t idle;
static uv_prepare_t prep;
static uv_check_t chk;
static uv_async_t async;

static void on_close(uv_handle_t *h) {
  say("close cb %s (%s)", (const char *) uv_handle_get_data(h),
      uv_handle_type_name(uv_handle_get_type(h)));
}

static void label(void *h, const char *name) {
  uv_handle_set_data((uv_handle_t *) h, (void *) name);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t1) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_timer_init(&loop, &t2) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_async_init(&loop, &async, NULL) == 0);
  label(&t1, "t1");
  label(&t2, "t2");
  label(&idle, "idle");
  label(&prep, "prep");
  label(&chk, "chk");
  label(&async, "async");

  say("closing: prep, t1, async, chk, idle, t2");
  uv_close((uv_handle_t *) &prep, on_close);
  uv_close((uv_handle_t *) &t1, on_close);
  uv_close((uv_handle_t *) &async, on_close);
  uv_close((uv_handle_t *) &chk, on_close);
  uv_close((uv_handle_t *) &idle, on_close);
  uv_close((uv_handle_t *) &t2, on_close);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
