// SPDX-License-Identifier: MIT
// Idle, prepare and check handles: the drain rule (LIFO start order, the
// list is set aside for a pass), start/stop rules, and the effect of idle
// handles on the poll timeout. Each rule is checked for all three kinds.

#include <string>

#include "test_util.hpp"

namespace {

namespace pl = phaseloop;
using pltest::event_log;
using pltest::finish;
using pltest::strings;

struct pstate {
  event_log* log = nullptr;
  std::string name;
  int calls = 0;
  pl::handle* other = nullptr;
  int stop_self_after = 0;
};

// What each kind reports of itself.
template <class H>
struct kind;
template <>
struct kind<pl::idle> {
  static constexpr pl::handle_type type = pl::handle_type::idle;
  static constexpr const char* name = "idle";
};
template <>
struct kind<pl::prepare> {
  static constexpr pl::handle_type type = pl::handle_type::prepare;
  static constexpr const char* name = "prepare";
};
template <>
struct kind<pl::check> {
  static constexpr pl::handle_type type = pl::handle_type::check;
  static constexpr const char* name = "check";
};

// Test names end in the kind: phases_per_kind/idle.rule.
struct kind_names {
  template <class H>
  static std::string GetName(int) {
    return kind<H>::name;
  }
};

// Each rule below holds for all three kinds; written once, run for each.
template <class H>
class phases_per_kind : public ::testing::Test {};
using phase_kinds = ::testing::Types<pl::idle, pl::prepare, pl::check>;
TYPED_TEST_SUITE(phases_per_kind, phase_kinds, kind_names);

template <class H>
void log_cb(H* h) {
  auto* s = static_cast<pstate*>(h->data);
  s->calls++;
  s->log->add(std::to_string(h->owner().iteration()) + ":" + s->name);
  if (s->stop_self_after != 0 && s->calls >= s->stop_self_after) h->stop();
}

template <class H>
void other_cb(H*) {
  ADD_FAILURE() << "a replaced callback ran";
}

const char* kind_name(pl::handle_type t) { return pl::handle_type_name(t); }

// ---- LIFO order ------------------------------------------------------------

TYPED_TEST(phases_per_kind, callbacks_run_in_reverse_start_order) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l), b(l), c(l);
  pstate sa{&log, "a"}, sb{&log, "b"}, sc{&log, "c"};
  a.data = &sa;
  b.data = &sb;
  c.data = &sc;
  ASSERT_EQ(a.start(log_cb<H>), 0);
  ASSERT_EQ(b.start(log_cb<H>), 0);
  ASSERT_EQ(c.start(log_cb<H>), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:c", "1:b", "1:a", "2:c", "2:b", "2:a"}));
  EXPECT_EQ(finish(l), 0);
}

// ---- set-aside list --------------------------------------------------------

TYPED_TEST(phases_per_kind, list_set_aside_handles_started_during_pass_wait) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l), b(l);
  pstate sa{&log, "a"}, sb{&log, "b"};
  sa.other = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start([](H* h) {
              log_cb<H>(h);
              auto* s = static_cast<pstate*>(h->data);
              if (s->calls == 1) {
                EXPECT_EQ(static_cast<H*>(s->other)->start(log_cb<H>), 0);
              }
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:a"}));  // b was started during the pass
  EXPECT_TRUE(b.is_active());
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  // b went to the head of the live list.
  EXPECT_EQ(log.events, (strings{"1:a", "2:b", "2:a"}));
  EXPECT_EQ(finish(l), 0);
}

TYPED_TEST(phases_per_kind, handle_stopped_during_pass_by_earlier_callback_does_not_run) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l), b(l);
  pstate sa{&log, "a"}, sb{&log, "b"};
  sa.other = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(b.start(log_cb<H>), 0);
  ASSERT_EQ(a.start([](H* h) {  // started last: runs first
              log_cb<H>(h);
              EXPECT_EQ(static_cast<H*>(static_cast<pstate*>(h->data)->other)->stop(), 0);
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:a"}));
  EXPECT_FALSE(b.is_active());
  EXPECT_EQ(sb.calls, 0);
  EXPECT_EQ(finish(l), 0);
}

TYPED_TEST(phases_per_kind, handle_stopped_and_restarted_during_pass_waits_for_next_iteration) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l), b(l);
  pstate sa{&log, "a"}, sb{&log, "b"};
  sa.other = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(b.start(log_cb<H>), 0);
  ASSERT_EQ(a.start([](H* h) {
              log_cb<H>(h);
              auto* s = static_cast<pstate*>(h->data);
              if (s->calls == 1) {
                H* o = static_cast<H*>(s->other);
                EXPECT_EQ(o->stop(), 0);
                EXPECT_EQ(o->start(log_cb<H>), 0);
              }
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:a"}));
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:a", "2:b", "2:a"}));
  EXPECT_EQ(finish(l), 0);
}

TYPED_TEST(phases_per_kind, handle_closed_during_pass_by_earlier_callback_does_not_run) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l), b(l);
  pstate sa{&log, "a"}, sb{&log, "b"};
  sa.other = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(b.start(log_cb<H>), 0);
  ASSERT_EQ(a.start([](H* h) {
              log_cb<H>(h);
              auto* s = static_cast<pstate*>(h->data);
              if (!s->other->is_closing()) {
                EXPECT_EQ(s->other->close([](pl::handle* x) {
                  static_cast<pstate*>(x->data)->log->add("closed b");
                }),
                          0);
              }
            }),
            0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:a", "closed b"}));
  EXPECT_EQ(finish(l), 0);
}

TYPED_TEST(phases_per_kind, stop_in_own_callback_ends_the_handle_and_allows_restart) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l);
  pstate sa{&log, "a"};
  sa.stop_self_after = 1;
  a.data = &sa;
  ASSERT_EQ(a.start(log_cb<H>), 0);
  EXPECT_EQ(l.active_handles(), 1u);
  // NOWAIT: in DEFAULT mode a lone check handle would let poll block.
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);  // nothing left active
  EXPECT_EQ(sa.calls, 1);
  EXPECT_FALSE(a.is_active());
  EXPECT_EQ(l.active_handles(), 0u);
  // A self-stopped handle can be started again.
  sa.stop_self_after = 2;
  ASSERT_EQ(a.start(log_cb<H>), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(sa.calls, 2);
  EXPECT_EQ(finish(l), 0);
}

// ---- start/stop rules ------------------------------------------------------

TYPED_TEST(phases_per_kind, start_rules_null_callback_invalid_and_restart_of_active_is_noop) {
  using H = TypeParam;
  pl::loop l;
  event_log log;
  H a(l), b(l);
  pstate sa{&log, "a"}, sb{&log, "b"};
  a.data = &sa;
  b.data = &sb;
  EXPECT_EQ(a.start(nullptr), pl::errc::invalid);  // inactive, null callback
  EXPECT_FALSE(a.is_active());
  EXPECT_EQ(a.stop(), 0);  // stopping an inactive handle succeeds
  EXPECT_EQ(l.active_handles(), 0u);

  ASSERT_EQ(a.start(log_cb<H>), 0);
  ASSERT_EQ(b.start(log_cb<H>), 0);
  EXPECT_EQ(l.active_handles(), 2u);
  // Starting an active handle succeeds and changes nothing: neither the
  // callback nor the position in the list, not even with a null callback.
  EXPECT_EQ(a.start(other_cb<H>), 0);
  EXPECT_EQ(b.start(nullptr), 0);
  EXPECT_EQ(l.active_handles(), 2u);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(log.events, (strings{"1:b", "1:a"}));
  EXPECT_EQ(a.stop(), 0);
  EXPECT_EQ(a.stop(), 0);
  EXPECT_FALSE(a.is_active());
  EXPECT_EQ(l.active_handles(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TYPED_TEST(phases_per_kind, handle_type_is_reported) {
  pl::loop l;
  TypeParam h(l);
  EXPECT_EQ(h.type(), kind<TypeParam>::type);
  EXPECT_STREQ(kind_name(h.type()), kind<TypeParam>::name);
  EXPECT_EQ(&h.owner(), &l);
  EXPECT_EQ(finish(l), 0);
}

// ---- order across phases and poll timeout ----------------------------------

TEST(phases, idle_then_prepare_then_check_within_an_iteration) {
  pl::loop l;
  event_log log;
  pl::idle i(l);
  pl::prepare p(l);
  pl::check c(l);
  pstate si{&log, "idle"}, sp{&log, "prepare"}, sc{&log, "check"};
  i.data = &si;
  p.data = &sp;
  c.data = &sc;
  // Started in reverse phase order on purpose.
  ASSERT_EQ(c.start(log_cb<pl::check>), 0);
  ASSERT_EQ(p.start(log_cb<pl::prepare>), 0);
  ASSERT_EQ(i.start(log_cb<pl::idle>), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(log.events, (strings{"1:idle", "1:prepare", "1:check"}));
  EXPECT_EQ(finish(l), 0);
}

TEST(phases, active_idle_makes_poll_non_blocking) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::idle i(l);
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 10000, 0), 0);
  ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  int polls = 0;
  for (const auto& p : rec.phases)
    if (p.which == pl::phase::poll && p.enter) {
      polls++;
      EXPECT_EQ(p.timeout, 0);
    }
  EXPECT_EQ(polls, 1);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(phases, unrefd_active_idle_still_makes_poll_non_blocking) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::idle i(l);
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 10000, 0), 0);
  ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  i.unref();
  EXPECT_EQ(l.active_handles(), 1u);  // only the timer counts
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  bool saw_poll = false;
  for (const auto& p : rec.phases)
    if (p.which == pl::phase::poll && p.enter) {
      saw_poll = true;
      EXPECT_EQ(p.timeout, 0);
    }
  EXPECT_TRUE(saw_poll);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(phases, prepare_and_check_do_not_make_poll_non_blocking) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::prepare p(l);
  pl::check c(l);
  pl::timer t(l);
  ASSERT_EQ(p.start([](pl::prepare*) {}), 0);
  ASSERT_EQ(c.start([](pl::check*) {}), 0);
  ASSERT_EQ(t.start([](pl::timer*) {}, 20, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  bool saw_poll = false;
  for (const auto& ph : rec.phases)
    if (ph.which == pl::phase::poll && ph.enter) {
      saw_poll = true;
      EXPECT_GT(ph.timeout, 0);
      EXPECT_LE(ph.timeout, 20);
    }
  EXPECT_TRUE(saw_poll);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
