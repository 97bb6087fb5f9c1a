// SPDX-License-Identifier: MIT
/* phaseloop benchmark: raw loop iteration rate.
 *
 * One idle handle keeps the loop spinning without blocking in the poller.
 * Its callback bumps a counter; once the target count is reached the handle
 * is stopped, which lets uv_run() return on its own.
 *
 * usage: loop_count [iterations]     (default 2000000)
 * output: RESULT loop_count <iterations/s> iter/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "loop_count: check failed at line %d: %s\n",        \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static unsigned long long target;
static unsigned long long ticks;

static void on_idle(uv_idle_t* idle) {
  ticks++;
  if (ticks >= target)
    CHECK(uv_idle_stop(idle) == 0);
}

int main(int argc, char** argv) {
  uv_loop_t loop;
  uv_idle_t idle;
  uint64_t t0, t1;
  double secs;

  target = 2000000ULL;
  if (argc > 1) {
    target = strtoull(argv[1], NULL, 10);
    CHECK(target > 0);
  }

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);

  t0 = uv_hrtime();
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  t1 = uv_hrtime();

  CHECK(ticks == target);

  uv_close((uv_handle_t*) &idle, NULL);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  CHECK(uv_loop_close(&loop) == 0);

  secs = (double) (t1 - t0) / 1e9;
  if (secs <= 0) secs = 1e-9;
  printf("RESULT loop_count %.0f iter/s\n", (double) ticks / secs);
  return 0;
}
