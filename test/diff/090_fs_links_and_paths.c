// SPDX-License-Identifier: MIT
/* rename (over a file, a directory onto an empty one, onto a non-empty
 * one), link (link count), symlink + readlink (req->ptr is the target
 * string, freed by cleanup), realpath (req->ptr is the absolute path with
 * links resolved), each synchronous and asynchronous. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static char cwd[4096];

static void show(uv_fs_t *r) {
  char expect[4200];
  say("  %s result=%s ptr=%s", fs_type_name(r->fs_type), fs_res(r->result), r->ptr ? "set" : "NULL");
  if (r->fs_type == UV_FS_READLINK && r->result == 0) say("  target=[%s]", (char *) r->ptr);
  if (r->fs_type == UV_FS_REALPATH && r->result == 0) {
    const char *rel = r->data;
    snprintf(expect, sizeof expect, "%s/%s", cwd, rel);
    say("  realpath is cwd/%s: %d", rel, strcmp(r->ptr, expect) == 0);
  }
}

static void on_done(uv_fs_t *r) {
  show(r);
  uv_fs_req_cleanup(r);
  say("  cleanup: ptr=%s", r->ptr ? "set" : "NULL");
}

#define BOTH(label, call_sync, call_async)        \
  do {                                            \
    uv_fs_t req;                                  \
    req.data = NULL;                              \
    say("%s (sync)", label);                      \
    call_sync;                                    \
    show(&req);                                   \
    uv_fs_req_cleanup(&req);                      \
    say("%s (async)", label);                     \
    CHECK((call_async) == 0);                     \
    uv_run(&loop, UV_RUN_DEFAULT);                \
  } while (0)

static uv_fs_t areq;

int main(void) {
  uv_fs_t req;
  char text[32];
  size_t size = sizeof cwd;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  CHECK(uv_cwd(cwd, &size) == 0);
  fs_put("a", "A");
  fs_put("b", "B");
  CHECK(uv_fs_mkdir(NULL, &req, "d1", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_mkdir(NULL, &req, "d2", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_mkdir(NULL, &req, "full", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  fs_put("full/x", "x");

  BOTH("rename a -> c", uv_fs_rename(NULL, &req, "a", "c", NULL),
       uv_fs_rename(&loop, &areq, "c", "a", on_done));
  say("a=[%s]", fs_get("a", text, sizeof text));
  BOTH("rename a over b", uv_fs_rename(NULL, &req, "a", "b", NULL),
       uv_fs_rename(&loop, &areq, "b", "a", on_done));
  say("a=[%s] b exists=%d", fs_get("a", text, sizeof text), fs_mode("b") != 0);
  BOTH("rename dir onto empty dir", uv_fs_rename(NULL, &req, "d1", "d2", NULL),
       uv_fs_rename(&loop, &areq, "d2", "d1", on_done));
  BOTH("rename dir onto non-empty dir", uv_fs_rename(NULL, &req, "d1", "full", NULL),
       uv_fs_rename(&loop, &areq, "d1", "full", on_done));

  BOTH("link a -> l1", uv_fs_link(NULL, &req, "a", "l1", NULL),
       uv_fs_link(&loop, &areq, "a", "l2", on_done));
  CHECK(uv_fs_stat(NULL, &req, "a", NULL) == 0);
  say("nlink of a = %llu", (unsigned long long) req.statbuf.st_nlink);
  uv_fs_req_cleanup(&req);

  BOTH("symlink s1 -> a", uv_fs_symlink(NULL, &req, "a", "s1", 0, NULL),
       uv_fs_symlink(&loop, &areq, "full/x", "s2", UV_FS_SYMLINK_DIR, on_done));
  BOTH("symlink to a long missing target",
       uv_fs_symlink(NULL, &req, "some/where/that/does/not/exist/at/all", "s3", 0, NULL),
       uv_fs_symlink(&loop, &areq, "..", "up", 0, on_done));
  BOTH("readlink s1", uv_fs_readlink(NULL, &req, "s1", NULL), uv_fs_readlink(&loop, &areq, "s2", on_done));
  BOTH("readlink s3", uv_fs_readlink(NULL, &req, "s3", NULL), uv_fs_readlink(&loop, &areq, "up", on_done));
  say("read through s2: [%s]", fs_get("s2", text, sizeof text));

  req.data = "a";
  uv_fs_realpath(NULL, &req, "s1", NULL);
  show(&req);
  uv_fs_req_cleanup(&req);
  areq.data = "full/x";
  CHECK(uv_fs_realpath(&loop, &areq, "d1/../s2", on_done) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  req.data = "full";
  uv_fs_realpath(NULL, &req, "./full/./", NULL);
  show(&req);
  uv_fs_req_cleanup(&req);
  BOTH("realpath of a dangling link", uv_fs_realpath(NULL, &req, "s3", NULL),
       uv_fs_realpath(&loop, &areq, "s3", on_done));

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
