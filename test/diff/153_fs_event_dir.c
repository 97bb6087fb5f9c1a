// SPDX-License-Identifier: MIT
/* uv_fs_event on a directory: entries created, written, renamed, removed
 * inside it are reported by name (creations, moves and deletions as
 * UV_RENAME, writes and attribute changes as UV_CHANGE), in the order the
 * kernel saw them; a subdirectory's own content is not watched. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_event_t ev;
static int count;

static void on_event(uv_fs_event_t *h, const char *filename, int events, int status) {
  (void) h;
  count++;
  say("event #%d %s %s%s status=%d", count, filename ? filename : "(null)", events & UV_RENAME ? "RENAME" : "",
      events & UV_CHANGE ? "CHANGE" : "", status);
}

static void step(const char *what) {
  say("-- %s", what);
  run_say(&loop, UV_RUN_NOWAIT);
}

int main(void) {
  uv_fs_t req;
  char path[64];
  size_t size = sizeof path;
  int r;
  fs_enter_tmpdir();
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_fs_mkdir(NULL, &req, "dir", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_event_init(&loop, &ev) == 0);
  say("start = %s", rc_name(uv_fs_event_start(&ev, on_event, "dir", UV_FS_EVENT_RECURSIVE)));
  r = uv_fs_event_getpath(&ev, path, &size);
  say("getpath = %s %s", rc_name(r), path);

  fs_put("dir/a", "x");
  step("create a");
  CHECK(uv_fs_rename(NULL, &req, "dir/a", "dir/b", NULL) == 0);
  uv_fs_req_cleanup(&req);
  step("rename a b");
  CHECK(uv_fs_mkdir(NULL, &req, "dir/sub", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  fs_put("dir/sub/deep", "y");
  step("mkdir sub, create sub/deep");
  CHECK(uv_fs_chmod(NULL, &req, "dir/b", 0600, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_unlink(NULL, &req, "dir/b", NULL) == 0);
  uv_fs_req_cleanup(&req);
  fs_put("outside", "z");
  CHECK(uv_fs_rename(NULL, &req, "outside", "dir/inside", NULL) == 0);
  uv_fs_req_cleanup(&req);
  step("chmod b, unlink b, move a file in");
  CHECK(uv_fs_chmod(NULL, &req, "dir", 0700, NULL) == 0);
  uv_fs_req_cleanup(&req);
  step("chmod the directory itself");
  say("events=%d", count);
  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
