// SPDX-License-Identifier: MIT
// The OS layer's C++ API (phaseloop/os.hpp, thread.hpp, inet.hpp,
// random.hpp, errors.h): the random request completes through the pool's
// path where hooks see it, the text protocol of the string getters, the
// thread primitives, addresses, and the one list of error codes.

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "phaseloop/inet.hpp"
#include "phaseloop/os.hpp"
#include "phaseloop/random.hpp"
#include "phaseloop/thread.hpp"
#include "phaseloop/wtf8.hpp"
#include "test_util.hpp"

namespace {

namespace os = phaseloop::os;

struct random_result {
  int calls = 0;
  int status = 1;
  std::size_t len = 0;
  pl::phase phase_seen = pl::phase::timers;
};

class os_random_recorded : public pltest::recorded_loop {};

TEST_F(os_random_recorded, completes_in_the_poll_phase_seen_by_hooks) {
  unsigned char buf[64] = {};
  random_result res;
  pl::random_req r;
  r.data = &res;
  ASSERT_EQ(r.start(&l, buf, sizeof buf, 0, [](pl::random_req* q, int status, void*, std::size_t len) {
    auto* out = static_cast<random_result*>(q->data);
    out->calls++;
    out->status = status;
    out->len = len;
  }), 0);
  EXPECT_EQ(r.owner(), &l);
  EXPECT_TRUE(l.alive());  // the request keeps the loop alive
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(res.calls, 1);
  EXPECT_EQ(res.status, 0);
  EXPECT_EQ(res.len, sizeof buf);
  unsigned char zero[64] = {};
  EXPECT_NE(std::memcmp(buf, zero, sizeof buf), 0);  // 2^-512 to fail by chance
  EXPECT_EQ(rec.calls_of(pl::callback_kind::random), (pltest::call_sites{{pl::phase::poll, nullptr, &r}}));
  EXPECT_EQ(finish(l), 0);
}

TEST(os_random, canceled_before_it_ran) {
  pl::loop l;
  // Occupy every pool thread so that the request stays queued.
  os::semaphore gate;
  ASSERT_EQ(gate.init(0), 0);
  const int threads = 4;
  std::vector<pl::work> blockers(threads);
  for (auto& w : blockers) {
    w.data = &gate;
    ASSERT_EQ(w.queue(l, [](pl::work* q) { static_cast<os::semaphore*>(q->data)->wait(); }, nullptr), 0);
  }
  unsigned char buf[8];
  random_result res;
  pl::random_req r;
  r.data = &res;
  ASSERT_EQ(r.start(&l, buf, sizeof buf, 0, [](pl::random_req* q, int status, void*, std::size_t) {
    auto* out = static_cast<random_result*>(q->data);
    out->calls++;
    out->status = status;
  }), 0);
  EXPECT_EQ(r.cancel(), 0);
  for (int i = 0; i < threads; i++) gate.post();
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(res.calls, 1);
  EXPECT_EQ(res.status, pl::errc::canceled);
  gate.destroy();
  EXPECT_EQ(finish(l), 0);
}

TEST(os_random, checks_its_arguments_and_fills_synchronously) {
  pl::random_req r;
  unsigned char buf[32] = {};
  EXPECT_EQ(r.start(nullptr, buf, 0x80000000u, 0, nullptr), PHASELOOP_E2BIG);
  EXPECT_EQ(r.start(nullptr, buf, sizeof buf, 1, nullptr), PHASELOOP_EINVAL);
  EXPECT_EQ(r.start(nullptr, buf, sizeof buf, 0, [](pl::random_req*, int, void*, std::size_t) {}),
            PHASELOOP_EINVAL);
  EXPECT_EQ(r.cancel(), pl::errc::busy);  // never started
  EXPECT_EQ(r.start(nullptr, buf, sizeof buf, 0, nullptr), 0);
  unsigned char zero[32] = {};
  EXPECT_NE(std::memcmp(buf, zero, sizeof buf), 0);
}

TEST(os_text, getenv_follows_the_size_protocol) {
  ASSERT_EQ(os::setenv("PHASELOOP_OS_TEST", "abcdef"), 0);
  char buf[16];
  std::size_t size = 4;
  EXPECT_EQ(os::getenv("PHASELOOP_OS_TEST", buf, &size), PHASELOOP_ENOBUFS);
  EXPECT_EQ(size, 7u);  // needed, NUL included
  size = sizeof buf;
  EXPECT_EQ(os::getenv("PHASELOOP_OS_TEST", buf, &size), 0);
  EXPECT_EQ(size, 6u);  // written, NUL excluded
  EXPECT_STREQ(buf, "abcdef");
  size = 0;
  EXPECT_EQ(os::getenv("PHASELOOP_OS_TEST", buf, &size), PHASELOOP_EINVAL);
  EXPECT_EQ(os::unsetenv("PHASELOOP_OS_TEST"), 0);
  size = sizeof buf;
  EXPECT_EQ(os::getenv("PHASELOOP_OS_TEST", buf, &size), PHASELOOP_ENOENT);
}

TEST(os_text, tmpdir_drops_a_trailing_slash) {
  const char* saved = std::getenv("TMPDIR");
  const std::string old = saved != nullptr ? saved : "";
  ASSERT_EQ(os::setenv("TMPDIR", "/var/tmp/"), 0);
  char buf[64];
  std::size_t size = sizeof buf;
  EXPECT_EQ(os::tmpdir(buf, &size), 0);
  EXPECT_STREQ(buf, "/var/tmp");
  EXPECT_EQ(size, 8u);
  if (saved != nullptr)
    os::setenv("TMPDIR", old.c_str());
  else
    os::unsetenv("TMPDIR");
}

TEST(os_system, answers_are_consistent) {
  EXPECT_GE(os::available_parallelism(), 1u);
  os::cpu_info* cpus = nullptr;
  int n = 0;
  ASSERT_EQ(os::cpu_infos(&cpus, &n), 0);
  EXPECT_GE(n, 1);
  EXPECT_NE(cpus[0].model, nullptr);
  os::free_cpu_infos(cpus, n);
  EXPECT_GT(os::total_memory(), 0u);
  EXPECT_LE(os::free_memory(), os::total_memory());
  std::size_t rss = 0;
  EXPECT_EQ(os::resident_set_memory(&rss), 0);
  EXPECT_GT(rss, 0u);
  os::system_name u;
  EXPECT_EQ(os::uname(&u), 0);
  EXPECT_STREQ(u.sysname, "Linux");
  EXPECT_EQ(os::pid(), static_cast<int>(getpid()));
}

TEST(os_system, interfaces_include_loopback) {
  os::interface_address* a = nullptr;
  int n = 0;
  ASSERT_EQ(os::interface_addresses(&a, &n), 0);
  bool loopback = false;
  for (int i = 0; i < n; i++)
    if (a[i].is_internal && a[i].address.in4.sin_family == AF_INET) loopback = true;
  EXPECT_TRUE(loopback);
  os::free_interface_addresses(a, n);
}

struct counter {
  os::mutex m;
  os::condition c;
  int value = 0;
};

TEST(os_thread, threads_share_a_mutex_and_a_condition) {
  counter k;
  ASSERT_EQ(k.m.init(), 0);
  ASSERT_EQ(k.c.init(), 0);
  std::vector<os::thread_id> t(4);
  for (auto& id : t)
    ASSERT_EQ(os::thread_create(&id, [](void* p) {
      auto* kk = static_cast<counter*>(p);
      for (int i = 0; i < 1000; i++) {
        kk->m.lock();
        kk->value++;
        kk->m.unlock();
      }
      kk->m.lock();
      kk->c.signal();
      kk->m.unlock();
    }, &k, 256 * 1024), 0);
  for (auto& id : t) EXPECT_EQ(os::thread_join(id), 0);
  EXPECT_EQ(k.value, 4000);
  k.m.lock();
  EXPECT_EQ(k.c.timed_wait(k.m, 1000000), PHASELOOP_ETIMEDOUT);  // nobody signals now
  k.m.unlock();
  EXPECT_TRUE(os::thread_equal(os::thread_self(), os::thread_self()));
  k.c.destroy();
  k.m.destroy();
}

// A new thread starts with its own entry and argument, whether its start
// context came from the few static slots or, when more threads start at
// once than there are slots, from the heap.
TEST(os_thread, many_threads_starting_at_once_each_get_their_argument) {
  struct seen_by {
    std::atomic<int> hits{0};
    const seen_by* self = nullptr;
  };
  std::vector<seen_by> seen(200);
  for (auto& s : seen) s.self = &s;
  std::vector<os::thread_id> t(seen.size());
  for (std::size_t round = 0; round < seen.size(); round += 50) {
    for (std::size_t i = round; i < round + 50; i++)
      ASSERT_EQ(os::thread_create(&t[i], [](void* p) {
        auto* s = static_cast<seen_by*>(p);
        if (s->self == s) s->hits.fetch_add(1);
      }, &seen[i], 64 * 1024), 0);
  }
  for (auto& id : t) EXPECT_EQ(os::thread_join(id), 0);
  for (const auto& s : seen) EXPECT_EQ(s.hits.load(), 1);
}

TEST(os_thread, try_lock_semaphore_barrier_and_key) {
  os::mutex m;
  ASSERT_EQ(m.init(true), 0);
  m.lock();
  EXPECT_EQ(m.try_lock(), 0);  // recursive: the owner may lock again
  m.unlock();
  m.unlock();
  m.destroy();

  os::rwlock rw;
  ASSERT_EQ(rw.init(), 0);
  rw.read_lock();
  EXPECT_EQ(rw.try_read_lock(), 0);
  EXPECT_EQ(rw.try_write_lock(), PHASELOOP_EBUSY);
  rw.read_unlock();
  rw.read_unlock();
  EXPECT_EQ(rw.try_write_lock(), 0);
  rw.write_unlock();
  rw.destroy();

  os::semaphore s;
  ASSERT_EQ(s.init(1), 0);
  EXPECT_EQ(s.try_wait(), 0);
  EXPECT_EQ(s.try_wait(), PHASELOOP_EAGAIN);
  s.destroy();

  os::barrier b;
  ASSERT_EQ(b.init(1), 0);
  EXPECT_TRUE(b.wait());  // alone, this thread is the serial one
  b.destroy();

  os::thread_key k;
  ASSERT_EQ(k.create(), 0);
  EXPECT_EQ(k.get(), nullptr);
  int x = 0;
  k.set(&x);
  EXPECT_EQ(k.get(), &x);
  k.destroy();
}

TEST(os_inet, addresses_round_trip) {
  sockaddr_in a4;
  ASSERT_EQ(pl::ip4_addr("192.0.2.7", 8080, &a4), 0);
  EXPECT_EQ(ntohs(a4.sin_port), 8080);
  char text[64];
  ASSERT_EQ(pl::ip_name(reinterpret_cast<sockaddr*>(&a4), text, sizeof text), 0);
  EXPECT_STREQ(text, "192.0.2.7");
  sockaddr_in6 a6;
  ASSERT_EQ(pl::ip6_addr("fe80::1%lo", 0, &a6), 0);  // a zone is accepted
  EXPECT_NE(a6.sin6_scope_id, 0u);                   // lo has an index
  ASSERT_EQ(pl::ip_name(reinterpret_cast<sockaddr*>(&a6), text, sizeof text), 0);
  EXPECT_STREQ(text, "fe80::1");
  EXPECT_EQ(pl::ip4_addr("256.1.1.1", 0, &a4), PHASELOOP_EINVAL);
  EXPECT_EQ(pl::inet_pton(AF_UNIX, "x", &a4), PHASELOOP_EAFNOSUPPORT);
  EXPECT_EQ(pl::ip_name(reinterpret_cast<sockaddr*>(&a4), text, 4), PHASELOOP_ENOSPC);
}

TEST(os_errors, one_list_names_every_code) {
  EXPECT_STREQ(pl::error_name(PHASELOOP_EAI_NONAME), "EAI_NONAME");
  EXPECT_STREQ(pl::error_message(PHASELOOP_EAI_NONAME), "unknown node or service");
  EXPECT_STREQ(pl::error_name(pl::errc::eof), "EOF");
  EXPECT_STREQ(pl::error_name(-ENOENT), "ENOENT");
  EXPECT_EQ(pl::error_name(-100000), nullptr);
  EXPECT_EQ(pl::error_message(1), nullptr);
  int named = 0;
#define COUNT_CODE(name, msg) named += pl::error_name(PHASELOOP_##name) != nullptr;
  PHASELOOP_ERRNO_MAP(COUNT_CODE)
#undef COUNT_CODE
  EXPECT_EQ(named, 82);
}

}  // namespace

namespace {

TEST(os_text, utf16_and_wtf8_round_trip_with_lone_surrogates) {
  const std::uint16_t text[] = {'a', 0xD83D, 0xDE00, 0xDC00, 0x00E9, 0};
  EXPECT_EQ(pl::utf16_length_as_wtf8(text, -1), 1u + 4u + 3u + 2u);
  char* out = nullptr;
  std::size_t n = 0;
  ASSERT_EQ(pl::utf16_to_wtf8(text, -1, &out, &n), 0);
  ASSERT_EQ(n, 10u);
  EXPECT_EQ(std::string(out, n), "a\xf0\x9f\x98\x80\xed\xb0\x80\xc3\xa9");
  const ssize_t units = pl::wtf8_length_as_utf16(out);
  ASSERT_EQ(units, 6);  // the terminating 0 included
  std::uint16_t back[6];
  pl::wtf8_to_utf16(out, back, 6);
  EXPECT_EQ(std::memcmp(back, text, sizeof back), 0);
  std::free(out);
  EXPECT_EQ(pl::wtf8_length_as_utf16("\x80"), -1);
  EXPECT_EQ(pl::wtf8_length_as_utf16("\xf4\x90\x80\x80"), -1);  // above U+10FFFF
}

TEST(os_text, utf16_to_wtf8_cuts_to_a_given_buffer) {
  const std::uint16_t euros[] = {0x20AC, 0x20AC, 0};
  char buf[5];
  char* p = buf;
  std::size_t n = 4;  // room for 4 bytes and the NUL
  EXPECT_EQ(pl::utf16_to_wtf8(euros, -1, &p, &n), PHASELOOP_ENOBUFS);
  EXPECT_EQ(n, 6u) << "3 whole bytes written + 3 still needed";
  EXPECT_EQ(buf[4], '\0');
  n = 0;
  EXPECT_EQ(pl::utf16_to_wtf8(euros, 1, nullptr, &n), 0);
  EXPECT_EQ(n, 3u);
}

TEST(os_thread, name_affinity_and_priority_of_the_calling_thread) {
  ASSERT_EQ(os::thread_setname("phaseloop-unit-test-thread"), 0);
  char name[32];
  ASSERT_EQ(os::thread_getname(os::thread_self(), name, sizeof name), 0);
  EXPECT_STREQ(name, "phaseloop-unit-");  // the kernel keeps 15 bytes
  std::vector<char> mask(static_cast<std::size_t>(os::cpumask_size()));
  ASSERT_EQ(os::thread_getaffinity(os::thread_self(), mask.data(), mask.size()), 0);
  EXPECT_NE(std::count(mask.begin(), mask.end(), 1), 0);
  EXPECT_EQ(os::thread_getaffinity(os::thread_self(), mask.data(), 8), PHASELOOP_EINVAL);
  EXPECT_GE(os::thread_getcpu(), 0);
  int prio = 99;
  ASSERT_EQ(os::thread_getpriority(os::thread_self(), &prio), 0);
  EXPECT_EQ(os::thread_setpriority(os::thread_self(), 3), PHASELOOP_EINVAL);
  os::group_entry g;
  ASSERT_EQ(os::get_group(&g, 0), 0);
  EXPECT_STREQ(g.groupname, "root");
  os::free_group(&g);
  EXPECT_EQ(g.members, nullptr);
  os::timespec64 ts;
  EXPECT_EQ(os::clock_time(true, &ts), 0);
  EXPECT_GT(ts.sec, 1577836800);
}

TEST(loop_metrics, count_iterations_and_events) {
  pl::loop l;
  pl::async a(l, [](pl::async* h) { h->close(nullptr); });
  ASSERT_EQ(a.send(), 0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  const pl::loop::metrics m = l.metrics_info();
  EXPECT_GE(m.loop_count, 1u);
  EXPECT_GE(m.events, 1u) << "the wake-up of the async";
  EXPECT_EQ(m.events_waiting, 0u) << "no idle-time metric";
  // Nothing alive: a run makes no iteration, and none is counted.
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(l.metrics_info().loop_count, m.loop_count);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
