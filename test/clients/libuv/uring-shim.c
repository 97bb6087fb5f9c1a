// SPDX-License-Identifier: MIT
/* uring-shim.c -- preloaded into libuv's test runner by `run --io-uring`:
 * every loop the tests make asks for io_uring right after its init, as a
 * libuv >= 1.49 program does to get its file requests done through
 * io_uring (with UV_USE_IO_URING=1 in the environment, which run sets).
 *
 * It wraps uv_loop_init and uv_default_loop: the real function runs, then
 * uv_loop_configure(loop, UV_LOOP_USE_IO_URING_SQPOLL). It works the same
 * on real libuv, the drop-in and libphaseloop (each exports the three
 * functions). Built against the suite's own uv.h.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

static void* next_fn(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == NULL) {
    fprintf(stderr, "uring-shim: no %s after the shim\n", name);
    abort();
  }
  return f;
}

static void ask(uv_loop_t* loop) {
  int r = uv_loop_configure(loop, UV_LOOP_USE_IO_URING_SQPOLL);
  if (r != 0) {
    fprintf(stderr, "uring-shim: uv_loop_configure(UV_LOOP_USE_IO_URING_SQPOLL): %s\n", uv_strerror(r));
    abort();
  }
}

int uv_loop_init(uv_loop_t* loop) {
  static int (*real)(uv_loop_t*);
  int r;
  if (real == NULL) real = (int (*)(uv_loop_t*)) next_fn("uv_loop_init");
  r = real(loop);
  if (r == 0) ask(loop);
  return r;
}

uv_loop_t* uv_default_loop(void) {
  static uv_loop_t* (*real)(void);
  uv_loop_t* loop;
  if (real == NULL) real = (uv_loop_t * (*)(void)) next_fn("uv_default_loop");
  loop = real();
  if (loop != NULL) ask(loop);
  return loop;
}
