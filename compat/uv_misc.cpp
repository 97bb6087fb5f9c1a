// Small process-level functions of libuv's API: buffers, version, time,
// signals to processes, working directory, uv_guess_handle. (System and
// process information is in uv_os.cpp.)

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "phaseloop/tty.hpp"
#include "uv.h"

extern "C" {

uv_buf_t uv_buf_init(char* base, unsigned int len) {
  uv_buf_t b;
  b.base = base;
  b.len = len;
  return b;
}

unsigned int uv_version(void) { return UV_VERSION_HEX; }

const char* uv_version_string(void) {
#define PHASELOOP_STR2(x) #x
#define PHASELOOP_STR(x) PHASELOOP_STR2(x)
  return PHASELOOP_STR(UV_VERSION_MAJOR) "." PHASELOOP_STR(UV_VERSION_MINOR) "." PHASELOOP_STR(
      UV_VERSION_PATCH) "-" UV_VERSION_SUFFIX;
#undef PHASELOOP_STR
#undef PHASELOOP_STR2
}

uv_pid_t uv_os_getpid(void) { return getpid(); }
uv_pid_t uv_os_getppid(void) { return getppid(); }

void uv_sleep(unsigned int msec) {
  timespec t;
  t.tv_sec = msec / 1000;
  t.tv_nsec = static_cast<long>(msec % 1000) * 1000000;
  while (nanosleep(&t, &t) == -1 && errno == EINTR) {
  }
}

int uv_gettimeofday(uv_timeval64_t* tv) {
  if (tv == nullptr) return UV_EINVAL;
  timeval t;
  if (gettimeofday(&t, nullptr) != 0) return -errno;
  tv->tv_sec = t.tv_sec;
  tv->tv_usec = static_cast<int32_t>(t.tv_usec);
  return 0;
}

// phaseloop allocates almost nothing on the hot path and uses the C++
// allocator where it does; the allocator functions are accepted and kept so
// that callers see libuv's contract (all four or none).
int uv_replace_allocator(uv_malloc_func malloc_func, uv_realloc_func realloc_func, uv_calloc_func calloc_func,
                         uv_free_func free_func) {
  if (malloc_func == nullptr || realloc_func == nullptr || calloc_func == nullptr || free_func == nullptr)
    return UV_EINVAL;
  return 0;
}

void uv_library_shutdown(void) {}

int uv_cwd(char* buffer, size_t* size) {
  if (buffer == nullptr || size == nullptr) return UV_EINVAL;
  if (getcwd(buffer, *size) == nullptr) {
    if (errno != ERANGE) return -errno;
    char scratch[4096 + 1];
    if (getcwd(scratch, sizeof scratch) == nullptr) return -errno;
    *size = strlen(scratch) + 1;
    return UV_ENOBUFS;
  }
  *size = strlen(buffer);
  if (*size > 1 && buffer[*size - 1] == '/') buffer[--*size] = '\0';
  return 0;
}

int uv_chdir(const char* dir) { return chdir(dir) == 0 ? 0 : -errno; }

uv_handle_type uv_guess_handle(uv_file file) {
  return static_cast<uv_handle_type>(phaseloop::guess_handle(file));
}

}  // extern "C"
