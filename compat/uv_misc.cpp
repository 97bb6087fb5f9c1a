// Small functions of libuv's API: buffers, version, the allocator, library
// shutdown, uv_guess_handle. (Process and system functions: uv_os.cpp.)

#include <cstdio>

#include "phaseloop/tty.hpp"
#include "phaseloop/types.hpp"
#include "uv.h"

extern "C" {

uv_buf_t uv_buf_init(char* base, unsigned int len) {
  uv_buf_t b;
  b.base = base;
  b.len = len;
  return b;
}

static_assert(phaseloop::default_version.major == UV_VERSION_MAJOR &&
              phaseloop::default_version.minor == UV_VERSION_MINOR &&
              phaseloop::default_version.patch == UV_VERSION_PATCH);

// The version phaseloop behaves as (PHASELOOP_PROFILE, else uv.h's).
unsigned int uv_version(void) {
  const phaseloop::libuv_version v = phaseloop::process_version();
  return static_cast<unsigned>((v.major << 16) | (v.minor << 8) | v.patch);
}

const char* uv_version_string(void) {
  static char text[48];
  const phaseloop::libuv_version v = phaseloop::process_version();
  std::snprintf(text, sizeof text, "%d.%d.%d-%s", v.major, v.minor, v.patch, UV_VERSION_SUFFIX);
  return text;
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
