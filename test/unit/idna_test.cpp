// SPDX-License-Identifier: MIT
// detail::idna_to_ascii (src/io/idna.cpp): host names in UTF-8 to the ASCII
// form getaddrinfo is asked. Expected punycode from RFC 3492's algorithm
// (checked against an independent encoder).

#include <cerrno>
#include <string>

#include <gtest/gtest.h>

#include "io/idna.hpp"
#include "phaseloop/types.hpp"

namespace {

namespace pl = phaseloop;

// The result code, and the name when the code is 0.
struct converted {
  int status;
  std::string name;
};

converted to_ascii(const std::string& name) {
  char out[256];
  const int r = pl::detail::idna_to_ascii(name.c_str(), out);
  return {r, r == 0 ? std::string(out) : std::string()};
}

void expect_ascii(const std::string& in, const std::string& want) {
  SCOPED_TRACE(in);
  const converted c = to_ascii(in);
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.name, want);
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; i++) out += s;
  return out;
}

TEST(idna, ascii_names_are_copied_as_they_are) {
  expect_ascii("example.com", "example.com");
  expect_ascii("localhost", "localhost");
  expect_ascii("Mixed-Case.Example.", "Mixed-Case.Example.");
  expect_ascii("a", "a");
}

TEST(idna, non_ascii_labels_become_punycode) {
  expect_ascii("b\xC3\xBC" "cher.example", "xn--bcher-kva.example");      // bücher
  expect_ascii("m\xC3\xBCnchen.test", "xn--mnchen-3ya.test");             // münchen
  expect_ascii("\xC3\xBC", "xn--tda");                                    // ü alone
  expect_ascii("a\xC3\xBC" "b", "xn--ab-xka");                            // aüb
  expect_ascii("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E.jp", "xn--wgv71a119e.jp");  // 日本語
  expect_ascii("\xE4\xBE\x8B\xE3\x81\x88.test", "xn--r8jz45g.test");      // 例え
  expect_ascii("\xF0\x9F\x98\x80.example", "xn--e28h.example");           // U+1F600, four bytes
  expect_ascii("\xCF\x80\xCE\xB1\xCF\x81\xCE\xAC\xCE\xB4\xCE\xB5\xCE\xB9\xCE\xB3\xCE\xBC\xCE\xB1.test",
               "xn--hxajbheg2az3al.test");  // παράδειγμα
}

TEST(idna, no_case_folding) {
  expect_ascii("B\xC3\xBC" "cher.Example", "xn--Bcher-kva.Example");  // Bücher
}

TEST(idna, cjk_and_full_width_stops_separate_labels) {
  expect_ascii("m\xC3\xBCnchen\xEF\xBC\x8Etest", "xn--mnchen-3ya.test");  // U+FF0E
  expect_ascii("b\xC3\xBC" "cher\xE3\x80\x82" "example", "xn--bcher-kva.example");  // U+3002
  expect_ascii("b\xC3\xBC" "cher\xEF\xBD\xA1" "example", "xn--bcher-kva.example");  // U+FF61
  expect_ascii("a\xE3\x80\x82" "b", "a.b");
}

TEST(idna, empty_name_is_invalid) { EXPECT_EQ(to_ascii("").status, pl::errc::invalid); }

TEST(idna, malformed_utf8_is_invalid) {
  for (const char* bad : {
           "\xFF.example",          // not a lead byte
           "\x80" "abc",            // a continuation byte first
           "b\xC3",                 // sequence cut short
           "b\xC3" "a",             // missing continuation byte
           "\xC0\x80",              // overlong NUL
           "\xE0\x80\xAF",          // overlong '/'
           "\xED\xA0\x80.test",     // a UTF-16 surrogate
           "\xF4\x90\x80\x80",      // past U+10FFFF
       }) {
    SCOPED_TRACE(testing::PrintToString(std::string(bad)));
    EXPECT_EQ(to_ascii(bad).status, pl::errc::invalid);
  }
}

TEST(idna, names_that_do_not_fit_are_invalid) {
  // 255 characters fit (with the terminating NUL), 256 do not.
  expect_ascii(repeat("a", 255), repeat("a", 255));
  EXPECT_EQ(to_ascii(repeat("a", 256)).status, pl::errc::invalid);
  EXPECT_EQ(to_ascii(repeat("a.", 128)).status, pl::errc::invalid);
  // A label of 256 code points is refused before it is encoded.
  EXPECT_EQ(to_ascii(repeat("\xC3\xBC", 256)).status, pl::errc::invalid);
  // 249 times ü: 255 characters once encoded, which fit; 250: 256.
  const converted fits = to_ascii(repeat("\xC3\xBC", 249));
  EXPECT_EQ(fits.status, 0);
  EXPECT_EQ(fits.name, "xn--tda" + repeat("a", 248));
  EXPECT_EQ(to_ascii(repeat("\xC3\xBC", 250)).status, pl::errc::invalid);
}

}  // namespace
