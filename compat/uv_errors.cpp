// SPDX-License-Identifier: MIT
// libuv's error names and messages over phaseloop::error_name and
// error_message (one list of codes: phaseloop/errors.h), with libuv's text
// for codes it does not know.

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "phaseloop/behaviour.hpp"
#include "phaseloop/types.hpp"
#include "api.hpp"

namespace {

// For a code libuv does not know it returns a freshly allocated string that
// is never freed; phaseloop does the same, so callers see the same text.
const char* unknown(int err) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "Unknown system error %d", err);
  char* copy = strdup(buf);
  return copy != nullptr ? copy : "Unknown system error";
}

char* copy_into(char* buf, size_t len, const char* text, int err) {
  if (len == 0) return buf;
  if (text != nullptr)
    std::snprintf(buf, len, "%s", text);
  else
    std::snprintf(buf, len, "Unknown system error %d", err);
  return buf;
}

// The name and message of a code the libuv phaseloop behaves as knows
// (codes named after 1.44 only from their version on), else null.
// (libuv 1.53 numbers EFTYPE as Linux does.)
int code_of(int err) {
  if (!phaseloop::behaviour_of(phaseloop::profile_of(phaseloop::process_version())).eftype_as_linux) return err;
  if (err == PHASELOOP_EFTYPE_1_53) return PHASELOOP_EFTYPE;
  return err == PHASELOOP_EFTYPE ? 0 : err;
}

const char* name_of(int err) {
  err = code_of(err);
  const int since = phaseloop::error_since(err);
  return err != 0 && since >= 0 && since <= phaseloop::process_version().minor ? phaseloop::error_name(err) : nullptr;
}

const char* message_of(int err) { return name_of(err) != nullptr ? phaseloop::error_message(code_of(err)) : nullptr; }

}  // namespace

extern "C" {

const char* uv_err_name(int err) {
  const char* n = name_of(err);
  return n != nullptr ? n : unknown(err);
}

const char* uv_strerror(int err) {
  const char* m = message_of(err);
  return m != nullptr ? m : unknown(err);
}

char* uv_err_name_r(int err, char* buf, size_t buflen) { return copy_into(buf, buflen, name_of(err), err); }
char* uv_strerror_r(int err, char* buf, size_t buflen) { return copy_into(buf, buflen, message_of(err), err); }

int uv_translate_sys_error(int sys_errno) { return phaseloop::from_errno(sys_errno); }

}  // extern "C"
