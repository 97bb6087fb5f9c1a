// SPDX-License-Identifier: MIT
/* uv_fs_opendir / uv_fs_readdir / uv_fs_closedir: readdir fills at most
 * dir->nentries entries per call (no "." or ".."), returns their count and
 * 0 at the end (also when asked again); req->ptr is the uv_dir_t; the names
 * belong to the request until uv_fs_req_cleanup, which clears them.  The
 * listing is sorted here since readdir gives directory order.  Errors:
 * opendir of a missing directory (ptr NULL), readdir without an entry
 * array (EINVAL at once).  Synchronous, then asynchronous. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_t req;
static uv_dir_t *dir;
static uv_dirent_t ents[3];
static char names[16][16];
static int nnames;

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

static void list_names(void) {
  int i;
  qsort(names, (size_t) nnames, sizeof names[0], by_name);
  for (i = 0; i < nnames; i++) say("  %s", names[i]);
  nnames = 0;
}

/* Takes one readdir's entries; returns the count. */
static int take(uv_fs_t *r) {
  int i;
  CHECK(r->ptr == dir);
  for (i = 0; i < r->result; i++) {
    snprintf(names[nnames++], sizeof names[0], "%s:%s", dir->dirents[i].name,
             dirent_type_name(dir->dirents[i].type));
  }
  say("readdir -> %s (ptr is the dir: %d)", fs_res(r->result), r->ptr == dir);
  return (int) r->result;
}

static void on_closedir(uv_fs_t *r) {
  say("closedir cb: %s ptr=%s", fs_res(r->result), r->ptr ? "set" : "NULL");
  uv_fs_req_cleanup(r);
}

static int ends;
static void on_readdir(uv_fs_t *r) {
  int n = take(r);
  uv_fs_req_cleanup(r);
  say("  names cleared by cleanup: %d", ents[0].name == NULL);
  if (n == 0 && ++ends == 2) {
    list_names();
    CHECK(uv_fs_closedir(&loop, &req, dir, on_closedir) == 0);
    return;
  }
  CHECK(uv_fs_readdir(&loop, &req, dir, on_readdir) == 0);
}

static void on_opendir(uv_fs_t *r) {
  say("opendir cb: %s ptr=%s", fs_res(r->result), r->ptr ? "set" : "NULL");
  dir = r->ptr;
  uv_fs_req_cleanup(r);
  say("  dir survives cleanup: %d", dir != NULL);
  dir->dirents = ents;
  dir->nentries = 3;
  CHECK(uv_fs_readdir(&loop, &req, dir, on_readdir) == 0);
}

int main(void) {
  int rc, n;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  CHECK(uv_fs_mkdir(NULL, &req, "d", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  fs_put("d/one", "");
  fs_put("d/two", "");
  fs_put("d/three", "");
  fs_put("d/four", "");
  CHECK(uv_fs_mkdir(NULL, &req, "d/sub", 0755, NULL) == 0);
  uv_fs_req_cleanup(&req);
  CHECK(uv_fs_symlink(NULL, &req, "one", "d/ln", 0, NULL) == 0);
  uv_fs_req_cleanup(&req);

  rc = uv_fs_opendir(NULL, &req, "missing", NULL);
  say("opendir(missing) = %s ptr=%s", fs_res(rc), req.ptr ? "set" : "NULL");
  uv_fs_req_cleanup(&req);

  rc = uv_fs_opendir(NULL, &req, "d", NULL);
  say("opendir(d) = %s type=%s ptr=%s", fs_res(rc), fs_type_name(req.fs_type), req.ptr ? "set" : "NULL");
  dir = req.ptr;
  uv_fs_req_cleanup(&req);
  dir->dirents = NULL;
  dir->nentries = 3;
  say("readdir without entries = %s", fs_res(uv_fs_readdir(NULL, &req, dir, NULL)));
  uv_fs_req_cleanup(&req);
  dir->dirents = ents;
  do {
    uv_fs_readdir(NULL, &req, dir, NULL);
    n = take(&req);
    uv_fs_req_cleanup(&req);
  } while (n > 0);
  uv_fs_readdir(NULL, &req, dir, NULL);
  say("readdir after the end again: %s", fs_res(req.result));
  uv_fs_req_cleanup(&req);
  list_names();
  rc = uv_fs_closedir(NULL, &req, dir, NULL);
  say("closedir = %s ptr=%s type=%s", fs_res(rc), req.ptr ? "set" : "NULL", fs_type_name(req.fs_type));
  uv_fs_req_cleanup(&req);

  CHECK(uv_fs_opendir(&loop, &req, "d", on_opendir) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
