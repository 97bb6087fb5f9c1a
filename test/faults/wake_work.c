// SPDX-License-Identifier: MIT
/* wake_work: the two hangs the fault suite first found, as one workload
 * (test/faults/run.sh, workload "wake"):
 *   - signal handles started and stopped over and over on two loops'
 *     threads: every start and stop takes the process-wide lock of the
 *     signal watchers (a lock that once was a pipe token, lost when its
 *     write failed);
 *   - uv_queue_work requests one after another: each completion wakes the
 *     loop from another thread (a wake-up once dropped when its eventfd
 *     write failed, leaving the loop asleep with finished work).
 * Run under write(2) failures (libfiu's posix/io/rw/write), it must end.
 * No signal is sent: libfiu's wrappers take a lock of libfiu's, so a
 * handler whose write goes through one can deadlock with a thread it
 * interrupted inside another (docs/faults.md).
 *
 *   wake_work
 * Exit status: 0 done; 1 an error was reported (printed); 2 work lost. */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

enum { rounds = 300, works = 300 };

static int status;
static int works_done;
static uv_work_t reqs[works];

static void fail(const char* what, int err) {
  fprintf(stderr, "wake_work: %s: %s\n", what, uv_strerror(err));
  status = 1;
}

static void do_work(uv_work_t* req) { (void)req; }

static void after_work(uv_work_t* req, int st) {
  if (st < 0) return fail("work", st);
  works_done++;
  int next = (int)(req - reqs) + 1;
  if (next < works) {
    int e = uv_queue_work(req->loop, &reqs[next], do_work, after_work);
    if (e < 0) fail("uv_queue_work", e);
  }
}

static void on_signal(uv_signal_t* h, int signum) {
  (void)h;
  (void)signum;
}

/* A thread of its own: its loop starts and stops a signal handle. */
static void signal_thread(void* arg) {
  (void)arg;
  uv_loop_t loop;
  uv_signal_t sig;
  if (uv_loop_init(&loop) != 0) return;
  uv_signal_init(&loop, &sig);
  for (int i = 0; i < rounds; i++) {
    if (uv_signal_start(&sig, on_signal, SIGUSR1) != 0) break;
    uv_run(&loop, UV_RUN_NOWAIT);
    uv_signal_stop(&sig);
  }
  uv_close((uv_handle_t*)&sig, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
}

int main(void) {
  uv_loop_t* loop = uv_default_loop();
  if (loop == NULL) {  /* its initialisation failed */
    fprintf(stderr, "wake_work: uv_default_loop failed\n");
    return 1;
  }
  uv_thread_t a, b;
  if (uv_thread_create(&a, signal_thread, NULL) != 0 || uv_thread_create(&b, signal_thread, NULL) != 0)
    return fail("uv_thread_create", UV_EAGAIN), 1;
  int e = uv_queue_work(loop, &reqs[0], do_work, after_work);
  if (e < 0) fail("uv_queue_work", e);
  uv_run(loop, UV_RUN_DEFAULT);
  uv_thread_join(&a);
  uv_thread_join(&b);
  if (status == 0 && works_done != works) {
    fprintf(stderr, "wake_work: the loop ended, no error, after %d of %d works\n", works_done, works);
    status = 2;
  }
  if (status == 0) printf("wake_work: %d works, %d signal starts and stops on each of two threads\n", works, rounds);
  return status;
}
