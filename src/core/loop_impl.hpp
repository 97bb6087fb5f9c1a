// SPDX-License-Identifier: MIT
#pragma once
// Private to the library: template members of loop that several source
// files instantiate (callback wrappers with and without hooks).

#include <sched.h>

#include "phaseloop/loop.hpp"

namespace phaseloop {

namespace detail {

// Spins until done() or `ns` have passed; true if done(). Yields the CPU
// every few microseconds, for the thread that is to make done() true
// (there may be more runnable threads than CPUs) -- unless three yields
// in a row each kept this thread off the CPU for a millisecond or more:
// the threads that ran meanwhile are then busy ones that never yield
// (async_pummel's senders), and among them a thread that yields every
// few microseconds hardly runs at all (libuv's async_pummel_8 on
// phaseloop: 4.7 ms off the CPU per yield of the loop's thread, up to a
// minute for 100,000 callbacks; performance-notes.md, "A spin among busy
// threads"). For the next 100 ms its spins do not yield; a spin that
// finds nothing ends in a sleep, and a woken sleeper gets the CPU soon.
// Among threads that do yield (several loops pinging each other on two
// cores) slow yields come rarely three in a row.
inline thread_local std::uint64_t no_yield_until = 0;  // hrtime()
inline thread_local unsigned slow_yields = 0;           // in a row
template <class Done>
bool spin_until(Done&& done, std::uint64_t ns) noexcept {
  constexpr std::uint64_t slow_yield_ns = 1000000;
  constexpr std::uint64_t quiet_ns = 100000000;
  std::uint64_t now = loop::hrtime();
  const std::uint64_t end = now + ns;
  bool may_yield = now >= no_yield_until;
  for (unsigned i = 1;; i++) {
    if (done()) return true;
    if ((i & 63) == 0) {
      now = loop::hrtime();
      if (now >= end) return false;
      if (may_yield) {
        sched_yield();
        const std::uint64_t back = loop::hrtime();
        if (back - now < slow_yield_ns) {
          slow_yields = 0;
        } else if (++slow_yields == 3) {
          slow_yields = 0;
          no_yield_until = back + quiet_ns;
          may_yield = false;
        }
      }
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
