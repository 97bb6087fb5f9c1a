// SPDX-License-Identifier: MIT
// loop_stats: passes and callbacks per phase, the slowest callback, timer
// lag percentiles, the printed table, and the loop observer that
// PHASELOOP_STATS uses to reach every loop.

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

TEST(stats, counts_passes_and_callbacks_per_phase) {
  pl::loop l;
  pl::loop_stats s;
  ASSERT_TRUE(l.add_hook(s));
  pl::idle i(l);
  static int calls;
  calls = 0;
  ASSERT_EQ(i.start([](pl::idle* h) {
              if (++calls == 5) h->stop();
            }),
            0);
  pl::check c(l);
  ASSERT_EQ(c.start([](pl::check*) {}), 0);
  c.unref();  // the idle handle alone keeps the loop alive
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(s.iterations(), 5u);
  EXPECT_EQ(s.totals(pl::phase::idle).passes, 5u);
  EXPECT_EQ(s.totals(pl::phase::idle).callbacks, 5u);
  EXPECT_EQ(s.totals(pl::phase::check).callbacks, 5u);
  EXPECT_EQ(s.totals(pl::phase::poll).passes, 5u);
  EXPECT_EQ(s.totals(pl::phase::poll).callbacks, 0u);
  // The newest profile's timers pass before iteration 1 counts as a pass.
  EXPECT_EQ(s.totals(pl::phase::timers).passes, 6u);
  EXPECT_TRUE(l.remove_hook(s));
  EXPECT_EQ(finish(l), 0);
}

TEST(stats, names_the_slowest_callback_and_the_lag_of_a_late_timer) {
  pl::loop l;
  pl::loop_stats s;
  ASSERT_TRUE(l.add_hook(s));
  // The check callback of iteration 1 blocks for 60 ms; the 10 ms timer
  // due meanwhile then runs about 50 ms late.
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 10, 0), 0);
  pl::check c(l);
  ASSERT_EQ(c.start([](pl::check* h) {
              pltest::spin_ms(60);
              h->stop();
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(s.slowest().kind, pl::callback_kind::check);
  EXPECT_EQ(s.slowest().which, pl::phase::check);
  EXPECT_GE(s.slowest().ns, 60'000'000u);
  const auto lag = s.timer_lag();
  EXPECT_EQ(lag.samples, 1u);
  EXPECT_GE(lag.max, 45u);
  EXPECT_EQ(lag.p50, lag.max);
  EXPECT_TRUE(l.remove_hook(s));
  EXPECT_EQ(finish(l), 0);
}

TEST(stats, lag_percentiles_over_a_manual_clock) {
  // 100 timers due at 0..99 ms, all run when the manual clock reaches
  // 100 ms: lags 1..100 ms, so p50 = 50, p90 = 90, p99 = 99, max = 100.
  pl::loop l;
  l.set_clock(pl::clock_mode::manual);
  pl::loop_stats s;
  ASSERT_TRUE(l.add_hook(s));
  std::vector<std::unique_ptr<pl::timer>> timers;
  for (int i = 0; i < 100; i++) {
    timers.push_back(std::make_unique<pl::timer>(l));
    ASSERT_EQ(timers.back()->start([](pl::timer*) {}, static_cast<std::uint64_t>(i), 0), 0);
  }
  ASSERT_EQ(l.advance(100), 0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  const auto lag = s.timer_lag();
  EXPECT_EQ(lag.samples, 100u);
  EXPECT_EQ(lag.p50, 50u);
  EXPECT_EQ(lag.p90, 90u);
  EXPECT_EQ(lag.p99, 99u);
  EXPECT_EQ(lag.max, 100u);
  EXPECT_TRUE(l.remove_hook(s));
  EXPECT_EQ(finish(l), 0);
}

TEST(stats, prints_a_row_per_phase) {
  pl::loop l;
  pl::loop_stats s;
  ASSERT_TRUE(l.add_hook(s));
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 0, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_TRUE(l.remove_hook(s));
  char buf[4096] = {};
  std::FILE* f = fmemopen(buf, sizeof buf - 1, "w");
  ASSERT_NE(f, nullptr);
  s.print(f, "title line");
  std::fclose(f);
  const std::string out = buf;
  EXPECT_EQ(out.rfind("title line: 1 iterations", 0), 0u) << out;
  for (const char* p : {"timers", "pending", "idle", "prepare", "poll", "check", "closing"})
    EXPECT_NE(out.find(std::string("\n  ") + p + " "), std::string::npos) << p << "\n" << out;
  EXPECT_NE(out.find("slowest callback:"), std::string::npos) << out;
  EXPECT_NE(out.find("timer lag (ms, 1 timers)"), std::string::npos) << out;
  EXPECT_EQ(finish(l), 0);
}

// The observer is told of every loop opened and closed (and of an open
// loop destroyed), on the loop's thread.
int opened_count, closing_count;
TEST(stats, loop_observer_sees_open_and_close) {
  opened_count = closing_count = 0;
  const pl::loop_observer prev = pl::set_loop_observer(
      {[](pl::loop&) { opened_count++; }, [](pl::loop&) { closing_count++; }});
  {
    pl::loop a;
    EXPECT_EQ(opened_count, 1);
    EXPECT_EQ(finish(a), 0);
    EXPECT_EQ(closing_count, 1);
    pl::loop b;  // destroyed open
    EXPECT_EQ(opened_count, 2);
  }
  EXPECT_EQ(closing_count, 2);
  pl::set_loop_observer(prev);
}

}  // namespace
