// Small process-level functions of libuv's API: buffers, version, time,
// signals to processes, environment, working directory, memory figures.

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
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

int uv_kill(int pid, int signum) { return kill(pid, signum) == 0 ? 0 : -errno; }
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

char** uv_setup_args(int argc, char** argv) {
  (void)argc;
  return argv;
}

int uv_os_getenv(const char* name, char* buffer, size_t* size) {
  if (name == nullptr || buffer == nullptr || size == nullptr || *size == 0) return UV_EINVAL;
  const char* v = getenv(name);
  if (v == nullptr) return UV_ENOENT;
  size_t len = strlen(v);
  if (len >= *size) {
    *size = len + 1;
    return UV_ENOBUFS;
  }
  memcpy(buffer, v, len + 1);
  *size = len;
  return 0;
}

int uv_os_setenv(const char* name, const char* value) {
  if (name == nullptr || value == nullptr) return UV_EINVAL;
  return setenv(name, value, 1) == 0 ? 0 : -errno;
}

int uv_os_unsetenv(const char* name) {
  if (name == nullptr) return UV_EINVAL;
  return unsetenv(name) == 0 ? 0 : -errno;
}

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

uint64_t uv_get_total_memory(void) {
  struct sysinfo si;
  return sysinfo(&si) == 0 ? static_cast<uint64_t>(si.totalram) * si.mem_unit : 0;
}

uint64_t uv_get_free_memory(void) {
  struct sysinfo si;
  return sysinfo(&si) == 0 ? static_cast<uint64_t>(si.freeram) * si.mem_unit : 0;
}

int uv_uptime(double* uptime) {
  timespec t;
  if (clock_gettime(CLOCK_BOOTTIME, &t) != 0) return -errno;
  *uptime = static_cast<double>(t.tv_sec);
  return 0;
}

void uv_loadavg(double avg[3]) {
  struct sysinfo si;
  if (sysinfo(&si) != 0) {
    avg[0] = avg[1] = avg[2] = 0;
    return;
  }
  for (int i = 0; i < 3; i++) avg[i] = static_cast<double>(si.loads[i]) / 65536.0;
}

uv_handle_type uv_guess_handle(uv_file file) {
  return static_cast<uv_handle_type>(phaseloop::guess_handle(file));
}

}  // extern "C"
