// SPDX-License-Identifier: MIT
/* phaseloop benchmark: threadpool round trips through uv_queue_work().
 *
 * Two variants, each on a fresh loop:
 *
 *   work_serial - exactly one request in flight.  Its after-work callback
 *                 queues the next one, so every round trip pays the full
 *                 latency: submit -> pool thread -> loop wake-up -> done.
 *   work_batch  - requests are submitted BATCH at a time; when the last one
 *                 of a batch has completed, the next batch is queued.  This
 *                 measures throughput with the pool kept busy and many
 *                 completions delivered per loop wake-up.
 *
 * The work callback does nothing beyond touching its request, so the
 * numbers are dominated by queueing, hand-off and completion overhead.
 *
 * The batch variant is much faster per request, so it gets its own, larger
 * total to keep its timed section long enough to be stable.
 *
 * usage: queue_work [serial_requests [batch_requests]]
 *        (defaults 200000 and 1000000)
 * output: RESULT work_serial|work_batch <round trips/s> trips/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "queue_work: check failed at line %d: %s\n",        \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define BATCH 10000UL

static unsigned long target;    /* requests to complete in this variant */
static unsigned long submitted;
static unsigned long completed;
static unsigned long in_batch;  /* completions still due in current batch */
static unsigned long batch_len;
static uv_work_t* reqs;

static void on_work(uv_work_t* req) {
  /* Trivial body; the write keeps the call from being a pure no-op. */
  req->data = req;
}

static void after_serial(uv_work_t* req, int status) {
  CHECK(status == 0);
  CHECK(req->data == req);
  completed++;
  if (submitted < target) {
    submitted++;
    CHECK(uv_queue_work(req->loop, req, on_work, after_serial) == 0);
  }
}

static void queue_batch(uv_loop_t* loop);

static void after_batch(uv_work_t* req, int status) {
  CHECK(status == 0);
  CHECK(req->data == req);
  completed++;
  CHECK(in_batch > 0);
  in_batch--;
  /* Every request of the batch is finished once this reaches zero, so
   * the whole array (including req itself) may be reused. */
  if (in_batch == 0 && submitted < target)
    queue_batch(req->loop);
}

static void queue_batch(uv_loop_t* loop) {
  unsigned long i;

  batch_len = target - submitted;
  if (batch_len > BATCH) batch_len = BATCH;
  in_batch = batch_len;
  for (i = 0; i < batch_len; i++) {
    reqs[i].data = NULL;
    CHECK(uv_queue_work(loop, &reqs[i], on_work, after_batch) == 0);
  }
  submitted += batch_len;
}

static void report(const char* name, uint64_t t0, uint64_t t1) {
  if (t1 == t0) t1 = t0 + 1;
  printf("RESULT %s %.0f trips/s\n", name,
         (double) completed * 1e9 / (double) (t1 - t0));
  fflush(stdout);
}

static void run_serial(unsigned long n, int print) {
  uv_loop_t loop;
  uv_work_t req;
  uint64_t t0, t1;

  target = n;
  submitted = 1;
  completed = 0;
  CHECK(uv_loop_init(&loop) == 0);
  t0 = uv_hrtime();
  CHECK(uv_queue_work(&loop, &req, on_work, after_serial) == 0);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  t1 = uv_hrtime();
  CHECK(completed == n);
  CHECK(uv_loop_close(&loop) == 0);
  if (print)
    report("work_serial", t0, t1);
}

static void run_batch(unsigned long n) {
  uv_loop_t loop;
  uint64_t t0, t1;

  target = n;
  submitted = 0;
  completed = 0;
  CHECK(uv_loop_init(&loop) == 0);
  t0 = uv_hrtime();
  queue_batch(&loop);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  t1 = uv_hrtime();
  CHECK(completed == n);
  CHECK(uv_loop_close(&loop) == 0);
  report("work_batch", t0, t1);
}

int main(int argc, char** argv) {
  unsigned long n_serial = 200000UL;
  unsigned long n_batch = 1000000UL;

  if (argc > 1) {
    n_serial = strtoul(argv[1], NULL, 10);
    CHECK(n_serial > 0);
  }
  if (argc > 2) {
    n_batch = strtoul(argv[2], NULL, 10);
    CHECK(n_batch > 0);
  }

  reqs = malloc(BATCH * sizeof(*reqs));
  CHECK(reqs != NULL);

  /* The pool threads start lazily on the first submission; warm them up
   * here so neither variant pays for thread creation. */
  run_serial(1, 0);

  run_serial(n_serial, 1);
  run_batch(n_batch);

  free(reqs);
  return 0;
}
