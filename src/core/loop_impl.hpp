#pragma once
// Private to the library: template members of loop that several source
// files instantiate (callback wrappers with and without hooks).

#include <sched.h>

#include "phaseloop/loop.hpp"

namespace phaseloop {

namespace detail {

// How long a thread about to sleep may first spin for what would wake it
// (poll for a write to the loop's own descriptors, a pool worker for
// work): PHASELOOP_SPIN_US microseconds (0: never; at most 10,000), 50 by
// default -- longer than a thread's wake-up here, so that an answer to
// something just handed to another thread is caught.
std::uint64_t spin_window_ns() noexcept;

// Spins until done() or `ns` have passed; true if done(). Yields the CPU
// every few microseconds, for the thread that is to make done() true
// (there may be more runnable threads than CPUs).
template <class Done>
bool spin_until(Done&& done, std::uint64_t ns) noexcept {
  const std::uint64_t end = loop::hrtime() + ns;
  for (unsigned i = 1;; i++) {
    if (done()) return true;
    if ((i & 63) == 0) {
      if (loop::hrtime() >= end) return false;
      sched_yield();
    } else {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }
}

}  // namespace detail

template <bool H, class F>
inline void loop::callback_(phase p, callback_kind kind, handle* h, req* r, F&& f) {
  if constexpr (!H) {
    f();
  } else {
    const callback_event e{p, kind, iteration_, time_, h, r};
    each_hook_([&](hook& k) { k.callback_enter(*this, e); });
    f();
    each_hook_([&](hook& k) { k.callback_exit(*this, e); });
  }
}

template <class F>
inline void loop::poll_callback_(callback_kind kind, handle* h, req* r, F&& f) {
  if (hooks_.empty()) [[likely]]
    f();
  else
    callback_<true>(phase::poll, kind, h, r, static_cast<F&&>(f));
}

}  // namespace phaseloop
