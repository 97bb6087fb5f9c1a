// SPDX-License-Identifier: MIT
/* Stopping and closing uv_fs_poll: closing while the first stat is in
 * flight gives no poll callback, and the close callback comes one
 * iteration after the stat completed (the internal timer closes first);
 * stop + start keeps one active handle, and closing it with the new stat
 * in flight calls back nothing but the close callback. The internal timer is not
 * visible to uv_walk and does not keep the loop alive. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_poll_t a, b;
static uv_check_t chk;
static int iteration;

static void on_check(uv_check_t *h) {
  (void) h;
  say("[check %d]", ++iteration);
}

static void on_close(uv_handle_t *h) {
  say("close_cb %s", h == (uv_handle_t *) &a ? "a" : h == (uv_handle_t *) &b ? "b" : "check");
}

static void on_poll(uv_fs_poll_t *h, int status, const uv_stat_t *prev, const uv_stat_t *curr) {
  (void) prev;
  (void) curr;
  say("poll_cb %s status=%s", h == &a ? "a" : "b", rc_name(status));
}

static void walk_cb(uv_handle_t *h, void *arg) {
  (void) arg;
  say("walk %s active=%d", uv_handle_type_name(h->type), uv_is_active(h));
}

static void on_timer(uv_timer_t *t) {
  int r;
  say("timer: b active=%d", uv_is_active((uv_handle_t *) &b));
  r = uv_fs_poll_stop(&b);
  say("  stop b = %s active=%d", rc_name(r), uv_is_active((uv_handle_t *) &b));
  r = uv_fs_poll_start(&b, on_poll, "missing", 1000);
  say("  restart b = %s active=%d", rc_name(r), uv_is_active((uv_handle_t *) &b));
  /* Closed with the new stat in flight: no poll callback. */
  uv_close((uv_handle_t *) &b, on_close);
  say("  closed b: active=%d", uv_is_active((uv_handle_t *) &b));
  uv_close((uv_handle_t *) t, NULL);
}

int main(void) {
  uv_timer_t t;
  fs_enter_tmpdir();
  fs_put("file", "x");
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_check_start(&chk, on_check) == 0);
  uv_unref((uv_handle_t *) &chk);
  CHECK(uv_fs_poll_init(&loop, &a) == 0);
  CHECK(uv_fs_poll_start(&a, on_poll, "missing", 1000) == 0);
  uv_walk(&loop, walk_cb, NULL);
  uv_close((uv_handle_t *) &a, on_close);
  say("closed a: active=%d closing=%d alive=%d", uv_is_active((uv_handle_t *) &a), uv_is_closing((uv_handle_t *) &a),
      uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- b");
  CHECK(uv_fs_poll_init(&loop, &b) == 0);
  CHECK(uv_fs_poll_start(&b, on_poll, "file", 1000) == 0);
  uv_unref((uv_handle_t *) &b);
  say("b unref: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_ONCE); /* the first stat completes; nothing to report */
  uv_ref((uv_handle_t *) &b);
  /* From here on, how many iterations the stats take depends on the
   * threadpool: no more markers. */
  CHECK(uv_check_stop(&chk) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 1, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  uv_close((uv_handle_t *) &chk, on_close);
  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
