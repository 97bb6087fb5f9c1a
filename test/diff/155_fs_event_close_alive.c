// SPDX-License-Identifier: MIT
/* fs_event handles and the loop: an active handle keeps the loop alive
 * (unless unreferenced), closing one from its own callback stops the
 * other callbacks for it, a closed handle's close callback runs in the
 * closing phase; uv_walk shows fs_event handles. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_event_t a, b;
static int calls;

static void on_close(uv_handle_t *h) { say("close_cb %s", h == (uv_handle_t *) &a ? "a" : "b"); }

static void on_event(uv_fs_event_t *e, const char *filename, int events, int status) {
  (void) events;
  (void) status;
  calls++;
  say("%s: %s", e == &a ? "a" : "b", filename);
  if (e == &a) {
    uv_close((uv_handle_t *) &a, on_close);
    say("  a closed: active=%d closing=%d", uv_is_active((uv_handle_t *) &a), uv_is_closing((uv_handle_t *) &a));
  } else {
    uv_close((uv_handle_t *) &b, on_close);
  }
}

static void walk_cb(uv_handle_t *h, void *arg) {
  (void) arg;
  say("walk %s active=%d", uv_handle_type_name(h->type), uv_is_active(h));
}

int main(void) {
  uv_fs_t req;
  fs_enter_tmpdir();
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_fs_mkdir(NULL, &req, "d", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_event_init(&loop, &a) == 0);
  CHECK(uv_fs_event_init(&loop, &b) == 0);
  say("inactive: alive=%d", uv_loop_alive(&loop));
  CHECK(uv_fs_event_start(&a, on_event, "d", 0) == 0);
  CHECK(uv_fs_event_start(&b, on_event, "d", 0) == 0);
  say("active: alive=%d", uv_loop_alive(&loop));
  uv_unref((uv_handle_t *) &a);
  uv_unref((uv_handle_t *) &b);
  say("unref: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  uv_ref((uv_handle_t *) &a);
  uv_walk(&loop, walk_cb, NULL);
  fs_put("d/x", "1");
  fs_put("d/y", "2");
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);
  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
