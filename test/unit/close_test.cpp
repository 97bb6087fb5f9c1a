// SPDX-License-Identifier: MIT
// close(): callback order, double close, start after close, closes made from
// close callbacks, and what closing does to activity and the loop.

#include <csignal>
#include <string>

#include "test_util.hpp"

namespace {

struct cstate {
  event_log* log = nullptr;
  std::string name;
  pl::handle* next = nullptr;  // closed from this handle's close callback
};

void log_close(pl::handle* h) {
  auto* s = static_cast<cstate*>(h->data);
  s->log->add(s->name + "@" + std::to_string(h->owner().iteration()));
}

void chain_close(pl::handle* h) {
  log_close(h);
  auto* s = static_cast<cstate*>(h->data);
  if (s->next) {
    EXPECT_EQ(s->next->close(log_close), 0);
  }
}

TEST(close, callbacks_run_in_reverse_close_order) {
  pl::loop l;
  event_log log;
  pl::timer a(l);
  pl::idle b(l);
  pl::async c(l, nullptr);
  pl::check d(l);
  cstate sa{&log, "a"}, sb{&log, "b"}, sc{&log, "c"}, sd{&log, "d"};
  a.data = &sa;
  b.data = &sb;
  c.data = &sc;
  d.data = &sd;
  ASSERT_EQ(b.close(log_close), 0);
  ASSERT_EQ(d.close(log_close), 0);
  ASSERT_EQ(a.close(log_close), 0);
  ASSERT_EQ(c.close(log_close), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"c@1", "a@1", "d@1", "b@1"}));
  EXPECT_EQ(l.close(), 0);
}

TEST(close, handle_closed_from_close_callback_finishes_next_iteration) {
  pl::loop l;
  event_log log;
  pl::timer a(l), b(l), c(l);
  cstate sa{&log, "a"}, sb{&log, "b"}, sc{&log, "c"};
  sa.next = &b;
  a.data = &sa;
  b.data = &sb;
  c.data = &sc;
  ASSERT_EQ(a.close(chain_close), 0);
  ASSERT_EQ(c.close(log_close), 0);
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.run(), 0);
  // c and a finish in iteration 1 (reverse close order); b, closed from a's
  // close callback, waits for iteration 2.
  EXPECT_EQ(log.events, (strings{"c@1", "a@1", "b@2"}));
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.close(), 0);
}

TEST(close, double_close_returns_invalid) {
  pl::loop l;
  event_log log;
  pl::timer t(l);
  cstate st{&log, "t"};
  t.data = &st;
  ASSERT_EQ(t.close(log_close), 0);
  EXPECT_EQ(t.close(log_close), pl::errc::invalid);  // closing
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"t@1"}));  // the callback ran only once
  EXPECT_EQ(t.close(log_close), pl::errc::invalid);  // closed
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"t@1"}));
  EXPECT_EQ(l.close(), 0);
}

TEST(close, start_after_close_returns_invalid) {
  pl::loop l;
  pl::timer t(l);
  pl::idle i(l);
  pl::prepare p(l);
  pl::check c(l);
  pl::signal s(l);
  ASSERT_EQ(t.close(nullptr), 0);
  ASSERT_EQ(i.close(nullptr), 0);
  ASSERT_EQ(p.close(nullptr), 0);
  ASSERT_EQ(c.close(nullptr), 0);
  ASSERT_EQ(s.close(nullptr), 0);
  // While closing.
  EXPECT_EQ(t.start([](pl::timer*) {}, 0, 0), pl::errc::invalid);
  EXPECT_EQ(i.start([](pl::idle*) {}), pl::errc::invalid);
  EXPECT_EQ(p.start([](pl::prepare*) {}), pl::errc::invalid);
  EXPECT_EQ(c.start([](pl::check*) {}), pl::errc::invalid);
  EXPECT_EQ(s.start([](pl::signal*, int) {}, SIGUSR1), pl::errc::invalid);
  EXPECT_EQ(s.start_oneshot([](pl::signal*, int) {}, SIGUSR1), pl::errc::invalid);
  EXPECT_FALSE(t.is_active());
  EXPECT_FALSE(i.is_active());
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(s.signum(), 0);
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(l.run(), 0);
  // And once closed.
  EXPECT_EQ(t.start([](pl::timer*) {}, 0, 0), pl::errc::invalid);
  EXPECT_EQ(i.start([](pl::idle*) {}), pl::errc::invalid);
  EXPECT_EQ(s.start([](pl::signal*, int) {}, SIGUSR1), pl::errc::invalid);
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.close(), 0);
}

TEST(close, closing_active_handles_stops_them_at_once) {
  pl::loop l;
  pl::timer t(l);
  pl::idle i(l);
  pl::async a(l, [](pl::async*) { ADD_FAILURE() << "async callback of a closed handle"; });
  ASSERT_EQ(t.start([](pl::timer*) { ADD_FAILURE() << "closed timer fired"; }, 0, 0), 0);
  ASSERT_EQ(i.start([](pl::idle*) { ADD_FAILURE() << "closed idle ran"; }), 0);
  ASSERT_EQ(a.send(), 0);
  EXPECT_EQ(l.active_handles(), 3u);
  ASSERT_EQ(t.close(nullptr), 0);
  ASSERT_EQ(i.close(nullptr), 0);
  ASSERT_EQ(a.close(nullptr), 0);
  for (pl::handle* h : {static_cast<pl::handle*>(&t), static_cast<pl::handle*>(&i), static_cast<pl::handle*>(&a)}) {
    EXPECT_FALSE(h->is_active());
    EXPECT_TRUE(h->is_closing());
  }
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_TRUE(l.alive());  // closing handles keep the loop alive
  EXPECT_EQ(l.run(), 0);
  EXPECT_TRUE(t.is_closing());  // closed handles stay "closing"
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.close(), 0);
}

TEST(close, handle_closing_itself_in_its_callback_finishes_same_iteration) {
  pl::loop l;
  event_log log;
  pl::timer t(l);
  pl::idle i(l);
  cstate st{&log, "timer"}, si{&log, "idle"};
  t.data = &st;
  i.data = &si;
  ASSERT_EQ(t.start(
                [](pl::timer* h) {
                  static_cast<cstate*>(h->data)->log->add("timer cb");
                  EXPECT_EQ(h->close(log_close), 0);
                  EXPECT_FALSE(h->is_active());
                  EXPECT_TRUE(h->is_closing());
                },
                0, 5),
            0);
  ASSERT_EQ(i.start([](pl::idle* h) {
              static_cast<cstate*>(h->data)->log->add("idle cb");
              EXPECT_EQ(h->close(log_close), 0);
            }),
            0);
  l.set_order(pl::profile::libuv_1_44);  // timers first in the iteration
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"timer cb", "idle cb", "idle@1", "timer@1"}));
  EXPECT_EQ(l.close(), 0);
}

TEST(close, null_close_callback_is_allowed) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 1000, 0), 0);
  ASSERT_EQ(t.close(nullptr), 0);
  EXPECT_EQ(l.close(), pl::errc::busy);  // not finished yet
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(l.close(), 0);
}

TEST(close, loop_close_is_busy_until_close_callbacks_ran) {
  pl::loop l;
  pl::idle i(l);
  EXPECT_EQ(l.close(), pl::errc::busy);  // an inactive handle counts too
  ASSERT_EQ(i.close(nullptr), 0);
  EXPECT_EQ(l.close(), pl::errc::busy);  // closing, not closed
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(l.close(), 0);
}

TEST(close, ref_and_unref_on_closing_handle_do_not_change_the_count) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 1000, 0), 0);
  t.unref();
  EXPECT_EQ(l.active_handles(), 0u);
  ASSERT_EQ(t.close(nullptr), 0);
  t.ref();
  EXPECT_TRUE(t.has_ref());
  EXPECT_EQ(l.active_handles(), 0u);
  t.unref();
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(l.close(), 0);
}

TEST(close, closed_handle_is_no_longer_walked) {
  pl::loop l;
  pl::timer a(l), b(l);
  ASSERT_EQ(a.close(nullptr), 0);
  int seen = 0;
  l.walk([](pl::handle*, void* arg) { ++*static_cast<int*>(arg); }, &seen);
  EXPECT_EQ(seen, 2);  // closing handles are still walked
  EXPECT_EQ(l.run(), 0);
  seen = 0;
  l.walk([](pl::handle*, void* arg) { ++*static_cast<int*>(arg); }, &seen);
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
