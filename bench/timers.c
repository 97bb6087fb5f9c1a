// SPDX-License-Identifier: MIT
/* phaseloop benchmark: mass timer scheduling.
 *
 * A large array of timers (one malloc) is initialised and started with
 * pseudo-random timeouts in [0, 100) ms drawn from a fixed-seed linear
 * congruential generator, so both implementations see the exact same
 * sequence.  The loop then runs until every timer has fired once; after
 * that every handle is closed and the loop is run again to finish the
 * close callbacks.
 *
 * Three figures are reported, all in timers per second:
 *   timers_start  - uv_timer_init + uv_timer_start only
 *   timers_fire   - the uv_run() that dispatches every expiry
 *   timers_total  - start + dispatch + close, end to end
 * The dispatch phase cannot finish before the largest timeout has elapsed
 * on the loop clock, so timers_fire is partly bounded by wall time; the
 * loop clock is only refreshed when uv_run() starts, so timers that were
 * started early in a long start phase are already due by then.
 *
 * usage: timers [count]      (default 1000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "timers: check failed at line %d: %s\n",            \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define TIMEOUT_SPAN 100u /* ms; timeouts are drawn from [0, TIMEOUT_SPAN) */

static unsigned long fired;
static unsigned long closed;

static uint32_t lcg_state = 0x2545f491u;

static uint32_t lcg_next(void) {
  /* Numerical Recipes constants; the upper bits are the better ones. */
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}

static void on_timer(uv_timer_t* t) {
  (void) t;
  fired++;
}

static void on_close(uv_handle_t* h) {
  (void) h;
  closed++;
}

static double rate(unsigned long n, uint64_t ns) {
  if (ns == 0) ns = 1;
  return (double) n * 1e9 / (double) ns;
}

int main(int argc, char** argv) {
  uv_loop_t loop;
  uv_timer_t* timers;
  unsigned long count = 1000000UL;
  unsigned long i;
  uint64_t t_begin, t_started, t_fired, t_closed;

  if (argc > 1) {
    count = strtoul(argv[1], NULL, 10);
    CHECK(count > 0);
  }

  timers = malloc(count * sizeof(*timers));
  CHECK(timers != NULL);
  /* Fault the pages in up front so the start phase measures the loop and
   * not the kernel handing out fresh memory. */
  memset(timers, 0, count * sizeof(*timers));

  CHECK(uv_loop_init(&loop) == 0);

  t_begin = uv_hrtime();
  for (i = 0; i < count; i++) {
    CHECK(uv_timer_init(&loop, &timers[i]) == 0);
    CHECK(uv_timer_start(&timers[i], on_timer,
                         lcg_next() % TIMEOUT_SPAN, 0) == 0);
  }
  t_started = uv_hrtime();

  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  t_fired = uv_hrtime();
  CHECK(fired == count);

  for (i = 0; i < count; i++)
    uv_close((uv_handle_t*) &timers[i], on_close);
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
  t_closed = uv_hrtime();
  CHECK(closed == count);

  CHECK(uv_loop_close(&loop) == 0);
  free(timers);

  printf("RESULT timers_start %.0f timers/s\n", rate(count, t_started - t_begin));
  printf("RESULT timers_fire %.0f timers/s\n", rate(count, t_fired - t_started));
  printf("RESULT timers_total %.0f timers/s\n", rate(count, t_closed - t_begin));
  printf("# timers: %lu timers, start %.1f ms, fire %.1f ms, close %.1f ms, "
         "total %.1f ms\n",
         count,
         (double) (t_started - t_begin) / 1e6,
         (double) (t_fired - t_started) / 1e6,
         (double) (t_closed - t_fired) / 1e6,
         (double) (t_closed - t_begin) / 1e6);
  return 0;
}
