// SPDX-License-Identifier: MIT
/* phaseloop benchmark: phase passes over many handles.
 *
 * 10,000 idle handles and 10,000 check handles, all active; each callback
 * counts. uv_run(UV_RUN_NOWAIT) is called for the target number of
 * iterations; each runs the idle pass and the check pass over all of them.
 * Measures handle callbacks per second.
 *
 * usage: many_handles [iterations] [handles]   (default 2000 10000)
 * output: RESULT many_handles <callbacks/s> cb/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "many_handles: check failed at line %d: %s\n",      \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static unsigned long long idle_calls, check_calls;
static unsigned long long target;
static unsigned count;
static uv_idle_t* idles;
static uv_check_t* checks;

static void on_idle(uv_idle_t* h) {
  (void) h;
  idle_calls++;
}

static void on_check(uv_check_t* h) {
  (void) h;
  check_calls++;
}

int main(int argc, char** argv) {
  uv_loop_t loop;
  uint64_t t0, t1;
  double secs;

  target = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000;
  count = argc > 2 ? (unsigned) strtoul(argv[2], NULL, 10) : 10000;
  CHECK(target > 0 && count > 0);
  idles = calloc(count, sizeof *idles);
  checks = calloc(count, sizeof *checks);
  CHECK(idles != NULL && checks != NULL);

  CHECK(uv_loop_init(&loop) == 0);
  for (unsigned i = 0; i < count; i++) {
    CHECK(uv_idle_init(&loop, &idles[i]) == 0);
    CHECK(uv_idle_start(&idles[i], on_idle) == 0);
    CHECK(uv_check_init(&loop, &checks[i]) == 0);
    CHECK(uv_check_start(&checks[i], on_check) == 0);
  }

  t0 = uv_hrtime();
  for (unsigned long long i = 0; i < target; i++) CHECK(uv_run(&loop, UV_RUN_NOWAIT) != 0);
  t1 = uv_hrtime();

  /* Every handle ran once per iteration. */
  CHECK(idle_calls == target * count);
  CHECK(check_calls == target * count);

  for (unsigned i = 0; i < count; i++) {
    uv_close((uv_handle_t*) &idles[i], NULL);
    uv_close((uv_handle_t*) &checks[i], NULL);
  }
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  CHECK(uv_loop_close(&loop) == 0);
  free(idles);
  free(checks);

  secs = (double) (t1 - t0) / 1e9;
  if (secs <= 0) secs = 1e-9;
  printf("RESULT many_handles %.0f cb/s\n", (double) (idle_calls + check_calls) / secs);
  return 0;
}
