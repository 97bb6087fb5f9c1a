// SPDX-License-Identifier: MIT
/* uv_fs_event on a file: writes and chmod are UV_CHANGE, a rename of the
 * file itself is UV_RENAME; the filename reported is the watched file's
 * base name. Events made before uv_run arrive in its first poll phase.
 * Deleting the file also reports the watch's removal (IN_IGNORED) as a
 * rename. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_event_t ev;
static uv_prepare_t prep;
static uv_check_t chk;

static void on_event(uv_fs_event_t *h, const char *filename, int events, int status) {
  (void) h;
  say("event file=%s events=%s%s status=%d", filename ? filename : "(null)", events & UV_RENAME ? "RENAME " : "",
      events & UV_CHANGE ? "CHANGE" : "", status);
}

static void on_prepare(uv_prepare_t *h) { (void) h; say("[prepare]"); }
static void on_check(uv_check_t *h) { (void) h; say("[check]"); }

int main(void) {
  uv_fs_t req;
  char path[64];
  size_t size = sizeof path;
  fs_enter_tmpdir();
  CHECK(uv_loop_init(&loop) == 0);
  fs_put("watched.txt", "one");
  CHECK(uv_fs_event_init(&loop, &ev) == 0);
  {
    int r = uv_fs_event_getpath(&ev, path, &size);
    say("getpath before start = %s size=%zu", rc_name(r), size);
  }
  say("start = %s", rc_name(uv_fs_event_start(&ev, on_event, "watched.txt", 0)));
  say("active=%d path field=%s", uv_is_active((uv_handle_t *) &ev), ev.path);
  {
    int r;
    size = sizeof path;
    r = uv_fs_event_getpath(&ev, path, &size);
    say("getpath = %s \"%s\" size=%zu", rc_name(r), path, size);
    size = 5;
    r = uv_fs_event_getpath(&ev, path, &size);
    say("getpath small = %s size=%zu", rc_name(r), size);
    size = 12;
    r = uv_fs_event_getpath(&ev, path, &size);
    say("getpath exact = %s \"%s\" size=%zu", rc_name(r), path, size);
  }
  say("start again = %s", rc_name(uv_fs_event_start(&ev, on_event, "watched.txt", 0)));
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_prepare_start(&prep, on_prepare) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_check_start(&chk, on_check) == 0);

  say("-- append");
  {
    uv_buf_t b = uv_buf_init("two", 3);
    int fd = uv_fs_open(NULL, &req, "watched.txt", O_WRONLY | O_APPEND, 0, NULL);
    uv_fs_req_cleanup(&req);
    CHECK(fd >= 0);
    CHECK(uv_fs_write(NULL, &req, fd, &b, 1, -1, NULL) == 3);
    uv_fs_req_cleanup(&req);
    uv_fs_close(NULL, &req, fd, NULL);
    uv_fs_req_cleanup(&req);
  }
  run_say(&loop, UV_RUN_NOWAIT);
  say("-- chmod");
  CHECK(uv_fs_chmod(NULL, &req, "watched.txt", 0600, NULL) == 0);
  uv_fs_req_cleanup(&req);
  run_say(&loop, UV_RUN_NOWAIT);
  say("-- rename");
  CHECK(uv_fs_rename(NULL, &req, "watched.txt", "moved.txt", NULL) == 0);
  uv_fs_req_cleanup(&req);
  run_say(&loop, UV_RUN_NOWAIT);
  say("-- unlink");
  CHECK(uv_fs_unlink(NULL, &req, "moved.txt", NULL) == 0);
  uv_fs_req_cleanup(&req);
  run_say(&loop, UV_RUN_NOWAIT);
  {
    int r = uv_fs_event_stop(&ev);
    say("stop = %s active=%d", rc_name(r), uv_is_active((uv_handle_t *) &ev));
  }
  say("path field after stop=%s", ev.path ? ev.path : "NULL");
  say("stop again = %s", rc_name(uv_fs_event_stop(&ev)));
  say("start missing = %s", rc_name(uv_fs_event_start(&ev, on_event, "missing.txt", 0)));
  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
