// SPDX-License-Identifier: MIT
#pragma once
// A growable FIFO ring: the task queues of the Node and browser layers.
// Pushing allocates only when the ring is full (it doubles); once warm, a
// queue costs no allocation at all.

#include <cstddef>
#include <utility>
#include <vector>

namespace phaseloop::detail {

template <class T>
class ring {
 public:
  bool empty() const noexcept { return head_ == tail_; }
  std::size_t size() const noexcept { return tail_ - head_; }
  void push(const T& t) {
    if (tail_ - head_ == buf_.size()) {
      // Full (or never grown): double, unrolling so the oldest lands at 0.
      std::vector<T> bigger(buf_.empty() ? 64 : buf_.size() * 2);
      const std::size_t n = tail_ - head_;
      for (std::size_t i = 0; i < n; i++) bigger[i] = buf_[(head_ + i) & mask_];
      buf_ = std::move(bigger);
      mask_ = buf_.size() - 1;
      head_ = 0;
      tail_ = n;
    }
    buf_[tail_++ & mask_] = t;
  }
  /// The oldest element; the ring must not be empty.
  T& front() noexcept { return buf_[head_ & mask_]; }
  T pop() noexcept { return buf_[head_++ & mask_]; }
  void clear() noexcept { head_ = tail_ = 0; }
  /// Visits every element, oldest first.
  template <class F>
  void for_each(F&& f) {
    for (std::size_t i = head_; i != tail_; i++) f(buf_[i & mask_]);
  }

 private:
  std::vector<T> buf_;
  std::size_t mask_ = 0;
  std::size_t head_ = 0;
  std::size_t tail_ = 0;
};

}  // namespace phaseloop::detail
