// SPDX-License-Identifier: MIT
// Handle bookkeeping shared by every handle type: joining the loop, the
// active/ref accounting that decides whether the loop is alive, and close().

#include "phaseloop/loop.hpp"
#include "phaseloop/os.hpp"
#include "phaseloop/udp.hpp"
#include "phaseloop/fs_event.hpp"
#include "phaseloop/fs_poll.hpp"
#include "phaseloop/poll.hpp"
#include "phaseloop/pipe.hpp"
#include "phaseloop/process.hpp"
#include "phaseloop/stream.hpp"
#include "phaseloop/tty.hpp"

namespace phaseloop {

handle::handle(phaseloop::loop& l, handle_type t) noexcept
    : loop_(&l), type_(t), close_cb_(nullptr), next_closing_(nullptr), flags_(ref_flag) {
  l.handles_.push_back(*this);
}

// The loop counts handles that are both active and referenced; closing
// handles were stopped by close() and no longer count either way.
[[gnu::hot]] void handle::start_() noexcept {
  if (flags_ & active_flag) return;
  flags_ |= active_flag;
  if (flags_ & ref_flag) loop_->active_handles_++;
}

[[gnu::hot]] void handle::stop_() noexcept {
  if (!(flags_ & active_flag)) return;
  flags_ &= ~active_flag;
  if (flags_ & ref_flag) loop_->active_handles_--;
}

void handle::ref() noexcept {
  if (flags_ & ref_flag) return;
  flags_ |= ref_flag;
  if (flags_ & (closing_flag | closed_flag)) return;
  if (flags_ & active_flag) loop_->active_handles_++;
}

void handle::unref() noexcept {
  if (!(flags_ & ref_flag)) return;
  flags_ &= ~ref_flag;
  if (flags_ & (closing_flag | closed_flag)) return;
  if (flags_ & active_flag) loop_->active_handles_--;
}

int handle::close(close_cb cb) noexcept {
  if (flags_ & (closing_flag | closed_flag)) return errc::invalid;
  flags_ |= closing_flag;
  close_cb_ = cb;
  switch (type_) {
    case handle_type::timer: static_cast<timer*>(this)->close_(); break;
    case handle_type::idle: static_cast<idle*>(this)->close_(); break;
    case handle_type::prepare: static_cast<prepare*>(this)->close_(); break;
    case handle_type::check: static_cast<check*>(this)->close_(); break;
    case handle_type::async: static_cast<async*>(this)->close_(); break;
    case handle_type::signal: static_cast<signal*>(this)->close_(); break;
    case handle_type::udp: static_cast<udp*>(this)->close_(); break;
    case handle_type::fs_event: static_cast<fs_event*>(this)->close_(); break;
    case handle_type::fs_poll:
      // Finished later if a stat or timer of it is still around.
      if (!static_cast<fs_poll*>(this)->close_()) return 0;
      break;
    case handle_type::poll: static_cast<poll*>(this)->close_(); break;
    case handle_type::named_pipe: static_cast<pipe*>(this)->close_(); break;
    case handle_type::tcp: static_cast<stream*>(this)->close_(); break;
    case handle_type::tty: static_cast<tty*>(this)->close_(); break;
    case handle_type::process: static_cast<process*>(this)->close_(); break;
    default: stop_(); break;
  }
  loop_->make_close_pending_(*this);
  return 0;
}

int handle::fileno() const noexcept {
  int fd;
  switch (type_) {
    case handle_type::tcp:
    case handle_type::named_pipe:
    case handle_type::tty: fd = static_cast<const stream*>(this)->fd(); break;
    case handle_type::udp: fd = static_cast<const udp*>(this)->fd(); break;
    case handle_type::poll: fd = static_cast<const poll*>(this)->fd(); break;
    default: return errc::invalid;
  }
  return is_closing() || fd == -1 ? errc::bad_fd : fd;
}

int handle::socket_buffer_size(bool send, int* value) const noexcept {
  if (value == nullptr) return errc::invalid;
  if (type_ != handle_type::tcp && type_ != handle_type::named_pipe && type_ != handle_type::udp)
    return errc::not_supported;
  const int fd = fileno();
  return fd < 0 ? fd : os::socket_buffer_size(fd, send, value);
}

}  // namespace phaseloop
