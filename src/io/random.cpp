// SPDX-License-Identifier: MIT
// uv_random's request (include/phaseloop/random.hpp): os::random_bytes on a
// pool thread, completed in the poll phase like every pool request.

#include "phaseloop/random.hpp"

#include <cstddef>

#include "core/internal.hpp"
#include "phaseloop/os.hpp"

namespace phaseloop {

random_req& random_req::of_(detail::pool_task& t) noexcept {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  return detail::task_owner<random_req>(t, offsetof(random_req, task_));
#pragma GCC diagnostic pop
}

const detail::pool_ops random_req::pool_ops_ = {
    [](detail::pool_task& t) {
      random_req& r = of_(t);
      r.status_ = os::random_bytes(r.buf_, r.len_);
    },
    [](detail::pool_task& t) -> loop& { return *of_(t).loop_; },
    [](detail::pool_task& t, int status) {
      random_req& r = of_(t);
      const int result = status != 0 ? status : r.status_;
      // The callback may free the request; nothing touches it afterwards.
      detail::loop_seam::complete(*r.loop_, callback_kind::random, nullptr, &r,
                                  [&r, result] { r.cb_(&r, result, r.buf_, r.len_); });
    },
    false,
    [](detail::pool_task& t) -> const req* { return &of_(t); },
};

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
  const int r = detail::pool_submit(*l, task_, pool_ops_);
  if (r == 0) detail::loop_seam::started(*l, *this, nullptr);
  return r;
}

int random_req::cancel() noexcept {
  if (loop_ == nullptr) return errc::busy;
  return detail::pool_cancel(*loop_, task_);
}

}  // namespace phaseloop
