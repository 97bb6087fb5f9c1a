// SPDX-License-Identifier: MIT
// detail::poller: unwatching an fd while a batch of events is being
// dispatched blanks that fd's events, so that a callback closing an fd
// (whose number a new watcher may take at once) cannot pass a stale event on.
// The queue of registration changes: unwatch() leaves a stale entry behind
// (O(1)), and flush() registers what is left in watch() order. disarm()
// keeps the kernel's registration until the next flush, which removes it
// or, for an fd watched again meanwhile, changes its events in place.

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "phaseloop/detail/poller.hpp"
#include "test_util.hpp"

namespace {

using phaseloop::detail::io_event;
using phaseloop::detail::io_readable;
using phaseloop::detail::io_watcher;
using phaseloop::detail::poller;

struct socket_pair {
  int fd[2] = {-1, -1};
  socket_pair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0); }
  ~socket_pair() { close_all(); }
  void close_all() {
    for (int& f : fd)
      if (f >= 0) {
        ::close(f);
        f = -1;
      }
  }
};

void no_failure(io_watcher&, int err, void*) { ADD_FAILURE() << "watch refused: " << err; }

// An open poller with two socket pairs' first ends watched for reading and
// registered with the kernel.
struct two_watched {
  poller p;
  socket_pair a, b;
  io_watcher wa, wb;
  two_watched() {
    EXPECT_EQ(p.open(), 0);
    wa.fd = a.fd[0];
    wb.fd = b.fd[0];
    EXPECT_EQ(p.watch(wa, io_readable), 0);
    EXPECT_EQ(p.watch(wb, io_readable), 0);
    p.flush(no_failure, nullptr);
  }
};

TEST(poller, unwatch_blanks_only_that_fds_event_in_the_batch) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair a, b, c;
  io_watcher wa, wb, wc;
  wa.fd = a.fd[0];
  wb.fd = b.fd[0];
  wc.fd = c.fd[0];
  for (io_watcher* w : {&wa, &wb, &wc}) ASSERT_EQ(p.watch(*w, io_readable), 0);
  p.flush(no_failure, nullptr);
  for (socket_pair* s : {&a, &b, &c}) ASSERT_EQ(::write(s->fd[1], "x", 1), 1);

  io_event events[8];
  const int n = p.wait(1000, events, 8, false);
  ASSERT_EQ(n, 3);
  p.unwatch(wb, io_readable);
  p.unwatch(wb, io_readable);  // a second unwatch changes nothing
  int blank = 0, seen_a = 0, seen_c = 0;
  for (int i = 0; i < n; i++) {
    if (events[i].fd == -1) blank++;
    if (events[i].fd == a.fd[0]) seen_a++;
    if (events[i].fd == c.fd[0]) seen_c++;
  }
  EXPECT_EQ(blank, 1);
  EXPECT_EQ(seen_a, 1);
  EXPECT_EQ(seen_c, 1);
  p.end_batch();

  // Outside a batch, unwatching touches no event array.
  p.unwatch(wa, io_readable);
  p.unwatch(wc, io_readable);
  EXPECT_EQ(p.count(), 0u);
  p.close();
}

TEST(poller, fd_number_reused_inside_the_batch_gets_no_stale_event) {
  two_watched t;
  auto& [p, a, b, wa, wb] = t;
  ASSERT_EQ(::write(a.fd[1], "x", 1), 1);
  ASSERT_EQ(::write(b.fd[1], "x", 1), 1);

  io_event events[8];
  const int n = p.wait(1000, events, 8, false);
  ASSERT_EQ(n, 2);
  // As a callback would: unwatch and close b, then open a new fd, which
  // takes b's number, and watch it.
  const int old_fd = b.fd[0];
  p.unwatch(wb, io_readable);
  b.close_all();
  socket_pair fresh;
  ASSERT_EQ(fresh.fd[0], old_fd) << "the kernel hands out the lowest free fd";
  io_watcher wf;
  wf.fd = fresh.fd[0];
  ASSERT_EQ(p.watch(wf, io_readable), 0);
  for (int i = 0; i < n; i++) EXPECT_NE(events[i].fd, old_fd);
  p.end_batch();

  p.unwatch(wa, io_readable);
  p.unwatch(wf, io_readable);
  p.close();
}

TEST(poller, fd_reported_twice_is_blanked_twice) {
  // A registration outlives close() when the file stays open through a
  // dup: the kernel keeps reporting it under the old fd number, which a new
  // registration may share. One batch then holds that number twice.
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair a;
  const int keep = ::dup(a.fd[0]);
  ASSERT_GE(keep, 0);
  io_watcher wa;
  wa.fd = a.fd[0];
  ASSERT_EQ(p.watch(wa, io_readable), 0);
  p.flush(no_failure, nullptr);
  const int num = a.fd[0];
  ::close(a.fd[0]);
  a.fd[0] = -1;
  p.unwatch(wa, io_readable);  // its EPOLL_CTL_DEL fails: the fd is closed

  socket_pair b;
  if (b.fd[0] != num) {
    ::close(keep);
    p.close();
    GTEST_SKIP() << "fd " << num << " was not reused";
  }
  io_watcher wb;
  wb.fd = b.fd[0];
  ASSERT_EQ(p.watch(wb, io_readable), 0);
  p.flush(no_failure, nullptr);
  ASSERT_EQ(::write(a.fd[1], "x", 1), 1);
  ASSERT_EQ(::write(b.fd[1], "x", 1), 1);

  io_event events[8];
  const int n = p.wait(1000, events, 8, false);
  ASSERT_EQ(n, 2);
  EXPECT_EQ(events[0].fd, num);
  EXPECT_EQ(events[1].fd, num);
  p.unwatch(wb, io_readable);
  EXPECT_EQ(events[0].fd, -1);
  EXPECT_EQ(events[1].fd, -1);
  p.end_batch();

  ::close(keep);  // the last reference: the kernel drops the old registration
  p.close();
}

// Readiness already there when epoll learns of an fd is queued in the order
// of registration, so the order of events shows the order flush() used.
std::vector<int> ready_order(poller& p) {
  io_event events[8];
  const int n = p.wait(1000, events, 8, false);
  std::vector<int> fds;
  for (int i = 0; i < n; i++) fds.push_back(events[i].fd);
  p.end_batch();
  return fds;
}

TEST(poller, unwatched_then_rewatched_fd_is_registered_in_its_new_place) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair a, b;
  ASSERT_EQ(::write(a.fd[1], "x", 1), 1);
  ASSERT_EQ(::write(b.fd[1], "x", 1), 1);
  io_watcher wa, wb;
  wa.fd = a.fd[0];
  wb.fd = b.fd[0];
  EXPECT_FALSE(p.has_changes());
  ASSERT_EQ(p.watch(wa, io_readable), 0);
  ASSERT_EQ(p.watch(wb, io_readable), 0);
  p.unwatch(wa, io_readable);  // a's entry stays behind, stale
  EXPECT_TRUE(p.has_changes());
  ASSERT_EQ(p.watch(wa, io_readable), 0);  // queued again, after b
  p.flush(no_failure, nullptr);
  EXPECT_FALSE(p.has_changes());
  EXPECT_EQ(ready_order(p), (std::vector<int>{b.fd[0], a.fd[0]}));
  p.unwatch(wa, io_readable);
  p.unwatch(wb, io_readable);
  EXPECT_EQ(p.count(), 0u);
  p.close();
}

TEST(poller, watch_then_unwatch_before_flush_reaches_no_kernel) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair a;
  ASSERT_EQ(::write(a.fd[1], "x", 1), 1);
  io_watcher wa;
  wa.fd = a.fd[0];
  ASSERT_EQ(p.watch(wa, io_readable), 0);
  EXPECT_TRUE(p.has_changes());
  p.unwatch(wa, io_readable);
  EXPECT_FALSE(p.has_changes());  // a stale entry is no change
  EXPECT_EQ(p.count(), 0u);
  p.flush(no_failure, nullptr);
  io_event events[8];
  EXPECT_EQ(p.wait(0, events, 8, false), 0);  // never registered
  p.end_batch();
  p.close();
}

// Many watch/unwatch cycles make the queue compact itself; the entries
// still live keep their order and are all registered.
TEST(poller, churn_compacts_the_queue_and_keeps_live_entries_in_order) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair keep1, keep2;
  std::vector<socket_pair> churn(20);
  ASSERT_EQ(::write(keep1.fd[1], "x", 1), 1);
  ASSERT_EQ(::write(keep2.fd[1], "x", 1), 1);
  io_watcher k1, k2;
  k1.fd = keep1.fd[0];
  k2.fd = keep2.fd[0];
  std::vector<io_watcher> w(churn.size());
  for (std::size_t i = 0; i < churn.size(); i++) w[i].fd = churn[i].fd[0];
  ASSERT_EQ(p.watch(k2, io_readable), 0);
  for (int round = 0; round < 500; round++) {
    for (io_watcher& x : w) ASSERT_EQ(p.watch(x, io_readable), 0);
    if (round == 250) {
      ASSERT_EQ(p.watch(k1, io_readable), 0);
    }
    for (io_watcher& x : w) p.unwatch(x, io_readable);
    ASSERT_TRUE(p.has_changes());
  }
  p.flush(no_failure, nullptr);
  EXPECT_FALSE(p.has_changes());
  EXPECT_EQ(p.count(), 2u);
  EXPECT_EQ(ready_order(p), (std::vector<int>{k2.fd, k1.fd}));
  p.unwatch(k1, io_readable);
  p.unwatch(k2, io_readable);
  p.close();
}

// Once its fds have room (reserve()), watching them allocates nothing,
// however the watches and unwatches go, with flushes between them or
// not: the queue's capacity never changes, so a watch cannot fail for
// want of memory.
TEST(poller, watching_reserved_fds_never_grows_the_queue) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  std::vector<socket_pair> pairs(40);
  std::vector<io_watcher> w(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); i++) {
    w[i].fd = pairs[i].fd[0];
    ASSERT_EQ(p.reserve(w[i].fd), 0);
  }
  const std::size_t capacity = p.queue_capacity();
  ASSERT_GT(capacity, 0u);
  for (int round = 0; round < 300; round++) {
    // Every fd queued, most unwatched again (stale entries), a few
    // watched for more (a second change of a queued fd adds no entry).
    for (io_watcher& x : w) ASSERT_EQ(p.watch(x, io_readable), 0);
    for (std::size_t i = 0; i < w.size(); i++) {
      if (i % 7 == static_cast<std::size_t>(round) % 7) {
        ASSERT_EQ(p.watch(w[i], phaseloop::detail::io_writable), 0);
      } else {
        p.unwatch(w[i], io_readable);
      }
    }
    if (round % 3 == 0) p.flush(no_failure, nullptr);
    ASSERT_EQ(p.queue_capacity(), capacity) << "round " << round;
  }
  p.flush(no_failure, nullptr);
  for (io_watcher& x : w) p.unwatch(x, io_readable | phaseloop::detail::io_writable);
  EXPECT_EQ(p.queue_capacity(), capacity);
  EXPECT_EQ(p.count(), 0u);
  p.close();
}

// A watcher that takes an fd number over from a queued watcher that was
// never unwatched inherits its queue entry: one registration, no change
// left pending afterwards.
TEST(poller, fd_taken_over_without_unwatch_leaves_no_pending_change) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair a;
  ASSERT_EQ(::write(a.fd[1], "x", 1), 1);
  io_watcher first, second;
  first.fd = second.fd = a.fd[0];
  ASSERT_EQ(p.watch(first, io_readable), 0);
  ASSERT_EQ(p.watch(second, io_readable), 0);
  EXPECT_EQ(p.count(), 1u);
  EXPECT_EQ(p.watcher(a.fd[0]), &second);
  p.flush(no_failure, nullptr);
  EXPECT_FALSE(p.has_changes());
  EXPECT_EQ(second.registered, io_readable);
  EXPECT_EQ(ready_order(p), (std::vector<int>{a.fd[0]}));
  p.unwatch(second, io_readable);
  EXPECT_FALSE(p.has_changes());
  p.close();
}

}  // namespace

// Batched registration (set_batching, as libuv >= 1.45 batches epoll_ctl
// through io_uring): many changes in one flush reach the kernel -- adds,
// then modifications -- and one the kernel refuses (a regular file, which
// epoll cannot watch) is reported alone, with its errno, the others
// registered. The same script one by one gives the same answers.
struct refusal_log {
  std::vector<std::pair<int, int>> refused;  // fd, error
  static void cb(io_watcher& w, int err, void* self) {
    static_cast<refusal_log*>(self)->refused.emplace_back(w.fd, err);
  }
};

void batched_script(bool batching, bool* ring_used) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  p.set_batching(batching);
  constexpr int n = 300;  // more than one chunk of the ring (256)
  std::vector<socket_pair> pairs(n);
  std::vector<io_watcher> ws(n);
  for (int i = 0; i < n; i++) {
    ws[i].fd = pairs[i].fd[0];
    ASSERT_EQ(p.watch(ws[i], io_readable), 0);
  }
  // A regular file in the middle of the batch: EPERM from epoll.
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  io_watcher wf;
  wf.fd = fileno(f);
  ASSERT_EQ(p.watch(wf, io_readable), 0);
  refusal_log log;
  p.flush(refusal_log::cb, &log);
  ASSERT_EQ(log.refused.size(), 1u);
  EXPECT_EQ(log.refused[0].first, wf.fd);
  EXPECT_EQ(log.refused[0].second, -EPERM);
  EXPECT_EQ(p.watcher(wf.fd), nullptr);
  EXPECT_EQ(p.count(), static_cast<unsigned>(n));
  *ring_used = p.batching_ready();

  // Every watched fd reports: all were registered.
  for (int i = 0; i < n; i++) ASSERT_EQ(::write(pairs[i].fd[1], "x", 1), 1);
  io_event events[n];
  EXPECT_EQ(p.wait(1000, events, n, false), n);
  p.end_batch();

  // Modifications in a batch: every fd now also watched for writing.
  for (int i = 0; i < n; i++) ASSERT_EQ(p.watch(ws[i], phaseloop::detail::io_writable), 0);
  EXPECT_TRUE(p.has_changes());
  p.flush(refusal_log::cb, &log);
  EXPECT_EQ(log.refused.size(), 1u);
  EXPECT_FALSE(p.has_changes());
  const int got = p.wait(1000, events, n, false);
  EXPECT_EQ(got, n);
  for (int i = 0; i < got; i++) EXPECT_NE(events[i].events & phaseloop::detail::io_writable, 0u);
  p.end_batch();
  for (io_watcher& w : ws) p.unwatch(w, io_readable | phaseloop::detail::io_writable);
  EXPECT_EQ(p.count(), 0u);
  std::fclose(f);
  p.close();
}

TEST(poller, batched_registration_gives_the_answers_of_one_by_one) {
  bool ring = true;
  batched_script(false, &ring);
  EXPECT_FALSE(ring);
#if PHASELOOP_HAVE_LIBURING
  batched_script(true, &ring);
  EXPECT_TRUE(ring) << "no io_uring ring for the batch";
#endif
}

namespace {

using phaseloop::detail::io_writable;

// The events the kernel's epoll instance `epfd` has for `fd`
// (/proc/self/fdinfo; without EPOLLERR and EPOLLHUP, which it always adds),
// or -1 when it does not know the fd.
long kernel_events(int epfd, int fd) {
  std::ifstream in("/proc/self/fdinfo/" + std::to_string(epfd));
  std::string line;
  while (std::getline(in, line)) {
    int tfd = -1;
    unsigned events = 0;
    if (std::sscanf(line.c_str(), "tfd: %d events: %x", &tfd, &events) == 2 && tfd == fd)
      return events & ~static_cast<unsigned>(EPOLLERR | EPOLLHUP);
  }
  return -1;
}

// An open poller with one socket pair's first end watched for reading and
// registered with the kernel.
struct one_watched {
  poller p;
  socket_pair a;
  io_watcher w;
  one_watched() {
    EXPECT_EQ(p.open(), 0);
    w.fd = a.fd[0];
    EXPECT_EQ(p.watch(w, io_readable), 0);
    p.flush(no_failure, nullptr);
  }
};

// `fd` is nowhere: not in the kernel, not in the table, no change queued.
void expect_gone(const poller& p, int fd) {
  EXPECT_EQ(kernel_events(p.fd(), fd), -1);
  EXPECT_EQ(p.watcher(fd), nullptr);
  EXPECT_EQ(p.count(), 0u);
  EXPECT_FALSE(p.has_changes());
}

}  // namespace

TEST(poller, disarm_keeps_the_registration_until_the_flush_removes_it) {
  one_watched t;
  auto& [p, a, w] = t;
  ASSERT_EQ(kernel_events(p.fd(), w.fd), long{EPOLLIN});
  p.disarm(w, io_readable);
  EXPECT_EQ(w.wanted, 0u);
  EXPECT_EQ(kernel_events(p.fd(), w.fd), long{EPOLLIN});  // unwatch() would have removed it
  EXPECT_EQ(p.watcher(w.fd), &w);
  EXPECT_EQ(p.count(), 1u);
  EXPECT_FALSE(p.has_changes());  // a removal to come misses no event
  p.flush(no_failure, nullptr);
  expect_gone(p, w.fd);
  p.close();
}

// Disarmed, then watched for other events before the flush: the kernel
// gets one EPOLL_CTL_MOD. A child whose every other epoll_ctl fails shows
// that no removal and new registration happened (either would be refused,
// and the fd would end up unregistered, or reported as failed).
TEST(poller, disarm_then_watch_changes_the_events_in_place) {
  socket_pair a;
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    poller p;
    io_watcher w;
    w.fd = a.fd[0];
    bool refused = false;
    if (p.open() != 0 || p.watch(w, io_writable) != 0) _exit(2);
    p.flush([](io_watcher&, int, void*) {}, nullptr);
    if (kernel_events(p.fd(), w.fd) != EPOLLOUT) _exit(3);
    if (!pltest::forbid_epoll_ctl_but(EPOLL_CTL_MOD, EPERM)) _exit(4);
    p.disarm(w, io_writable);
    if (p.watch(w, io_readable) != 0) _exit(5);
    p.flush([](io_watcher&, int, void* r) { *static_cast<bool*>(r) = true; }, &refused);
    if (refused) _exit(6);
    if (kernel_events(p.fd(), w.fd) != EPOLLIN) _exit(7);
    if (w.registered != io_readable || p.count() != 1 || p.has_changes()) _exit(8);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's step that failed (see the test)";
}

TEST(poller, unwatch_after_disarm_removes_at_once) {
  one_watched t;
  auto& [p, a, w] = t;
  p.disarm(w, io_readable);
  p.unwatch(w, io_readable);  // as closing does
  expect_gone(p, w.fd);
  p.close();
}

// Disarming part of the events, or an fd the kernel does not know yet,
// is an unwatch().
TEST(poller, disarm_of_part_or_of_an_unregistered_fd_is_an_unwatch) {
  poller p;
  ASSERT_EQ(p.open(), 0);
  socket_pair a, b;
  io_watcher wa, wb;
  wa.fd = a.fd[0];
  wb.fd = b.fd[0];
  ASSERT_EQ(p.watch(wa, io_readable | io_writable), 0);
  p.flush(no_failure, nullptr);
  p.disarm(wa, io_writable);
  EXPECT_EQ(wa.wanted, io_readable);
  p.flush(no_failure, nullptr);
  EXPECT_EQ(kernel_events(p.fd(), wa.fd), long{EPOLLIN});
  ASSERT_EQ(p.watch(wb, io_readable), 0);  // not flushed: the kernel never knew it
  p.disarm(wb, io_readable);
  EXPECT_EQ(p.watcher(wb.fd), nullptr);
  EXPECT_EQ(p.count(), 1u);
  p.unwatch(wa, io_readable);
  p.close();
}

// In a forked child the new epoll instance never knew a disarmed fd: it is
// forgotten, not registered again.
TEST(poller, reopen_forgets_a_disarmed_fd) {
  two_watched t;
  auto& [p, a, b, wa, wb] = t;
  p.disarm(wa, io_readable);
  ASSERT_EQ(p.reopen(), 0);
  EXPECT_EQ(p.watcher(wa.fd), nullptr);
  EXPECT_EQ(p.count(), 1u);
  ASSERT_EQ(p.rearm(), 0);
  p.flush(no_failure, nullptr);
  EXPECT_EQ(kernel_events(p.fd(), wa.fd), -1);
  EXPECT_EQ(kernel_events(p.fd(), wb.fd), long{EPOLLIN});
  EXPECT_FALSE(p.has_changes());
  p.unwatch(wb, io_readable);
  p.close();
}

// Batched (where the machine has io_uring): two fds the kernel refuses (regular
// files) go out in one chunk; the failure callback of the first disarms the
// second, whose refusal then comes back. The second is dropped without a
// callback and leaves no queue entry behind: watched again, it goes to the
// kernel again (and is refused again). One by one, the first's callback
// disarms the second before its change goes out; the end is the same.
TEST(poller, disarmed_during_a_refused_batch_is_dropped_and_can_be_watched_again) {
  char path[] = "/tmp/pl-unit-poller-XXXXXX";
  const int fa = mkstemp(path);
  ASSERT_GE(fa, 0);
  ::unlink(path);
  const int fb = dup(fa);
  ASSERT_GE(fb, 0);
  poller p;
  ASSERT_EQ(p.open(), 0);
  p.set_batching(true);
  io_watcher wa, wb;
  wa.fd = fa;
  wb.fd = fb;
  struct seen {
    poller* p;
    io_watcher* a;
    io_watcher* b;
    int a_refused = 0, b_refused = 0;
  } s{&p, &wa, &wb};
  auto failed = [](io_watcher& w, int err, void* arg) {
    auto* x = static_cast<seen*>(arg);
    EXPECT_EQ(err, -EPERM);
    if (&w == x->a) {
      x->a_refused++;
      x->p->disarm(*x->b, io_readable);
    } else {
      x->b_refused++;
    }
  };
  ASSERT_EQ(p.watch(wa, io_readable), 0);
  ASSERT_EQ(p.watch(wb, io_readable), 0);
  p.flush(failed, &s);
  EXPECT_EQ(s.a_refused, 1);
  EXPECT_EQ(s.b_refused, 0) << "disarmed before its refusal was reported";
  p.flush(failed, &s);
  expect_gone(p, fb);
  EXPECT_EQ(wb.queued_at, -1);
  ASSERT_EQ(p.watch(wb, io_readable), 0);
  EXPECT_TRUE(p.has_changes());
  p.flush(failed, &s);
  EXPECT_EQ(s.b_refused, 1) << "watched again, it reached the kernel again";
  p.close();
  ::close(fa);
  ::close(fb);
}
