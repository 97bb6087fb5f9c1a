// SPDX-License-Identifier: MIT
/* test/c/c_api_tests: runs every CMocka group of the C API tests (each in
 * its own test/c/NAME_test.c) and exits non-zero if any test of any group
 * failed. */
#include <stdio.h>
#include <stdlib.h>

#include "suites.h"

int main(void) {
  /* The process-wide threadpool starts on first use with this many
   * threads; the cancellation tests rely on knowing the number. */
  setenv("UV_THREADPOOL_SIZE", "2", 1);

  int (*const groups[])(void) = {
      run_smoke_tests,   run_errors_tests,  run_strerror_tests, run_data_tests,
      run_ext_tests,     run_threads_tests, run_misc_tests,     run_fs_tests,
      run_os_tests,
  };
  int failed = 0;
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) failed += groups[i]();
  if (failed != 0) fprintf(stderr, "c_api_tests: %d test(s) failed\n", failed);
  return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
