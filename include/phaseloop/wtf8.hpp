// SPDX-License-Identifier: MIT
#pragma once
/// UTF-16 to and from WTF-8 (UTF-8 that also carries unpaired surrogates,
/// as 3-byte sequences): libuv's uv_utf16_* and uv_wtf8_* (1.47). Any
/// thread; no allocation except where said.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace phaseloop {

/// Bytes of the WTF-8 form of `utf16` (`len` units, or up to a 0 unit when
/// `len` is negative), without a terminating NUL.
std::size_t utf16_length_as_wtf8(const std::uint16_t* utf16, ssize_t len) noexcept;

/// Converts `utf16` (as above) to WTF-8. With `*out` null the text goes to a
/// new malloc()ed buffer (PHASELOOP_ENOMEM) and `*out_len`, when not null,
/// becomes its length; with `out` itself null only the length is computed.
/// With `*out` given, `*out_len` is its size less one byte for the NUL: the
/// text is cut to fit (always NUL-terminated), `*out_len` becomes the
/// length written, and PHASELOOP_ENOBUFS says that it did not fit, with
/// `*out_len` then the length of the complete characters written plus what
/// the rest needs.
int utf16_to_wtf8(const std::uint16_t* utf16, ssize_t len, char** out, std::size_t* out_len) noexcept;

/// UTF-16 units needed for NUL-terminated `wtf8`, its terminating 0
/// included; -1 when it is not WTF-8.
ssize_t wtf8_length_as_utf16(const char* wtf8) noexcept;

/// Converts NUL-terminated `wtf8` (checked with wtf8_length_as_utf16 first)
/// into exactly `len` units, the terminating 0 included.
void wtf8_to_utf16(const char* wtf8, std::uint16_t* utf16, std::size_t len) noexcept;

}  // namespace phaseloop
