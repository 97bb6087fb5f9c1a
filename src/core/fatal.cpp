// SPDX-License-Identifier: MIT
// fatal() (core/fatal.hpp): the message, then abort.

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/fatal.hpp"

namespace phaseloop::detail {

[[noreturn]] void fatal(const char* call, int err, const char* what) noexcept {
  char line[256];
  std::size_t n = 0;
  auto add = [&](const char* s) {
    if (s == nullptr) s = "?";
    for (; *s != '\0' && n < sizeof line - 1; s++) line[n++] = *s;
  };
  add("phaseloop: ");
  add(call);
  add(" failed: ");
  add(strerrordesc_np(err));
  add(" (");
  add(strerrorname_np(err));
  add("); ");
  add(what);
  add("\n");
  ssize_t r;
  do r = ::write(STDERR_FILENO, line, n);
  while (r < 0 && errno == EINTR);
  std::abort();
}

}  // namespace phaseloop::detail
