// SPDX-License-Identifier: MIT
/* uv_fs_mkdtemp and uv_fs_mkstemp always work on a copy of the template
 * (also synchronously): req->path is the name made, the caller's template
 * is untouched.  mkdtemp makes a 0700 directory (result 0), mkstemp a 0600
 * file (result: its descriptor).  Bad templates are EINVAL; on failure
 * mkstemp leaves req->path empty, mkdtemp leaves the template (a bad one
 * as it was). */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;

static void show(const char *what, uv_fs_t *r, const char *tpl) {
  size_t n = strlen(tpl);
  const char *p = r->path;
  say("%-16s %s result=%s", what, fs_type_name(r->fs_type),
      r->fs_type == UV_FS_MKSTEMP ? fs_fd(r->result) : fs_res(r->result));
  if (p == NULL) {
    say("  path NULL");
  } else if (r->result >= 0) {
    say("  copy=%d same length=%d prefix kept=%d X replaced=%d made=%s %04o", p != tpl, strlen(p) == n,
        strncmp(p, tpl, n - 6) == 0, strcmp(p + n - 6, "XXXXXX") != 0, mode_kind(fs_mode(p)),
        (unsigned) (fs_mode(p) & 07777));
  } else if (p[0] == '\0') {
    say("  path emptied");
  } else {
    say("  path unchanged=%d (prefix %.8s, length %d)", strcmp(p, tpl) == 0, p, (int) strlen(p));
  }
  if (r->fs_type == UV_FS_MKSTEMP && r->result >= 0) {
    uv_fs_t c;
    say("  descriptor usable: fstat=%s", fs_res(uv_fs_fstat(NULL, &c, (uv_file) r->result, NULL)));
    uv_fs_req_cleanup(&c);
    uv_fs_close(NULL, &c, (uv_file) r->result, NULL);
    uv_fs_req_cleanup(&c);
  }
}

static const char *templates[] = {"dir-XXXXXX", "XXXXXX", "missing/XXXXXX", "short", "XXXXXXsuffix", "XXXXX"};

static void on_done(uv_fs_t *r) {
  show("async", r, r->data);
  uv_fs_req_cleanup(r);
  say("  after cleanup path=%s", r->path ? "set" : "NULL");
}

int main(void) {
  uv_fs_t req;
  size_t i;
  char tpl[32];

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  for (i = 0; i < sizeof templates / sizeof templates[0]; i++) {
    say("template %s", templates[i]);
    snprintf(tpl, sizeof tpl, "%s", templates[i]);
    uv_fs_mkdtemp(NULL, &req, tpl, NULL);
    show("sync mkdtemp", &req, tpl);
    say("  caller's template untouched: %d", strcmp(tpl, templates[i]) == 0);
    uv_fs_req_cleanup(&req);
    uv_fs_mkstemp(NULL, &req, tpl, NULL);
    show("sync mkstemp", &req, tpl);
    uv_fs_req_cleanup(&req);

    req.data = (void *) templates[i];
    CHECK(uv_fs_mkdtemp(&loop, &req, tpl, on_done) == 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    CHECK(uv_fs_mkstemp(&loop, &req, tpl, on_done) == 0);
    uv_run(&loop, UV_RUN_DEFAULT);
  }
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
