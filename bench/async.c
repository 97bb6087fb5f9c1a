// SPDX-License-Identifier: MIT
/* phaseloop benchmark: cross-thread wake-ups through uv_async_t.
 *
 * Every worker thread owns one async handle and one semaphore.  It calls
 * uv_async_send() and then blocks on its semaphore; the handle's callback,
 * running on the loop thread, posts that semaphore.  One send therefore
 * maps to exactly one callback (nothing can coalesce), and each exchange
 * is a full round trip: worker -> loop wake-up -> callback -> worker.
 *
 * The round trips are split evenly across the workers, and the variant is
 * run with 1 and with 4 workers on a fresh loop each time.  With several
 * workers the loop sees several handles pending per wake-up, so this also
 * shows how the implementation scans and dispatches pending async handles.
 *
 * usage: async [round_trips [workers]]
 *   round_trips  total per variant (default 200000)
 *   workers      run only the variant with this many workers (1 or 4);
 *                bench/callgrind.sh counts the 1-worker one, whose loop
 *                and worker strictly take turns, so that its
 *                instructions do not depend on the threads' timing
 * output: RESULT async_pingpong_<T>t <round trips/s> trips/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "async: check failed at line %d: %s\n",             \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define MAX_WORKERS 16

struct worker {
  uv_async_t async; /* first member: the callback casts back from it */
  uv_sem_t sem;
  uv_thread_t thread;
  unsigned long quota;
  unsigned long served; /* touched on the loop thread only */
};

static void worker_main(void* arg) {
  struct worker* w = arg;
  unsigned long i;

  for (i = 0; i < w->quota; i++) {
    CHECK(uv_async_send(&w->async) == 0);
    uv_sem_wait(&w->sem);
  }
}

static void on_async(uv_async_t* handle) {
  struct worker* w = (struct worker*) handle;

  w->served++;
  CHECK(w->served <= w->quota);
  if (w->served == w->quota)
    uv_close((uv_handle_t*) handle, NULL);
  uv_sem_post(&w->sem);
}

static void run_variant(unsigned nworkers, unsigned long trips) {
  struct worker workers[MAX_WORKERS];
  uv_loop_t loop;
  uint64_t t0, t1;
  unsigned long total = 0;
  unsigned i;

  CHECK(nworkers > 0 && nworkers <= MAX_WORKERS);
  CHECK(trips >= nworkers);
  CHECK(uv_loop_init(&loop) == 0);

  for (i = 0; i < nworkers; i++) {
    struct worker* w = &workers[i];
    w->quota = trips / nworkers + (i < trips % nworkers ? 1 : 0);
    w->served = 0;
    CHECK(uv_sem_init(&w->sem, 0) == 0);
    CHECK(uv_async_init(&loop, &w->async, on_async) == 0);
  }

  t0 = uv_hrtime();
  for (i = 0; i < nworkers; i++)
    CHECK(uv_thread_create(&workers[i].thread, worker_main, &workers[i]) == 0);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  t1 = uv_hrtime();

  for (i = 0; i < nworkers; i++) {
    CHECK(uv_thread_join(&workers[i].thread) == 0);
    CHECK(workers[i].served == workers[i].quota);
    total += workers[i].served;
    uv_sem_destroy(&workers[i].sem);
  }
  CHECK(total == trips);
  CHECK(uv_loop_close(&loop) == 0);

  if (t1 == t0) t1 = t0 + 1;
  printf("RESULT async_pingpong_%ut %.0f trips/s\n",
         nworkers, (double) total * 1e9 / (double) (t1 - t0));
  fflush(stdout);
}

int main(int argc, char** argv) {
  unsigned long trips = 200000UL;

  unsigned long only = 0;

  if (argc > 1) {
    trips = strtoul(argv[1], NULL, 10);
    CHECK(trips >= 4);
  }
  if (argc > 2) {
    only = strtoul(argv[2], NULL, 10);
    CHECK(only == 1 || only == 4);
  }

  if (only != 4) run_variant(1, trips);
  if (only != 1) run_variant(4, trips);
  return 0;
}
