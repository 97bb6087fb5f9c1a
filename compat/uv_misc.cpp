// Small functions of libuv's API: buffers, version, the allocator, library
// shutdown, uv_guess_handle. (Process and system functions: uv_os.cpp.)

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

uv_handle_type uv_guess_handle(uv_file file) {
  return static_cast<uv_handle_type>(phaseloop::guess_handle(file));
}

}  // extern "C"
