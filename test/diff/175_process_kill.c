// SPDX-License-Identifier: MIT
/* uv_process_kill: SIGTERM and SIGKILL end a sleeping child (the exit
 * callback reports the signal), a signal the child handles lets it exit
 * with its own status, signal 0 probes it; an invalid signal number is
 * EINVAL; after the exit callback the pid is gone: ESRCH. */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;
static struct proc_sink out;

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  say("  kill after exit: %s", rc_name(uv_process_kill(p, SIGTERM)));
  say("  uv_kill after exit: %s", rc_name(uv_kill(p->pid, 0)));
  uv_close((uv_handle_t *) p, NULL);
}

static void kill_child(const char *name, const char *script, int signum) {
  uv_process_t proc;
  uv_stdio_container_t stdio[3];
  uv_process_options_t o;
  char line[8];
  memset(stdio, 0, sizeof stdio);
  proc_sink_init(&loop, &out, "  stdout");
  stdio[1] = proc_pipe(&out, 0);
  o = proc_sh(script, on_exit_cb, stdio, 3);
  proc.data = (void *) name;
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  /* Wait for the child to say it is ready (its trap is set). */
  {
    int fd;
    CHECK(uv_fileno((uv_handle_t *) &out.pipe, &fd) == 0);
    CHECK(uv_stream_set_blocking((uv_stream_t *) &out.pipe, 1) == 0);
    CHECK(read(fd, line, 6) == 6);
    CHECK(uv_stream_set_blocking((uv_stream_t *) &out.pipe, 0) == 0);
  }
  say("%s: probe %s, bad signal %s, kill %s", name, rc_name(uv_process_kill(&proc, 0)),
      rc_name(uv_process_kill(&proc, 4242)), rc_name(uv_process_kill(&proc, signum)));
  proc_sink_start(&out);
  uv_run(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  kill_child("SIGTERM", "echo ready; exec sleep 10", SIGTERM);
  kill_child("SIGKILL", "echo ready; exec sleep 10", SIGKILL);
  kill_child("trapped SIGTERM", "trap 'echo caught; exit 7' TERM; echo ready; while :; do sleep 0.01; done",
             SIGTERM);
  kill_child("SIGINT", "echo ready; exec sleep 10", SIGINT);
  say("uv_kill(self, 4242) %s", rc_name(uv_kill(uv_os_getpid(), 4242)));
  say("uv_kill(self, -1) %s", rc_name(uv_kill(uv_os_getpid(), -1)));
  say("uv_kill(self, 0) %s", rc_name(uv_kill(uv_os_getpid(), 0)));
  finish(&loop);
  return 0;
}
