// SPDX-License-Identifier: MIT
/* Error names and messages: uv_strerror, uv_err_name, their _r variants and
 * uv_translate_sys_error, with libuv 1.44's texts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

/* libuv returns a string it never frees for a code it does not know, and so
 * does phaseloop; keep them reachable so that LeakSanitizer does not flag
 * them. */
static const char* kept[8];
static int nkept;
static const char* keep(const char* s) {
  if (nkept < (int)(sizeof kept / sizeof kept[0])) kept[nkept++] = s;
  return s;
}

static void known_codes(void** state) {
  (void)state;
  assert_string_equal(uv_err_name(UV_EINVAL), "EINVAL");
  assert_string_equal(uv_strerror(UV_EINVAL), "invalid argument");
  assert_string_equal(uv_err_name(UV_EOF), "EOF");
  assert_string_equal(uv_strerror(UV_EOF), "end of file");
  assert_string_equal(uv_err_name(UV_ENOENT), "ENOENT");
  assert_string_equal(uv_strerror(UV_ENOENT), "no such file or directory");
  assert_string_equal(uv_err_name(UV_EBUSY), "EBUSY");
  assert_string_equal(uv_strerror(UV_EBUSY), "resource busy or locked");
  assert_string_equal(uv_err_name(UV_ECANCELED), "ECANCELED");
  assert_string_equal(uv_strerror(UV_ECANCELED), "operation canceled");
  assert_string_equal(uv_err_name(UV_EAI_AGAIN), "EAI_AGAIN");
  assert_string_equal(uv_strerror(UV_EAI_AGAIN), "temporary failure");
  assert_string_equal(uv_err_name(UV_ENOSYS), "ENOSYS");
  assert_string_equal(uv_err_name(UV_ETIMEDOUT), "ETIMEDOUT");
  assert_string_equal(uv_err_name(UV_ENOBUFS), "ENOBUFS");
  /* Known codes are static strings: the same pointer every time. */
  assert_ptr_equal(uv_strerror(UV_EINVAL), uv_strerror(UV_EINVAL));
  assert_ptr_equal(uv_err_name(UV_EINVAL), uv_err_name(UV_EINVAL));
}

static void unknown_codes(void** state) {
  (void)state;
  assert_string_equal(keep(uv_strerror(-9999)), "Unknown system error -9999");
  assert_string_equal(keep(uv_err_name(-9999)), "Unknown system error -9999");
  assert_string_equal(keep(uv_strerror(1234)), "Unknown system error 1234");
  assert_string_equal(keep(uv_err_name(0)), "Unknown system error 0");
}

static void err_name_r_truncation(void** state) {
  (void)state;
  char buf[64];
  memset(buf, 'X', sizeof buf);
  assert_ptr_equal(uv_err_name_r(UV_EINVAL, buf, sizeof buf), buf);
  assert_string_equal(buf, "EINVAL");
  assert_ptr_equal(uv_err_name_r(-9999, buf, sizeof buf), buf);
  assert_string_equal(buf, "Unknown system error -9999");
  /* Truncated, always terminated. */
  memset(buf, 'X', sizeof buf);
  assert_ptr_equal(uv_err_name_r(UV_EINVAL, buf, 4), buf);
  assert_string_equal(buf, "EIN");
  assert_int_equal(buf[4], 'X'); /* nothing written past buflen */
  memset(buf, 'X', sizeof buf);
  uv_err_name_r(-9999, buf, 8);
  assert_string_equal(buf, "Unknown");
  memset(buf, 'X', sizeof buf);
  uv_err_name_r(UV_EINVAL, buf, 1);
  assert_int_equal(buf[0], '\0');
  assert_int_equal(buf[1], 'X');
  /* buflen 0: nothing is written. */
  memset(buf, 'X', sizeof buf);
  assert_ptr_equal(uv_err_name_r(UV_EINVAL, buf, 0), buf);
  assert_int_equal(buf[0], 'X');
}

static void strerror_r_truncation(void** state) {
  (void)state;
  char buf[64];
  memset(buf, 'X', sizeof buf);
  assert_ptr_equal(uv_strerror_r(UV_ENOENT, buf, sizeof buf), buf);
  assert_string_equal(buf, "no such file or directory");
  assert_ptr_equal(uv_strerror_r(1234, buf, sizeof buf), buf);
  assert_string_equal(buf, "Unknown system error 1234");
  memset(buf, 'X', sizeof buf);
  uv_strerror_r(UV_EINVAL, buf, 8);
  assert_string_equal(buf, "invalid");
  assert_int_equal(buf[8], 'X');
  memset(buf, 'X', sizeof buf);
  uv_strerror_r(-9999, buf, 10);
  assert_string_equal(buf, "Unknown s");
  memset(buf, 'X', sizeof buf);
  assert_ptr_equal(uv_strerror_r(UV_EINVAL, buf, 0), buf);
  assert_int_equal(buf[0], 'X');
}

static void translate_sys_error(void** state) {
  (void)state;
  assert_int_equal(uv_translate_sys_error(EINVAL), UV_EINVAL);
  assert_int_equal(uv_translate_sys_error(ENOENT), UV_ENOENT);
  assert_int_equal(uv_translate_sys_error(EAGAIN), UV_EAGAIN);
  assert_int_equal(uv_translate_sys_error(ECANCELED), UV_ECANCELED);
  assert_int_equal(uv_translate_sys_error(0), 0);
  /* Already negative: returned as it is (libuv on Unix). */
  assert_int_equal(uv_translate_sys_error(-EPIPE), UV_EPIPE);
  assert_string_equal(uv_err_name(uv_translate_sys_error(EPIPE)), "EPIPE");
}

/* Codes libuv named after 1.44 have their names from their version on. */
static void later_codes_by_version(void** state) {
  char buf[64];
  (void)state;
  setenv("PHASELOOP_PROFILE", "libuv-1.44", 1);
  assert_string_equal(uv_err_name_r(-ENODATA, buf, sizeof buf), "Unknown system error -61");
  setenv("PHASELOOP_PROFILE", "libuv-1.46.0", 1);
  assert_string_equal(uv_err_name_r(-ENODATA, buf, sizeof buf), "ENODATA");
  assert_string_equal(uv_strerror_r(-EUNATCH, buf, sizeof buf), "protocol driver not attached");
  assert_string_equal(uv_err_name_r(-ENOEXEC, buf, sizeof buf), "Unknown system error -8");
  setenv("PHASELOOP_PROFILE", "libuv-1.53.0", 1);
  assert_string_equal(uv_err_name_r(-ENOEXEC, buf, sizeof buf), "ENOEXEC");
  unsetenv("PHASELOOP_PROFILE");
}

int run_strerror_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_codes),
      cmocka_unit_test(unknown_codes),
      cmocka_unit_test(err_name_r_truncation),
      cmocka_unit_test(strerror_r_truncation),
      cmocka_unit_test(translate_sys_error),
      cmocka_unit_test(later_codes_by_version),
  };
  return cmocka_run_group_tests_name("strerror", tests, NULL, NULL);
}
