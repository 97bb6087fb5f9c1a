// SPDX-License-Identifier: MIT
/* Small process-level functions: buffers, version, environment, working
 * directory, uv_guess_handle, time, and the sizes of uv.h's types. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "suites.h"

static void buf_init(void** state) {
  (void)state;
  char storage[16];
  uv_buf_t b = uv_buf_init(storage, sizeof storage);
  assert_ptr_equal(b.base, storage);
  assert_int_equal(b.len, sizeof storage);
  b = uv_buf_init(NULL, 0);
  assert_null(b.base);
  assert_int_equal(b.len, 0);
}

static void version(void** state) {
  (void)state;
  /* This program is built for the version the library behaves as by
   * default (configure's --with-profile, 1.44.2 on Debian 12): the
   * library's answer and the header's macros agree. */
  char want[32];
  int n = snprintf(want, sizeof want, "%d.%d.%d", UV_VERSION_MAJOR, UV_VERSION_MINOR, UV_VERSION_PATCH);
  assert_int_equal(uv_version(), UV_VERSION_HEX);
  assert_int_equal(UV_VERSION_HEX, (1 << 16) | (PHASELOOP_UV_VERSION_MINOR << 8) | PHASELOOP_UV_VERSION_PATCH);
  assert_int_equal(UV_VERSION_MAJOR, 1);
  assert_true(UV_VERSION_MINOR >= 44);
  const char* v = uv_version_string();
  assert_non_null(v);
  assert_memory_equal(v, want, (size_t)n);
  /* Nothing, or a "-suffix", follows. */
  assert_true(v[n] == '\0' || v[n] == '-');
}

#define VAR "PHASELOOP_C_API_TEST_VAR"

static void os_env(void** state) {
  (void)state;
  char buf[64];
  size_t size;
  assert_int_equal(uv_os_setenv(VAR, "hello"), 0);
  size = sizeof buf;
  assert_int_equal(uv_os_getenv(VAR, buf, &size), 0);
  assert_string_equal(buf, "hello");
  assert_int_equal(size, 5); /* the length, without the NUL */

  /* Too small: UV_ENOBUFS and *size says how much is needed (with NUL). */
  size = 3;
  assert_int_equal(uv_os_getenv(VAR, buf, &size), UV_ENOBUFS);
  assert_int_equal(size, 6);
  size = 5;
  assert_int_equal(uv_os_getenv(VAR, buf, &size), UV_ENOBUFS);
  assert_int_equal(size, 6);
  size = 6;
  memset(buf, 'X', sizeof buf);
  assert_int_equal(uv_os_getenv(VAR, buf, &size), 0);
  assert_string_equal(buf, "hello");
  assert_int_equal(size, 5);

  /* Invalid arguments. */
  size = 0;
  assert_int_equal(uv_os_getenv(VAR, buf, &size), UV_EINVAL);
  size = sizeof buf;
  assert_int_equal(uv_os_getenv(VAR, NULL, &size), UV_EINVAL);
  assert_int_equal(uv_os_getenv(VAR, buf, NULL), UV_EINVAL);
  assert_int_equal(uv_os_setenv(NULL, "x"), UV_EINVAL);
  assert_int_equal(uv_os_setenv(VAR, NULL), UV_EINVAL);
  assert_int_equal(uv_os_unsetenv(NULL), UV_EINVAL);

  /* Overwrite, then remove. */
  assert_int_equal(uv_os_setenv(VAR, "a much longer value"), 0);
  size = sizeof buf;
  assert_int_equal(uv_os_getenv(VAR, buf, &size), 0);
  assert_string_equal(buf, "a much longer value");
  assert_string_equal(getenv(VAR), "a much longer value");
  assert_int_equal(uv_os_unsetenv(VAR), 0);
  size = sizeof buf;
  assert_int_equal(uv_os_getenv(VAR, buf, &size), UV_ENOENT);
  assert_null(getenv(VAR));
  assert_int_equal(uv_os_unsetenv(VAR), 0); /* absent: still fine */
}

static void cwd(void** state) {
  (void)state;
  char expected[4096];
  char buf[4096];
  size_t size;
  assert_non_null(getcwd(expected, sizeof expected));
  size_t len = strlen(expected);
  size = sizeof buf;
  assert_int_equal(uv_cwd(buf, &size), 0);
  assert_string_equal(buf, expected);
  assert_int_equal(size, len);
  if (len >= 2) {
    /* Too small: UV_ENOBUFS and the size needed, NUL included. */
    size = 2;
    assert_int_equal(uv_cwd(buf, &size), UV_ENOBUFS);
    assert_int_equal(size, len + 1);
    size = len; /* one short: no room for the NUL */
    assert_int_equal(uv_cwd(buf, &size), UV_ENOBUFS);
    assert_int_equal(size, len + 1);
    assert_int_equal(uv_cwd(buf, &size), 0);
    assert_int_equal(size, len);
    assert_string_equal(buf, expected);
  }
  size = sizeof buf;
  assert_int_equal(uv_cwd(NULL, &size), UV_EINVAL);
  assert_int_equal(uv_cwd(buf, NULL), UV_EINVAL);
  size = 0;
  assert_int_equal(uv_cwd(buf, &size), UV_EINVAL);
}

static void guess_handle(void** state) {
  (void)state;
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  assert_int_equal(uv_guess_handle(fds[0]), UV_NAMED_PIPE);
  assert_int_equal(uv_guess_handle(fds[1]), UV_NAMED_PIPE);
  close(fds[0]);
  close(fds[1]);
  /* A closed descriptor. */
  assert_int_equal(uv_guess_handle(fds[0]), UV_UNKNOWN_HANDLE);

  FILE* f = tmpfile();
  assert_non_null(f);
  assert_int_equal(uv_guess_handle(fileno(f)), UV_FILE);
  fclose(f);

  int null_fd = open("/dev/null", O_RDONLY);
  assert_true(null_fd >= 0);
  assert_int_equal(uv_guess_handle(null_fd), UV_FILE); /* a character device */
  close(null_fd);

  assert_int_equal(uv_guess_handle(-1), UV_UNKNOWN_HANDLE);

  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  assert_int_equal(uv_guess_handle(fds[0]), UV_NAMED_PIPE);
  close(fds[0]);
  close(fds[1]);

  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s >= 0) {
    assert_int_equal(uv_guess_handle(s), UV_TCP);
    close(s);
  }
  s = socket(AF_INET, SOCK_DGRAM, 0);
  if (s >= 0) {
    assert_int_equal(uv_guess_handle(s), UV_UDP);
    close(s);
  }
}

static void gettimeofday_(void** state) {
  (void)state;
  uv_timeval64_t tv;
  assert_int_equal(uv_gettimeofday(NULL), UV_EINVAL);
  memset(&tv, 0, sizeof tv);
  assert_int_equal(uv_gettimeofday(&tv), 0);
  assert_true(tv.tv_sec > 1600000000); /* after September 2020 */
  assert_true(tv.tv_usec >= 0 && tv.tv_usec < 1000000);
}

static void hrtime_monotonic(void** state) {
  (void)state;
  uint64_t prev = uv_hrtime();
  for (int k = 0; k < 1000; k++) {
    uint64_t now = uv_hrtime();
    assert_true(now >= prev);
    prev = now;
  }
  uint64_t before = uv_hrtime();
  uv_sleep(5);
  uint64_t elapsed = uv_hrtime() - before;
  assert_true(elapsed >= 5u * 1000 * 1000); /* nanoseconds */
  assert_true(elapsed < 5000ull * 1000 * 1000);
}

static void type_sizes(void** state) {
  (void)state;
  assert_int_equal(uv_loop_size(), sizeof(uv_loop_t));
  assert_int_equal(uv_handle_size(UV_ASYNC), sizeof(uv_async_t));
  assert_int_equal(uv_handle_size(UV_CHECK), sizeof(uv_check_t));
  assert_int_equal(uv_handle_size(UV_FS_EVENT), sizeof(uv_fs_event_t));
  assert_int_equal(uv_handle_size(UV_FS_POLL), sizeof(uv_fs_poll_t));
  assert_int_equal(uv_handle_size(UV_HANDLE), sizeof(uv_handle_t));
  assert_int_equal(uv_handle_size(UV_IDLE), sizeof(uv_idle_t));
  assert_int_equal(uv_handle_size(UV_NAMED_PIPE), sizeof(uv_pipe_t));
  assert_int_equal(uv_handle_size(UV_POLL), sizeof(uv_poll_t));
  assert_int_equal(uv_handle_size(UV_PREPARE), sizeof(uv_prepare_t));
  assert_int_equal(uv_handle_size(UV_PROCESS), sizeof(uv_process_t));
  assert_int_equal(uv_handle_size(UV_STREAM), sizeof(uv_stream_t));
  assert_int_equal(uv_handle_size(UV_TCP), sizeof(uv_tcp_t));
  assert_int_equal(uv_handle_size(UV_TIMER), sizeof(uv_timer_t));
  assert_int_equal(uv_handle_size(UV_TTY), sizeof(uv_tty_t));
  assert_int_equal(uv_handle_size(UV_UDP), sizeof(uv_udp_t));
  assert_int_equal(uv_handle_size(UV_SIGNAL), sizeof(uv_signal_t));
  assert_int_equal(uv_handle_size(UV_UNKNOWN_HANDLE), (size_t)-1);
  assert_int_equal(uv_handle_size(UV_HANDLE_TYPE_MAX), (size_t)-1);
  assert_int_equal(uv_req_size(UV_REQ), sizeof(uv_req_t));
  assert_int_equal(uv_req_size(UV_CONNECT), sizeof(uv_connect_t));
  assert_int_equal(uv_req_size(UV_WRITE), sizeof(uv_write_t));
  assert_int_equal(uv_req_size(UV_SHUTDOWN), sizeof(uv_shutdown_t));
  assert_int_equal(uv_req_size(UV_UDP_SEND), sizeof(uv_udp_send_t));
  assert_int_equal(uv_req_size(UV_FS), sizeof(uv_fs_t));
  assert_int_equal(uv_req_size(UV_WORK), sizeof(uv_work_t));
  assert_int_equal(uv_req_size(UV_GETADDRINFO), sizeof(uv_getaddrinfo_t));
  assert_int_equal(uv_req_size(UV_GETNAMEINFO), sizeof(uv_getnameinfo_t));
  assert_int_equal(uv_req_size(UV_RANDOM), sizeof(uv_random_t));
  assert_int_equal(uv_req_size(UV_UNKNOWN_REQ), (size_t)-1);
  assert_int_equal(uv_req_size(UV_REQ_TYPE_MAX), (size_t)-1);
}

int run_misc_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(buf_init),
      cmocka_unit_test(version),
      cmocka_unit_test(os_env),
      cmocka_unit_test(cwd),
      cmocka_unit_test(guess_handle),
      cmocka_unit_test(gettimeofday_),
      cmocka_unit_test(hrtime_monotonic),
      cmocka_unit_test(type_sizes),
  };
  return cmocka_run_group_tests_name("misc", tests, NULL, NULL);
}
