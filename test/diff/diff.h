// SPDX-License-Identifier: MIT
/*
 * diff.h -- tiny helper shared by the phaseloop differential scenarios.
 *
 * Every scenario in this directory is compiled twice, once against the
 * reference libuv and once against phaseloop, and the two stdout traces
 * must be byte-identical.  Therefore nothing printed through these helpers
 * may depend on timing, addresses or thread scheduling.
 */
#ifndef PHASELOOP_TEST_DIFF_H
#define PHASELOOP_TEST_DIFF_H

/* Scenarios use setenv(), SIGWINCH, SIGURG ...; include this header first. */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#if defined(__GNUC__)
# define DIFF_UNUSED __attribute__((unused))
# define DIFF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
# define DIFF_UNUSED
# define DIFF_PRINTF(a, b)
#endif

/* Abort the scenario (exit status 1) with a recognisable line on stdout. */
#define CHECK(expr)                                                         \
  do {                                                                      \
    if (!(expr)) {                                                          \
      printf("CHECK FAILED %s:%d %s\n", __FILE__, __LINE__, #expr);         \
      fflush(stdout);                                                       \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

static void say(const char *fmt, ...) DIFF_PRINTF(1, 2) DIFF_UNUSED;
static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

/* "0" for success, otherwise the symbolic libuv error name. */
static const char *rc_name(int rc) DIFF_UNUSED;
static const char *rc_name(int rc) {
  return rc == 0 ? "0" : uv_err_name(rc);
}

static const char *mode_name(uv_run_mode mode) DIFF_UNUSED;
static const char *mode_name(uv_run_mode mode) {
  switch (mode) {
    case UV_RUN_DEFAULT: return "DEFAULT";
    case UV_RUN_ONCE:    return "ONCE";
    case UV_RUN_NOWAIT:  return "NOWAIT";
  }
  return "?";
}

/* Run the loop in the given mode and print the mode and the return value. */
static int run_say(uv_loop_t *loop, uv_run_mode mode) DIFF_UNUSED;
static int run_say(uv_loop_t *loop, uv_run_mode mode) {
  int r = uv_run(loop, mode);
  say("uv_run(%s) = %d", mode_name(mode), r);
  return r;
}

static void diff_close_any(uv_handle_t *h, void *arg) DIFF_UNUSED;
static void diff_close_any(uv_handle_t *h, void *arg) {
  (void) arg;
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

/*
 * Close whatever handles are still open (silently), drain the loop, close
 * it and print "loop closed".
 */
static void finish(uv_loop_t *loop) DIFF_UNUSED;
static void finish(uv_loop_t *loop) {
  uv_walk(loop, diff_close_any, NULL);
  CHECK(uv_run(loop, UV_RUN_DEFAULT) == 0);
  CHECK(uv_loop_alive(loop) == 0);
  CHECK(uv_loop_close(loop) == 0);
  say("loop closed");
}

#endif /* PHASELOOP_TEST_DIFF_H */
