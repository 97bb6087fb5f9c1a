// SPDX-License-Identifier: MIT
// Poll handles: readiness of a caller-owned fd, reported from the poll phase.

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>

#include <cerrno>
#include <cstddef>

#include "core/internal.hpp"
#include "phaseloop/poll.hpp"

namespace phaseloop {

namespace {

// The readiness bits a poll handle may ask for, in the poller's terms.
constexpr unsigned all_poll_events =
    detail::io_readable | detail::io_writable | detail::io_read_hangup | detail::io_priority;

// Whether the kernel would let this loop watch the fd: epoll refuses
// regular files and directories (EPERM), closed fds (EBADF). An fd already
// in the epoll set (EEXIST) is fine.
int check_watchable(int epfd, int fd) noexcept {
  epoll_event e{};
  e.events = EPOLLIN;
  e.data.fd = -1;
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &e) != 0) return errno == EEXIST ? 0 : -errno;
  epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &e);
  return 0;
}

int set_nonblocking(int fd) noexcept {
  int on = 1;
  int r;
  do r = ioctl(fd, FIONBIO, &on);
  while (r != 0 && errno == EINTR);
  if (r == 0) return 0;
  if (errno != ENOTTY) return -errno;
  // Some fds (an epoll fd, for one) take no ioctls: fall back to fcntl.
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -errno;
  if ((flags & O_NONBLOCK) == 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return -errno;
  return 0;
}

}  // namespace

int poll::prepare_fd(phaseloop::loop& l, int fd) noexcept {
  if (detail::loop_seam::poller(l).watcher(fd) != nullptr) return -EEXIST;
  if (int r = check_watchable(detail::loop_seam::poller(l).fd(), fd); r != 0) return r;
  return set_nonblocking(fd);
}

poll::poll(phaseloop::loop& l, int fd) noexcept : handle(l, handle_type::poll) {
  watcher_.cb = &poll::io_;
  watcher_.fd = fd;
}

int poll::start(int events, poll_cb cb) noexcept {
  if ((events & ~(readable | writable | disconnect | prioritized)) != 0 || is_closing())
    return errc::invalid;
  detail::io_watcher* owner = detail::loop_seam::poller(*loop_).watcher(watcher_.fd);
  if (owner != nullptr && owner != &watcher_) return -EEXIST;
  stop_watch_();
  if (events == 0) return 0;
  unsigned want = 0;
  if (events & readable) want |= detail::io_readable;
  if (events & prioritized) want |= detail::io_priority;
  if (events & writable) want |= detail::io_writable;
  if (events & disconnect) want |= detail::io_read_hangup;
  if (int r = detail::loop_seam::poller(*loop_).watch(watcher_, want); r != 0) return r;
  start_();
  cb_ = cb;
  return 0;
}

int poll::stop() noexcept {
  if (is_closing()) return errc::invalid;
  stop_watch_();
  return 0;
}

void poll::stop_watch_() noexcept {
  detail::loop_seam::poller(*loop_).unwatch(watcher_, all_poll_events);
  stop_();
}

void poll::io_(phaseloop::loop& l, detail::io_watcher& w, unsigned events) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  poll* p = reinterpret_cast<poll*>(reinterpret_cast<char*>(&w) - offsetof(poll, watcher_));
#pragma GCC diagnostic pop
  // An error alone means the fd is unusable: stop, report it once. Error
  // together with urgent data is how sysfs files signal a change, so that
  // case is an ordinary event.
  if ((events & detail::io_error) && !(events & detail::io_priority)) {
    p->stop_watch_();
    const int err = events & detail::io_refused ? -detail::refused_errno(events) : -EBADF;
    detail::loop_seam::complete(l, callback_kind::io, p, nullptr, [p, err] { p->cb_(p, err, 0); });
    return;
  }
  int ready = 0;
  if (events & detail::io_readable) ready |= readable;
  if (events & detail::io_priority) ready |= prioritized;
  if (events & detail::io_writable) ready |= writable;
  if (events & detail::io_read_hangup) ready |= disconnect;
  // From libuv 1.53 an error or a hang-up, alone or not, comes with every
  // event the handle asked for (before, the poll turned one that came
  // alone into them: run.cpp).
  if ((events & (detail::io_error | detail::io_hangup)) && l.behaves().error_alone_is_quiet) {
    const unsigned asked = p->watcher_.wanted;
    if (asked & detail::io_readable) ready |= readable;
    if (asked & detail::io_priority) ready |= prioritized;
    if (asked & detail::io_writable) ready |= writable;
    if (asked & detail::io_read_hangup) ready |= disconnect;
  }
  detail::loop_seam::complete(l, callback_kind::io, p, nullptr, [p, ready] { p->cb_(p, 0, ready); });
}

}  // namespace phaseloop
