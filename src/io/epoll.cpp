// SPDX-License-Identifier: MIT
// The Linux poller: epoll. watch() only records what is wanted; flush(),
// called by the poll phase before it waits, tells the kernel (as libuv
// defers registration to its poll), two or more changes in one system
// call through an io_uring ring when the loop allows it (as libuv >= 1.45
// does). Unwatching entirely is immediate.

#include <signal.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>

#include "phaseloop/detail/poller.hpp"

#if PHASELOOP_HAVE_LIBURING
#include <liburing.h>
#endif

namespace phaseloop::detail {

// The readiness bits are epoll's own, so events pass through unconverted.
static_assert(unsigned{io_readable} == unsigned{EPOLLIN} && unsigned{io_writable} == unsigned{EPOLLOUT} &&
              unsigned{io_priority} == unsigned{EPOLLPRI} && unsigned{io_error} == unsigned{EPOLLERR} &&
              unsigned{io_hangup} == unsigned{EPOLLHUP} && unsigned{io_read_hangup} == unsigned{EPOLLRDHUP} &&
              unsigned{io_edge} == unsigned{EPOLLET});

#if PHASELOOP_HAVE_LIBURING
struct poller::ctl_ring {
  static constexpr unsigned entries = 256;  // changes per system call (libuv's ring size)
  io_uring ring;
  struct change {
    int fd;
    int op;
    epoll_event e;  // the kernel reads it while it makes the change
  } batch[entries];
  unsigned n = 0;  // changes in `batch`, not yet sent
};
#else
struct poller::ctl_ring {};
#endif

void poller::drop_ring_() noexcept {
#if PHASELOOP_HAVE_LIBURING
  if (ring_ != nullptr) io_uring_queue_exit(&ring_->ring);
#endif
  delete ring_;
  ring_ = nullptr;
  ring_failed_ = false;
}

int poller::open() noexcept {
  fd_ = epoll_create1(EPOLL_CLOEXEC);
  return fd_ < 0 ? -errno : 0;
}

void poller::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  drop_ring_();
  count_ = 0;
  changes_.clear();
  queued_ = 0;
  table_.clear();
  table_.shrink_to_fit();
  batch_pos_.clear();
  batch_pos_.shrink_to_fit();
}

int poller::reopen() noexcept {
  const int fd = epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0) return -errno;
  // Closing is all the old instance gets: removing an fd from it would
  // remove it from the parent's.
  ::close(fd_);
  fd_ = fd;
  // The ring's memory is shared with the parent too: the child makes its own.
  drop_ring_();
  for (io_watcher*& w : table_) {
    if (w == nullptr) continue;
    w->registered = 0;
    if (w->wanted == 0) {  // disarmed: the new instance never knew it
      unqueue_(*w);
      w = nullptr;
      count_--;
    }
  }
  return 0;
}

int poller::rearm() noexcept {
  for (io_watcher* w : table_) {
    if (w == nullptr || w->queued_at >= 0 || w->wanted == w->registered) continue;
    if (int r = queue_(*w); r != 0) return r;
  }
  return 0;
}

bool poller::unqueue_(io_watcher& w) noexcept {
  if (w.queued_at < 0) return false;
  w.queued_at = -1;  // its entry stays behind, stale
  queued_--;
  return true;
}

int poller::queue_(io_watcher& w) noexcept {
  // The queue's capacity is twice the table's (reserve()), and the live
  // entries are at most one per fd: outside flush(), dropping the stale
  // entries always makes room without allocating.
  if (changes_.size() == changes_.capacity() && !flushing_) compact_();
  try {
    changes_.push_back(w.fd);
  } catch (...) {
    return -ENOMEM;
  }
  w.queued_at = static_cast<int>(changes_.size() - 1);
  queued_++;
  return 0;
}

// Drops the stale entries, keeping the live ones in order.
void poller::compact_() noexcept {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < changes_.size(); i++) {
    io_watcher* w = watcher(changes_[i]);
    if (w == nullptr || w->queued_at != static_cast<int>(i)) continue;
    w->queued_at = static_cast<int>(kept);
    changes_[kept++] = changes_[i];
  }
  changes_.resize(kept);
}

int poller::grow_(int fd) noexcept {
  if (fd < 0) return -EBADF;
  try {
    const std::size_t size = static_cast<unsigned>(fd) + 1 > 2 * table_.size() ? fd + 1 : 2 * table_.size();
    // The queue first: a table that grew has room in the queue too.
    changes_.reserve(2 * size);
    batch_pos_.resize(size, 0);
    table_.resize(size, nullptr);
  } catch (...) {
    return -ENOMEM;
  }
  return 0;
}

int poller::watch(io_watcher& w, unsigned events) noexcept {
  if (int r = reserve(w.fd); r != 0) return r;
  const auto fd = static_cast<unsigned>(w.fd);
  if (io_watcher* prev = table_[fd]; prev != nullptr && prev != &w && prev->queued_at >= 0) {
    // The fd number changed hands without unwatch(): the queue entry of
    // the watcher it belonged to is this one's now (flush looks fds up).
    if (w.queued_at < 0) w.queued_at = prev->queued_at; else queued_--;
    prev->queued_at = -1;
  }
  if (w.queued_at < 0 && (w.wanted | events) != w.registered && queue_(w) != 0) {
    // No memory to queue the change: it goes to the kernel now, which
    // needs none of ours.
    const unsigned before = w.wanted;
    w.wanted |= events;
    if (const int err = apply_(w); err != 0) {
      w.wanted = before;
      return -err;
    }
  }
  w.wanted |= events;
  if (table_[fd] == nullptr) count_++;
  table_[fd] = &w;
  return 0;
}

int poller::apply_(io_watcher& w) noexcept {
  epoll_event e{};
  e.events = w.wanted;
  e.data.fd = w.fd;
  const int op = w.registered != 0 ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
  if (epoll_ctl(fd_, op, w.fd, &e) != 0 && (errno != EEXIST || epoll_ctl(fd_, EPOLL_CTL_MOD, w.fd, &e) != 0))
    return errno;
  w.registered = w.wanted;
  return 0;
}

void poller::refused_(io_watcher& w, int err, void (*failed)(io_watcher&, int, void*), void* arg,
                      bool may_retry) noexcept {
  // One by one, the kernel keeps what it had (none after a failed ADD, the
  // old events after a failed MOD) and so does `registered`: the change
  // waits for the next flush. (A batch has already set `registered`.)
  if (may_retry && (err == ENOMEM || err == ENOSPC) && refusals_ < transient_refusals &&
      (w.queued_at >= 0 || queue_(w) == 0)) {
    retrying_ = true;
    return;
  }
  unqueue_(w);  // queued again by a callback since its change went out
  table_[static_cast<unsigned>(w.fd)] = nullptr;
  count_--;
  w.wanted = w.registered = 0;
  failed(w, -err, arg);
}

// The live entry changes_[i] (of the first `end`) whose watcher wants a
// change, taken off the queue; else nullptr.
io_watcher* poller::take_change_(std::size_t i, std::size_t end) noexcept {
  io_watcher* w = watcher(changes_[i]);
  if (w == nullptr) return nullptr;
  const int at = w->queued_at;
  if (at != static_cast<int>(i) && at < static_cast<int>(end)) return nullptr;  // a stale entry
  w->queued_at = -1;
  queued_--;
  return w->wanted == w->registered && w->wanted != 0 ? nullptr : w;
}

// flush() with changes queued.
[[gnu::hot]] void poller::flush_(void (*failed)(io_watcher&, int, void*), void* arg) noexcept {
  // A failure callback may watch or unwatch: what it queues lands past
  // `end` and waits for the next flush. A watcher it queues again whose
  // entry this pass has not reached yet is registered at that entry, as
  // when unwatch() removed entries from the queue.
  // Stale entries out first, so that what callbacks queue during the walk
  // (at most one entry per fd beyond the live ones) fits the capacity.
  if (changes_.size() > table_.size()) compact_();
  const bool batch = batching_ && queued_ >= 2 && open_ring_();
  flushing_ = true;
  const std::size_t end = changes_.size();
  for (std::size_t i = 0; i < end; i++) {
    io_watcher* w = take_change_(i, end);
    if (w == nullptr) continue;
    if (w->wanted == 0) {  // disarmed and not watched again since
      drop_(*w);
      continue;
    }
    if (batch && ring_ != nullptr) {  // (a failed send drops the ring)
      if (batch_add_(*w)) batch_send_(failed, arg);
    } else if (const int err = apply_(*w); err != 0) {
      refused_(*w, err, failed, arg, true);
    }
  }
  if (batch && ring_ != nullptr) batch_send_(failed, arg);
  flushing_ = false;
  compact_();
  refusals_ = retrying_ ? refusals_ + 1 : 0;  // 0 already unless the last flush retried
}

// ---- batches through io_uring ------------------------------------------------
// The changes of one flush go in chunks of ctl_ring::entries, one
// io_uring_enter each (submit, and wait for every answer: the kernel makes
// epoll_ctl calls at once). An ADD of an fd the kernel already knows is
// made again as a MOD, one by one; the watchers it refuses are dropped and
// reported after their chunk.

#if PHASELOOP_HAVE_LIBURING

bool poller::open_ring_() noexcept {
  if (ring_ != nullptr) return true;
  if (ring_failed_) return false;
  auto* r = new (std::nothrow) ctl_ring;
  bool ok = r != nullptr && io_uring_queue_init(ctl_ring::entries, &r->ring, 0) == 0;
  if (ok) {
    io_uring_probe* probe = io_uring_get_probe_ring(&r->ring);
    ok = probe != nullptr && io_uring_opcode_supported(probe, IORING_OP_EPOLL_CTL);
    if (probe != nullptr) io_uring_free_probe(probe);
    if (!ok) io_uring_queue_exit(&r->ring);
  }
  if (!ok) {
    delete r;
    ring_failed_ = true;  // one by one from now on
    return false;
  }
  ring_ = r;
  return true;
}

bool poller::batch_add_(io_watcher& w) noexcept {
  ctl_ring::change& c = ring_->batch[ring_->n];
  c.fd = w.fd;
  c.op = w.registered != 0 ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
  c.e = epoll_event{};
  c.e.events = w.wanted;
  c.e.data.fd = w.fd;
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_->ring);
  io_uring_prep_epoll_ctl(sqe, fd_, c.fd, c.op, &c.e);
  sqe->user_data = ring_->n;
  w.registered = w.wanted;  // as the kernel will have it, unless it refuses
  return ++ring_->n == ctl_ring::entries;
}

// Sends the chunk and waits for its answers. Should the ring fail, it is
// dropped (its entries with it) and what it did not answer is made one by
// one.
void poller::batch_send_(void (*failed)(io_watcher&, int, void*), void* arg) noexcept {
  const unsigned n = ring_->n;
  if (n == 0) return;
  ring_->n = 0;
  struct refusal {
    int fd;
    int err;
  } refused[ctl_ring::entries];
  unsigned nrefused = 0;
  bool answered[ctl_ring::entries] = {};
  int r;
  do r = io_uring_submit_and_wait(&ring_->ring, n);
  while (r == -EINTR);
  for (unsigned got = 0; r >= 0 && got < n;) {
    io_uring_cqe* cqe = nullptr;
    r = io_uring_wait_cqe(&ring_->ring, &cqe);
    if (r == -EINTR) r = 0;
    if (r < 0 || cqe == nullptr) continue;
    const auto i = static_cast<unsigned>(cqe->user_data);
    const int res = cqe->res;
    io_uring_cqe_seen(&ring_->ring, cqe);
    got++;
    if (i >= n) continue;
    answered[i] = true;
    ctl_ring::change& c = ring_->batch[i];
    if (res == 0) continue;
    if (res == -EEXIST && c.op == EPOLL_CTL_ADD && epoll_ctl(fd_, EPOLL_CTL_MOD, c.fd, &c.e) == 0) continue;
    refused[nrefused++] = {c.fd, res == -EEXIST ? errno : -res};
  }
  if (r < 0) {
    ctl_ring::change batch[ctl_ring::entries];
    std::copy(ring_->batch, ring_->batch + n, batch);
    drop_ring_();
    ring_failed_ = true;
    for (unsigned i = 0; i < n; i++) {
      ctl_ring::change& c = batch[i];
      if (answered[i]) continue;
      if (epoll_ctl(fd_, c.op, c.fd, &c.e) != 0 && (errno != EEXIST || epoll_ctl(fd_, EPOLL_CTL_MOD, c.fd, &c.e) != 0))
        refused[nrefused++] = {c.fd, errno};
    }
  }
  for (unsigned k = 0; k < nrefused; k++) {
    io_watcher* w = watcher(refused[k].fd);
    if (w == nullptr || w->registered == 0) continue;  // gone meanwhile
    if (w->wanted == 0) {  // disarmed meanwhile: its queued change drops it
      w->registered = 0;
      continue;
    }
    refused_(*w, refused[k].err, failed, arg, false);
  }
}

#else  // without liburing: one by one

bool poller::open_ring_() noexcept { return false; }
bool poller::batch_add_(io_watcher&) noexcept { return false; }
void poller::batch_send_(void (*)(io_watcher&, int, void*), void*) noexcept {}

#endif

void poller::unwatch(io_watcher& w, unsigned events) noexcept {
  w.wanted &= ~events;
  if (w.fd < 0 || watcher(w.fd) != &w) return;
  if (w.wanted != 0) {
    // Should queueing fail, the fd stays registered for more than is
    // wanted: the loop filters events by `wanted`, so the extra ones are
    // never delivered.
    if (w.wanted != w.registered && w.queued_at < 0) queue_(w);
    return;
  }
  // The entry stays behind, stale. Compacting when most entries are
  // stale keeps the queue's length within twice the live count.
  if (unqueue_(w) && !flushing_ && changes_.size() >= 64 && changes_.size() > 2 * std::size_t{queued_}) compact_();
  drop_(w);
}

bool poller::has_changes() const noexcept {
  if (queued_ == 0) return false;
  for (std::size_t i = 0; i < changes_.size(); i++) {
    const io_watcher* w = watcher(changes_[i]);
    if (w != nullptr && w->queued_at == static_cast<int>(i) && w->wanted != 0) return true;
  }
  return false;
}

void poller::disarm(io_watcher& w, unsigned events) noexcept {
  // Kept registered (with its old events, which the loop filters out)
  // until the next flush, where it goes unless watched again by then.
  // Should queueing fail, it goes at once.
  if (w.fd >= 0 && watcher(w.fd) == &w && w.registered != 0 && (w.wanted & ~events) == 0 &&
      (w.queued_at >= 0 || queue_(w) == 0)) {
    w.wanted = 0;
    return;
  }
  unwatch(w, events);
}

void poller::drop_(io_watcher& w) noexcept {
  if (w.registered != 0) {
    epoll_event e{};
    epoll_ctl(fd_, EPOLL_CTL_DEL, w.fd, &e);  // fails harmlessly if fd is closed
  }
  w.registered = 0;
  table_[static_cast<unsigned>(w.fd)] = nullptr;
  count_--;
  if (batch_scan_) {
    for (int i = 0; i < batch_n_; i++)
      if (batch_[i].fd == w.fd) batch_[i].fd = -1;
  } else if (static_cast<unsigned>(w.fd) < batch_pos_.size()) {
    const int i = batch_pos_[static_cast<unsigned>(w.fd)];
    if (i < batch_n_ && batch_[i].fd == w.fd) batch_[i].fd = -1;
  }
}

[[gnu::hot]] int poller::wait(int timeout, io_event* out, int max, bool sigprof_blocked) noexcept {
  // The kernel writes its records (packed on x86-64) over the start of
  // `out`; each is read before the io_event that takes its place is
  // written, from the last to the first, so that none is overwritten
  // before it is read (an io_event is at least as large as a record).
  static_assert(sizeof(epoll_event) <= sizeof(io_event));
  auto* raw = reinterpret_cast<epoll_event*>(out);
  int n;
  if (sigprof_blocked) {
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    sigaddset(&mask, SIGPROF);
    n = epoll_pwait(fd_, raw, max, timeout, &mask);
  } else {
    n = epoll_wait(fd_, raw, max, timeout);
  }
  if (n < 0) return -errno;
  bool scan = false;
  for (int i = n - 1; i >= 0; i--) {
    epoll_event e;
    std::memcpy(&e, reinterpret_cast<const unsigned char*>(out) + static_cast<std::size_t>(i) * sizeof e, sizeof e);
    const int fd = e.data.fd;
    out[i] = io_event{fd, e.events, 0};
    if (fd < 0 || static_cast<unsigned>(fd) >= batch_pos_.size()) {
      scan = true;
      continue;
    }
    // Slots above i already belong to this batch, so a match there is the
    // same fd reported twice: a registration that outlived its fd's close
    // (the file lives on through a dup) next to the fd's new one.
    int& pos = batch_pos_[static_cast<unsigned>(fd)];
    if (pos > i && pos < n && out[pos].fd == fd) scan = true;
    pos = i;
  }
  batch_ = out;
  batch_n_ = n;
  batch_scan_ = scan;
  return n;
}

}  // namespace phaseloop::detail
