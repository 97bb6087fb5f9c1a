// SPDX-License-Identifier: MIT
#pragma once
/// The base of every request: a one-shot operation whose completion callback
/// runs on the loop's thread. While a request is in flight it keeps its loop
/// alive. Its memory belongs to the caller and must stay valid until the
/// completion callback has run.

#include <cstddef>

#include "phaseloop/types.hpp"

namespace phaseloop {

class req {
 public:
  /// Free for the user; phaseloop never reads it. (libuv: `data`, offset 0.)
  void* data = nullptr;

  req(const req&) = delete;
  req& operator=(const req&) = delete;

  /// What kind of request this is. (libuv: `type`, offset 8.)
  req_type type() const noexcept { return type_; }

  /// Cancels a request of the threadpool (work, fs, getaddrinfo,
  /// getnameinfo, random) that no worker has taken yet, as its own
  /// cancel() does; errc::invalid for the other kinds.
  int cancel() noexcept;

 protected:
  explicit req(req_type t) noexcept : type_(t) {}
  ~req() = default;

 public:
  /// Offsets of the fields libuv's uv_req_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t data, type, reserved; };
  static constexpr c_fields c_layout() noexcept;

 protected:
  req_type type_;
  // libuv reserves six pointers here; C programs see them as `reserved`.
  // libuv 1.53 keeps a write's byte count in the sixth (extra_).
  void* reserved_[5] = {};
  std::size_t extra_ = 0;
};

}  // namespace phaseloop
