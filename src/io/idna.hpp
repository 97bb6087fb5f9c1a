// SPDX-License-Identifier: MIT
// IDNA for getaddrinfo (src/io/idna.cpp): a host name in UTF-8 to the
// ASCII form a name server is asked, as libuv's uv__idna_toascii.

#pragma once

namespace phaseloop::detail {

// Each label that is not all ASCII becomes "xn--" and its punycode (RFC
// 3492; no case folding or normalisation, as in libuv); '.' and its CJK
// and full-width forms separate labels and are written as '.'. `out`
// gets the name, NUL-terminated. Returns 0, errc::invalid for an empty
// name, one that is not UTF-8 or one that does not fit (as in Debian's
// libuv 1.44.2, which has the 1.48 fixes), or -E2BIG when punycode
// overflows.
int idna_to_ascii(const char* name, char (&out)[256]) noexcept;

}  // namespace phaseloop::detail
