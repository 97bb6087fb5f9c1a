// SPDX-License-Identifier: MIT
/* uv_fs_poll through a file's life: a missing file reports ENOENT at once
 * (prev and curr all zero); its creation reports 0 with prev zero; a size
 * change reports prev and curr; deletion reports ENOENT once (prev = last
 * good stat, curr zero), and further failing polls stay silent. Every
 * change is made inside a callback, so the polls never race with it. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_poll_t poller;
static uv_timer_t quiet;
static int calls;

static int all_zero(const uv_stat_t *s) {
  static const uv_stat_t zero;
  return memcmp(s, &zero, sizeof zero) == 0;
}

static void describe(const char *label, const uv_stat_t *s) {
  if (all_zero(s))
    say("  %s: zero", label);
  else
    say("  %s: %s size=%llu", label, mode_kind(s->st_mode), (unsigned long long) s->st_size);
}

static void on_close(uv_handle_t *h) { say("close_cb %s", uv_handle_type_name(h->type)); }

static void on_quiet(uv_timer_t *t) {
  (void) t;
  say("quiet period over: calls=%d", calls);
  uv_close((uv_handle_t *) &poller, on_close);
  uv_close((uv_handle_t *) &quiet, on_close);
}

static void on_poll(uv_fs_poll_t *h, int status, const uv_stat_t *prev, const uv_stat_t *curr) {
  uv_fs_t req;
  calls++;
  say("poll_cb #%d status=%s handle=%s", calls, rc_name(status), h == &poller ? "poller" : "?");
  describe("prev", prev);
  describe("curr", curr);
  switch (calls) {
    case 1: fs_put("f", "abc"); break;
    case 2: fs_put("f", "abcdefgh"); break;
    case 3:
      CHECK(uv_fs_unlink(NULL, &req, "f", NULL) == 0);
      uv_fs_req_cleanup(&req);
      break;
    case 4: CHECK(uv_timer_start(&quiet, on_quiet, 60, 0) == 0); break;
  }
}

int main(void) {
  char path[16];
  size_t size = sizeof path;
  int r;
  fs_enter_tmpdir();
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &quiet) == 0);
  CHECK(uv_fs_poll_init(&loop, &poller) == 0);
  r = uv_fs_poll_getpath(&poller, path, &size);
  say("getpath before start = %s size=%zu", rc_name(r), size);
  r = uv_fs_poll_start(&poller, on_poll, "f", 5);
  say("start = %s active=%d", rc_name(r), uv_is_active((uv_handle_t *) &poller));
  size = sizeof path;
  r = uv_fs_poll_getpath(&poller, path, &size);
  say("getpath = %s %s size=%zu", rc_name(r), path, size);
  size = 1;
  r = uv_fs_poll_getpath(&poller, path, &size);
  say("getpath small = %s size=%zu", rc_name(r), size);
  r = uv_fs_poll_start(&poller, on_poll, "other", 5);
  say("start again = %s", rc_name(r));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  fs_leave_tmpdir();
  return 0;
}
