// SPDX-License-Identifier: MIT
// File requests through io_uring (src/io/fs_ring.cpp), for fs_req
// (src/io/fs.cpp). Loop thread only.

#pragma once

#include "phaseloop/fs.hpp"
#include "phaseloop/loop.hpp"

namespace phaseloop::detail {

/// Starts asynchronous request `r` on its loop's ring: true when the ring
/// took it (it counts as an active request and completes in the poll
/// phase), false when the threadpool must run it (the loop does not use
/// io_uring, the ring cannot do this operation, or the ring is full).
bool fs_ring_submit(loop& l, fs_req& r) noexcept;

}  // namespace phaseloop::detail
