// SPDX-License-Identifier: MIT
/* Many children at once: every exit callback comes exactly once with its
 * own status, whatever the order they end in (not printed), each from a
 * reaping pass; the loop stays alive until the last one. */
#include "diff.h"
#include "diff_proc.h"

#define N 40

static uv_loop_t loop;
static uv_process_t procs[N];
static int status_of[N];
static int calls[N];
static int done;
static char scripts[N][32];

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  int i = (int) (p - procs);
  CHECK(sig == 0);
  calls[i]++;
  status_of[i] = (int) status;
  done++;
  if (done == N / 2) say("half done: alive %d", uv_loop_alive(&loop));
  uv_close((uv_handle_t *) p, NULL);
}

int main(void) {
  int i, ok = 1;
  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < N; i++) {
    uv_process_options_t o;
    /* Some end at once, some a little later. */
    if (i % 3 == 0) snprintf(scripts[i], sizeof scripts[i], "sleep 0.0%d; exit %d", i % 10, i);
    else snprintf(scripts[i], sizeof scripts[i], "exit %d", i);
    o = proc_sh(scripts[i], on_exit_cb, NULL, 0);
    CHECK(uv_spawn(&loop, &procs[i], &o) == 0);
  }
  for (i = 1; i < N; i++) CHECK(procs[i].pid != procs[i - 1].pid);
  run_say(&loop, UV_RUN_DEFAULT);
  for (i = 0; i < N; i++)
    if (calls[i] != 1 || status_of[i] != i) {
      say("child %d: %d calls, status %d", i, calls[i], status_of[i]);
      ok = 0;
    }
  say("%d children, all reported once with their status: %d", N, ok);
  finish(&loop);
  return 0;
}
