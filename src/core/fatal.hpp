// SPDX-License-Identifier: MIT
#pragma once
// The one way the library gives up: when a system call the loop cannot go
// on without fails in a way no retry mends (docs/design.md, "When a system
// call fails"), it says which call and which errno on standard error, then
// aborts, so that a supervisor sees a dead process instead of a hung one.

namespace phaseloop::detail {

/// Writes "phaseloop: CALL failed: MESSAGE (ENAME); WHAT" to standard error
/// with one write(2) (safe in a signal handler) and aborts. `err` is a
/// positive errno; `what` says what could not go on.
[[noreturn]] void fatal(const char* call, int err, const char* what) noexcept;

/// How many times a call whose failure may be transient (an injected or
/// passing error: EIO, ENOMEM, ...) is tried before fatal().
inline constexpr int transient_tries = 64;

}  // namespace phaseloop::detail
