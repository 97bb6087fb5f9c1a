// SPDX-License-Identifier: MIT
/* UV_PROCESS_DETACHED makes the child a session leader (setsid); without
 * it the child stays in the parent's session.  UV_PROCESS_SETUID and
 * SETGID switch ids before exec (when the test runs as root; otherwise
 * the spawn fails with the child's EPERM, on both sides alike). */
#include "diff.h"
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

static void spawn(const char *name, const char *script, unsigned flags, int id) {
  uv_process_t proc;
  uv_stdio_container_t stdio[3];
  uv_process_options_t o;
  int r;
  proc_sink_init(&loop, &out, "  stdout");
  memset(stdio, 0, sizeof stdio);
  stdio[1] = proc_pipe(&out, 0);
  o = proc_sh(script, on_exit_cb, stdio, 3);
  o.flags = flags;
  o.uid = (uv_uid_t) id;
  o.gid = (uv_gid_t) id;
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
  /* Field 6 of /proc/PID/stat is the session id (the command, field 2,
   * is "(sh)": no spaces). */
  const char *session = "read pid comm state ppid pgrp sid rest < /proc/$$/stat; "
                        "if [ \"$sid\" = \"$$\" ]; then echo leader; else echo member; fi";
  CHECK(uv_loop_init(&loop) == 0);
  spawn("attached", session, 0, 0);
  spawn("detached", session, UV_PROCESS_DETACHED, 0);
  if (getuid() == 0) {
    spawn("setuid+setgid 65534", "id -u; id -g", UV_PROCESS_SETUID | UV_PROCESS_SETGID, 65534);
    spawn("setgid only", "id -u; id -g", UV_PROCESS_SETGID, 65534);
  } else {
    spawn("setuid to root (not permitted)", "id -u", UV_PROCESS_SETUID, 0);
  }
  finish(&loop);
  return 0;
}
