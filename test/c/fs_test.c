// SPDX-License-Identifier: MIT
/* The uv_fs_* C API: what C code reads from uv_fs_t, the phase hooks'
 * view of fs completions, and the misuse phaseloop refuses where libuv
 * would assert or crash (NULL paths, a callback without a loop).  The
 * differential scenarios test/diff/081-101 cover libuv's behaviour. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suites.h"
#include "uv_phaseloop.h"

static char dir[256];
static char path_buf[512];

static const char* at(const char* name) {
  snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
  return path_buf;
}

static int make_dir(void** state) {
  (void)state;
  uv_fs_t req;
  const char* tmp = getenv("TMPDIR");
  char tpl[256];
  snprintf(tpl, sizeof tpl, "%s/phaseloop-cfs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (uv_fs_mkdtemp(NULL, &req, tpl, NULL) != 0) return -1;
  snprintf(dir, sizeof dir, "%s", req.path);
  uv_fs_req_cleanup(&req);
  return 0;
}

static int remove_dir(void** state) {
  (void)state;
  uv_fs_t req;
  uv_dirent_t ent;
  char child[512];
  if (uv_fs_scandir(NULL, &req, dir, 0, NULL) >= 0)
    while (uv_fs_scandir_next(&req, &ent) == 0) {
      uv_fs_t r;
      snprintf(child, sizeof child, "%s/%s", dir, ent.name);
      if (uv_fs_unlink(NULL, &r, child, NULL) != 0) {
        uv_fs_req_cleanup(&r);
        uv_fs_rmdir(NULL, &r, child, NULL);
      }
      uv_fs_req_cleanup(&r);
    }
  uv_fs_req_cleanup(&req);
  int rc = uv_fs_rmdir(NULL, &req, dir, NULL);
  uv_fs_req_cleanup(&req);
  return rc;
}

/* Each test gets a fresh directory (make_dir), removed afterwards with
 * everything in it (remove_dir: one level deep is all the tests make). */

/* ---- fields ------------------------------------------------------------ */

static void sync_fields(void** state) {
  (void)state;
  uv_fs_t req;
  int marker;
  req.data = &marker;
  const char* name = at("f");
  int fd = uv_fs_open(NULL, &req, name, O_CREAT | O_RDWR, 0600, NULL);
  assert_true(fd >= 0);
  assert_int_equal(req.type, UV_FS);
  assert_int_equal(req.fs_type, UV_FS_OPEN);
  assert_int_equal(req.result, fd);
  assert_ptr_equal(req.path, name);
  assert_null(req.loop);
  assert_null(req.cb);
  assert_null(req.ptr);
  assert_ptr_equal(req.data, &marker);
  assert_int_equal(uv_fs_get_type(&req), UV_FS_OPEN);
  assert_int_equal(uv_fs_get_result(&req), fd);
  assert_ptr_equal(uv_fs_get_path(&req), name);
  uv_fs_req_cleanup(&req);
  assert_null(req.path);

  assert_int_equal(uv_fs_fstat(NULL, &req, fd, NULL), 0);
  assert_ptr_equal(req.ptr, &req.statbuf);
  assert_ptr_equal(uv_fs_get_ptr(&req), &req.statbuf);
  assert_ptr_equal(uv_fs_get_statbuf(&req), &req.statbuf);
  assert_true(S_ISREG(req.statbuf.st_mode));
  assert_int_equal(req.statbuf.st_mode & 0777, 0600);
  uv_fs_req_cleanup(&req);
  assert_null(req.ptr);

  assert_int_equal(uv_fs_close(NULL, &req, fd, NULL), 0);
  assert_int_equal(uv_fs_close(NULL, &req, fd, NULL), UV_EBADF);
  assert_int_equal(uv_fs_get_system_error(&req), EBADF);
  uv_fs_req_cleanup(&req);
  uv_fs_req_cleanup(&req);
  uv_fs_req_cleanup(NULL);
}

/* ---- misuse: refused where libuv asserts or crashes --------------------- */

static void fs_nop_cb(uv_fs_t* req) { (void)req; }

static void misuse_is_einval(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_fs_t req;
  uv_dirent_t ent;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_fs_stat(NULL, &req, NULL, NULL), UV_EINVAL);
  assert_int_equal(uv_fs_stat(&loop, &req, NULL, fs_nop_cb), UV_EINVAL);
  assert_int_equal(uv_fs_rename(&loop, &req, "a", NULL, fs_nop_cb), UV_EINVAL);
  assert_int_equal(uv_fs_link(NULL, &req, NULL, "b", NULL), UV_EINVAL);
  assert_int_equal(uv_fs_mkdtemp(NULL, &req, NULL, NULL), UV_EINVAL);
  assert_int_equal(uv_fs_stat(NULL, &req, "/", fs_nop_cb), UV_EINVAL); /* callback, no loop */
  assert_int_equal(uv_fs_stat(&loop, NULL, "/", fs_nop_cb), UV_EINVAL);
  assert_int_equal(uv_fs_scandir_next(NULL, &ent), UV_EINVAL);
  assert_int_equal(uv_fs_stat(NULL, &req, "/", NULL), 0);
  assert_int_equal(uv_fs_scandir_next(&req, NULL), UV_EINVAL);
  assert_int_equal(uv_fs_scandir_next(&req, &ent), UV_EINVAL); /* not a scandir */
  uv_fs_req_cleanup(&req);
  assert_int_equal(uv_cancel((uv_req_t*)&req), UV_EBUSY); /* synchronous */
  assert_false(uv_loop_alive(&loop));
  finish_loop(&loop);
}

/* ---- asynchronous: hooks and cancellation -------------------------------- */

static int fs_cb_phase = -1, fs_cb_kind_seen, fs_cb_req_ok;
static uv_fs_t hooked_req;

static void on_cb_enter(uv_loop_t* loop, const phaseloop_callback_event* e, void* arg) {
  (void)loop;
  (void)arg;
  if (e->kind != PHASELOOP_CB_FS) return;
  fs_cb_kind_seen++;
  fs_cb_phase = (int)e->phase;
  fs_cb_req_ok = e->req == (uv_req_t*)&hooked_req && e->handle == NULL;
}

static int stat_calls;
static void on_stat(uv_fs_t* req) {
  stat_calls++;
  assert_int_equal(req->result, 0);
  assert_ptr_equal(req->ptr, &req->statbuf);
  assert_true(S_ISDIR(req->statbuf.st_mode));
  uv_fs_req_cleanup(req);
}

static void hooks_see_fs_in_poll_phase(void** state) {
  (void)state;
  uv_loop_t loop;
  phaseloop_hook_t hook;
  memset(&hook, 0, sizeof hook);
  hook.callback_enter = on_cb_enter;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(phaseloop_hook_add(&loop, &hook), 0);
  stat_calls = fs_cb_kind_seen = 0;
  assert_int_equal(uv_fs_stat(&loop, &hooked_req, dir, on_stat), 0);
  assert_ptr_equal(hooked_req.loop, &loop);
  assert_ptr_equal(hooked_req.cb, on_stat);
  assert_true(hooked_req.path != dir);
  assert_string_equal(hooked_req.path, dir);
  assert_true(uv_loop_alive(&loop));
  assert_int_equal(uv_loop_close(&loop), UV_EBUSY);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(stat_calls, 1);
  assert_int_equal(fs_cb_kind_seen, 1);
  assert_int_equal(fs_cb_phase, PHASELOOP_PHASE_POLL);
  assert_true(fs_cb_req_ok);
  assert_int_equal(phaseloop_hook_remove(&loop, &hook), 0);
  finish_loop(&loop);
}

/* The pool has UV_THREADPOOL_SIZE=2 threads (main.c): two blocked work
 * requests occupy it, so fs requests behind them stay queued. */
static uv_sem_t gate_started, gate_open;
static void gate_work(uv_work_t* w) {
  (void)w;
  uv_sem_post(&gate_started);
  uv_sem_wait(&gate_open);
}

static int canceled_calls;
static void on_canceled(uv_fs_t* req) {
  canceled_calls++;
  assert_int_equal(req->result, UV_ECANCELED);
  uv_fs_req_cleanup(req);
}

static void cancel_queued_fs(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_work_t gates[2];
  uv_fs_t reqs[3];
  uv_buf_t bufs[6];
  char byte;
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_sem_init(&gate_started, 0), 0);
  assert_int_equal(uv_sem_init(&gate_open, 0), 0);
  for (int i = 0; i < 2; i++) assert_int_equal(uv_queue_work(&loop, &gates[i], gate_work, NULL), 0);
  uv_sem_wait(&gate_started);
  uv_sem_wait(&gate_started);
  for (int i = 0; i < 6; i++) bufs[i] = uv_buf_init(&byte, 1);
  canceled_calls = 0;
  assert_int_equal(uv_fs_mkdir(&loop, &reqs[0], at("never"), 0755, on_canceled), 0);
  assert_int_equal(uv_fs_write(&loop, &reqs[1], 1, bufs, 6, -1, on_canceled), 0);
  assert_int_equal(uv_fs_copyfile(&loop, &reqs[2], "a", "b", 0, on_canceled), 0);
  for (int i = 0; i < 3; i++) assert_int_equal(uv_cancel((uv_req_t*)&reqs[i]), 0);
  uv_sem_post(&gate_open);
  uv_sem_post(&gate_open);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(canceled_calls, 3);
  uv_fs_t req;
  assert_int_equal(uv_fs_stat(NULL, &req, at("never"), NULL), UV_ENOENT);
  uv_fs_req_cleanup(&req);
  uv_sem_destroy(&gate_started);
  uv_sem_destroy(&gate_open);
  finish_loop(&loop);
}

/* ---- directories --------------------------------------------------------- */

static void readdir_and_scandir(void** state) {
  (void)state;
  uv_fs_t req;
  uv_dirent_t ents[8];
  uv_dirent_t ent;
  const char* names[] = {"x", "y", "z"};
  for (int i = 0; i < 3; i++) {
    int fd = uv_fs_open(NULL, &req, at(names[i]), O_CREAT | O_WRONLY, 0644, NULL);
    uv_fs_req_cleanup(&req);
    assert_true(fd >= 0);
    uv_fs_close(NULL, &req, fd, NULL);
    uv_fs_req_cleanup(&req);
  }
  assert_int_equal(uv_fs_opendir(NULL, &req, dir, NULL), 0);
  uv_dir_t* d = req.ptr;
  uv_fs_req_cleanup(&req);
  assert_non_null(d);
  d->dirents = ents;
  d->nentries = 8;
  assert_int_equal(uv_fs_readdir(NULL, &req, d, NULL), 3);
  assert_ptr_equal(req.ptr, d);
  for (int i = 0; i < 3; i++) assert_int_equal(ents[i].type, UV_DIRENT_FILE);
  uv_fs_req_cleanup(&req);
  assert_null(ents[0].name);
  assert_int_equal(uv_fs_readdir(NULL, &req, d, NULL), 0);
  uv_fs_req_cleanup(&req);
  assert_int_equal(uv_fs_closedir(NULL, &req, d, NULL), 0);
  assert_null(req.ptr);
  uv_fs_req_cleanup(&req);

  assert_int_equal(uv_fs_scandir(NULL, &req, dir, 0, NULL), 3);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(uv_fs_scandir_next(&req, &ent), 0);
    assert_string_equal(ent.name, names[i]);
  }
  assert_int_equal(uv_fs_scandir_next(&req, &ent), UV_EOF);
  assert_null(req.ptr);
  uv_fs_req_cleanup(&req);
}

int run_fs_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(sync_fields, make_dir, remove_dir),
      cmocka_unit_test_setup_teardown(misuse_is_einval, make_dir, remove_dir),
      cmocka_unit_test_setup_teardown(hooks_see_fs_in_poll_phase, make_dir, remove_dir),
      cmocka_unit_test_setup_teardown(cancel_queued_fs, make_dir, remove_dir),
      cmocka_unit_test_setup_teardown(readdir_and_scandir, make_dir, remove_dir),
  };
  return cmocka_run_group_tests_name("fs", tests, NULL, NULL);
}
