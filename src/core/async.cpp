// SPDX-License-Identifier: MIT
// Async handles. A send moves the handle from idle (0) to pending (2) and
// wakes the loop; the loop takes pending handles back to 0 and calls them.
// Taking a handle does not wait for its sender's wake-up to be written:
// that write may then wake a later wait, which the poll phase does not
// count as an event (detail::wakeup::found()). But a
// sender touches the loop after the state change, so a callback may close
// the handle, and the program free the loop, while the sender is still
// on its way out: every sender past the cheap check counts itself in
// busy_, and close marks the handle closed and waits for that count to
// reach 0. A thread may so send once and leave, and the loop's thread
// close and free everything as soon as the callback ran.
//
// While the loop has hooks, a send stamps its time and thread in the
// handle first: it goes through a middle state (1), published as pending
// (2) only once the stamp is written, and the loop waits for a sender in
// that state rather than take the handle without its stamp.

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "core/loop_impl.hpp"
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
  l.wakeup_.place(*this);
  start_();
}

int async::send() noexcept {
  if (pending_.load(std::memory_order_relaxed) != 0) return 0;  // cheap check first
  // Counted before the state change (both sequentially consistent, as is
  // close's mark): a close that sees no sender counted sees the state
  // change of none either, so every later send finds the handle closed.
  busy_.fetch_add(1, std::memory_order_seq_cst);
  phaseloop::loop* const l = loop_;
  int expected = 0;
  if (l->watched_.load(std::memory_order_relaxed)) [[unlikely]] {
    if (pending_.compare_exchange_strong(expected, 1, std::memory_order_seq_cst)) {
      l->wakeup_.push(*this);
      stamp_send_();
      l->wakeup_.write_for_send(false);
      pending_.store(2, std::memory_order_release);
    }
  } else if (pending_.compare_exchange_strong(expected, 2, std::memory_order_seq_cst)) {
    l->wakeup_.push(*this);
    l->wakeup_.notify();
  }
  // Release: close, reading 0, sees everything this send did to the loop.
  busy_.fetch_sub(1, std::memory_order_release);
  return 0;
}

bool async::take_pending_() noexcept {
  for (int spins = 0;; spins++) {
    // Read first and only then write: a failed read-modify-write would take
    // the cache line away from the sender we are waiting for.
    int state = pending_.load(std::memory_order_acquire);
    if (state == 0 || state == 3) return false;  // 3: closed
    if (state == 2) {
      if (pending_.compare_exchange_weak(state, 0, std::memory_order_acq_rel)) return true;
      continue;
    }
    // A watched sender is between its two steps, which span one write()
    // to the eventfd (a microsecond or two): spin about that long, then, as
    // it was probably preempted, yield the CPU to it.
    if (spins < 128)
      cpu_relax();
    else
      sched_yield();
  }
}

// Published by the release store of the pending state that follows, read
// after the loop's acquiring take (clock_gettime and gettid are
// async-signal-safe, as send must be).
void async::stamp_send_() noexcept {
  std::atomic_ref<std::uint64_t>(spare_[1]).store(static_cast<std::uint64_t>(::syscall(SYS_gettid)),
                                                   std::memory_order_relaxed);
  std::atomic_ref<std::uint64_t>(spare_[0]).store(loop::hrtime(), std::memory_order_relaxed);
}

std::uint64_t async::take_send_stamp_(long& thread) noexcept {
  const std::uint64_t sent = std::atomic_ref<std::uint64_t>(spare_[0]).exchange(0, std::memory_order_relaxed);
  thread = static_cast<long>(std::atomic_ref<std::uint64_t>(spare_[1]).load(std::memory_order_relaxed));
  return sent;
}

void async::wait_for_senders_() noexcept {
  pending_.store(3, std::memory_order_seq_cst);
  for (int spins = 0; busy_.load(std::memory_order_seq_cst) != 0; spins++) {
    // A sender here is a few instructions or one write() from leaving;
    // past that it was preempted, so give it the CPU.
    if (spins < 128)
      cpu_relax();
    else
      sched_yield();
  }
  // A watched sender that got in before the mark stored 2 over it.
  pending_.store(3, std::memory_order_relaxed);
}

void async::close_() noexcept {
  wait_for_senders_();
  // The closing phase drops it from the loop's lists before its close
  // callback.
  loop_->wakeup_.remove(*this);
  stop_();
}

}  // namespace phaseloop
