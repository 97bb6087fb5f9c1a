// SPDX-License-Identifier: MIT
#pragma once
// What the files of src/os share: reading small /proc and /sys files and
// the text protocol of the string getters (include/phaseloop/os.hpp).

#include <cstddef>

namespace phaseloop::os::detail {

/// Reads up to size - 1 bytes of a small file in one read and
/// NUL-terminates them. 0 or -errno.
int slurp(const char* path, char* buf, std::size_t size) noexcept;

/// Copies `s` (of length `len`) out when it fits with its NUL; else
/// PHASELOOP_ENOBUFS with *size the size needed.
int copy_out(const char* s, std::size_t len, char* buffer, std::size_t* size) noexcept;

/// The arguments every text getter checks.
inline bool bad_text_args(const char* buffer, const std::size_t* size) noexcept {
  return buffer == nullptr || size == nullptr || *size == 0;
}

}  // namespace phaseloop::os::detail
