// SPDX-License-Identifier: MIT
// The rules that differ between the libuv 1.44 and 1.45+ profiles: where
// timers run in an iteration, the timers pass before the first DEFAULT
// iteration, ONCE's second timers pass, and timers re-armed during a pass.

#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

namespace pl = phaseloop;
using pltest::event_log;
using pltest::finish;
using pltest::strings;

struct tstate {
  int calls = 0;
  int limit = 0;
  event_log* log = nullptr;
  std::string name;
  std::vector<std::uint64_t> iterations;  // loop.iteration() at each call
  pl::timer* other = nullptr;
};

void rearm_zero(pl::timer* t) {
  auto* s = static_cast<tstate*>(t->data);
  s->calls++;
  s->iterations.push_back(t->owner().iteration());
  if (s->calls < s->limit) {
    EXPECT_EQ(t->start(rearm_zero, 0, 0), 0);
  }
}

TEST(profile, v1_44_zero_timeout_rearm_runs_again_in_same_pass) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_44);
  pltest::recorder rec;
  l.add_hook(rec);
  pl::timer t(l);
  tstate s;
  s.limit = 3;
  t.data = &s;
  ASSERT_EQ(t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(s.calls, 3);
  // All three calls came from the single timers pass of iteration 1.
  EXPECT_EQ(s.iterations, (std::vector<std::uint64_t>{1, 1, 1}));
  int timer_passes = 0;
  for (const auto& p : rec.phases)
    if (p.enter && p.which == pl::phase::timers) timer_passes++;
  EXPECT_EQ(timer_passes, 1);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_48_rearmed_zero_timer_waits_for_next_pass) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_48);
  pl::timer t(l);
  tstate s;
  s.limit = 3;
  t.data = &s;
  ASSERT_EQ(t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);  // re-armed: still alive
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(s.calls, 2);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(s.calls, 3);
  EXPECT_EQ(s.iterations, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_48_rearmed_zero_timer_does_not_busy_loop_in_default_run) {
  // The run makes one call per timers pass: the before-loop pass, then one
  // per iteration.
  pl::loop l;
  l.set_order(pl::profile::libuv_1_48);
  pl::timer t(l);
  tstate s;
  s.limit = 4;
  t.data = &s;
  ASSERT_EQ(t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.iterations, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(finish(l), 0);
}

void log_timer(pl::timer* t) {
  auto* s = static_cast<tstate*>(t->data);
  s->calls++;
  s->iterations.push_back(t->owner().iteration());
  if (s->log) s->log->add(s->name);
}

TEST(profile, v1_48_timer_restarted_by_another_during_pass_waits_for_next_pass) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_48);
  event_log log;
  pl::timer a(l), b(l);
  tstate sa, sb;
  sa.log = sb.log = &log;
  sa.name = "a";
  sb.name = "b";
  sa.other = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start(
                [](pl::timer* h) {
                  log_timer(h);
                  // b is due in this pass too; restarting it (even with 0)
                  // takes it out of the pass.
                  EXPECT_EQ(static_cast<tstate*>(h->data)->other->start(log_timer, 0, 0), 0);
                },
                0, 0),
            0);
  ASSERT_EQ(b.start(log_timer, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"a"}));
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(log.events, (strings{"a", "b"}));
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_45_rearmed_zero_timer_runs_again_in_same_pass) {
  // 1.45 to 1.47 moved the timers to the end of the iteration but still take
  // one due timer at a time: a timer re-armed with 0 runs again at once.
  pl::loop l;
  l.set_order(pl::profile::libuv_1_45);
  pl::timer t(l);
  tstate s;
  s.limit = 3;
  t.data = &s;
  ASSERT_EQ(t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(s.calls, 3);
  EXPECT_EQ(s.iterations, (std::vector<std::uint64_t>{1, 1, 1}));
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_44_timer_restarted_by_another_with_zero_runs_in_same_pass) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_44);
  event_log log;
  pl::timer a(l), b(l), c(l);
  tstate sa, sb, sc;
  sa.log = sb.log = sc.log = &log;
  sa.name = "a";
  sb.name = "b";
  sc.name = "c";
  sa.other = &b;
  a.data = &sa;
  b.data = &sb;
  c.data = &sc;
  ASSERT_EQ(a.start(
                [](pl::timer* h) {
                  log_timer(h);
                  EXPECT_EQ(static_cast<tstate*>(h->data)->other->start(log_timer, 0, 0), 0);
                },
                0, 0),
            0);
  ASSERT_EQ(b.start(log_timer, 0, 0), 0);
  ASSERT_EQ(c.start(log_timer, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  // b got a new start sequence: it now runs after c, in the same pass.
  EXPECT_EQ(log.events, (strings{"a", "c", "b"}));
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_45_default_runs_timers_before_first_iteration) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_45);
  event_log log;
  pl::timer t(l);
  pl::idle i(l);
  tstate st;
  st.log = &log;
  st.name = "timer";
  t.data = &st;
  i.data = &log;
  ASSERT_EQ(t.start(log_timer, 0, 0), 0);
  ASSERT_EQ(i.start([](pl::idle* h) {
              static_cast<event_log*>(h->data)->add("idle");
              h->stop();
            }),
            0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"timer", "idle"}));
  EXPECT_EQ(st.iterations, (std::vector<std::uint64_t>{0}));  // before iteration 1
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_45_once_and_nowait_run_timers_after_the_iteration) {
  for (pl::run_mode mode : {pl::run_mode::once, pl::run_mode::nowait}) {
    SCOPED_TRACE(mode == pl::run_mode::once ? "once" : "nowait");
    pl::loop l;
    l.set_order(pl::profile::libuv_1_45);
    event_log log;
    pl::timer t(l);
    pl::check c(l);
    tstate st;
    st.log = &log;
    st.name = "timer";
    t.data = &st;
    c.data = &log;
    ASSERT_EQ(t.start(log_timer, 0, 0), 0);
    ASSERT_EQ(c.start([](pl::check* h) {
                static_cast<event_log*>(h->data)->add("check");
                h->stop();
              }),
              0);
    EXPECT_EQ(l.run(mode), 0);
    EXPECT_EQ(log.events, (strings{"check", "timer"}));
    EXPECT_EQ(st.iterations, (std::vector<std::uint64_t>{1}));
    EXPECT_EQ(finish(l), 0);
  }
}

TEST(profile, v1_44_timers_run_first_in_every_iteration) {
  for (pl::run_mode mode : {pl::run_mode::default_, pl::run_mode::once, pl::run_mode::nowait}) {
    SCOPED_TRACE(static_cast<int>(mode));
    pl::loop l;
    l.set_order(pl::profile::libuv_1_44);
    event_log log;
    pl::timer t(l);
    pl::idle i(l);
    tstate st;
    st.log = &log;
    st.name = "timer";
    t.data = &st;
    i.data = &log;
    ASSERT_EQ(t.start(log_timer, 0, 0), 0);
    ASSERT_EQ(i.start([](pl::idle* h) {
                static_cast<event_log*>(h->data)->add("idle");
                h->stop();
              }),
              0);
    EXPECT_EQ(l.run(mode), 0);
    EXPECT_EQ(log.events, (strings{"timer", "idle"}));
    EXPECT_EQ(st.iterations, (std::vector<std::uint64_t>{1}));  // inside iteration 1
    EXPECT_EQ(finish(l), 0);
  }
}

TEST(profile, v1_44_once_runs_due_repeat_timer_twice) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_44);
  pl::timer t(l);
  tstate st;
  t.data = &st;
  ASSERT_EQ(t.start(log_timer, 0, 1), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  // Once at the start of the iteration; poll then waits ~1 ms for the
  // re-armed timer, which the end-of-iteration pass runs again.
  EXPECT_EQ(st.calls, 2);
  EXPECT_EQ(st.iterations, (std::vector<std::uint64_t>{1, 1}));
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_45_once_runs_due_repeat_timer_once) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_45);
  pl::timer t(l);
  tstate st;
  t.data = &st;
  ASSERT_EQ(t.start(log_timer, 0, 1), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(st.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, v1_44_nowait_runs_timers_once_at_iteration_start) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_44);
  pl::timer t(l);
  pl::check c(l);
  pl::prepare p(l);
  tstate st;
  t.data = &st;
  c.data = &t;
  p.data = &t;
  // A timer started after the timers phase with timeout 0 waits for the
  // next iteration in NOWAIT mode (no second timers pass)...
  ASSERT_EQ(c.start([](pl::check* h) {
              EXPECT_EQ(static_cast<pl::timer*>(h->data)->start(log_timer, 0, 0), 0);
              h->stop();
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(st.calls, 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(st.calls, 1);
  EXPECT_EQ(st.iterations, (std::vector<std::uint64_t>{2}));
  // ...but runs in the same iteration in ONCE mode (started from prepare,
  // so that poll has a timer to wait for).
  ASSERT_EQ(p.start([](pl::prepare* h) {
              EXPECT_EQ(static_cast<pl::timer*>(h->data)->start(log_timer, 0, 0), 0);
              h->stop();
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::once), 0);
  EXPECT_EQ(st.calls, 2);
  EXPECT_EQ(st.iterations, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(finish(l), 0);
}

TEST(profile, order_may_change_between_runs) {
  pl::loop l;
  l.set_order(pl::profile::libuv_1_44);
  pl::timer t(l);
  tstate s;
  s.limit = 2;
  t.data = &s;
  ASSERT_EQ(t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(s.calls, 2);  // 1.44: re-armed timer ran again in the pass
  EXPECT_EQ(l.order(), pl::profile::libuv_1_44);
  l.set_order(pl::profile::libuv_1_48);
  EXPECT_EQ(l.order(), pl::profile::libuv_1_48);
  s.calls = 0;
  ASSERT_EQ(t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(s.calls, 1);  // 1.48: it waits for the next pass
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(s.calls, 2);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
