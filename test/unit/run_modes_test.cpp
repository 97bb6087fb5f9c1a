// SPDX-License-Identifier: MIT
// run(): the three modes, what run() returns, iteration counting, and
// stop().

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "test_util.hpp"

namespace {

struct counter {
  int calls = 0;
  int limit = 0;  // stop the handle (or the loop) at this count
};

// Callbacks that count in the counter `data` points to; at its limit (if
// any) they stop the handle, or the loop.
template <class H>
void count(H* h) {
  static_cast<counter*>(h->data)->calls++;
}
template <class H>
void count_then_stop_the_handle(H* h) {
  auto* k = static_cast<counter*>(h->data);
  if (++k->calls == k->limit) h->stop();
}
template <class H>
void count_then_stop_the_loop(H* h) {
  auto* k = static_cast<counter*>(h->data);
  if (++k->calls == k->limit) h->owner().stop();
}

void far_timer_fired(pl::timer*) { ADD_FAILURE() << "far timer fired"; }

// A handle of `l` whose callbacks count in `c`.
template <class H>
struct counted {
  explicit counted(pl::loop& l, int limit = 0) : h(l) {
    h.data = &c;
    c.limit = limit;
  }

  H h;
  counter c;
};

// The rules that hold in both profiles: each TEST_P runs once per profile
// (run_modes_per_profile/libuv_1_44), on a fresh loop `l` in that profile.
class run_modes_per_profile : public pltest::loop_per_profile {};
INSTANTIATE_TEST_SUITE_P(both, run_modes_per_profile, ::testing::ValuesIn(pltest::both_profiles),
                         pltest::profile_param_name);
class stop_per_profile : public pltest::loop_per_profile {};
INSTANTIATE_TEST_SUITE_P(both, stop_per_profile, ::testing::ValuesIn(pltest::both_profiles),
                         pltest::profile_param_name);

TEST_P(run_modes_per_profile, empty_loop_returns_zero_without_iterating_in_every_mode) {
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(l.iteration(), 0u);
  EXPECT_EQ(l.close(), 0);
}

TEST(run_modes, inactive_and_unrefd_handles_do_not_make_run_iterate) {
  pl::loop l;
  pl::timer t(l), u(l);
  pl::idle i(l);  // never started
  ASSERT_EQ(u.start([](pl::timer*) {}, 10000, 0), 0);
  u.unref();
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::once), 0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(l.iteration(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(run_modes_per_profile, nowait_does_not_block) {
  pl::timer t(l);
  ASSERT_EQ(t.start(far_timer_fired, 10000, 0), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(l.iteration(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(run_modes_per_profile, once_blocks_for_the_next_timer_and_runs_it) {
  counted<pl::timer> t(l);
  ASSERT_EQ(t.h.start(count<pl::timer>, 20, 0), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::once), 0);  // the timer ran: nothing left
  EXPECT_GE(pltest::ms_since(start), 15.0);
  EXPECT_EQ(t.c.calls, 1);
  EXPECT_EQ(l.iteration(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(run_modes_per_profile, once_and_nowait_run_exactly_one_iteration) {
  counted<pl::idle> i(l);
  ASSERT_EQ(i.h.start(count<pl::idle>), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(i.c.calls, 1);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(i.c.calls, 2);
  EXPECT_EQ(l.iteration(), 2u);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(run_modes_per_profile, default_runs_until_nothing_keeps_the_loop_alive) {
  counted<pl::idle> i(l, 5);
  ASSERT_EQ(i.h.start(count_then_stop_the_handle<pl::idle>), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(i.c.calls, 5);
  EXPECT_EQ(l.iteration(), 5u);
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(finish(l), 0);
}

TEST_P(run_modes_per_profile, nowait_runs_a_due_timer) {
  counted<pl::timer> t(l);
  ASSERT_EQ(t.h.start(count<pl::timer>, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(t.c.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

// ---- stop ----------------------------------------------------------------

TEST_P(stop_per_profile, poll_does_not_block_after_stop) {
  pltest::recorder rec;
  l.add_hook(rec);
  pl::timer far(l);
  pl::prepare pr(l);
  pl::check ck(l);
  event_log log;
  pr.data = &log;
  ck.data = &log;
  ASSERT_EQ(far.start(far_timer_fired, 10000, 0), 0);
  ASSERT_EQ(pr.start([](pl::prepare* h) {
              static_cast<event_log*>(h->data)->add("prepare");
              h->owner().stop();
            }),
            0);
  ASSERT_EQ(ck.start([](pl::check* h) { static_cast<event_log*>(h->data)->add("check"); }), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::default_), 1);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(l.iteration(), 1u);
  // The iteration is finished: check still runs after the non-blocking poll.
  EXPECT_EQ(log.events, (strings{"prepare", "check"}));
  const std::vector<int> polls = rec.poll_timeouts();
  EXPECT_FALSE(polls.empty());
  for (int timeout : polls) EXPECT_EQ(timeout, 0);
  l.remove_hook(rec);
  pr.stop();
  EXPECT_EQ(finish(l), 0);
}

TEST(stop, once_mode_does_not_block_after_stop) {
  pl::loop l;
  pl::timer far(l);
  pl::idle i(l);
  ASSERT_EQ(far.start([](pl::timer*) {}, 10000, 0), 0);
  ASSERT_EQ(i.start([](pl::idle* h) {
              h->owner().stop();
              h->stop();  // the idle alone would make poll non-blocking
            }),
            0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(finish(l), 0);
}

TEST(stop, before_run_returns_alive_without_iterating_and_is_cleared) {
  pl::loop l;
  counted<pl::idle> i(l);
  ASSERT_EQ(i.h.start(count<pl::idle>), 0);
  l.stop();
  EXPECT_EQ(l.run(), 1);
  EXPECT_EQ(l.iteration(), 0u);
  EXPECT_EQ(i.c.calls, 0);
  // The flag does not survive run(): the next run iterates.
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(i.c.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(stop_per_profile, from_a_callback_ends_default_run_after_the_current_iteration) {
  counted<pl::idle> i(l, 3);
  counted<pl::check> ck(l);
  ASSERT_EQ(i.h.start(count_then_stop_the_loop<pl::idle>), 0);
  ASSERT_EQ(ck.h.start(count<pl::check>), 0);
  EXPECT_EQ(l.run(), 1);  // still alive: the handles are active
  EXPECT_EQ(i.c.calls, 3);
  EXPECT_EQ(ck.c.calls, 3);  // the third iteration ran to its end
  EXPECT_EQ(l.iteration(), 3u);
  EXPECT_EQ(finish(l), 0);
}

TEST(stop, from_close_callback) {
  pl::loop l;
  pl::timer t(l);
  counted<pl::idle> i(l);
  ASSERT_EQ(i.h.start(count<pl::idle>), 0);
  ASSERT_EQ(t.close([](pl::handle* h) { h->owner().stop(); }), 0);
  EXPECT_EQ(l.run(), 1);
  EXPECT_EQ(i.c.calls, 1);
  EXPECT_EQ(l.iteration(), 1u);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace

// ---- a poll that would not wait, with nothing watched ------------------------

namespace no_wait {

// Counts idle callbacks; at `limit` stops the idle handle (and with it the
// loop's reason to iterate).
struct spinner {
  int calls = 0;
  int limit = 0;
  static void on_idle(pl::idle* h) {
    auto* s = static_cast<spinner*>(h->data);
    if (++s->calls == s->limit) h->stop();
  }
};

// A loop whose poller watches only its own eventfd and signal pipe, with
// nothing written to them, makes no epoll_wait while an idle handle keeps
// its polls from waiting: in a child that may not call epoll_wait (the
// loop would abort on its error), 10,000 iterations run, in every profile.
TEST(poll_without_waiting, is_skipped_when_only_the_loops_own_descriptors_are_watched) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    // The first poll of a loop looks (anything may have been written);
    // the filter goes on after it.
    pl::loop l;
    l.set_order(pl::profile::libuv_1_53);
    pl::idle idle(l);
    spinner s;
    s.limit = 1;
    idle.data = &s;
    idle.start(&spinner::on_idle);
    l.run();
    if (!pltest::forbid_syscalls({__NR_epoll_wait, __NR_epoll_pwait}, EPERM)) _exit(2);
    for (pl::profile p : {pl::profile::libuv_1_44, pl::profile::libuv_1_45, pl::profile::libuv_1_53}) {
      l.set_order(p);
      s.calls = 0;
      s.limit = 10000;
      idle.start(&spinner::on_idle);
      if (l.run() != 0 || s.calls != 10000) _exit(3);
    }
    _exit(0);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status)) << "the child was killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                 << " (an epoll_wait failed: the loop aborts)";
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

// What another thread does while the loop spins must still reach it:
// the loop stops the idle handle from the callback it waits for.
struct waiter {
  pl::idle* idle = nullptr;
  int spins = 0;
  bool got = false;
  static void on_idle(pl::idle* h) { static_cast<waiter*>(h->data)->spins++; }
  void done() {
    got = true;
    idle->stop();
  }
};

// A loop kept spinning by an idle handle until the waiter is done.
struct spinning_loop {
  pl::loop l;
  pl::idle idle{l};
  waiter w;
  spinning_loop() {
    w.idle = &idle;
    idle.data = &w;
    idle.start(&waiter::on_idle);
  }
};

TEST(poll_without_waiting, an_async_send_from_another_thread_still_arrives) {
  spinning_loop sl;
  pl::loop& l = sl.l;
  waiter& w = sl.w;
  pl::async a(l, [](pl::async* h) {
    static_cast<waiter*>(h->data)->done();
    h->close(nullptr);
  });
  a.data = &w;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    a.send();
  });
  l.run();
  t.join();
  EXPECT_TRUE(w.got);
  EXPECT_GT(w.spins, 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(poll_without_waiting, a_signal_from_another_thread_still_arrives) {
  spinning_loop sl;
  pl::loop& l = sl.l;
  waiter& w = sl.w;
  pl::signal sig(l);
  sig.data = &w;
  ASSERT_EQ(sig.start(
                [](pl::signal* h, int) {
                  static_cast<waiter*>(h->data)->done();
                  h->close(nullptr);
                },
                SIGUSR2),
            0);
  std::thread t([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    kill(getpid(), SIGUSR2);
  });
  l.run();
  t.join();
  EXPECT_TRUE(w.got);
  EXPECT_EQ(finish(l), 0);
}

TEST(poll_without_waiting, a_watched_descriptor_is_polled_while_the_loop_spins) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
  spinning_loop sl;
  pl::loop& l = sl.l;
  waiter& w = sl.w;
  pl::poll p(l, fds[0]);
  p.data = &w;
  ASSERT_EQ(p.start(pl::poll::readable,
                    [](pl::poll* h, int status, int events) {
                      if (status == 0 && (events & pl::poll::readable)) static_cast<waiter*>(h->data)->done();
                      h->close(nullptr);
                    }),
            0);
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(write(fds[1], "x", 1), 1);
  });
  l.run();
  t.join();
  EXPECT_TRUE(w.got);
  EXPECT_EQ(finish(l), 0);
  close(fds[0]);
  close(fds[1]);
}

// Two loops answer each other's sends 2,000 times, so that each spins
// before its waits; then a timer 20 ms ahead must fire after 20 ms (the
// spin is bounded by the timeout and turns itself off when no write
// comes), and every send of both must have been answered.
TEST(poll_without_waiting, a_loop_that_spun_for_sends_still_sleeps_until_its_timer) {
  constexpr int rounds = 2000;
  struct side {
    pl::async* peer = nullptr;
    int got = 0;
  };
  pl::loop main_loop;
  side main_side, thread_side;
  pl::async to_main(main_loop, [](pl::async* h) {
    auto* s = static_cast<side*>(h->data);
    if (++s->got < rounds) s->peer->send();
    else h->close(nullptr);
  });
  to_main.data = &main_side;
  std::atomic<pl::async*> to_thread{nullptr};
  std::thread t([&] {
    pl::loop l;
    pl::async a(l, [](pl::async* h) {
      auto* s = static_cast<side*>(h->data);
      s->peer->send();
      if (++s->got == rounds) h->close(nullptr);
    });
    thread_side.peer = &to_main;
    a.data = &thread_side;
    to_thread.store(&a);
    l.run();
    EXPECT_EQ(l.close(), 0);
  });
  while (to_thread.load() == nullptr) std::this_thread::yield();
  main_side.peer = to_thread.load();
  main_side.peer->send();
  main_loop.run();
  t.join();
  EXPECT_EQ(main_side.got, rounds);
  EXPECT_EQ(thread_side.got, rounds);

  pl::timer timer(main_loop);
  std::uint64_t fired_after = 0;
  // The loop's time is from its last iteration, before the join: a timer
  // counts from it (as in libuv), so it must be now's.
  main_loop.update_time();
  const std::uint64_t start = pl::loop::hrtime();
  timer.data = &fired_after;
  static std::uint64_t started;
  started = start;
  ASSERT_EQ(timer.start(
                [](pl::timer* h) {
                  *static_cast<std::uint64_t*>(h->data) = pl::loop::hrtime() - started;
                  h->close(nullptr);
                },
                20, 0),
            0);
  main_loop.run();
  EXPECT_GE(fired_after, 19000000u);
  EXPECT_LT(fired_after, 2000000000u);
  EXPECT_EQ(finish(main_loop), 0);
}

}  // namespace no_wait
