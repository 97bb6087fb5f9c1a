// SPDX-License-Identifier: MIT
// IDNA: host names to ASCII, as libuv does before getaddrinfo
// (io/idna.hpp).

#include "io/idna.hpp"

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstring>

#include "phaseloop/types.hpp"

namespace phaseloop::detail {

namespace {

// The next code point of a UTF-8 string, or -1 for a malformed sequence
// (bad or missing continuation bytes, overlong forms, surrogates, values
// past U+10FFFF).
long utf8_next(const unsigned char*& p, const unsigned char* end) noexcept {
  const unsigned lead = *p++;
  if (lead < 0x80) return lead;
  int more;
  long cp, min;
  if (lead >= 0xC2 && lead <= 0xDF) {
    more = 1, cp = lead & 0x1F, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    more = 2, cp = lead & 0x0F, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    more = 3, cp = lead & 0x07, min = 0x10000;
  } else {
    return -1;
  }
  if (end - p < more) return -1;
  for (; more > 0; more--) {
    const unsigned c = *p++;
    if ((c & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

// Characters libuv takes as label separators: '.' and its CJK and
// full-width forms (all written as '.').
bool is_dot(long cp) noexcept { return cp == '.' || cp == 0x3002 || cp == 0xFF0E || cp == 0xFF61; }

// An output buffer that counts what does not fit, so that the caller can
// tell an over-long result.
struct ascii_out {
  char* p;
  std::size_t cap;
  std::size_t n = 0;
  void put(char c) noexcept {
    if (n < cap) p[n] = c;
    n++;
  }
};

char puny_digit(unsigned d) noexcept { return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26)); }

// RFC 3492's bias adaptation.
unsigned puny_adapt(unsigned delta, unsigned points, bool first) noexcept {
  delta = first ? delta / 700 : delta / 2;
  delta += delta / points;
  unsigned k = 0;
  while (delta > 35 * 26 / 2) {
    delta /= 35;
    k += 36;
  }
  return k + 36 * delta / (delta + 38);
}

// One label: copied when it is all ASCII, else "xn--" and its punycode
// (RFC 3492; no case folding or normalisation, as in libuv).
int encode_label(const char32_t* cps, unsigned len, ascii_out& out) noexcept {
  unsigned basic = 0;
  for (unsigned i = 0; i < len; i++)
    if (cps[i] < 0x80) basic++;
  if (basic == len) {
    for (unsigned i = 0; i < len; i++) out.put(static_cast<char>(cps[i]));
    return 0;
  }
  for (const char* s = "xn--"; *s; s++) out.put(*s);
  for (unsigned i = 0; i < len; i++)
    if (cps[i] < 0x80) out.put(static_cast<char>(cps[i]));
  if (basic > 0) out.put('-');
  unsigned n = 0x80, delta = 0, bias = 72, done = basic;
  bool first = true;
  while (done < len) {
    unsigned m = UINT_MAX;
    for (unsigned i = 0; i < len; i++)
      if (cps[i] >= n && cps[i] < m) m = cps[i];
    if (m - n > (UINT_MAX - delta) / (done + 1)) return -E2BIG;
    delta += (m - n) * (done + 1);
    n = m;
    for (unsigned i = 0; i < len; i++) {
      if (cps[i] < n && ++delta == 0) return -E2BIG;
      if (cps[i] != n) continue;
      unsigned q = delta;
      for (unsigned k = 36;; k += 36) {
        const unsigned t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (q < t) break;
        out.put(puny_digit(t + (q - t) % (36 - t)));
        q = (q - t) / (36 - t);
      }
      out.put(puny_digit(q));
      bias = puny_adapt(delta, done + 1, first);
      first = false;
      delta = 0;
      done++;
    }
    delta++;
    n++;
  }
  return 0;
}

}  // namespace

int idna_to_ascii(const char* name, char (&out)[256]) noexcept {
  if (*name == '\0') return errc::invalid;
  ascii_out o{out, sizeof out - 1};
  char32_t label[sizeof out];
  unsigned len = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(name);
  const unsigned char* end = p + std::strlen(name);
  while (p < end) {
    const long cp = utf8_next(p, end);
    if (cp < 0) return errc::invalid;
    if (!is_dot(cp)) {
      // A label this long cannot fit once written out.
      if (len == sizeof out) return errc::invalid;
      label[len++] = static_cast<char32_t>(cp);
      continue;
    }
    if (int r = encode_label(label, len, o); r != 0) return r;
    o.put('.');
    len = 0;
  }
  if (int r = encode_label(label, len, o); r != 0) return r;
  if (o.n > o.cap) return errc::invalid;
  out[o.n] = '\0';
  return 0;
}

}  // namespace phaseloop::detail
