// SPDX-License-Identifier: MIT
// UTF-16 to and from WTF-8 (include/phaseloop/wtf8.hpp), with libuv's rules:
// a high surrogate followed by a low one is one code point, anything else
// stands for itself; a WTF-8 lead byte says how many continuation bytes
// follow, 3-byte sequences may encode surrogates, nothing above U+10FFFF.

#include "phaseloop/wtf8.hpp"

#include <cstdlib>

#include "phaseloop/errors.h"

namespace phaseloop {

namespace {

// The code point at `p` (`left` units left, negative: up to a 0 unit), a
// surrogate pair joined; `units` is set to how many it takes.
std::uint32_t code_point_at(const std::uint16_t* p, ssize_t left, int* units) {
  const std::uint32_t u = p[0];
  *units = 1;
  if (u >= 0xD800 && u <= 0xDBFF && left != 1 && p[1] >= 0xDC00 && p[1] <= 0xDFFF) {
    *units = 2;
    return 0x10000 + ((u - 0xD800) << 10) + (p[1] - 0xDC00u);
  }
  return u;
}

std::size_t encoded_size(std::uint32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

// The bytes of `cp` in WTF-8; returns their number.
std::size_t encode(std::uint32_t cp, unsigned char out[4]) {
  const std::size_t n = encoded_size(cp);
  static constexpr unsigned char lead[] = {0x00, 0x00, 0xC0, 0xE0, 0xF0};
  for (std::size_t i = n - 1; i > 0; i--) {
    out[i] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
    cp >>= 6;
  }
  out[0] = static_cast<unsigned char>(lead[n] | cp);
  return n;
}

// Moves past `units` units of a source of `*left` units (negative: no count).
void advance(const std::uint16_t** p, ssize_t* left, int units) {
  *p += units;
  if (*left > 0) *left -= units;
}

// One WTF-8 sequence at `*s`: its code point, `*s` moved past it; -1 when
// it is none (a stray continuation byte, a missing one, too large).
std::int32_t decode(const unsigned char** s) {
  const unsigned char b = *(*s)++;
  if (b <= 0x7F) return b;
  if (b < 0xC2) return -1;
  const int more = b <= 0xDF ? 1 : b <= 0xEF ? 2 : 3;
  std::uint32_t cp = b & (0x3Fu >> more);
  for (int i = 0; i < more; i++) {
    const unsigned char c = *(*s)++;
    if ((c & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (more == 3 && (b > 0xF4 || cp > 0x10FFFF)) return -1;
  return static_cast<std::int32_t>(cp);
}

}  // namespace

std::size_t utf16_length_as_wtf8(const std::uint16_t* utf16, ssize_t len) noexcept {
  std::size_t total = 0;
  while (len != 0) {
    int units;
    const std::uint32_t cp = code_point_at(utf16, len, &units);
    if (len < 0 && cp == 0) break;
    total += encoded_size(cp);
    advance(&utf16, &len, units);
  }
  return total;
}

int utf16_to_wtf8(const std::uint16_t* utf16, ssize_t len, char** out, std::size_t* out_len) noexcept {
  const bool given = out != nullptr && *out != nullptr;
  const std::size_t room = given ? *out_len : utf16_length_as_wtf8(utf16, len);
  if (!given && out_len != nullptr) *out_len = room;
  if (out == nullptr) return 0;
  if (!given) {
    *out = static_cast<char*>(std::malloc(room + 1));
    if (*out == nullptr) return PHASELOOP_ENOMEM;
  }
  char* t = *out;
  char* const end = t + room;
  std::size_t complete = 0;  // bytes of whole characters written
  while (t != end && len != 0) {
    int units;
    const std::uint32_t cp = code_point_at(utf16, len, &units);
    if (len < 0 && cp == 0) {
      len = 0;
      break;
    }
    unsigned char bytes[4];
    const std::size_t n = encode(cp, bytes);
    std::size_t i = 0;
    while (i < n && t != end) *t++ = static_cast<char>(bytes[i++]);
    if (i < n) break;  // cut inside a character
    complete = static_cast<std::size_t>(t - *out);
    advance(&utf16, &len, units);
  }
  if (t != end && out_len != nullptr) *out_len = static_cast<std::size_t>(t - *out);
  if (len < 0 && t == end && utf16[0] == 0) len = 0;  // it fit exactly
  *t = '\0';
  if (len != 0) {
    if (out_len != nullptr) *out_len = complete + utf16_length_as_wtf8(utf16, len);
    return PHASELOOP_ENOBUFS;
  }
  return 0;
}

ssize_t wtf8_length_as_utf16(const char* wtf8) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(wtf8);
  ssize_t units = 0;
  for (;;) {
    const std::int32_t cp = decode(&s);
    if (cp < 0) return -1;
    units += cp > 0xFFFF ? 2 : 1;
    if (cp == 0) return units;
  }
}

void wtf8_to_utf16(const char* wtf8, std::uint16_t* utf16, std::size_t len) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(wtf8);
  std::uint16_t* const end = utf16 + len;
  for (;;) {
    const std::int32_t cp = decode(&s);
    if (cp < 0 || utf16 == end) return;
    if (cp > 0xFFFF) {
      if (end - utf16 < 2) return;
      *utf16++ = static_cast<std::uint16_t>(0xD800 + ((cp - 0x10000) >> 10));
      *utf16++ = static_cast<std::uint16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      *utf16++ = static_cast<std::uint16_t>(cp);
    }
    if (cp == 0) return;
  }
}

}  // namespace phaseloop
