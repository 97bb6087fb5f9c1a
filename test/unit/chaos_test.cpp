// SPDX-License-Identifier: MIT
// Chaos mode (phaseloop/chaos.hpp): the options' text; for each kind of
// choice, a program that is correct whatever libuv may do is unaffected
// by it, and a program that assumes the order a quiet machine shows fails
// under it for one of the first seeds; the same seed makes the same
// choices; a limit keeps the first perturbations and no more.

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_util.hpp"

namespace {

// Records every perturbation, as kind:a:b at its iteration.
class chaos_log : public pl::hook {
 public:
  std::vector<std::string> seen;
  void chaos_choice(pl::loop&, const pl::chaos_event& e) override {
    seen.push_back(std::string(pl::chaos_kind_name(e.kind)) + ":" + std::to_string(e.a) + ":" +
                   std::to_string(e.b) + "@" + std::to_string(e.iteration) + "#" + std::to_string(e.number));
  }
};

pl::chaos_options only(std::uint64_t seed, std::initializer_list<pl::chaos_kind> kinds) {
  pl::chaos_options o;
  o.seed = seed;
  o.kinds = 0;
  for (pl::chaos_kind k : kinds) o.kinds |= 1u << static_cast<unsigned>(k);
  return o;
}

// ---- a stream that receives what the peer wrote at once --------------------

struct received {
  std::string bytes;
  int reads = 0;    // read callbacks with data
  int empty = 0;    // read callbacks with nread 0 (EAGAIN)
  bool eof = false;
  std::vector<std::string> chaos;
};

// The peer writes `count` messages of `size` bytes and closes its end; the
// loop reads until EOF.
received receive(const pl::chaos_options* o, int count = 8, int size = 100,
                 pl::profile profile = pl::profile::newest) {
  received r;
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return r;
  std::string sent;
  for (int i = 0; i < count; i++) sent += std::string(static_cast<std::size_t>(size), static_cast<char>('a' + i % 26));
  if (::write(fds[1], sent.data(), sent.size()) != static_cast<ssize_t>(sent.size())) return r;
  // Gone: the reader sees a hang-up with the data (a read chaos mode cut
  // short must not be taken for the one that drained the socket).
  ::close(fds[1]);
  pl::loop l;
  l.set_order(profile);
  chaos_log log;
  l.add_hook(log);
  if (o != nullptr) l.set_chaos(o);
  pl::pipe p(l, false);
  p.open(fds[0]);
  p.data = &r;
  p.read_start(
      [](pl::handle*, std::size_t, pl::fs_buf* b) {
        static char space[64 * 1024];
        *b = pl::fs_buf{space, sizeof space};
      },
      [](pl::stream* s, ssize_t n, const pl::fs_buf* b) {
        auto& st = *static_cast<received*>(s->data);
        if (n > 0) {
          st.bytes.append(b->base, static_cast<std::size_t>(n));
          st.reads++;
        } else if (n == 0) {
          st.empty++;
        } else {
          st.eof = n == pl::errc::eof;
          s->close(nullptr);
        }
      });
  l.run();
  r.chaos = log.seen;
  l.remove_hook(log);
  EXPECT_EQ(pltest::finish(l), 0);
  if (r.bytes != sent) r.bytes = "(not what was sent)";
  return r;
}

TEST(chaos, options_read_back_as_written) {
  pl::chaos_options o;
  std::string error;
  ASSERT_TRUE(pl::parse_chaos("17", o, error));
  EXPECT_EQ(o.seed, 17u);
  EXPECT_EQ(o.kinds, pl::chaos_all);
  EXPECT_EQ(o.limit, UINT64_MAX);
  EXPECT_EQ(pl::format_chaos(o), "17");
  ASSERT_TRUE(pl::parse_chaos("5,writes,reads,limit=3", o, error));
  EXPECT_TRUE(o.on(pl::chaos_kind::reads));
  EXPECT_TRUE(o.on(pl::chaos_kind::writes));
  EXPECT_FALSE(o.on(pl::chaos_kind::batch));
  EXPECT_EQ(o.limit, 3u);
  EXPECT_EQ(pl::format_chaos(o), "5,reads,writes,limit=3");
  ASSERT_TRUE(pl::parse_chaos("9,all,limit=0", o, error));
  EXPECT_EQ(pl::format_chaos(o), "9,limit=0");
  for (const char* bad : {"", "x", "-1", "17,", "17,bogus", "17,limit=", "17,limit=x", "17 ", "18446744073709551616"}) {
    error.clear();
    EXPECT_FALSE(pl::parse_chaos(bad, o, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  EXPECT_FALSE(pl::parse_chaos("17,bogus", o, error));
  EXPECT_NE(error.find("bogus"), std::string::npos) << error;
}

TEST(chaos, off_by_default_and_switched_per_loop) {
  pl::loop l;
  EXPECT_EQ(l.chaos(), nullptr);
  pl::chaos_options o;
  o.seed = 3;
  ASSERT_EQ(l.set_chaos(&o), 0);
  ASSERT_NE(l.chaos(), nullptr);
  EXPECT_EQ(l.chaos()->seed, 3u);
  ASSERT_EQ(l.set_chaos(nullptr), 0);
  EXPECT_EQ(l.chaos(), nullptr);
  EXPECT_EQ(pltest::finish(l), 0);
}

// Short reads: every byte arrives, in order; a reader that expects the
// whole message in one read fails. (A local socket: cut at a page, since
// the 8,000 bytes waiting are more than one.)
TEST(chaos, reads_cut_short_keep_every_byte_in_order) {
  const received quiet = receive(nullptr, 8, 1000);
  ASSERT_EQ(quiet.bytes.size(), 8000u);
  EXPECT_EQ(quiet.reads, 1) << "without chaos the 8,000 bytes waiting come in one read";
  // Before 1.52 a short read with a hang-up is taken for the end; a read
  // chaos mode cut short is not such a read.
  for (const pl::profile p : {pl::profile::libuv_1_44, pl::profile::newest}) {
    int split = 0;
    for (std::uint64_t seed = 1; seed <= 10; seed++) {
      const pl::chaos_options o = only(seed, {pl::chaos_kind::reads});
      const received r = receive(&o, 8, 1000, p);
      EXPECT_EQ(r.bytes.size(), 8000u) << "seed " << seed << ": " << r.bytes;
      EXPECT_TRUE(r.eof) << "seed " << seed;
      EXPECT_EQ(r.empty, 0) << "seed " << seed;
      for (const std::string& c : r.chaos) EXPECT_EQ(c.rfind("reads:", 0), 0u) << c;
      split += r.reads > 1;
    }
    EXPECT_GE(split, 1) << "no seed of 10 cut the message";
  }
}

// A local socket (or a pipe) hands a reader a write of PIPE_BUF bytes or
// fewer whole: chaos mode never cuts it, whatever the seed.
TEST(chaos, reads_of_a_small_local_write_are_never_cut) {
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::reads});
    const received r = receive(&o, 8, 100);
    EXPECT_EQ(r.bytes.size(), 800u) << "seed " << seed;
    EXPECT_EQ(r.reads, 1) << "seed " << seed << ": 800 bytes of one write came in " << r.reads << " reads";
    EXPECT_TRUE(r.chaos.empty()) << "seed " << seed << ": " << (r.chaos.empty() ? "" : r.chaos.front());
  }
}

// Spurious EAGAIN on read: the read callback gets nread 0, which libuv's
// documentation says is not EOF; a reader that ends at nread 0 loses data.
TEST(chaos, eagain_on_read_gives_nread_zero_and_loses_nothing) {
  int empties = 0;
  for (std::uint64_t seed = 1; seed <= 10; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::eagain, pl::chaos_kind::reads});
    const received r = receive(&o, 400, 50);
    EXPECT_EQ(r.bytes.size(), 20000u) << "seed " << seed;
    EXPECT_TRUE(r.eof) << "seed " << seed;
    empties += r.empty;
  }
  EXPECT_GE(empties, 1) << "no seed of 10 made a read say EAGAIN";
}

// The same seed makes the same choices; another seed others.
// Every kind but timers: whether a clock reads late depends on how much
// real time passed between two reads of it, an input that differs from
// run to run on a loaded machine.
pl::chaos_options untimed(std::uint64_t seed) {
  return only(seed, {pl::chaos_kind::batch, pl::chaos_kind::pool, pl::chaos_kind::reads, pl::chaos_kind::writes,
                     pl::chaos_kind::eagain});
}

TEST(chaos, the_same_seed_makes_the_same_choices) {
  pl::chaos_options o = untimed(7);
  const received a = receive(&o, 400, 50), b = receive(&o, 400, 50);
  ASSERT_FALSE(a.chaos.empty());
  EXPECT_EQ(a.chaos, b.chaos);
  o.seed = 8;
  const received c = receive(&o, 400, 50);
  EXPECT_NE(a.chaos, c.chaos);
}

// A limit keeps the first N perturbations, made as without it, and no more.
TEST(chaos, a_limit_keeps_the_first_perturbations) {
  pl::chaos_options o = untimed(7);
  const received all = receive(&o, 400, 50);
  ASSERT_GE(all.chaos.size(), 3u);
  o.limit = 2;
  const received two = receive(&o, 400, 50);
  ASSERT_EQ(two.chaos.size(), 2u);
  EXPECT_EQ(two.chaos[0], all.chaos[0]);
  EXPECT_EQ(two.chaos[1], all.chaos[1]);
  o.limit = 0;
  EXPECT_TRUE(receive(&o, 400, 50).chaos.empty());
}

// ---- writes ----------------------------------------------------------------------

struct sent_state {
  std::string got;
  ssize_t tried = 0;  // what try_write took
  int write_status = 1;
};

// Sends 64 KiB: try_write first, write() for what it did not take; the
// peer reads everything.
sent_state send(const pl::chaos_options* o) {
  sent_state st;
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return st;
  int big = 1 << 20;
  ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  ::setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  std::string data(64 * 1024, '\0');
  for (std::size_t i = 0; i < data.size(); i++) data[i] = static_cast<char>(i * 7 + i / 256);
  pl::loop l;
  if (o != nullptr) l.set_chaos(o);
  pl::pipe p(l, false), peer(l, false);
  p.open(fds[0]);
  peer.open(fds[1]);
  pl::fs_buf b{data.data(), data.size()};
  st.tried = p.try_write(&b, 1);
  pl::write_req w;
  w.data = &st;
  if (st.tried >= 0 && static_cast<std::size_t>(st.tried) < data.size()) {
    pl::fs_buf rest{data.data() + st.tried, data.size() - static_cast<std::size_t>(st.tried)};
    p.write(w, &rest, 1, [](pl::write_req* r, int status) {
      static_cast<sent_state*>(r->data)->write_status = status;
      r->target()->close(nullptr);
    });
  } else {
    p.close(nullptr);
  }
  peer.data = &st;
  peer.read_start(
      [](pl::handle*, std::size_t, pl::fs_buf* out) {
        static char space[64 * 1024];
        *out = pl::fs_buf{space, sizeof space};
      },
      [](pl::stream* s, ssize_t n, const pl::fs_buf* buf) {
        if (n > 0) static_cast<sent_state*>(s->data)->got.append(buf->base, static_cast<std::size_t>(n));
        if (n < 0) s->close(nullptr);
      });
  l.run();
  EXPECT_EQ(pltest::finish(l), 0);
  if (st.got != data) st.got = "(not what was sent)";
  return st;
}

// Short writes: try_write returns what the kernel took, write() the rest;
// the peer gets every byte in order. A writer that trusts try_write to take
// it all loses the rest.
TEST(chaos, writes_cut_short_deliver_every_byte_in_order) {
  const sent_state quiet = send(nullptr);
  ASSERT_EQ(quiet.tried, 64 * 1024) << "without chaos try_write takes 64 KiB";
  int partial = 0;
  for (std::uint64_t seed = 1; seed <= 10; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::writes});
    const sent_state s = send(&o);
    EXPECT_EQ(s.got.size(), 64u * 1024) << "seed " << seed << ": " << s.got;
    EXPECT_GT(s.tried, 0) << "seed " << seed;
    partial += s.tried < 64 * 1024;
    if (s.tried < 64 * 1024) {
      EXPECT_EQ(s.write_status, 0) << "seed " << seed;
    }
  }
  EXPECT_GE(partial, 1) << "no seed of 10 cut try_write short";
}

// Spurious EAGAIN on write: try_write says EAGAIN, a queued write waits for
// writability and completes.
TEST(chaos, eagain_on_write_is_again_then_the_write_completes) {
  int again = 0;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::eagain});
    const sent_state s = send(&o);
    if (s.tried == pl::errc::again) {
      again++;
      continue;  // nothing was queued: the test program sends nothing more
    }
    EXPECT_EQ(s.tried, 64 * 1024) << "seed " << seed;
  }
  EXPECT_GE(again, 1) << "no seed of 20 made try_write say EAGAIN";
}

// ---- a poll batch -------------------------------------------------------------------

// Two sockets made readable in the order a, b before the loop polls: the
// order their read callbacks run in.
std::string batch_order(const pl::chaos_options* o) {
  int a[2], b[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, a) != 0) return "";
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, b) != 0) return "";
  pl::loop l;
  if (o != nullptr) l.set_chaos(o);
  std::string order;
  pl::pipe pa(l, false), pb(l, false);
  pa.open(a[0]);
  pb.open(b[0]);
  struct tag {
    std::string* order;
    char name;
  } ta{&order, 'a'}, tb{&order, 'b'};
  pa.data = &ta;
  pb.data = &tb;
  for (pl::pipe* p : {&pa, &pb}) {
    p->read_start(
        [](pl::handle*, std::size_t, pl::fs_buf* out) {
          static char space[16];
          *out = pl::fs_buf{space, sizeof space};
        },
        [](pl::stream* s, ssize_t n, const pl::fs_buf*) {
          if (n <= 0) return;
          auto* t = static_cast<tag*>(s->data);
          *t->order += t->name;
          s->close(nullptr);
        });
  }
  // Watched (flushed to epoll) first, so that readiness comes in order.
  l.run(pl::run_mode::nowait);
  if (::write(a[1], "x", 1) != 1 || ::write(b[1], "y", 1) != 1) return "";
  l.run();
  for (int fd : {a[1], b[1]}) ::close(fd);
  EXPECT_EQ(pltest::finish(l), 0);
  return order;
}

// epoll reports a batch in no promised order: both callbacks run, in an
// order chaos may choose; a program that relies on Linux's FIFO order
// fails.
TEST(chaos, a_batch_in_another_order_delivers_everything) {
  EXPECT_EQ(batch_order(nullptr), "ab") << "Linux's epoll reports in the order the fds became ready";
  int swapped = 0;
  for (std::uint64_t seed = 1; seed <= 10; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::batch});
    const std::string got = batch_order(&o);
    EXPECT_TRUE(got == "ab" || got == "ba") << "seed " << seed << ": " << got;
    swapped += got == "ba";
  }
  EXPECT_GE(swapped, 1) << "no seed of 10 reordered the batch";
}

// Two local sockets, each read once by a pipe handle of loop `l`, which
// notes the iteration it read in and closes; the peers' ends in `peer`.
struct two_sockets {
  int a[2] = {-1, -1}, b[2] = {-1, -1};
  std::vector<std::uint64_t> when;  // the iterations the reads came in
  std::unique_ptr<pl::pipe> pa, pb;
  bool open(pl::loop& l) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, a) != 0 ||
        ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, b) != 0)
      return false;
    pa = std::make_unique<pl::pipe>(l, false);
    pb = std::make_unique<pl::pipe>(l, false);
    pa->open(a[0]);
    pb->open(b[0]);
    for (pl::pipe* p : {pa.get(), pb.get()}) {
      p->data = &when;
      p->read_start(
          [](pl::handle*, std::size_t, pl::fs_buf* out) {
            static char space[16];
            *out = pl::fs_buf{space, sizeof space};
          },
          [](pl::stream* s, ssize_t n, const pl::fs_buf*) {
            if (n <= 0) return;
            static_cast<std::vector<std::uint64_t>*>(s->data)->push_back(s->owner().iteration());
            s->close(nullptr);
          });
    }
    return true;
  }
  bool write_both() { return ::write(a[1], "x", 1) == 1 && ::write(b[1], "y", 1) == 1; }
  ~two_sockets() {
    for (int fd : {a[1], b[1]})
      if (fd >= 0) ::close(fd);
  }
};

// Both sockets readable before the poll: in how many iterations their
// callbacks ran, and whether chaos mode left one for the next poll.
TEST(chaos, an_event_left_for_the_next_poll_still_comes) {
  int later = 0;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::batch});
    pl::loop l;
    chaos_log log;
    l.add_hook(log);
    l.set_chaos(&o);
    two_sockets t;
    ASSERT_TRUE(t.open(l));
    l.run(pl::run_mode::nowait);
    ASSERT_TRUE(t.write_both());
    l.run();
    const std::vector<std::uint64_t>& when = t.when;
    EXPECT_EQ(when.size(), 2u) << "seed " << seed;
    bool deferred = false;
    for (const std::string& c : log.seen) deferred |= c.rfind("batch:2:1@", 0) == 0;
    if (deferred) {
      later++;
      EXPECT_TRUE(when.size() == 2 && when[0] != when[1]) << "seed " << seed << ": one was left, yet both ran in one iteration";
    }
    l.remove_hook(log);
    EXPECT_EQ(pltest::finish(l), 0);
  }
  EXPECT_GE(later, 1) << "no seed of 20 left an event for the next poll";
}

// epoll is level-triggered for libuv's watchers: a descriptor still ready
// is on the ready list from the start of the next wait, and is reported by
// it. Only a readiness new since the last wait may have come "as the wait
// returned": chaos mode never leaves for later a descriptor the previous
// wait reported (delivered or left). Three sockets kept readable (never
// read) by poll handles: after the first iteration, each callback runs in
// every iteration.
TEST(chaos, a_descriptor_the_last_wait_reported_is_never_left_again) {
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::batch});
    pl::loop l;
    l.set_chaos(&o);
    struct watched {
      int sv[2] = {-1, -1};
      std::vector<std::uint64_t> when;
      std::unique_ptr<pl::poll> p;
    } w[3];
    for (watched& x : w) {
      ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, x.sv), 0);
      ASSERT_EQ(::write(x.sv[1], "x", 1), 1);
      x.p = std::make_unique<pl::poll>(l, x.sv[0]);
      x.p->data = &x.when;
      ASSERT_EQ(x.p->start(pl::poll::readable, [](pl::poll* h, int, int) {
        auto* when = static_cast<std::vector<std::uint64_t>*>(h->data);
        when->push_back(h->owner().iteration());
        if (when->size() == 12) h->close(nullptr);
      }), 0);
    }
    l.run();
    std::uint64_t first = ~std::uint64_t{0}, last = 0;
    for (watched& x : w) {
      ASSERT_EQ(x.when.size(), 12u) << "seed " << seed;
      first = std::min(first, x.when.front());
      last = std::max(last, x.when.back());
    }
    for (watched& x : w) {
      // At most the first wait may leave it; then it comes every time.
      for (std::size_t i = 1; i < x.when.size(); i++)
        EXPECT_EQ(x.when[i], x.when[i - 1] + 1) << "seed " << seed << ": left for later while ready since the last wait";
      EXPECT_LE(x.when.front(), first + 1) << "seed " << seed;
      for (int fd : x.sv) ::close(fd);
    }
    EXPECT_LE(last, first + 12) << "seed " << seed;
    EXPECT_EQ(pltest::finish(l), 0);
  }
}

// A thread writes to a socket, then wakes the loop: a wait that sees the
// wake-up sees the data, so chaos mode never leaves the socket's event for
// a later poll than the wake-up's (it may still run after it in the batch).
TEST(chaos, data_sent_before_a_wake_up_is_read_in_its_iteration) {
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::batch});
    pl::loop l;
    l.set_chaos(&o);
    std::uint64_t woken = 0;
    pl::async wake(l, [](pl::async* h) {
      *static_cast<std::uint64_t*>(h->data) = h->owner().iteration();
      h->close(nullptr);
    });
    wake.data = &woken;
    two_sockets t;
    ASSERT_TRUE(t.open(l));
    l.run(pl::run_mode::nowait);
    std::thread([&] {
      EXPECT_TRUE(t.write_both());
      wake.send();
    }).join();
    l.run();
    ASSERT_EQ(t.when.size(), 2u) << "seed " << seed;
    EXPECT_EQ(std::max(t.when[0], t.when[1]), woken)
        << "seed " << seed << ": the data came in a later iteration than the wake-up";
    EXPECT_EQ(pltest::finish(l), 0);
  }
}

// ---- accepting ----------------------------------------------------------------------

// Three connections wait before the loop polls: the iterations their
// connection callbacks ran in. Without chaos, libuv 1.44's accept pass
// takes all three (1.45 on accepts one a poll: below); a spurious EAGAIN
// ends a pass early, and the rest come at the next poll -- a server that
// expects all pending connections in one pass is wrong.
std::vector<std::uint64_t> accept_iterations(const pl::chaos_options* o,
                                             pl::profile profile = pl::profile::libuv_1_44) {
  pl::loop l;
  l.set_order(profile);
  if (o != nullptr) l.set_chaos(o);
  pl::tcp server(l);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(server.bind(reinterpret_cast<sockaddr*>(&a)), 0);
  sockaddr_in bound{};
  int len = sizeof bound;
  EXPECT_EQ(server.sockname(reinterpret_cast<sockaddr*>(&bound), &len), 0);
  struct state {
    std::vector<std::uint64_t> when;
    std::vector<std::unique_ptr<pl::tcp>> conns;
  } st;
  server.data = &st;
  EXPECT_EQ(server.listen(8, [](pl::stream* s, int status) {
    auto* st2 = static_cast<state*>(s->data);
    EXPECT_EQ(status, 0);
    st2->conns.push_back(std::make_unique<pl::tcp>(s->owner()));
    EXPECT_EQ(s->accept(*st2->conns.back()), 0);
    st2->when.push_back(s->owner().iteration());
    if (st2->when.size() == 3) s->close(nullptr);
  }), 0);
  int clients[3];
  for (int& c : clients) {
    c = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    EXPECT_EQ(::connect(c, reinterpret_cast<sockaddr*>(&bound), sizeof bound), 0);
  }
  l.run();
  for (int c : clients) ::close(c);
  EXPECT_EQ(pltest::finish(l), 0);
  return st.when;
}

TEST(chaos, eagain_on_accept_spreads_connections_over_polls) {
  const std::vector<std::uint64_t> quiet = accept_iterations(nullptr);
  ASSERT_EQ(quiet.size(), 3u);
  EXPECT_TRUE(quiet[0] == quiet[2]) << "without chaos one pass accepts the three";
  int spread = 0;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::eagain});
    const std::vector<std::uint64_t> w = accept_iterations(&o);
    EXPECT_EQ(w.size(), 3u) << "seed " << seed;
    spread += w.size() == 3 && w[0] != w[2];
  }
  EXPECT_GE(spread, 1) << "no seed of 20 spread the connections over two polls";
}

TEST(chaos, from_1_45_one_connection_a_poll_without_chaos) {
  for (pl::profile p : {pl::profile::libuv_1_45, pl::profile::libuv_1_53}) {
    const std::vector<std::uint64_t> w = accept_iterations(nullptr, p);
    ASSERT_EQ(w.size(), 3u);
    EXPECT_TRUE(w[0] < w[1] && w[1] < w[2]) << pl::profile_name(p) << ": " << w[0] << " " << w[1] << " " << w[2];
  }
}

// ---- the threadpool ----------------------------------------------------------------------

// Three requests that finish in submission order, 60 ms apart, while the
// loop is busy: the order of their after-work callbacks.
std::string pool_order(const pl::chaos_options* o) {
  pl::loop l;
  if (o != nullptr) l.set_chaos(o);
  struct job {
    pl::work w;
    int index = 0;
    std::atomic<int>* turn = nullptr;
    std::atomic<int>* done = nullptr;
    std::string* order = nullptr;
  };
  std::atomic<int> turn{-1}, done{0};
  std::string order;
  job jobs[3];
  for (int i = 0; i < 3; i++) {
    jobs[i].index = i;
    jobs[i].turn = &turn;
    jobs[i].done = &done;
    jobs[i].order = &order;
    jobs[i].w.data = &jobs[i];
    jobs[i].w.queue(
        l,
        [](pl::work* w) {
          auto* j = static_cast<job*>(w->data);
          while (j->turn->load() != j->index) std::this_thread::yield();
          j->done->fetch_add(1);
        },
        [](pl::work* w, int) {
          auto* j = static_cast<job*>(w->data);
          *j->order += static_cast<char>('0' + j->index);
        });
  }
  // Each finishes, and its worker reports it, before the next may: all
  // three are done before the loop first looks.
  for (int i = 0; i < 3; i++) {
    turn.store(i);
    while (done.load() != i + 1) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
  }
  l.run();
  EXPECT_EQ(pltest::finish(l), 0);
  return order;
}

TEST(chaos, pool_completions_in_another_order_all_complete) {
  EXPECT_EQ(pool_order(nullptr), "012") << "requests finished in order complete in order";
  int reordered = 0;
  for (std::uint64_t seed = 1; seed <= 10; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::pool});
    std::string got = pool_order(&o);
    EXPECT_EQ(got.size(), 3u) << "seed " << seed << ": " << got;
    reordered += got != "012";
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, "012") << "seed " << seed;
  }
  EXPECT_GE(reordered, 1) << "no seed of 10 reordered the completions";
}

// ---- timers ------------------------------------------------------------------------------

// How late (ms, by the loop's clock) a 5 ms timer ran; a timer never runs
// early.
std::int64_t timer_lateness(const pl::chaos_options* o) {
  pl::loop l;
  if (o != nullptr) l.set_chaos(o);
  pl::timer t(l);
  struct state {
    std::uint64_t start;
    std::int64_t late = -1000;
  } st{l.now()};
  t.data = &st;
  t.start(
      [](pl::timer* tm) {
        auto* s = static_cast<state*>(tm->data);
        s->late = static_cast<std::int64_t>(tm->owner().now() - s->start) - 5;
      },
      5, 0);
  l.run();
  EXPECT_EQ(pltest::finish(l), 0);
  return st.late;
}

TEST(chaos, timers_run_late_never_early) {
  std::int64_t latest = 0;
  for (std::uint64_t seed = 1; seed <= 20; seed++) {
    const pl::chaos_options o = only(seed, {pl::chaos_kind::timers});
    const std::int64_t late = timer_lateness(&o);
    EXPECT_GE(late, 0) << "seed " << seed << ": a timer ran early";
    latest = std::max(latest, late);
  }
  EXPECT_GE(latest, 3) << "no seed of 20 made the timer 3 ms late";
}

}  // namespace

// A program that updates the loop's time itself (uv_update_time) reads the
// time now: chaos mode reads only the loop's own updates behind.
TEST(chaos, a_clock_update_the_program_asks_for_is_never_behind) {
  const pl::chaos_options o = only(3, {pl::chaos_kind::timers});
  pl::loop l;
  chaos_log log;
  l.add_hook(log);
  l.set_chaos(&o);
  for (int i = 0; i < 40; i++) {
    ::usleep(6000);
    l.update_time();
  }
  EXPECT_TRUE(log.seen.empty()) << log.seen.size() << " updates read behind, the first: " << log.seen.front();
  // The loop's own updates may be (one in four, drawn from the seed).
  pl::timer t(l);
  int left = 40;
  t.data = &left;
  t.start([](pl::timer* tm) { if (--*static_cast<int*>(tm->data) == 0) tm->close(nullptr); }, 6, 6);
  l.run();
  EXPECT_FALSE(log.seen.empty()) << "the loop's own 40 updates: none read behind";
  l.remove_hook(log);
  EXPECT_EQ(pltest::finish(l), 0);
}
