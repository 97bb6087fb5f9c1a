// SPDX-License-Identifier: MIT
// Profiles and the libuv version a process behaves as
// (include/phaseloop/types.hpp).

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "phaseloop/types.hpp"

namespace phaseloop {

const char* profile_name(profile p) noexcept {
  switch (p) {
    case profile::libuv_1_44: return "libuv-1.44";
    case profile::libuv_1_45: return "libuv-1.45";
    case profile::libuv_1_48: return "libuv-1.48";
    case profile::libuv_1_49: return "libuv-1.49";
    case profile::libuv_1_50: return "libuv-1.50";
    case profile::libuv_1_51: return "libuv-1.51";
    case profile::libuv_1_52: return "libuv-1.52";
    case profile::libuv_1_53: return "libuv-1.53";
  }
  return nullptr;
}

// configure passes its --with-profile version (see configure.ac); a build
// without it (a compiler run by hand) behaves as 1.44.2.
#ifndef PHASELOOP_BUILD_UV_MINOR
#define PHASELOOP_BUILD_UV_MINOR 44
#define PHASELOOP_BUILD_UV_PATCH 2
#endif

libuv_version configured_version() noexcept {
  return {1, PHASELOOP_BUILD_UV_MINOR, PHASELOOP_BUILD_UV_PATCH};
}

// "libuv-1.50.0", "1.50", "libuv-1.45+" (the old name of the newer order):
// true with the version, false for anything else.
bool known_libuv_version(libuv_version v) noexcept { return v.major == 1 && v.minor >= 44 && v.minor <= 53; }

bool parse_libuv_version(const char* text, libuv_version& out) noexcept {
  if (std::strncmp(text, "libuv-", 6) == 0) text += 6;
  libuv_version v{0, 0, -1};
  int used = 0;
  if (std::sscanf(text, "%d.%d%n", &v.major, &v.minor, &used) != 2) return false;
  text += used;
  if (*text == '.') {
    if (std::sscanf(text, ".%d%n", &v.patch, &used) != 1) return false;
    text += used;
  }
  if (std::strcmp(text, "+") == 0 && v.patch < 0) text++;
  if (*text != '\0' || v.major < 0 || v.minor < 0) return false;
  if (v.patch < 0) v.patch = v.major == 1 && v.minor == 44 ? 2 : 0;
  out = v;
  return true;
}

namespace {

// $PHASELOOP_PROFILE's version: true when it is set and names one (a
// value that names none is reported, once).
bool version_from_env(libuv_version& v) noexcept {
  const char* text = std::getenv("PHASELOOP_PROFILE");
  if (text == nullptr || *text == '\0') return false;
  if (parse_libuv_version(text, v)) return true;
  static bool told = false;
  if (!told)
    std::fprintf(stderr, "phaseloop: PHASELOOP_PROFILE=%s is no libuv version (libuv-1.44, libuv-1.50.0, ...); ignored\n",
                 text);
  told = true;
  return false;
}

}  // namespace

// Read at each call, so that a program may set the variable before it
// opens its loops.
libuv_version process_version() noexcept {
  libuv_version v = configured_version();
  version_from_env(v);
  return v;
}

namespace detail {

int uv_use_io_uring_env() noexcept {
  static const int v = [] {
    const char* s = std::getenv("UV_USE_IO_URING");
    return s == nullptr ? -1 : std::atoi(s);
  }();
  return v;
}

io_uring_use phaseloop_io_uring_env() noexcept {
  static const io_uring_use v = [] {
    const char* s = std::getenv("PHASELOOP_IO_URING");
    if (s == nullptr || *s == '\0') return io_uring_use::automatic;
    if (std::strcmp(s, "on") == 0 || std::strcmp(s, "1") == 0) return io_uring_use::on;
    if (std::strcmp(s, "off") == 0 || std::strcmp(s, "0") == 0) return io_uring_use::off;
    if (std::strcmp(s, "sqpoll") == 0) return io_uring_use::sqpoll;
    std::fprintf(stderr, "phaseloop: PHASELOOP_IO_URING=%s is not on, off, sqpoll, 1 or 0; ignored\n", s);
    return io_uring_use::automatic;
  }();
  return v;
}

}  // namespace detail

// Without the variable a loop made by C++ code takes the newest profile
// (the C API gives its loops profile_of(process_version()) instead: a libuv
// program behaves as the libuv it was built for).
profile process_profile() noexcept {
  libuv_version v{};
  return version_from_env(v) ? profile_of(v) : profile::newest;
}

}  // namespace phaseloop
