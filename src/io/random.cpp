// SPDX-License-Identifier: MIT
// uv_random's request (include/phaseloop/random.hpp): os::random_bytes on a
// pool thread, completed in the poll phase like every pool request.

#include "phaseloop/random.hpp"

#include <cstddef>

#include "core/internal.hpp"
#include "phaseloop/os.hpp"

namespace phaseloop {

void random_req::pool_run_() noexcept { status_ = os::random_bytes(buf_, len_); }

void random_req::pool_done_(int status) noexcept {
  const int result = status != 0 ? status : status_;
  // The callback may free the request; nothing touches it afterwards.
  detail::loop_seam::complete(*loop_, callback_kind::random, nullptr, this,
                              [this, result] { cb_(this, result, buf_, len_); });
}

int random_req::start(phaseloop::loop* l, void* buf, std::size_t len, unsigned flags, random_cb cb) noexcept {
  if (len > 0x7FFFFFFFu) return PHASELOOP_E2BIG;
  if (flags != 0) return PHASELOOP_EINVAL;
  if (cb == nullptr) return os::random_bytes(buf, len);
  if (l == nullptr) return PHASELOOP_EINVAL;
  loop_ = l;
  buf_ = buf;
  len_ = len;
  cb_ = cb;
  status_ = 0;
  const int r = detail::pool_submit(*l, task_, detail::pool_request<random_req>::ops);
  if (r == 0) detail::loop_seam::started(*l, *this, nullptr);
  return r;
}

int random_req::cancel() noexcept {
  if (loop_ == nullptr) return errc::busy;
  return detail::pool_cancel(*loop_, task_);
}

}  // namespace phaseloop
