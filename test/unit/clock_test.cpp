// SPDX-License-Identifier: MIT
// The manual clock (loop::set_clock): time moves by advance() alone, or
// jumps to the next timer when the loop has nothing else to do. Timers,
// now() and the Node layer's timers follow it; I/O and the threadpool still
// work. Hours of timer-driven code run in a fraction of a second.

#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "phaseloop/node.hpp"
#include "test_util.hpp"

namespace {

constexpr std::uint64_t hour = 3600 * 1000;

// Records (timer name, loop time) for every timer callback.
struct log_t {
  std::vector<std::string> names;
  std::vector<std::uint64_t> times;
};

struct named_timer {
  named_timer(pl::loop& l, log_t& g, std::string n) : t(l), log(&g), name(std::move(n)) { t.data = this; }
  void start(std::uint64_t timeout, std::uint64_t repeat = 0) {
    ASSERT_EQ(t.start(
                  [](pl::timer* h) {
                    auto* self = static_cast<named_timer*>(h->data);
                    self->log->names.push_back(self->name);
                    self->log->times.push_back(h->owner().now());
                    if (++self->calls == self->stop_after) h->stop();
                  },
                  timeout, repeat),
              0);
  }
  pl::timer t;
  log_t* log;
  std::string name;
  int calls = 0;
  int stop_after = 0;
};

TEST(clock, real_is_the_default_and_advance_needs_a_manual_clock) {
  pl::loop l;
  EXPECT_EQ(l.clock(), pl::clock_mode::real);
  EXPECT_EQ(l.advance(10), pl::errc::invalid);
  EXPECT_EQ(finish(l), 0);
}

TEST(clock, manual_time_moves_only_by_advance) {
  pl::loop l;
  l.set_clock(pl::clock_mode::manual);
  const std::uint64_t t0 = l.now();
  log_t log;
  named_timer a(l, log, "a");
  a.start(1000);
  pltest::spin_ms(5);  // real time passes; loop time does not
  l.update_time();
  EXPECT_EQ(l.now(), t0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_TRUE(log.names.empty());
  EXPECT_EQ(l.advance(999), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_TRUE(log.names.empty());
  EXPECT_EQ(l.advance(1), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  ASSERT_EQ(log.names.size(), 1u);
  EXPECT_EQ(log.times[0], t0 + 1000);
  EXPECT_EQ(finish(l), 0);
}

TEST(clock, manual_poll_does_not_wait_for_a_timer) {
  // Poll waits for I/O alone: with a due timer it does not wait at all,
  // and the timeout it would use for a future timer is "forever".
  pl::loop l;
  l.set_clock(pl::clock_mode::manual);
  log_t log;
  named_timer a(l, log, "a");
  a.start(50);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);  // the loop's own fds reach epoll
  EXPECT_EQ(l.backend_timeout(), -1);
  EXPECT_EQ(l.advance(50), 0);
  EXPECT_EQ(l.backend_timeout(), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 0);
  EXPECT_EQ(log.names.size(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST(clock, jump_runs_a_day_of_timers_at_once_in_due_order) {
  pl::loop l;
  l.set_clock(pl::clock_mode::manual_jump);
  const std::uint64_t t0 = l.now();
  log_t log;
  named_timer daily(l, log, "day"), hourly(l, log, "hour"), once(l, log, "once");
  daily.start(24 * hour);
  hourly.stop_after = 24;
  hourly.start(hour, hour);
  once.start(90 * 60 * 1000);  // 1.5 h
  const std::uint64_t start_ns = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_LT(pltest::ms_since(start_ns), 5000.0);  // not 24 hours
  ASSERT_EQ(log.names.size(), 26u);
  EXPECT_EQ(log.names[0], "hour");
  EXPECT_EQ(log.times[0], t0 + hour);
  EXPECT_EQ(log.names[1], "once");
  EXPECT_EQ(log.times[1], t0 + 90 * 60 * 1000);
  EXPECT_EQ(log.names[2], "hour");
  EXPECT_EQ(log.times[2], t0 + 2 * hour);
  // At 24 h both are due: the daily timer was started first.
  EXPECT_EQ(log.names[24], "day");
  EXPECT_EQ(log.names[25], "hour");
  EXPECT_EQ(log.times[25], t0 + 24 * hour);
  EXPECT_EQ(l.now(), t0 + 24 * hour);
  EXPECT_EQ(finish(l), 0);
}

TEST(clock, jump_waits_for_a_request_in_flight) {
  // A work request takes real time; time does not jump past the timer
  // until it has completed, so its callback comes first.
  pl::loop l;
  l.set_clock(pl::clock_mode::manual_jump);
  const std::uint64_t t0 = l.now();
  log_t log;
  named_timer a(l, log, "timer");
  a.start(hour);
  pl::work w;
  w.data = &log;
  ASSERT_EQ(w.queue(
                l, [](pl::work*) { pltest::spin_ms(30); },
                [](pl::work* r, int status) {
                  EXPECT_EQ(status, 0);
                  auto* g = static_cast<log_t*>(r->data);
                  g->names.push_back("work");
                  g->times.push_back(r->owner()->now());
                }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  ASSERT_EQ(log.names, (std::vector<std::string>{"work", "timer"}));
  EXPECT_EQ(log.times[0], t0);
  EXPECT_EQ(log.times[1], t0 + hour);
  EXPECT_EQ(finish(l), 0);
}

TEST(clock, jump_delivers_ready_io_before_moving_time) {
  pl::loop l;
  l.set_clock(pl::clock_mode::manual_jump);
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  log_t log;
  named_timer a(l, log, "timer");
  a.start(hour);
  pl::poll p(l, fds[0]);
  p.data = &log;
  ASSERT_EQ(p.start(pl::poll::readable,
                    [](pl::poll* h, int status, int) {
                      EXPECT_EQ(status, 0);
                      static_cast<log_t*>(h->data)->names.push_back("io");
                      h->stop();
                    }),
            0);
  ASSERT_EQ(::write(fds[1], "x", 1), 1);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(log.names, (std::vector<std::string>{"io", "timer"}));
  EXPECT_EQ(finish(l), 0);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(clock, back_to_real_time_never_goes_back) {
  pl::loop l;
  l.set_clock(pl::clock_mode::manual);
  ASSERT_EQ(l.advance(10 * hour), 0);
  const std::uint64_t ahead = l.now();
  l.set_clock(pl::clock_mode::real);
  EXPECT_GE(l.now(), ahead);
  l.update_time();
  EXPECT_GE(l.now(), ahead);
  EXPECT_LT(l.now(), ahead + 60 * 1000);  // and continues from there
  EXPECT_EQ(finish(l), 0);
}

// setTimeout(1 h) inside setTimeout(1 h), beside a 10-minute setInterval
// cleared after 3 ticks: what a test of timer-driven JavaScript would wait
// two hours for.
struct node_script {
  explicit node_script(pl::loop& l) : loop(&l), t0(l.now()), rt(l, phaseloop::node::mode::current) {}
  void stamp(const char* what) { out.push_back(std::string(what) + "@" + std::to_string((loop->now() - t0) / 60000)); }
  static node_script& of(phaseloop::node::timeout* t) { return *static_cast<node_script*>(t->data); }
  static void main(void* arg) {
    auto& s = *static_cast<node_script*>(arg);
    s.outer.start([](phaseloop::node::timeout* t) {
      of(t).stamp("outer");
      of(t).inner.start([](phaseloop::node::timeout* i) { of(i).stamp("inner"); }, 60 * 60 * 1000, false);
    }, 60 * 60 * 1000, false);
    s.interval.start([](phaseloop::node::timeout* t) {
      of(t).stamp("tick");
      if (++of(t).ticks == 3) t->clear();
    }, 10 * 60 * 1000, true);
  }

  pl::loop* loop;
  std::uint64_t t0;
  phaseloop::node::runtime rt;
  phaseloop::node::timeout outer{rt}, inner{rt}, interval{rt};
  std::vector<std::string> out;
  int ticks = 0;
};

TEST(clock, node_layer_timers_follow_the_jumping_clock) {
  pl::loop l;
  l.set_clock(pl::clock_mode::manual_jump);
  {
    node_script s(l);
    for (auto* t : {&s.outer, &s.inner, &s.interval}) t->data = &s;
    s.rt.run_main({node_script::main, &s});
    EXPECT_EQ(s.out, (std::vector<std::string>{"tick@10", "tick@20", "tick@30", "outer@60", "inner@120"}));
  }
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
