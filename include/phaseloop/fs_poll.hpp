// SPDX-License-Identifier: MIT
#pragma once
/// File polling: stat a path every `interval` ms and call back when what
/// stat reports changes (size, mode, owner, inode, device, times).
///
/// Each poll is a threadpool stat request started by an internal timer
/// (hidden from walk, not keeping the loop alive); the callback runs in the
/// poll phase, as fs callbacks do. As libuv:
/// - the first stat only records the file, unless it fails: then the
///   callback gets the error, with `prev` all zero;
/// - later, a change gives status 0 with the previous and current stat;
///   a failure gives the error with the last good stat as `prev` and zeros
///   as `curr`, once per distinct error; a success after a failure always
///   calls back.
/// Stopping or closing while a stat is in flight waits for it: a closed
/// handle's close callback comes in the closing phase after that, one
/// iteration after the internal timer's. Every method is for the loop's
/// thread only.

#include <cstddef>

#include "phaseloop/fs.hpp"
#include "phaseloop/handle.hpp"

namespace phaseloop {

namespace detail {
struct fs_poll_ctx;
}

class fs_poll;

/// Runs in the poll phase: 0 with the previous and current stat, or a
/// negative error code with the last good stat and zeros.
using fs_poll_cb = void (*)(fs_poll*, int status, const fs_stat* prev, const fs_stat* curr);

class fs_poll : public handle {
 public:
  /// Joins `l` as an inactive handle. Loop thread only.
  explicit fs_poll(phaseloop::loop& l) noexcept;

  /// Starts polling `path` every `interval` ms (0 means 1). 0 and nothing
  /// done when already active; errc::invalid for a null path or callback
  /// or a closing handle; errc::no_memory.
  int start(fs_poll_cb cb, const char* path, unsigned interval) noexcept;
  /// Stops polling. Always 0.
  int stop() noexcept;
  /// Copies the polled path into `buf` (size in/out, as libuv's
  /// uv_fs_poll_getpath): errc::invalid when stopped, -ENOBUFS when it does
  /// not fit (then *size is the size needed).
  int getpath(char* buf, std::size_t* size) const noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  friend struct detail::fs_poll_ctx;
  // Stops; true when the handle may finish closing now (no stat or timer
  // of an earlier start is still around).
  bool close_() noexcept;
  // Puts a closing handle on the loop's closing list once its last
  // context is gone.
  void finish_close_() noexcept;

  detail::fs_poll_ctx* ctx_ = nullptr;  // newest start's state; older ones chain behind
};

}  // namespace phaseloop
