// SPDX-License-Identifier: MIT
#pragma once
// A Node timer list: the active timeouts sharing one delay, in insertion
// order (so each list is also in due order). Private to src/node.

#include <cstddef>
#include <cstdint>

#include "phaseloop/node.hpp"

namespace phaseloop::node {

class timer_list {
 public:
  timer_list(runtime& rt, double ms) noexcept : rt_(&rt), msecs(ms) {}

  runtime* rt_;
  double msecs;                  // the delay every timeout here shares
  double expiry = 0;             // node11+: when the head is due
  std::uint64_t id = 0;          // node11+: tie-break among equal expiries
  std::size_t pos = 0;           // node11+: index in the runtime's heap
  timeout::list timeouts;        // oldest first
  phaseloop::timer* core = nullptr;  // node10: this list's own core timer
  bool busy = false;             // its timeouts are being run
  bool dropped = false;          // emptied while busy: free when done
};

// Closes a core handle the Node layer allocated, freeing it once closed.
template <class H>
void close_and_delete(H* h) {
  if (h == nullptr) return;
  h->close([](handle* c) { delete static_cast<H*>(c); });
}

}  // namespace phaseloop::node
