// SPDX-License-Identifier: MIT
// The tracer hook, writing into a memory stream.

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

using pltest::memfile;

// A line of iteration `iter` (any loop time) ending with `tail`.
bool has_iteration_line(const strings& lines, int iter, const std::string& tail) {
  const std::string head = "[iter " + std::to_string(iter) + " +";
  for (const std::string& l : lines)
    if (l.rfind(head, 0) == 0 && l.size() >= tail.size() && l.compare(l.size() - tail.size(), tail.size(), tail) == 0)
      return true;
  return false;
}

bool contains(const strings& lines, const std::string& needle) {
  for (const std::string& l : lines)
    if (l.find(needle) != std::string::npos) return true;
  return false;
}

std::string joined(const strings& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

TEST(tracer, prints_phase_blocks) {
  memfile out;
  ASSERT_NE(out.get(), nullptr);
  pl::loop l;
  l.set_order(pl::profile::libuv_1_44);
  pl::tracer tr(out.get());
  pl::timer t(l);
  pl::idle i(l);
  tr.name(&t, "t1");
  tr.name(&i, "ticker");
  ASSERT_EQ(t.start([](pl::timer*) {}, 0, 0), 0);
  ASSERT_EQ(i.start([](pl::idle* h) { h->stop(); }), 0);
  l.add_hook(tr);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  l.remove_hook(tr);
  const strings lines = out.lines();
  // The loop time does not move before the poll phase: every line up to the
  // idle block is at +0ms.
  const strings expected{
      "[iter 1 +0ms] timers {",
      "[iter 1 +0ms]   timer \"t1\"",
      "[iter 1 +0ms] timers }",
      "[iter 1 +0ms] pending: no callbacks",
      "[iter 1 +0ms] idle {",
      "[iter 1 +0ms]   idle \"ticker\"",
      "[iter 1 +0ms] idle }",
  };
  ASSERT_GE(lines.size(), expected.size()) << joined(lines);
  for (std::size_t k = 0; k < expected.size(); k++) EXPECT_EQ(lines[k], expected[k]) << joined(lines);
  EXPECT_EQ(finish(l), 0);
}

TEST(tracer, folds_quiet_phases_onto_one_line) {
  memfile out;
  ASSERT_NE(out.get(), nullptr);
  pl::loop l;
  l.set_order(pl::profile::libuv_1_45);
  pl::tracer tr(out.get());
  pl::idle i(l);
  tr.name(&i, "ticker");
  int calls = 0;
  i.data = &calls;
  ASSERT_EQ(i.start([](pl::idle* h) {
              if (++*static_cast<int*>(h->data) == 2) h->stop();
            }),
            0);
  l.add_hook(tr);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  l.remove_hook(tr);
  tr.flush();
  const strings lines = out.lines();
  // Quiet phases fold within one iteration: after the first idle block, the
  // rest of iteration 1 is one line, with the poll timeout shown; iteration
  // 2 starts a new line; flush() prints the trailing one.
  EXPECT_TRUE(has_iteration_line(lines, 1, "] pending: no callbacks")) << joined(lines);
  EXPECT_TRUE(has_iteration_line(lines, 1, "] prepare poll(timeout 0) check closing timers: no callbacks"))
      << joined(lines);
  EXPECT_TRUE(has_iteration_line(lines, 2, "] pending: no callbacks")) << joined(lines);
  EXPECT_TRUE(has_iteration_line(lines, 2, "] prepare poll(timeout 0) check closing timers: no callbacks"))
      << joined(lines);
  int idle_blocks = 0;
  for (const std::string& s : lines)
    if (s.find("] idle {") != std::string::npos) idle_blocks++;
  EXPECT_EQ(idle_blocks, 2) << joined(lines);
  EXPECT_TRUE(contains(lines, "[iter 2 ")) << joined(lines);
  EXPECT_EQ(finish(l), 0);
}

TEST(tracer, unnamed_objects_print_their_kind) {
  memfile out;
  ASSERT_NE(out.get(), nullptr);
  pl::loop l;
  pl::tracer tr(out.get());
  pl::timer t(l);
  pl::work w;
  ASSERT_EQ(t.start([](pl::timer*) {}, 0, 0), 0);
  ASSERT_EQ(w.queue(l, [](pl::work*) {}, [](pl::work*, int) {}), 0);
  l.add_hook(tr);
  EXPECT_EQ(l.run(), 0);
  l.remove_hook(tr);
  const strings lines = out.lines();
  EXPECT_TRUE(contains(lines, "  timer (timer)")) << joined(lines);
  EXPECT_TRUE(contains(lines, "  work done")) << joined(lines);
  EXPECT_TRUE(contains(lines, "(before loop) timers {")) << joined(lines);
  EXPECT_EQ(finish(l), 0);
}

TEST(tracer, renaming_replaces_the_label) {
  memfile out;
  ASSERT_NE(out.get(), nullptr);
  pl::loop l;
  pl::tracer tr(out.get());
  pl::timer t(l);
  tr.name(&t, "old");
  tr.name(&t, "new");
  ASSERT_EQ(t.start([](pl::timer*) {}, 0, 0), 0);
  l.add_hook(tr);
  EXPECT_EQ(l.run(), 0);
  l.remove_hook(tr);
  const strings lines = out.lines();
  EXPECT_TRUE(contains(lines, "timer \"new\"")) << joined(lines);
  EXPECT_FALSE(contains(lines, "\"old\"")) << joined(lines);
  EXPECT_EQ(finish(l), 0);
}

TEST(tracer, verbose_prints_every_phase_enter_and_exit) {
  memfile out;
  ASSERT_NE(out.get(), nullptr);
  pl::loop l;
  l.set_order(pl::profile::libuv_1_45);
  pl::tracer tr(out.get(), true);
  pl::idle i(l);
  tr.name(&i, "ticker");
  ASSERT_EQ(i.start([](pl::idle* h) { h->stop(); }), 0);
  l.add_hook(tr);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  l.remove_hook(tr);
  const strings lines = out.lines();
  for (const char* p : {"pending", "prepare", "poll", "check", "closing", "timers"}) {
    EXPECT_TRUE(contains(lines, std::string("] ") + p + " enter")) << p << "\n" << joined(lines);
    EXPECT_TRUE(contains(lines, std::string("] ") + p + " exit")) << p << "\n" << joined(lines);
  }
  EXPECT_TRUE(contains(lines, "] idle enter")) << joined(lines);
  EXPECT_TRUE(contains(lines, "  idle \"ticker\"")) << joined(lines);
  EXPECT_TRUE(contains(lines, "] idle }")) << joined(lines);
  EXPECT_FALSE(contains(lines, "no callbacks")) << joined(lines);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
