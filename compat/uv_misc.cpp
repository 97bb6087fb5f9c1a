// SPDX-License-Identifier: MIT
// Small functions of libuv's API: buffers, version, the allocator, library
// shutdown, uv_guess_handle. (Process and system functions: uv_os.cpp.)

#include <cstdio>

#include "phaseloop/tty.hpp"
#include "phaseloop/behaviour.hpp"
#include "phaseloop/types.hpp"
#include "phaseloop/wtf8.hpp"
#include "api.hpp"

extern "C" {

[[gnu::hot]] uv_buf_t uv_buf_init(char* base, unsigned int len) {
  uv_buf_t b;
  b.base = base;
  b.len = len;
  return b;
}

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

size_t uv_utf16_length_as_wtf8(const uint16_t* utf16, ssize_t utf16_len) {
  return phaseloop::utf16_length_as_wtf8(utf16, utf16_len);
}
int uv_utf16_to_wtf8(const uint16_t* utf16, ssize_t utf16_len, char** wtf8_ptr, size_t* wtf8_len_ptr) {
  return phaseloop::utf16_to_wtf8(utf16, utf16_len, wtf8_ptr, wtf8_len_ptr);
}
// Not WTF-8: -1 up to libuv 1.52, UV_EINVAL from 1.53.
ssize_t uv_wtf8_length_as_utf16(const char* wtf8) {
  const ssize_t n = phaseloop::wtf8_length_as_utf16(wtf8);
  return n < 0 && phaseloop::behaviour_of(phaseloop::profile_of(phaseloop::process_version())).wtf8_invalid_is_einval ? ssize_t{UV_EINVAL} : n;
}
void uv_wtf8_to_utf16(const char* wtf8, uint16_t* utf16, size_t utf16_len) {
  phaseloop::wtf8_to_utf16(wtf8, utf16, utf16_len);
}

uv_handle_type uv_guess_handle(uv_file file) {
  return static_cast<uv_handle_type>(phaseloop::guess_handle(file));
}

}  // extern "C"
