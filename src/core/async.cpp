// Async handles. A send moves the handle from idle (0) to "sending" (1),
// wakes the loop, then to pending (2); the loop takes pending handles back
// to 0 and calls them. The middle state lets the loop (and close) wait for a
// sender that is between the two steps instead of missing its wake-up.

#include <sched.h>

#include "phaseloop/loop.hpp"

namespace phaseloop {

namespace {
// Tells the CPU we are spinning (frees resources for a sibling hyperthread).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

async::async(phaseloop::loop& l, async_cb cb) noexcept : handle(l, handle_type::async), cb_(cb) {
  l.asyncs_.push_back(*this);
  start_();
}

int async::send() noexcept {
  if (pending_.load(std::memory_order_relaxed) != 0) return 0;  // cheap check first
  int expected = 0;
  if (!pending_.compare_exchange_strong(expected, 1, std::memory_order_acquire)) return 0;
  loop_->wake_();
  pending_.store(2, std::memory_order_release);
  return 0;
}

bool async::take_pending_() noexcept {
  for (int spins = 0;; spins++) {
    // Read first and only then write: a failed read-modify-write would take
    // the cache line away from the sender we are waiting for.
    int state = pending_.load(std::memory_order_acquire);
    if (state == 0) return false;
    if (state == 2) {
      if (pending_.compare_exchange_weak(state, 0, std::memory_order_acq_rel)) return true;
      continue;
    }
    // A sender is between its two steps, which span one write() to the
    // eventfd (a microsecond or two): spin about that long, then, as it was
    // probably preempted, yield the CPU to it.
    if (spins < 128)
      cpu_relax();
    else
      sched_yield();
  }
}

void async::close_() noexcept {
  take_pending_();
  list::unlink(*this);  // the live list, or an async pass's set-aside list
  stop_();
}

}  // namespace phaseloop
