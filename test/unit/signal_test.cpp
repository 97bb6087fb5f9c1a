// SPDX-License-Identifier: MIT
// Signal handles. Signals are raised with raise(), which runs the process
// handler on this thread before it returns; the callbacks then come from the
// loop's poll phase. A signal is only raised while a handle watches it, or
// when its default action is to ignore it (SIGWINCH).

#include <csignal>
#include <string>

#include "test_util.hpp"

namespace {

struct sstate {
  event_log* log = nullptr;
  std::string name;
  int calls = 0;
  int last_signum = 0;
  bool active_in_cb = false;
};

void log_signal(pl::signal* s, int signum) {
  auto* st = static_cast<sstate*>(s->data);
  st->calls++;
  st->last_signum = signum;
  st->active_in_cb = s->is_active();
  if (st->log) st->log->add(st->name);
}

TEST(signal, delivered_in_poll_phase) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  event_log log;
  pl::signal s(l);
  pl::prepare p(l);
  pl::check c(l);
  sstate ss{&log, "signal"};
  s.data = &ss;
  p.data = &log;
  c.data = &log;
  ASSERT_EQ(p.start([](pl::prepare* h) { static_cast<event_log*>(h->data)->add("prepare"); }), 0);
  ASSERT_EQ(c.start([](pl::check* h) { static_cast<event_log*>(h->data)->add("check"); }), 0);
  ASSERT_EQ(s.start(log_signal, SIGUSR1), 0);
  EXPECT_EQ(s.signum(), SIGUSR1);
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_EQ(ss.calls, 0) << "the process handler must not call back";
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(log.events, (strings{"prepare", "signal", "check"}));
  EXPECT_EQ(ss.last_signum, SIGUSR1);
  EXPECT_EQ(rec.calls_of(pl::callback_kind::signal), (pltest::call_sites{{pl::phase::poll, &s}}));
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, oneshot_stops_after_first) {
  pl::loop l;
  pl::signal s(l);
  sstate ss;
  s.data = &ss;
  ASSERT_EQ(s.start_oneshot(log_signal, SIGWINCH), 0);
  EXPECT_TRUE(s.is_active());
  ASSERT_EQ(raise(SIGWINCH), 0);
  ASSERT_EQ(raise(SIGWINCH), 0);  // after the first, SIGWINCH is ignored again
  EXPECT_EQ(l.run(), 0);  // the stopped one-shot no longer keeps the loop alive
  EXPECT_EQ(ss.calls, 1);
  EXPECT_EQ(ss.last_signum, SIGWINCH);
  EXPECT_TRUE(ss.active_in_cb) << "libuv stops a one-shot handle after its callback returns";
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(s.signum(), 0);
  // It can be armed again.
  ASSERT_EQ(s.start_oneshot(log_signal, SIGWINCH), 0);
  ASSERT_EQ(raise(SIGWINCH), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(ss.calls, 2);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, persistent_handle_is_called_for_every_delivery) {
  pl::loop l;
  pl::signal s(l);
  sstate ss;
  s.data = &ss;
  ASSERT_EQ(s.start(log_signal, SIGUSR2), 0);
  for (int i = 1; i <= 3; i++) {
    ASSERT_EQ(raise(SIGUSR2), 0);
    EXPECT_EQ(l.run(pl::run_mode::once), 1);
    EXPECT_EQ(ss.calls, i);
    EXPECT_TRUE(s.is_active());
  }
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, two_handles_on_one_signal_are_both_called) {
  pl::loop l;
  pl::signal a(l), b(l);
  sstate sa, sb;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start(log_signal, SIGUSR1), 0);
  ASSERT_EQ(b.start(log_signal, SIGUSR1), 0);
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(sa.calls, 1);
  EXPECT_EQ(sb.calls, 1);
  // Stopping one leaves the other (and the process handler) in place.
  ASSERT_EQ(a.stop(), 0);
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(sa.calls, 1);
  EXPECT_EQ(sb.calls, 2);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, handles_on_two_loops_are_both_called) {
  pl::loop l1, l2;
  pl::signal a(l1), b(l2);
  sstate sa, sb;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start(log_signal, SIGUSR2), 0);
  ASSERT_EQ(b.start(log_signal, SIGUSR2), 0);
  ASSERT_EQ(raise(SIGUSR2), 0);
  EXPECT_EQ(l1.run(pl::run_mode::once), 1);
  EXPECT_EQ(sa.calls, 1);
  EXPECT_EQ(sb.calls, 0);  // l2 has not run
  EXPECT_EQ(l2.run(pl::run_mode::once), 1);
  EXPECT_EQ(sb.calls, 1);
  EXPECT_EQ(finish(l1), 0);
  EXPECT_EQ(finish(l2), 0);
}

TEST(signal, close_waits_until_caught_signals_are_read) {
  pl::loop l;
  event_log log;
  pl::signal s(l);
  sstate ss{&log, "signal cb"};
  s.data = &ss;
  ASSERT_EQ(s.start(log_signal, SIGUSR1), 0);
  ASSERT_EQ(raise(SIGUSR1), 0);  // a note now waits in the loop's pipe
  ASSERT_EQ(s.close([](pl::handle* h) { static_cast<sstate*>(h->data)->log->add("closed"); }), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"closed"}));  // no callback for a closing handle
  EXPECT_EQ(l.close(), 0);
}

TEST(signal, stopped_handle_gets_no_callback_for_earlier_delivery) {
  pl::loop l;
  pl::signal s(l);
  pl::idle i(l);  // keeps the loop iterating
  sstate ss;
  s.data = &ss;
  ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  ASSERT_EQ(s.start(log_signal, SIGUSR1), 0);
  ASSERT_EQ(raise(SIGUSR1), 0);
  ASSERT_EQ(s.stop(), 0);
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(s.signum(), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(ss.calls, 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, stop_in_callback) {
  pl::loop l;
  pl::signal s(l);
  sstate ss;
  s.data = &ss;
  ASSERT_EQ(s.start(
                [](pl::signal* h, int signum) {
                  log_signal(h, signum);
                  EXPECT_EQ(h->stop(), 0);
                },
                SIGUSR2),
            0);
  ASSERT_EQ(raise(SIGUSR2), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(ss.calls, 1);
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, restart_on_another_signal_switches_signal) {
  pl::loop l;
  pl::signal s(l);
  sstate ss;
  s.data = &ss;
  ASSERT_EQ(s.start(log_signal, SIGWINCH), 0);
  ASSERT_EQ(s.start(log_signal, SIGUSR2), 0);
  EXPECT_EQ(s.signum(), SIGUSR2);
  EXPECT_EQ(l.active_handles(), 1u);
  ASSERT_EQ(raise(SIGWINCH), 0);  // no longer watched (and ignored by default)
  ASSERT_EQ(raise(SIGUSR2), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(ss.calls, 1);
  EXPECT_EQ(ss.last_signum, SIGUSR2);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, start_on_same_signal_only_replaces_callback) {
  pl::loop l;
  pl::signal s(l);
  sstate ss;
  s.data = &ss;
  ASSERT_EQ(s.start([](pl::signal*, int) { ADD_FAILURE() << "replaced callback ran"; }, SIGUSR1), 0);
  ASSERT_EQ(s.start(log_signal, SIGUSR1), 0);
  EXPECT_EQ(l.active_handles(), 1u);
  ASSERT_EQ(raise(SIGUSR1), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(ss.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, invalid_arguments_return_invalid) {
  pl::loop l;
  pl::signal s(l);
  EXPECT_EQ(s.start(log_signal, 0), pl::errc::invalid);
  EXPECT_EQ(s.start(log_signal, -1), pl::errc::invalid);
  EXPECT_EQ(s.start(log_signal, NSIG), pl::errc::invalid);
  EXPECT_EQ(s.start(nullptr, SIGUSR1), pl::errc::invalid);
  EXPECT_EQ(s.start_oneshot(log_signal, 0), pl::errc::invalid);
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(s.signum(), 0);
  EXPECT_EQ(s.stop(), 0);  // stopping an idle handle is fine
  EXPECT_EQ(s.type(), pl::handle_type::signal);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, failed_start_leaves_the_handle_stopped) {
  pl::loop l;
  pl::signal s(l);
  EXPECT_EQ(s.start(log_signal, SIGKILL), pl::errc::invalid);  // sigaction refuses
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(s.signum(), 0);
  // A failed restart on another signal drops the previous watch, as libuv.
  ASSERT_EQ(s.start(log_signal, SIGUSR1), 0);
  EXPECT_EQ(s.start(log_signal, SIGSTOP), pl::errc::invalid);
  EXPECT_FALSE(s.is_active());
  EXPECT_EQ(s.signum(), 0);
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, active_signal_keeps_loop_alive_unless_unrefd) {
  pl::loop l;
  pl::signal s(l);
  ASSERT_EQ(s.start(log_signal, SIGUSR1), 0);
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  s.unref();
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(signal, callbacks_come_after_other_callbacks_of_the_same_poll) {
  pl::loop l;
  event_log log;
  pl::signal s(l);
  pl::async a(l, [](pl::async* h) { static_cast<event_log*>(h->data)->add("async"); });
  sstate ss{&log, "signal"};
  s.data = &ss;
  a.data = &log;
  ASSERT_EQ(s.start(log_signal, SIGUSR2), 0);
  ASSERT_EQ(raise(SIGUSR2), 0);  // delivered first...
  ASSERT_EQ(a.send(), 0);        // ...but called back last
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"async", "signal"}));
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
