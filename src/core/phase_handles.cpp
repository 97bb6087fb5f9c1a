// SPDX-License-Identifier: MIT
// Idle, prepare and check: one template, three instantiations. Each kind has
// its own list in the loop; run.cpp runs them.

#include "phaseloop/loop.hpp"

namespace phaseloop {


template <handle_type K>
int phase_handle<K>::start(callback cb) noexcept {
  if (is_active()) return 0;
  if (cb == nullptr || is_closing()) return errc::invalid;
  cb_ = cb;
  loop_->phase_list_<K>().push_front(*this);
  start_();
  return 0;
}

template <handle_type K>
int phase_handle<K>::stop() noexcept {
  if (!is_active()) return 0;
  // The handle is on the loop's list, or on a pass's set-aside list when
  // stopped from a callback of its own phase: leave whichever holds it.
  list::unlink(*this);
  stop_();
  return 0;
}

template class phase_handle<handle_type::idle>;
template class phase_handle<handle_type::prepare>;
template class phase_handle<handle_type::check>;

}  // namespace phaseloop
