// SPDX-License-Identifier: MIT
// Idle, prepare and check handles: the drain rule (LIFO start order, the
// list is set aside for a pass), start/stop rules, and the effect of idle
// handles on the poll timeout. Each rule is checked for all three kinds.

#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "test_util.hpp"

namespace {

// What a callback does to another handle of its kind (log_and_act_on_other).
enum class act { none, start, stop, stop_and_start, close };

struct pstate {
  event_log* log = nullptr;
  std::string name;
  int calls = 0;
  pl::handle* other = nullptr;
  int stop_self_after = 0;
  act what = act::none;  // what the callback does to `other`
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

// A loop with handles a, b and c of kind H that log their names (and the
// iteration) to `log`; b is a's `other`.
template <class H>
struct trio {
  trio() {
    sa.other = &b;
    a.data = &sa;
    b.data = &sb;
    c.data = &sc;
  }

  pl::loop l;
  event_log log;
  H a{l}, b{l}, c{l};
  pstate sa{&log, "a"}, sb{&log, "b"}, sc{&log, "c"};
};

// ---- LIFO order ------------------------------------------------------------

TYPED_TEST(phases_per_kind, callbacks_run_in_reverse_start_order) {
  using H = TypeParam;
  trio<H> k;
  ASSERT_EQ(k.a.start(log_cb<H>), 0);
  ASSERT_EQ(k.b.start(log_cb<H>), 0);
  ASSERT_EQ(k.c.start(log_cb<H>), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(k.log.events, (strings{"1:c", "1:b", "1:a", "2:c", "2:b", "2:a"}));
  EXPECT_EQ(finish(k.l), 0);
}

// ---- set-aside list --------------------------------------------------------

// What a's first callback does to b, of its kind, during the pass: the
// pass has set the list aside, so a b started then waits for the next
// iteration, and a b stopped or closed then does not run.
struct other_case {
  const char* name;
  act what;
  bool b_started;                     // before the run (started first: a runs first)
  strings first_run;                  // the log after the first NOWAIT run
  bool b_active;                      // after it
  std::optional<strings> second_run;  // after a second NOWAIT run, if one is made
  friend void PrintTo(const other_case& c, std::ostream* os) { *os << c.name; }
};

const other_case other_cases[] = {
    // b goes to the head of the live list.
    {"list_set_aside_handles_started_during_pass_wait", act::start, false, {"1:a"}, true, strings{"1:a", "2:b", "2:a"}},
    {"handle_stopped_during_pass_by_earlier_callback_does_not_run", act::stop, true, {"1:a"}, false, std::nullopt},
    {"handle_stopped_and_restarted_during_pass_waits_for_next_iteration", act::stop_and_start, true, {"1:a"}, true,
     strings{"1:a", "2:b", "2:a"}},
    {"handle_closed_during_pass_by_earlier_callback_does_not_run", act::close, true, {"1:a", "closed b"}, false,
     std::nullopt},
};

template <class H>
void log_and_act_on_other(H* h) {
  log_cb<H>(h);
  auto* s = static_cast<pstate*>(h->data);
  if (s->calls != 1) return;
  H* o = static_cast<H*>(s->other);
  if (s->what == act::stop || s->what == act::stop_and_start) {
    EXPECT_EQ(o->stop(), 0);
  }
  if (s->what == act::start || s->what == act::stop_and_start) {
    EXPECT_EQ(o->start(log_cb<H>), 0);
  }
  if (s->what == act::close) {
    EXPECT_EQ(o->close([](pl::handle* x) {
      auto* xs = static_cast<pstate*>(x->data);
      xs->log->add("closed " + xs->name);
    }),
              0);
  }
}

template <class H>
void act_on_other_during_pass(const other_case& c) {
  trio<H> k;
  k.sa.what = c.what;
  if (c.b_started) {
    ASSERT_EQ(k.b.start(log_cb<H>), 0);
  }
  ASSERT_EQ(k.a.start(log_and_act_on_other<H>), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(k.log.events, c.first_run);
  EXPECT_EQ(k.b.is_active(), c.b_active);
  EXPECT_EQ(k.sb.calls, 0);
  if (c.second_run) {
    EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
    EXPECT_EQ(k.log.events, *c.second_run);
  }
  EXPECT_EQ(finish(k.l), 0);
}

// The cases for each kind: act/earlier_callback/.../idle_list_set_aside_...
class earlier_callback : public ::testing::TestWithParam<std::tuple<pl::handle_type, other_case>> {};
std::string kind_and_case(const ::testing::TestParamInfo<earlier_callback::ParamType>& p) {
  return std::string(kind_name(std::get<0>(p.param))) + "_" + std::get<1>(p.param).name;
}
INSTANTIATE_TEST_SUITE_P(
    act, earlier_callback,
    ::testing::Combine(::testing::Values(pl::handle_type::idle, pl::handle_type::prepare, pl::handle_type::check),
                       ::testing::ValuesIn(other_cases)),
    kind_and_case);

TEST_P(earlier_callback, on_a_later_handle_of_its_kind_takes_effect_in_the_pass_or_the_next) {
  const auto& [kind, c] = GetParam();
  if (kind == pl::handle_type::idle) act_on_other_during_pass<pl::idle>(c);
  if (kind == pl::handle_type::prepare) act_on_other_during_pass<pl::prepare>(c);
  if (kind == pl::handle_type::check) act_on_other_during_pass<pl::check>(c);
}

TYPED_TEST(phases_per_kind, stop_in_own_callback_ends_the_handle_and_allows_restart) {
  using H = TypeParam;
  trio<H> k;
  k.sa.stop_self_after = 1;
  ASSERT_EQ(k.a.start(log_cb<H>), 0);
  EXPECT_EQ(k.l.active_handles(), 1u);
  // NOWAIT: in DEFAULT mode a lone check handle would let poll block.
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 0);  // nothing left active
  EXPECT_EQ(k.sa.calls, 1);
  EXPECT_FALSE(k.a.is_active());
  EXPECT_EQ(k.l.active_handles(), 0u);
  // A self-stopped handle can be started again.
  k.sa.stop_self_after = 2;
  ASSERT_EQ(k.a.start(log_cb<H>), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(k.sa.calls, 2);
  EXPECT_EQ(finish(k.l), 0);
}

// ---- start/stop rules ------------------------------------------------------

TYPED_TEST(phases_per_kind, start_rules_null_callback_invalid_and_restart_of_active_is_noop) {
  using H = TypeParam;
  trio<H> k;
  EXPECT_EQ(k.a.start(nullptr), pl::errc::invalid);  // inactive, null callback
  EXPECT_FALSE(k.a.is_active());
  EXPECT_EQ(k.a.stop(), 0);  // stopping an inactive handle succeeds
  EXPECT_EQ(k.l.active_handles(), 0u);

  ASSERT_EQ(k.a.start(log_cb<H>), 0);
  ASSERT_EQ(k.b.start(log_cb<H>), 0);
  EXPECT_EQ(k.l.active_handles(), 2u);
  // Starting an active handle succeeds and changes nothing: neither the
  // callback nor the position in the list, not even with a null callback.
  EXPECT_EQ(k.a.start(other_cb<H>), 0);
  EXPECT_EQ(k.b.start(nullptr), 0);
  EXPECT_EQ(k.l.active_handles(), 2u);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(k.log.events, (strings{"1:b", "1:a"}));
  EXPECT_EQ(k.a.stop(), 0);
  EXPECT_EQ(k.a.stop(), 0);
  EXPECT_FALSE(k.a.is_active());
  EXPECT_EQ(k.l.active_handles(), 1u);
  EXPECT_EQ(finish(k.l), 0);
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

// Which handles make the poll phase not wait: with a timer due later,
// a ONCE run's poll timeout (lo to hi ms).
struct poll_case {
  const char* name;
  bool idle, unref_idle, prepare_and_check;
  std::uint64_t timer_timeout;
  unsigned active_handles;  // that keep the loop alive
  int lo, hi;
  friend void PrintTo(const poll_case& c, std::ostream* os) { *os << c.name; }
};

const poll_case poll_cases[] = {
    {"active_idle_makes_poll_non_blocking", true, false, false, 10000, 2, 0, 0},
    // Only the timer counts as active.
    {"unrefd_active_idle_still_makes_poll_non_blocking", true, true, false, 10000, 1, 0, 0},
    {"prepare_and_check_do_not_make_poll_non_blocking", false, false, true, 20, 3, 1, 20},
};

class poll_timeout : public ::testing::TestWithParam<poll_case> {};
INSTANTIATE_TEST_SUITE_P(phases, poll_timeout, ::testing::ValuesIn(poll_cases), pltest::row_name());

TEST_P(poll_timeout, is_zero_with_an_active_idle_handle_only) {
  const poll_case& c = GetParam();
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::idle i(l);
  pl::prepare p(l);
  pl::check ck(l);
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, c.timer_timeout, 0), 0);
  if (c.idle) {
    ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  }
  if (c.unref_idle) i.unref();
  if (c.prepare_and_check) {
    ASSERT_EQ(p.start([](pl::prepare*) {}), 0);
    ASSERT_EQ(ck.start([](pl::check*) {}), 0);
  }
  EXPECT_EQ(l.active_handles(), c.active_handles);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  const std::vector<int> timeouts = rec.poll_timeouts();
  EXPECT_EQ(timeouts.size(), 1u);
  for (int timeout : timeouts) {
    EXPECT_GE(timeout, c.lo);
    EXPECT_LE(timeout, c.hi);
  }
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
