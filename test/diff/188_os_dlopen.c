// SPDX-License-Identifier: MIT
/*
 * 188: shared libraries (uv_dlopen, uv_dlsym, uv_dlerror, uv_dlclose).
 *
 * Failures return -1, not an error code, and uv_dlerror then gives
 * dlerror()'s text, owned by the uv_lib_t: a later success keeps it,
 * uv_dlclose frees it ("no error" again).  uv_dlopen(NULL) opens the
 * program itself.
 */
#include "diff.h"

#include <stdio.h>

static void show(const char *what, int r, const uv_lib_t *lib) {
  say("%s: %d \"%s\"", what, r, uv_dlerror(lib));
}

int main(void) {
  uv_lib_t lib;
  void *sym;
  int r;

  r = uv_dlopen("libm.so.6", &lib);
  show("dlopen libm", r, &lib);
  double (*cos_fn)(double) = NULL;
  r = uv_dlsym(&lib, "cos", (void **) &cos_fn);
  show("dlsym cos", r, &lib);
  say("  cos(0) = %.1f", cos_fn(0.0));
  sym = &lib;
  r = uv_dlsym(&lib, "phaseloop_no_such_symbol", &sym);
  show("dlsym missing", r, &lib);
  say("  ptr null: %d", sym == NULL);
  r = uv_dlsym(&lib, "sin", &sym);
  show("dlsym sin after a failure", r, &lib);
  uv_dlclose(&lib);
  say("dlclose: handle null=%d errmsg null=%d \"%s\"", lib.handle == NULL,
      lib.errmsg == NULL, uv_dlerror(&lib));
  uv_dlclose(&lib);
  say("dlclose again: \"%s\"", uv_dlerror(&lib));

  r = uv_dlopen("libphaseloop-no-such-library.so", &lib);
  show("dlopen missing", r, &lib);
  say("  handle null: %d", lib.handle == NULL);
  uv_dlclose(&lib);

  /* A file that is not a library (in the scenario's work directory). */
  {
    FILE *f = fopen("./not-a-library.so", "w");
    CHECK(f != NULL);
    fputs("this is not an ELF file, but it is long enough to be checked as one.\n"
          "0123456789012345678901234567890123456789012345678901234567890123456789\n",
          f);
    fclose(f);
    r = uv_dlopen("./not-a-library.so", &lib);
    show("dlopen text file", r, &lib);
    uv_dlclose(&lib);
    remove("./not-a-library.so");
  }

  /* The program itself. */
  r = uv_dlopen(NULL, &lib);
  show("dlopen NULL", r, &lib);
  unsigned int (*version)(void) = NULL;
  r = uv_dlsym(&lib, "uv_version", (void **) &version);
  show("dlsym uv_version", r, &lib);
  say("  uv_version() = 0x%06x", version());
  uv_dlclose(&lib);

  finish(uv_default_loop());
  return 0;
}
