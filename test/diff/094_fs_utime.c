// SPDX-License-Identifier: MIT
/* uv_fs_utime / futime / lutime take seconds as doubles and keep them to
 * the microsecond (truncated; negative fractions borrow from the second).
 * lutime changes a symbolic link itself, utime follows it.  Each time read
 * back with stat/lstat.  Synchronous and asynchronous. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_fs_t areq;

static void show(const char *name, int follow) {
  uv_fs_t req;
  int rc = follow ? uv_fs_stat(NULL, &req, name, NULL) : uv_fs_lstat(NULL, &req, name, NULL);
  CHECK(rc == 0);
  say("  %s%s atime=%ld.%09ld mtime=%ld.%09ld", follow ? "" : "(link) ", name,
      (long) req.statbuf.st_atim.tv_sec, (long) req.statbuf.st_atim.tv_nsec,
      (long) req.statbuf.st_mtim.tv_sec, (long) req.statbuf.st_mtim.tv_nsec);
  uv_fs_req_cleanup(&req);
}

static void on_done(uv_fs_t *r) {
  say("  async %s result=%s", fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
}

static const double times[][2] = {
    {0, 0},
    {1.5, 2.25},
    {1234567890.123456789, 987654321.000000999},
    {-1.5, -0.000001},
    {-2.0000009, 1e9 + 0.9999999},
    {4102444800.5, 1.0 / 3},
};

int main(void) {
  uv_fs_t req;
  size_t i;
  int fd;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  fs_put("f", "x");
  CHECK(uv_fs_symlink(NULL, &req, "f", "ln", 0, NULL) == 0);
  uv_fs_req_cleanup(&req);
  fd = uv_fs_open(NULL, &req, "f", O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);

  for (i = 0; i < sizeof times / sizeof times[0]; i++) {
    double a = times[i][0], m = times[i][1];
    say("times #%d", (int) i);
    say(" utime sync=%s", fs_res(uv_fs_utime(NULL, &req, "f", a, m, NULL)));
    uv_fs_req_cleanup(&req);
    show("f", 1);
    CHECK(uv_fs_utime(&loop, &areq, "f", m, a, on_done) == 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    show("f", 1);
    say(" futime sync=%s", fs_res(uv_fs_futime(NULL, &req, fd, a + 1, m + 1, NULL)));
    uv_fs_req_cleanup(&req);
    show("f", 1);
    CHECK(uv_fs_futime(&loop, &areq, fd, a, m, on_done) == 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    show("f", 1);
    say(" lutime sync=%s", fs_res(uv_fs_lutime(NULL, &req, "ln", a, m, NULL)));
    uv_fs_req_cleanup(&req);
    show("ln", 0);
    CHECK(uv_fs_lutime(&loop, &areq, "ln", m, a, on_done) == 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    show("ln", 0);
    show("ln", 1);
  }

  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
