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
  }
  return nullptr;
}

}  // namespace phaseloop
