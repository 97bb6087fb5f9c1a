// SPDX-License-Identifier: MIT
/* How the program is found and started, where the way a child is made
 * (fork and exec, or posix_spawn) could show: a file without "#!" (execvp
 * hands it to /bin/sh; posix_spawn refuses it), PATH entries that are not
 * there, are files, or hold a file that may not be run (EACCES remembered
 * while the search goes on), a relative program name resolved in the
 * child's cwd, a name longer than NAME_MAX, standard output and error
 * swapped, an ignored stdin read as /dev/null, and descriptors given from
 * above the child's slots: whether the child still has them (libuv 1.53
 * closes them) and whether they are left non-blocking (1.53 makes every
 * one it hands over blocking, older libuv only 0-2). */
#include "diff.h"
#include "diff_fs.h"
#include "diff_proc.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

static uv_loop_t loop;
static struct proc_sink out, err;

/* The exit is printed after the run (its order against the pipes' end of
 * file is timing). */
static char exit_line[128];

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  snprintf(exit_line, sizeof exit_line, "exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  uv_close((uv_handle_t *) p, NULL);
}

static void write_file(const char *path, const char *text, int mode) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  CHECK(fd >= 0);
  CHECK(write(fd, text, strlen(text)) == (ssize_t) strlen(text));
  CHECK(close(fd) == 0);
  CHECK(chmod(path, (mode_t) mode) == 0);
}

/* Runs `file` with stdout and stderr piped (swapped when `swap`: the
 * child's 1 is the "stderr" sink and its 2 the "stdout" one). */
static void spawn(const char *name, const char *file, char **env, const char *cwd, int swap) {
  uv_process_t proc;
  uv_stdio_container_t stdio[3];
  uv_process_options_t o;
  char *args[] = {(char *) "prog", (char *) "arg1", NULL};
  int r;
  proc_sink_init(&loop, &out, "  stdout");
  proc_sink_init(&loop, &err, "  stderr");
  memset(stdio, 0, sizeof stdio);
  stdio[0].flags = UV_IGNORE;
  stdio[1] = proc_pipe(swap ? &err : &out, 0);
  stdio[2] = proc_pipe(swap ? &out : &err, 0);
  memset(&o, 0, sizeof o);
  o.file = file;
  o.args = args;
  o.env = env;
  o.cwd = cwd;
  o.exit_cb = on_exit_cb;
  o.stdio = stdio;
  o.stdio_count = 3;
  proc.data = (void *) name;
  r = uv_spawn(&loop, &proc, &o);
  say("%s: %s active %d", name, rc_name(r), uv_is_active((uv_handle_t *) &proc));
  out.quiet = err.quiet = 1;
  proc_sink_start(&out);
  proc_sink_start(&err);
  if (r != 0) uv_close((uv_handle_t *) &proc, NULL);
  exit_line[0] = '\0';
  uv_run(&loop, UV_RUN_DEFAULT);
  say("  stdout %d: \"%.*s\"", out.eof, (int) out.len, out.buf);
  say("  stderr %d: \"%.*s\"", err.eof, (int) err.len, err.buf);
  if (exit_line[0] != '\0') say("%s", exit_line);
}

/* The child's stdout is descriptor 50 of ours (no close-on-exec), its
 * descriptor 3 our non-blocking descriptor 51; it says whether it still
 * has 50. */
static void spawn_high_fds(void) {
  uv_process_t proc;
  uv_stdio_container_t stdio[4];
  uv_process_options_t o;
  uv_file pipe_fds[2], other[2];
  char *args[] = {(char *) "sh", (char *) "-c",
                  (char *) "if [ -e /proc/$$/fd/50 ]; then echo has-50; else echo no-50; fi", NULL};
  int r;
  proc_sink_init(&loop, &out, "  stdout");
  out.quiet = 1;
  CHECK(uv_pipe(pipe_fds, 0, 0) == 0);
  CHECK(dup2(pipe_fds[1], 50) == 50);
  CHECK(close(pipe_fds[1]) == 0);
  CHECK(uv_pipe_open(&out.pipe, pipe_fds[0]) == 0);
  CHECK(uv_pipe(other, 0, 0) == 0);
  CHECK(dup2(other[1], 51) == 51);
  CHECK(fcntl(51, F_SETFL, fcntl(51, F_GETFL) | O_NONBLOCK) == 0);
  memset(stdio, 0, sizeof stdio);
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_INHERIT_FD;
  stdio[1].data.fd = 50;
  stdio[2].flags = UV_IGNORE;
  stdio[3].flags = UV_INHERIT_FD;
  stdio[3].data.fd = 51;
  memset(&o, 0, sizeof o);
  o.file = "/bin/sh";
  o.args = args;
  o.exit_cb = on_exit_cb;
  o.stdio = stdio;
  o.stdio_count = 4;
  proc.data = (void *) "descriptors from above";
  r = uv_spawn(&loop, &proc, &o);
  say("descriptors from above: %s, 51 non-blocking %d", rc_name(r), (fcntl(51, F_GETFL) & O_NONBLOCK) != 0);
  CHECK(close(50) == 0 && close(51) == 0 && close(other[0]) == 0 && close(other[1]) == 0);
  proc_sink_start(&out);
  exit_line[0] = '\0';
  uv_run(&loop, UV_RUN_DEFAULT);
  say("  stdout %d: \"%.*s\"", out.eof, (int) out.len, out.buf);
  if (exit_line[0] != '\0') say("%s", exit_line);
}

int main(void) {
  char cwd[1024], path_both[2200], path_denied[2200], path_noshebang[2200], path_notdir[2200];
  char long_name[NAME_MAX + 2];
  size_t len = sizeof cwd;
  char *env_both[] = {path_both, NULL};
  char *env_denied[] = {path_denied, NULL};
  char *env_noshebang[] = {path_noshebang, NULL};
  char *env_notdir[] = {path_notdir, NULL};

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  CHECK(uv_cwd(cwd, &len) == 0);
  CHECK(mkdir("a", 0755) == 0);
  CHECK(mkdir("b", 0755) == 0);
  CHECK(mkdir("c", 0755) == 0);
  /* a/prog may not be run; b/prog may. */
  write_file("a/prog", "#!/bin/sh\necho from-a\n", 0644);
  write_file("b/prog", "#!/bin/sh\nread -r x; echo \"from-b $1 [$x]\"; echo to-stderr >&2; exit 4\n", 0755);
  /* c/prog has no "#!" line. */
  write_file("c/prog", "echo no-shebang \"${0##*/}\" \"$1\"; exit 5\n", 0755);
  write_file("plainfile", "", 0644);
  snprintf(path_both, sizeof path_both, "PATH=%s/missing:%s/a:%s/b", cwd, cwd, cwd);
  snprintf(path_denied, sizeof path_denied, "PATH=%s/missing:%s/a", cwd, cwd);
  snprintf(path_noshebang, sizeof path_noshebang, "PATH=%s/c", cwd);
  snprintf(path_notdir, sizeof path_notdir, "PATH=%s/plainfile:%s/b", cwd, cwd);

  spawn("found after a denied one", "prog", env_both, NULL, 0);
  spawn("only a denied one", "prog", env_denied, NULL, 0);
  spawn("a PATH entry is a file", "prog", env_notdir, NULL, 0);
  spawn("no #! by path", "c/prog", NULL, NULL, 0);
  spawn("no #! from PATH", "prog", env_noshebang, NULL, 0);
  spawn("relative to cwd", "./prog", NULL, "b", 0);
  spawn("relative, not in cwd", "./prog", NULL, "c/..", 0);
  spawn("stdout and stderr swapped", "b/prog", NULL, NULL, 1);
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  spawn("name longer than NAME_MAX", long_name, env_both, NULL, 0);
  spawn("a directory", "b", NULL, NULL, 0);
  spawn_high_fds();

  CHECK(unlink("a/prog") == 0 && unlink("b/prog") == 0 && unlink("c/prog") == 0 && unlink("plainfile") == 0);
  CHECK(rmdir("a") == 0 && rmdir("b") == 0 && rmdir("c") == 0);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
