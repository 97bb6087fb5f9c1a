// SPDX-License-Identifier: MIT
/* A pass over many pending async handles while every malloc fails.
 * libuv's pass walks its queue and needs no memory; phaseloop keeps the
 * handles of a pass beside their places in arrays that hold 8 and grow
 * on the heap, and when an array cannot grow, the handle goes into one
 * list sorted by place. Either way the pass calls every pending handle
 * once, in queue order, those that join it while it runs included.
 *
 * 40 handles. 20 are sent before the run (more than an array holds
 * without the heap); during the run handle 0's callback sends 10 handles
 * ahead of it, one already pending and one behind it, and handle 5's
 * callback 10 more ahead. The program's malloc fails throughout that
 * run (the count of refusals goes to stderr, which is not compared). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>

#include "diff.h"

enum { count = 40 };

static uv_loop_t loop;
static uv_async_t as[count];
static int order[3 * count];
static int calls;

/* ---- a malloc that fails on demand --------------------------------------- */

static int refusing;
static unsigned long refused;

void *malloc(size_t n) {
  static void *(*real)(size_t);
  static int looking;
  if (refusing) {
    refused++;
    errno = ENOMEM;
    return NULL;
  }
  if (real == NULL) {
    if (looking) return NULL; /* dlsym's own allocation, if it makes one */
    looking = 1;
    real = (void *(*)(size_t)) dlsym(RTLD_NEXT, "malloc");
    looking = 0;
    if (real == NULL) abort();
  }
  return real(n);
}

/* ------------------------------------------------------------------------- */

static void on_async(uv_async_t *h) {
  int i = (int) (h - as);
  int j;
  if (calls < (int) (sizeof order / sizeof order[0])) order[calls] = i;
  calls++;
  if (i == 0) {
    for (j = count - 1; j > count / 2; j -= 2) /* 39, 37, ..., 21 */
      CHECK(uv_async_send(&as[j]) == 0);
    CHECK(uv_async_send(&as[3]) == 0); /* already pending */
  } else if (i == 5) {
    for (j = count - 2; j >= count / 2; j -= 2) /* 38, 36, ..., 20 */
      CHECK(uv_async_send(&as[j]) == 0);
    CHECK(uv_async_send(&as[1]) == 0); /* behind: the next pass */
  }
}

static void run_and_tell(const char *what) {
  int i;
  calls = 0;
  run_say(&loop, UV_RUN_NOWAIT);
  say("%s: %d callbacks", what, calls);
  for (i = 0; i < calls && i < (int) (sizeof order / sizeof order[0]); i++)
    say("  async %d", order[i]);
}

int main(void) {
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < count; i++)
    CHECK(uv_async_init(&loop, &as[i], on_async) == 0);

  /* One pass with memory first, so that nothing the loop sets up once
   * falls into the run without it. */
  CHECK(uv_async_send(&as[count - 1]) == 0);
  run_and_tell("first pass");

  for (i = count / 2 - 1; i >= 0; i--)
    CHECK(uv_async_send(&as[i]) == 0);
  say("sent 19 down to 0; malloc fails from here");
  refusing = 1;
  calls = 0;
  i = uv_run(&loop, UV_RUN_NOWAIT);
  refusing = 0;
  fprintf(stderr, "205: %lu mallocs refused during the run\n", refused);
  say("uv_run(NOWAIT) = %d", i);
  say("the pass without memory: %d callbacks", calls);
  for (i = 0; i < calls && i < (int) (sizeof order / sizeof order[0]); i++)
    say("  async %d", order[i]);

  run_and_tell("next pass");

  for (i = 0; i < count; i++)
    uv_close((uv_handle_t *) &as[i], NULL);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&loop) == 0);
  return 0;
}
