// SPDX-License-Identifier: MIT
// Chaos mode: the options, their text, the per-kind generators and the
// choices (what each perturbation may be, and how often it is made).
// docs/chaos.md says why libuv on Linux may make each of them.

#include "core/chaos.hpp"

#include <algorithm>
#include <climits>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "core/internal.hpp"
#include "phaseloop/loop.hpp"

namespace phaseloop {

namespace {

constexpr const char* kind_names[chaos_kinds] = {"batch", "pool", "reads", "writes", "timers", "eagain"};

// splitmix64: a full-period generator whose every output is well mixed,
// so neighbouring seeds give unrelated choices.
std::uint64_t next_random(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t s = a ^ (b * 0xD6E8FEB86659FD93ull);
  return next_random(s);
}

bool parse_number(std::string_view s, std::uint64_t& v) noexcept {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 10);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

const char* chaos_kind_name(chaos_kind k) noexcept {
  const auto i = static_cast<unsigned>(k);
  return i < chaos_kinds ? kind_names[i] : "unknown";
}

std::string chaos_choice_text(chaos_kind kind, std::int64_t a, std::int64_t b) {
  const std::string sa = std::to_string(a), sb = std::to_string(b);
  switch (kind) {
    case chaos_kind::batch:
      return b == 0 ? sa + " events in the batch, in another order"
                    : sa + " events in the batch, " + sb + " left for the next poll";
    case chaos_kind::pool:
      return a != 0 ? sa + " completions in another order" : "a worker waits " + sb + " us before it runs a request";
    case chaos_kind::reads: return "a read of up to " + sa + " bytes cut to " + sb;
    case chaos_kind::writes: return "a write of " + sa + " bytes cut to " + sb;
    case chaos_kind::timers:
      return a == 0 ? "the clock read " + sb + " ms behind" : "poll sleeps " + sb + " ms longer than the timers ask";
    case chaos_kind::eagain: return std::string(a == 1 ? "accept" : a == 2 ? "read" : "write") + " says EAGAIN";
  }
  return "?";
}

bool parse_chaos(std::string_view text, chaos_options& out, std::string& error) {
  chaos_options o;
  const std::size_t comma = text.find(',');
  const std::string_view seed = text.substr(0, comma);
  if (!parse_number(seed, o.seed)) {
    error = "the seed \"" + std::string(seed) + "\" is not a decimal number";
    return false;
  }
  unsigned kinds = 0;
  bool named = false;
  std::string_view rest = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  while (comma != std::string_view::npos) {
    const std::size_t next = rest.find(',');
    const std::string_view item = rest.substr(0, next);
    if (item.starts_with("limit=")) {
      if (!parse_number(item.substr(6), o.limit)) {
        error = "\"" + std::string(item) + "\": the limit is not a decimal number";
        return false;
      }
    } else if (item == "all") {
      kinds = chaos_all;
      named = true;
    } else {
      unsigned k = 0;
      while (k < chaos_kinds && item != kind_names[k]) k++;
      if (k == chaos_kinds) {
        error = "\"" + std::string(item) +
                "\" is no kind of choice (batch, pool, reads, writes, timers, eagain, all) nor limit=N";
        return false;
      }
      kinds |= 1u << k;
      named = true;
    }
    if (next == std::string_view::npos) break;
    rest = rest.substr(next + 1);
  }
  o.kinds = named ? kinds : chaos_all;
  out = o;
  return true;
}

std::string format_chaos(const chaos_options& o) {
  std::string s = std::to_string(o.seed);
  if ((o.kinds & chaos_all) != chaos_all) {
    for (unsigned k = 0; k < chaos_kinds; k++)
      if (o.kinds & (1u << k)) s += std::string(",") + kind_names[k];
  }
  if (o.limit != UINT64_MAX) s += ",limit=" + std::to_string(o.limit);
  return s;
}

namespace detail {

chaos::chaos(loop& l, const chaos_options& o) noexcept : loop_(l), opts_(o) {
  for (unsigned k = 0; k < chaos_kinds; k++) state_[k] = mix(o.seed, k + 1);
}

std::uint64_t chaos::below(chaos_kind k, std::uint64_t n) noexcept {
  return next_random(state_[static_cast<unsigned>(k)]) % n;
}

bool chaos::take(chaos_kind k, handle* h, std::int64_t a, std::int64_t b) noexcept {
  if (!opts_.on(k) || made_ >= opts_.limit) return false;
  made_++;
  if (loop_.hooked()) {
    const chaos_event e{k, made_, loop_.iteration(), h, a, b};
    loop_seam::chaos_hook(loop_, e);
  }
  return true;
}

// Half the reads are cut. On TCP, a byte stream that a network may split
// anywhere, to a size spread over the powers of two up to 4 KiB (one byte
// as often as a page), where messages end. A pipe, a local socket or a
// terminal hands a reader each write of PIPE_BUF bytes or fewer whole (a
// write is queued at once), so a read there is cut to one page, and only
// when more than a page waits (a large write arriving in pieces); the
// same numbers are drawn either way.
std::size_t chaos::read_size(handle* h, std::size_t len, std::size_t whole) noexcept {
  const bool cut = one_in(chaos_kind::reads, 2);
  const std::uint64_t cap = std::uint64_t{1} << below(chaos_kind::reads, 13);
  std::size_t size = 1 + below(chaos_kind::reads, len < cap ? len : cap);
  if (whole != 0) size = whole > PIPE_BUF ? PIPE_BUF : len;
  if (!cut || size >= len || !take(chaos_kind::reads, h, static_cast<std::int64_t>(len), static_cast<std::int64_t>(size)))
    return len;
  return size;
}

// Half the writes of more than PIPE_BUF bytes are cut short, anywhere. A
// write to a pipe of PIPE_BUF bytes or fewer is all or nothing (POSIX);
// a socket takes part of a write only when its send buffer is nearly
// full, which a small write on a connection with room never meets (and
// cutting one would have TCP hold its rest for an ACK: Nagle's rule).
std::size_t chaos::write_size(handle* h, std::size_t len) noexcept {
  const bool cut = one_in(chaos_kind::writes, 2);
  const std::size_t size = len > 1 ? 1 + below(chaos_kind::writes, len - 1) : len;
  if (!cut || len <= PIPE_BUF || size >= len ||
      !take(chaos_kind::writes, h, static_cast<std::int64_t>(len), static_cast<std::int64_t>(size)))
    return len;
  return size;
}

bool chaos::spurious_eagain(handle* h, int which) noexcept {
  return one_in(chaos_kind::eagain, 8) && take(chaos_kind::eagain, h, which, 0);
}

// One update in four reads a clock 1 to 4 ms behind: the timers due in
// that time wait for a later iteration, as on a loaded machine.
std::uint64_t chaos::clock(std::uint64_t real, std::uint64_t last) noexcept {
  const bool lag = one_in(chaos_kind::timers, 4);
  const std::uint64_t by = 1 + below(chaos_kind::timers, 4);
  if (!lag || real < last + by || !take(chaos_kind::timers, nullptr, 0, static_cast<std::int64_t>(by))) return real;
  return real - by;
}

// One poll in four that waits for a timer sleeps 1 to 5 ms longer.
int chaos::late_poll(int timeout) noexcept {
  const bool late = one_in(chaos_kind::timers, 4);
  const int by = 1 + static_cast<int>(below(chaos_kind::timers, 5));
  if (!late || timeout > INT32_MAX - by || !take(chaos_kind::timers, nullptr, 1, by)) return timeout;
  return timeout + by;
}

// One request in four waits up to 2 ms before its worker runs it: the
// requests behind it may finish first.
unsigned chaos::pool_delay_us() noexcept {
  const bool wait = one_in(chaos_kind::pool, 4);
  const unsigned us = 1 + static_cast<unsigned>(below(chaos_kind::pool, 2000));
  return wait && take(chaos_kind::pool, nullptr, 0, us) ? us : 0;
}

void chaos::reported(const io_event* events, int n) noexcept {
  for (int i = 0; i < n; i++) last_[i] = events[i].fd;
  std::sort(last_, last_ + n);
  last_n_ = n;
}

bool chaos::reported_last(int fd) const noexcept { return std::binary_search(last_, last_ + last_n_, fd); }

bool chaos_from_env(unsigned n, chaos_options& out) noexcept {
  static std::once_flag once;
  static bool on = false;
  static chaos_options base;
  std::call_once(once, [] {
    const char* text = std::getenv("PHASELOOP_CHAOS");
    if (text == nullptr || *text == '\0') return;
    std::string error;
    if (!parse_chaos(text, base, error)) {
      std::fprintf(stderr, "phaseloop: PHASELOOP_CHAOS=%s: %s; chaos mode is off\n", text, error.c_str());
      return;
    }
    // Nothing is printed: the caller chose the value (phaseloop chaos
    // prints each run's), and a program's own output (a child's stderr
    // that a test compares) must stay its own. Timelines name it.
    on = true;
  });
  if (!on) return false;
  out = base;
  // The first loop has the seed itself; the n-th one of its own.
  if (n > 1) out.seed = mix(base.seed, n);
  return true;
}

}  // namespace detail

// ---- the loop's side -------------------------------------------------------

int loop::set_chaos(const chaos_options* o) noexcept {
  if (chaos_ != nullptr) remove_hook(chaos_->presence());
  delete chaos_;
  chaos_ = o == nullptr ? nullptr : new (std::nothrow) detail::chaos(*this, *o);
  if (chaos_ != nullptr) add_hook(chaos_->presence());
  odd_clock_ = clock_ != clock_mode::real || chaos_ != nullptr;
  return o == nullptr || chaos_ != nullptr ? 0 : errc::no_memory;
}

const chaos_options* loop::chaos() const noexcept { return chaos_ != nullptr ? &chaos_->options() : nullptr; }

void loop::chaos_hook_(const chaos_event& e) {
  each_hook_([&](hook& k) { k.chaos_choice(*this, e); });
}

// epoll reports a batch in no promised order, and an fd that became ready
// as epoll_wait returned is reported by the next one: the batch is
// shuffled, and each event left for the next poll one time in four --
// never all of them, never an edge-triggered watch (its event would not
// come again), never the signal pipe, and never an fd the previous wait
// reported: a level-triggered fd still ready is on epoll's ready list from
// the start of the next wait and is reported by it, so only a readiness new
// since the last wait may have come late (an fd left once, or refused by a
// chaos EAGAIN, comes at the next wait). The previous wait is the last one
// that reported anything (one that timed out with nothing is not seen
// here), which can only leave fewer events for later. A batch with a
// notification in it -- the signal pipe, or an edge-triggered watch such
// as the loop's eventfd -- keeps every event, and so does one that comes
// with a send found posted (`posted`: a thread's wake-up that needed no
// write): a notification usually follows what the others report (a child
// closes its pipes before its SIGCHLD, a thread writes its data before it
// wakes the loop), and a wait that sees it sees them.
int loop::chaos_batch_(detail::io_event* events, int n, bool posted) noexcept {
  static_assert(max_batch_ <= detail::chaos::max_reported);
  detail::chaos& c = *chaos_;
  detail::io_event order[max_batch_];
  bool was_ready[max_batch_];  // reported by the previous wait
  for (int i = 0; i < n; i++) {
    order[i] = events[i];
    was_ready[i] = c.reported_last(events[i].fd);
  }
  c.reported(events, n);
  if (n < 2) return n;
  for (int i = n - 1; i > 0; i--) {
    const int j = static_cast<int>(c.below(chaos_kind::batch, static_cast<std::uint64_t>(i) + 1));
    std::swap(order[i], order[j]);
    std::swap(was_ready[i], was_ready[j]);
  }
  const auto notification = [&](const detail::io_watcher* w) {
    return w != nullptr && (((w->wanted | w->registered) & detail::io_edge) || w == &signal_watcher_);
  };
  bool notified = posted;
  for (int i = 0; i < n && !notified; i++) notified = notification(poller_.watcher(order[i].fd));
  // Which wait: moved to the end, in their new order.
  detail::io_event later[max_batch_];
  int waiting = 0, kept = 0;
  for (int i = 0; i < n; i++) {
    const detail::io_watcher* w = poller_.watcher(order[i].fd);
    const bool may_wait = !notified && w != nullptr && !notification(w) && !was_ready[i];
    if (c.one_in(chaos_kind::batch, 4) && may_wait) {
      later[waiting++] = order[i];
    } else {
      order[kept++] = order[i];
    }
  }
  // Keep one at least.
  if (kept == 0) order[kept++] = later[--waiting];
  for (int i = 0; i < waiting; i++) order[kept + i] = later[i];
  bool moved = waiting != 0;
  for (int i = 0; i < n && !moved; i++) moved = order[i].fd != events[i].fd;
  if (!moved || !c.take(chaos_kind::batch, nullptr, n, waiting)) return n;
  for (int i = 0; i < n; i++) events[i] = order[i];
  return kept;
}

}  // namespace phaseloop
