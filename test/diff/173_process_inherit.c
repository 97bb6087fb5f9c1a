// SPDX-License-Identifier: MIT
/* UV_INHERIT_FD and UV_INHERIT_STREAM: the child writes into a file
 * descriptor of the parent's (here: into a file) and into the descriptor
 * of a pipe handle; descriptors beyond stdio_count 3 are passed too, and
 * the parent's descriptors the child's slots swap (stdout <-> stderr) end
 * up where asked.  UV_IGNORE gives /dev/null on 0-2. */
#include "diff.h"
#include "diff_fs.h"
#include "diff_proc.h"

static uv_loop_t loop;
static struct proc_sink sink;
static int quiet; /* stdout is redirected: print later */
static char last[128];

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  snprintf(last, sizeof last, "exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  uv_close((uv_handle_t *) p, NULL);
  if (quiet) return;
  say("%s", last);
}

static void spawn_and_run(const char *name, const char *script, uv_stdio_container_t *stdio, int n) {
  uv_process_t proc;
  uv_process_options_t o = proc_sh(script, on_exit_cb, stdio, n);
  proc.data = (void *) name;
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
}

static void print_file(const char *path) {
  char buf[256];
  ssize_t n;
  int fd = open(path, O_RDONLY);
  CHECK(fd >= 0);
  n = read(fd, buf, sizeof buf);
  CHECK(n >= 0);
  close(fd);
  say("  %s: \"%.*s\"", path, (int) n, buf);
}

int main(void) {
  uv_stdio_container_t stdio[5];
  int a, b, fds[2];
  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  a = open("a.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  b = open("b.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(a >= 0 && b >= 0);

  /* Files as stdout and stderr, and as descriptors 3 and 4. */
  memset(stdio, 0, sizeof stdio);
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_INHERIT_FD;
  stdio[1].data.fd = a;
  stdio[2].flags = UV_INHERIT_FD;
  stdio[2].data.fd = b;
  stdio[3].flags = UV_INHERIT_FD;
  stdio[3].data.fd = a;
  stdio[4].flags = UV_IGNORE;
  spawn_and_run("files", "read x; echo \"stdin [$x] $?\"; echo err >&2; echo three >&3; "
                         "{ echo four >&4; } 2>/dev/null || echo 'no fd 4' >&2", stdio, 5);
  print_file("a.txt");
  print_file("b.txt");

  /* Swapped: the child's stdout is the parent's stderr fd and the other
   * way round (here the parent's 1 and 2 are files a and b). */
  CHECK(ftruncate(a, 0) == 0 && lseek(a, 0, SEEK_SET) == 0);
  CHECK(ftruncate(b, 0) == 0 && lseek(b, 0, SEEK_SET) == 0);
  {
    int saved1 = dup(1), saved2 = dup(2);
    CHECK(dup2(a, 1) == 1 && dup2(b, 2) == 2);
    stdio[0].flags = UV_IGNORE;
    stdio[1].flags = UV_INHERIT_FD;
    stdio[1].data.fd = 2;
    stdio[2].flags = UV_INHERIT_FD;
    stdio[2].data.fd = 1;
    quiet = 1;
    spawn_and_run("swapped", "echo to-stdout; echo to-stderr >&2", stdio, 3);
    quiet = 0;
    CHECK(dup2(saved1, 1) == 1 && dup2(saved2, 2) == 2);
    close(saved1);
    close(saved2);
    say("%s", last);
  }
  print_file("a.txt");
  print_file("b.txt");
  close(a);
  close(b);

  /* A pipe handle's descriptor, inherited as stdout: the parent reads the
   * other end through another pipe handle. */
  CHECK(uv_pipe(fds, 0, 0) == 0);
  {
    uv_pipe_t w;
    CHECK(uv_pipe_init(&loop, &w, 0) == 0);
    CHECK(uv_pipe_open(&w, fds[1]) == 0);
    proc_sink_init(&loop, &sink, "pipe");
    CHECK(uv_pipe_open(&sink.pipe, fds[0]) == 0);
    proc_sink_start(&sink);
    stdio[0].flags = UV_IGNORE;
    stdio[1].flags = UV_INHERIT_STREAM;
    stdio[1].data.stream = (uv_stream_t *) &w;
    stdio[2].flags = UV_IGNORE;
    {
      uv_process_t proc;
      uv_process_options_t o = proc_sh("echo through the stream", on_exit_cb, stdio, 3);
      proc.data = (void *) "stream";
      CHECK(uv_spawn(&loop, &proc, &o) == 0);
      /* The parent's write end must be closed for the reader to see EOF;
       * the child keeps its copy. */
      uv_close((uv_handle_t *) &w, NULL);
      /* Whether the exit or the pipe's end of file comes first is timing:
       * the exit is printed after the run. */
      quiet = 1;
      uv_run(&loop, UV_RUN_DEFAULT);
      quiet = 0;
      say("%s", last);
    }
  }
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
