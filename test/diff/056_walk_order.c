// SPDX-License-Identifier: MIT
/* uv_walk visits handles in initialisation order (start order and state
 * do not matter) and never shows the loop's internal handles. */
#include "diff.h"
#include <signal.h>

static uv_timer_t t1, t2;
static uv_idle_t idle;
static uv_prepare_t prep;
static uv_check_t chk;
static uv_async_t async;
static uv_signal_t sig;
static int visits;

static void show(uv_handle_t *h, void *arg) {
  visits++;
  say("  %s%s %s active=%d ref=%d", (const char *) arg,
      uv_handle_type_name(uv_handle_get_type(h)), (const char *) uv_handle_get_data(h),
      uv_is_active(h), uv_has_ref(h));
}

static void on_idle(uv_idle_t *h) { (void) h; }
static void on_prep(uv_prepare_t *h) { (void) h; }
static void on_chk(uv_check_t *h) { (void) h; }
static void on_timer(uv_timer_t *h) { (void) h; }
static void on_signal(uv_signal_t *h, int s) { (void) h; (void) s; }
static void nop_work(uv_work_t *r) { (void) r; }

int main(void) {
  uv_loop_t loop;
  uv_work_t w;

  CHECK(uv_loop_init(&loop) == 0);
  say("walk on a fresh loop:");
  uv_walk(&loop, show, "");
  say("visits=%d", visits);

  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_timer_init(&loop, &t2) == 0);
  CHECK(uv_signal_init(&loop, &sig) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_async_init(&loop, &async, NULL) == 0);
  CHECK(uv_timer_init(&loop, &t1) == 0);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  uv_handle_set_data((uv_handle_t *) &chk, "chk");
  uv_handle_set_data((uv_handle_t *) &t2, "t2");
  uv_handle_set_data((uv_handle_t *) &sig, "sig");
  uv_handle_set_data((uv_handle_t *) &idle, "idle");
  uv_handle_set_data((uv_handle_t *) &async, "async");
  uv_handle_set_data((uv_handle_t *) &t1, "t1");
  uv_handle_set_data((uv_handle_t *) &prep, "prep");

  /* Started in a different order than initialised. */
  CHECK(uv_prepare_start(&prep, on_prep) == 0);
  CHECK(uv_timer_start(&t1, on_timer, 1000, 0) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_signal_start(&sig, on_signal, SIGWINCH) == 0);
  CHECK(uv_check_start(&chk, on_chk) == 0);
  uv_unref((uv_handle_t *) &t1);

  visits = 0;
  say("walk:");
  uv_walk(&loop, show, "");
  say("visits=%d", visits);

  /* Using the threadpool must not add visible handles. */
  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_queue_work(&loop, &w, nop_work, NULL) == 0);
  CHECK(uv_idle_stop(&idle) == 0);
  CHECK(uv_prepare_stop(&prep) == 0);
  CHECK(uv_check_stop(&chk) == 0);
  CHECK(uv_signal_stop(&sig) == 0);
  CHECK(uv_timer_stop(&t1) == 0);
  uv_close((uv_handle_t *) &async, NULL);
  run_say(&loop, UV_RUN_DEFAULT);

  visits = 0;
  say("walk after threadpool use, everything stopped, async closed:");
  uv_walk(&loop, show, "");
  say("visits=%d", visits);
  finish(&loop);
  return 0;
}
