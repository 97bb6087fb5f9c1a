// SPDX-License-Identifier: MIT
// Signal handles.
//
// Process side: one sigaction handler per watched signal. For each watching
// handle (on any loop) it writes a note {handle, signum} into that handle's
// loop's signal pipe. The per-signal watcher lists are shared by every
// thread and by the handler, so they are guarded by a lock the handler can
// take safely: an atomic flag, spun on (lock-free atomics are safe in a
// handler, and taking the lock makes no system call that could fail).
// A thread that holds the lock first blocks all signals, so the handler
// never waits for its own thread, and another thread holds it only for a
// list update.
//
// Loop side: the read end of the pipe is watched by the poll phase, which
// reads the notes back after every other callback of the batch and calls
// the handles.

#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <mutex>

#include "core/loop_impl.hpp"
#include "core/fatal.hpp"

namespace phaseloop {

struct detail::signal_registry {
  struct note {
    phaseloop::signal* h;
    int signum;
  };

  static signal::list& watchers(int signum) {
    static signal::list lists[NSIG];
    return lists[signum];
  }

  static inline std::atomic<bool> locked{false};
  static_assert(std::atomic<bool>::is_always_lock_free);

  static void init_once() {
    static std::once_flag once;
    std::call_once(once, [] {
      // A forked child has only the forking thread: a lock another thread
      // held at the fork would never be released there.
      if (int r = pthread_atfork(nullptr, nullptr, [] { locked.store(false, std::memory_order_relaxed); }); r != 0)
        detail::fatal("pthread_atfork", r, "signal handles cannot be used");
    });
  }

  static void lock() noexcept {
    while (locked.exchange(true, std::memory_order_acquire))
      while (locked.load(std::memory_order_relaxed)) sched_yield();
  }

  static void unlock() noexcept { locked.store(false, std::memory_order_release); }

  static void block_and_lock(sigset_t* saved) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, saved);
    lock();
  }

  static void unlock_and_unblock(const sigset_t* saved) {
    unlock();
    pthread_sigmask(SIG_SETMASK, saved, nullptr);
  }

  static void handler(int signum) {
    const int saved_errno = errno;
    lock();
    for (signal* h = watchers(signum).front(); h; h = watchers(signum).next(*h))
      if (write_note(h->loop_->signal_pipe_write_, note{h, signum})) {
        h->caught_++;
        h->loop_->wakeup_.hint();
      }
    unlock();
    errno = saved_errno;
  }

  // A note is one write of a few bytes, which the kernel takes whole or
  // not at all. Only a full pipe refuses it for good (the signal is
  // dropped, as libuv drops it); any other failure is tried again, a
  // bounded number of times, since a signal lost here is a SIGTERM a
  // server never sees. Should a write take part of the note (only a fault
  // injector makes one so), the rest follows, or the reader would take
  // the next note's bytes for this one's.
  static bool write_note(int fd, const note& n) noexcept {
    const char* p = reinterpret_cast<const char*>(&n);
    std::size_t left = sizeof n;
    for (int tries = 0; tries < detail::transient_tries;) {
      const ssize_t r = ::write(fd, p, left);
      if (r > 0) {
        p += r;
        left -= static_cast<std::size_t>(r);
        if (left == 0) return true;
        continue;
      }
      if (r == 0 || errno != EINTR) tries++;
      if (r < 0 && errno == EAGAIN && left == sizeof n && pipe_full(fd)) return false;
    }
    if (left != sizeof n) detail::fatal("write", EIO, "the signal pipe holds part of a note");
    return false;
  }

  // Whether the pipe really has no room for a note (an EAGAIN can also be
  // a passing refusal, or one a fault injector made up).
  static bool pipe_full(int fd) noexcept {
    const int size = fcntl(fd, F_GETPIPE_SZ);
    int queued = 0;
    if (size < 0 || ioctl(fd, FIONREAD, &queued) != 0) return true;
    return static_cast<std::size_t>(size - queued) < sizeof(note);
  }

  static int install(int signum, bool oneshot) {
    struct sigaction sa {};
    sigfillset(&sa.sa_mask);
    sa.sa_handler = &handler;
    sa.sa_flags = SA_RESTART | (oneshot ? SA_RESETHAND : 0);
    return sigaction(signum, &sa, nullptr) == 0 ? 0 : -errno;
  }

  static void uninstall(int signum) {
    struct sigaction sa {};
    sa.sa_handler = SIG_DFL;
    sigaction(signum, &sa, nullptr);
  }

  // Watchers of one signal stay sorted: persistent ones before one-shot
  // ones (so the handler's disposition follows the first), then by loop,
  // then by handle address — the order in which their callbacks run.
  static bool before(const signal& a, const signal& b) {
    const bool ao = a.flags_ & signal::oneshot_flag, bo = b.flags_ & signal::oneshot_flag;
    if (ao != bo) return bo;
    if (a.loop_ != b.loop_) return a.loop_ < b.loop_;
    return &a < &b;
  }

  static int add(signal& s, int signum, bool oneshot) {
    sigset_t saved;
    block_and_lock(&saved);
    signal::list& l = watchers(signum);
    signal* first = l.front();
    // Install when nobody watched, or when a persistent watcher joins
    // one-shot ones (whose disposition resets itself).
    if (first == nullptr || (!oneshot && (first->flags_ & signal::oneshot_flag))) {
      if (int r = install(signum, oneshot); r != 0) {
        unlock_and_unblock(&saved);
        return r;
      }
    }
    s.signum_ = signum;
    if (oneshot) s.flags_ |= signal::oneshot_flag;
    signal* pos = l.front();
    while (pos && before(*pos, s)) pos = l.next(*pos);
    l.insert_before(pos, s);
    unlock_and_unblock(&saved);
    return 0;
  }

  static void remove(signal& s) {
    sigset_t saved;
    block_and_lock(&saved);
    signal::list& l = watchers(s.signum_);
    l.erase(s);
    const bool removed_oneshot = s.flags_ & signal::oneshot_flag;
    if (signal* first = l.front(); first == nullptr)
      uninstall(s.signum_);
    else if ((first->flags_ & signal::oneshot_flag) && !removed_oneshot)
      install(s.signum_, true);  // only one-shot watchers remain
    unlock_and_unblock(&saved);
    s.signum_ = 0;
    // The one-shot bit stays, as in libuv 1.44: a handle once started with
    // start_oneshot() keeps stopping after its first signal.
  }
};

signal::signal(phaseloop::loop& l) noexcept : handle(l, handle_type::signal) {}

int signal::start(signal_cb cb, int signum) noexcept { return start_watch_(cb, signum, false); }

int signal::start_oneshot(signal_cb cb, int signum) noexcept { return start_watch_(cb, signum, true); }

int signal::start_watch_(signal_cb cb, int signum, bool oneshot) noexcept {
  if (is_closing() || cb == nullptr || signum <= 0 || signum >= NSIG) return errc::invalid;
  if (signum == signum_) {  // same signal: only the callback changes
    cb_ = cb;
    return 0;
  }
  detail::signal_registry::init_once();
  if (signum_ != 0) stop();
  if (int r = detail::signal_registry::add(*this, signum, oneshot); r != 0) return r;
  cb_ = cb;
  start_();
  return 0;
}

int signal::stop() noexcept {
  if (signum_ == 0) return 0;
  detail::signal_registry::remove(*this);
  stop_();
  return 0;
}

int loop::open_signal_pipe_() noexcept {
  if (signal_watcher_.fd >= 0) return 0;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return -errno;
  signal_watcher_.fd = fds[0];
  signal_watcher_.cb = &loop::signal_io_;
  signal_pipe_write_ = fds[1];
  if (int r = poller_.watch(signal_watcher_, detail::io_readable); r != 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    signal_watcher_.fd = signal_pipe_write_ = -1;
    return r;
  }
  return 0;
}

int loop::reopen_signal_pipe_() noexcept {
  // The pipe is shared with the parent, and the notes in it are the
  // parent's to read. The handler may write to it until the new pipe is
  // in place: keep signals away meanwhile.
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  poller_.unwatch(signal_watcher_, detail::io_readable);
  ::close(signal_watcher_.fd);
  ::close(signal_pipe_write_);
  signal_watcher_.fd = signal_pipe_write_ = -1;
  const int r = open_signal_pipe_();
  // Notes left in the old pipe will never be read here: a closing signal
  // handle must not wait for them.
  for (handle* h = handles_.front(); h; h = handles_.next(*h))
    if (h->type_ == handle_type::signal) {
      auto* s = static_cast<signal*>(h);
      s->dispatched_ = s->caught_;
    }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  return r;
}

void loop::signal_io_(loop& l, detail::io_watcher& w, unsigned) {
  using note = detail::signal_registry::note;
  constexpr std::size_t batch = 32;
  alignas(note) unsigned char buf[sizeof(note) * batch];
  std::size_t have = 0;
  int failures = 0;
  for (;;) {
    const std::size_t space = sizeof buf - have;
    ssize_t r = ::read(w.fd, buf + have, space);
    if (r <= 0) {
      // With no part of a note in hand, EAGAIN is a drained pipe, and any
      // other failure leaves the notes where they are: the pipe is watched
      // level-triggered, so the next poll comes back for them. Part of a
      // note (a short read) must be completed now, since the rest is in
      // the pipe (a note is written whole) and nothing else keeps it.
      if (r < 0 && errno == EINTR) continue;
      if (have == 0) return;
      if (++failures == detail::transient_tries)
        detail::fatal("read", r < 0 ? errno : EIO, "the signal pipe lost part of a note");
      continue;
    }
    have += static_cast<std::size_t>(r);
    const std::size_t whole = have / sizeof(note);
    for (std::size_t i = 0; i < whole; i++) {
      note n;
      std::memcpy(&n, buf + i * sizeof(note), sizeof n);
      signal* h = n.h;
      // A handle stopped (or restarted on another signal) since the note
      // was written does not get the callback, but the note still counts.
      // The loop's own SIGCHLD watcher is not shown to hooks; the exit
      // callbacks it makes are.
      if (n.signum == h->signum_) {
        if (h->flags_ & handle::internal_flag)
          h->cb_(h, h->signum_);
        else
          l.poll_callback_(callback_kind::signal, h, nullptr, [h] { h->cb_(h, h->signum_); });
      }
      h->dispatched_++;
      if (h->flags_ & signal::oneshot_flag) h->stop();
    }
    const std::size_t used = whole * sizeof(note);
    std::memmove(buf, buf + used, have - used);
    have -= used;
    // A read shorter than asked drained the pipe (or a part of it: the
    // rest is read by the next poll), unless a note is left half read.
    if (static_cast<std::size_t>(r) < space && have == 0) return;
  }
}

}  // namespace phaseloop
