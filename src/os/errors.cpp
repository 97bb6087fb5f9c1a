// SPDX-License-Identifier: MIT
// Error names and messages (include/phaseloop/types.hpp), from the one list
// of codes in include/phaseloop/errors.h.

#include "phaseloop/errors.h"
#include "phaseloop/types.hpp"

namespace phaseloop {

const char* error_name(int code) noexcept {
  switch (code) {
#define PHASELOOP_ERR_NAME(name, msg) \
  case PHASELOOP_##name:              \
    return #name;
    PHASELOOP_ERRNO_MAP(PHASELOOP_ERR_NAME)
#undef PHASELOOP_ERR_NAME
#define PHASELOOP_ERR_NAME(unused, name, minor, msg) \
  case PHASELOOP_##name:                             \
    return #name;
    PHASELOOP_ERRNO_MAP_LATER(PHASELOOP_ERR_NAME, _)
#undef PHASELOOP_ERR_NAME
  }
  return nullptr;
}

const char* error_message(int code) noexcept {
  switch (code) {
#define PHASELOOP_ERR_MSG(name, msg) \
  case PHASELOOP_##name:             \
    return msg;
    PHASELOOP_ERRNO_MAP(PHASELOOP_ERR_MSG)
#undef PHASELOOP_ERR_MSG
#define PHASELOOP_ERR_MSG(unused, name, minor, msg) \
  case PHASELOOP_##name:                            \
    return msg;
    PHASELOOP_ERRNO_MAP_LATER(PHASELOOP_ERR_MSG, _)
#undef PHASELOOP_ERR_MSG
  }
  return nullptr;
}

int error_since(int code) noexcept {
  switch (code) {
#define PHASELOOP_ERR_SINCE(unused, name, minor, msg) \
  case PHASELOOP_##name:                              \
    return minor;
    PHASELOOP_ERRNO_MAP_LATER(PHASELOOP_ERR_SINCE, _)
#undef PHASELOOP_ERR_SINCE
  }
  return error_name(code) != nullptr ? 0 : -1;
}

}  // namespace phaseloop
