// SPDX-License-Identifier: MIT
/* env and cwd: the child sees exactly the environment given (or the
 * parent's when env is NULL) and starts in cwd.  A file without '/' is
 * looked up in the PATH of the environment the child gets, as execvp
 * does: PATH from env, the default search path (/bin:/usr/bin) when env
 * has none, ENOENT when env's PATH has no such program. */
#include "diff.h"
#include "diff_fs.h"
#include "diff_proc.h"

static uv_loop_t loop;
static struct proc_sink out;

/* The exit is printed after the run: whether it or the stdout's end of
 * file comes first is timing, so it always follows. */
static char exit_line[128];

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  snprintf(exit_line, sizeof exit_line, "exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  uv_close((uv_handle_t *) p, NULL);
}

static void spawn(const char *name, const char *file, const char *script, char **env, const char *cwd) {
  uv_process_t proc;
  uv_stdio_container_t stdio[3];
  uv_process_options_t o;
  int r;
  proc_sink_init(&loop, &out, "  stdout");
  memset(stdio, 0, sizeof stdio);
  stdio[1] = proc_pipe(&out, 0);
  o = proc_sh(script, on_exit_cb, stdio, 3);
  o.file = file;
  o.env = env;
  o.cwd = cwd;
  proc.data = (void *) name;
  r = uv_spawn(&loop, &proc, &o);
  say("%s: %s", name, rc_name(r));
  proc_sink_start(&out);
  if (r != 0) uv_close((uv_handle_t *) &proc, NULL);
  exit_line[0] = '\0';
  uv_run(&loop, UV_RUN_DEFAULT);
  if (exit_line[0] != '\0') say("%s", exit_line);
}

int main(void) {
  char cwd[1024], expect[1100];
  size_t len = sizeof cwd;
  char *env1[] = {(char *) "FOO=bar", (char *) "EMPTY=", expect, NULL};
  char *env_path[] = {(char *) "PATH=/nonexistent:/bin:/usr/bin", (char *) "A=1", NULL};
  char *env_nopath[] = {(char *) "A=2", NULL};
  char *env_badpath[] = {(char *) "PATH=/nonexistent", NULL};
  char *env_empty[] = {NULL};

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  CHECK(uv_fs_mkdir(NULL, &(uv_fs_t){0}, "sub", 0755, NULL) == 0);
  CHECK(uv_cwd(cwd, &len) == 0);
  snprintf(expect, sizeof expect, "EXPECT=%s/sub", cwd);
  setenv("PHASELOOP_DIFF_PARENT", "yes", 1);

  spawn("env and cwd", "/bin/sh",
        "echo \"$FOO [$EMPTY] ${PHASELOOP_DIFF_PARENT-unset}\"; "
        "[ \"$(pwd -P)\" = \"$(cd \"${EXPECT#EXPECT=}\" && pwd -P)\" ] && echo in-sub; "
        "env | grep -v '^PWD=' | sort | sed 's/^EXPECT=.*/EXPECT=.../'",
        env1, "sub");
  spawn("inherited env", "/bin/sh", "echo ${PHASELOOP_DIFF_PARENT-unset}", NULL, NULL);
  spawn("relative cwd", "/bin/sh", "basename \"$(pwd)\"", NULL, "sub");
  spawn("PATH from env", "sh", "echo $A", env_path, NULL);
  spawn("default PATH", "sh", "echo $A", env_nopath, NULL);
  spawn("empty env", "sh", "echo ${A-none}", env_empty, NULL);
  spawn("PATH without it", "sh", "echo never", env_badpath, NULL);
  spawn("parent PATH", "sh", "echo found", NULL, NULL);

  CHECK(uv_fs_rmdir(NULL, &(uv_fs_t){0}, "sub", NULL) == 0);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
