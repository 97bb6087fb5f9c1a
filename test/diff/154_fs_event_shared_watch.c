// SPDX-License-Identifier: MIT
/* Several handles on one directory share the kernel watch: each gets the
 * callback, in start order, and all report the first handle's path. A
 * callback that stops a later handle keeps it from being called; one that
 * starts another handle on the same directory does not call it for the
 * current event. Stopping every handle drops the watch: events already
 * queued for it are ignored. A handle on another name of the same
 * directory shares the watch too. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_event_t h[4];
static int phase;

static int idx(uv_fs_event_t *e) { return (int) (e - h); }

static void on_event(uv_fs_event_t *e, const char *filename, int events, int status) {
  say("h%d: %s events=%d status=%d", idx(e), filename, events, status);
  if (phase == 1 && idx(e) == 0) {
    int r = uv_fs_event_stop(&h[1]);
    say("  h0 stops h1 = %s", rc_name(r));
    r = uv_fs_event_start(&h[3], on_event, "dir", 0);
    say("  h0 starts h3 = %s", rc_name(r));
  }
}

int main(void) {
  uv_fs_t req;
  char path[64];
  size_t size;
  int i, r;
  fs_enter_tmpdir();
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_fs_mkdir(NULL, &req, "dir", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  for (i = 0; i < 4; i++) CHECK(uv_fs_event_init(&loop, &h[i]) == 0);
  CHECK(uv_fs_event_start(&h[0], on_event, "dir", 0) == 0);
  CHECK(uv_fs_event_start(&h[1], on_event, "./dir", 0) == 0);
  CHECK(uv_fs_event_start(&h[2], on_event, "dir/../dir", 0) == 0);
  for (i = 0; i < 3; i++) {
    size = sizeof path;
    r = uv_fs_event_getpath(&h[i], path, &size);
    say("h%d path = %s %s same field=%d", i, rc_name(r), path, h[i].path == h[0].path);
  }
  fs_put("dir/one", "1");
  say("-- one");
  run_say(&loop, UV_RUN_NOWAIT);
  phase = 1;
  fs_put("dir/two", "2");
  say("-- two");
  run_say(&loop, UV_RUN_NOWAIT);
  phase = 2;
  fs_put("dir/three", "3");
  say("-- three");
  run_say(&loop, UV_RUN_NOWAIT);
  fs_put("dir/four", "4");
  for (i = 0; i < 4; i++) {
    r = uv_fs_event_stop(&h[i]);
    say("stop h%d = %s", i, rc_name(r));
  }
  say("-- four, after every handle stopped");
  run_say(&loop, UV_RUN_NOWAIT);
  r = uv_fs_event_start(&h[1], on_event, "./dir", 0);
  size = sizeof path;
  say("restart h1 = %s path=%s", rc_name(r), uv_fs_event_getpath(&h[1], path, &size) == 0 ? path : "?");
  fs_put("dir/five", "5");
  say("-- five");
  run_say(&loop, UV_RUN_NOWAIT);
  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
