// SPDX-License-Identifier: MIT
// File requests through a loop's io_uring ring (src/io/fs_ring.cpp, loop::
// set_io_uring): every operation the ring does gives the threadpool's
// results, errors included, without a pool job; callbacks run in the poll
// phase; requests on the ring cannot be canceled; more requests than the
// ring holds, and more buffers than one system call takes, still complete;
// the loop stays alive and refuses to close meanwhile; a write cut short
// counts what it wrote; a forked child gets a ring of its own; and when
// io_uring cannot be had (a seccomp filter in a child process makes
// io_uring_setup fail as a locked-down system does) the same requests run
// on the threadpool, as do those a ring that stopped taking submissions
// (io_uring_enter refused) had not handed over. The switches per profile and
// environment are tested from outside (test/fs_ring/switches.sh), the
// callback order against real libuv 1.50 and 1.53 by test/diff/197.

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

// Counts the threadpool jobs the loop reports (hooks see every pool job).
struct job_counter : pl::hook {
  int jobs = 0;
  std::vector<pl::phase> fs_phases;  // the phase of each fs callback
  void job_ran(pl::loop&, const pl::job_event&) override { jobs++; }
  void callback_enter(pl::loop&, const pl::callback_event& e) override {
    if (e.kind == pl::callback_kind::fs) fs_phases.push_back(e.which);
  }
};

// True when the kernel is at least major.minor.
bool kernel_at_least(int major, int minor) {
  utsname u{};
  if (uname(&u) != 0) return false;
  int a = 0, b = 0;
  std::sscanf(u.release, "%d.%d", &a, &b);
  return a > major || (a == major && b >= minor);
}

class fs_ring : public ::testing::Test {
 protected:
  void SetUp() override {
#if !PHASELOOP_HAVE_LIBURING
    GTEST_SKIP() << "built without liburing (configure --with-liburing): no io_uring to test";
#endif
    ASSERT_EQ(pltest::make_temp_dir("phaseloop-ring", dir_), 0);
  }
  // Whatever a test left.
  void TearDown() override { pltest::remove_tree(dir_); }
  std::string at(const char* name) const { return dir_ + "/" + name; }

  std::string dir_;
};

// One asynchronous operation after another, each started from the
// previous one's callback; the transcript has one line per operation.
struct script {
  using step = std::function<int(pl::loop&, pl::fs_req&, pl::fs_cb)>;
  struct entry {
    const char* name;
    step start;
    std::function<std::string(const pl::fs_req&)> detail;  // may be empty
  };
  std::vector<entry> steps;
  std::size_t next = 0;
  std::string transcript;
  pl::loop* l = nullptr;
  pl::fs_req req;

  static void on_done(pl::fs_req* r) {
    auto* self = static_cast<script*>(r->data);
    const entry& e = self->steps[self->next];
    // A descriptor's number depends on what else is open: "fd" stands for it.
    const bool fd = std::string(e.name) == "open" && r->result() >= 0;
    self->transcript += std::string(e.name) + " " + (fd ? std::string("fd") : std::to_string(r->result()));
    if (e.detail && r->result() >= 0) self->transcript += " " + e.detail(*r);
    self->transcript += "\n";
    self->next++;
    self->start();
  }
  void start() {
    while (next < steps.size()) {
      req.cleanup();
      req.data = this;
      const int r = steps[next].start(*l, req, &script::on_done);
      if (r == 0) return;
      transcript += std::string(steps[next].name) + " refused " + std::to_string(r) + "\n";
      next++;
    }
  }
};

// Runs every operation the ring does, and their errors, on a fresh loop
// with `use`: the transcript (results, file contents, stat fields).
std::string run_all_operations(const std::string& dir, pl::io_uring_use use, int* pool_jobs, bool* ring,
                               std::vector<pl::phase>* phases) {
  pl::loop l;
  l.set_io_uring(use);
  job_counter hook;
  l.add_hook(hook);
  static char out1[] = "hello ", out2[] = "ring", out3[] = "XY";
  static char in[32];
  static int fd = -1;
  const std::string a = dir + "/a", b = dir + "/b", c = dir + "/c", d = dir + "/d", db = dir + "/d/b",
                    missing = dir + "/missing";
  auto size = [](const pl::fs_req& r) { return "size=" + std::to_string(r.statbuf().st_size); };
  auto kind = [](const pl::fs_req& r) {
    const auto m = r.statbuf().st_mode & S_IFMT;
    return std::string(m == S_IFREG ? "file" : m == S_IFLNK ? "link" : m == S_IFDIR ? "dir" : "other") +
           " size=" + std::to_string(r.statbuf().st_size) + " nlink=" + std::to_string(r.statbuf().st_nlink) +
           (r.ptr() == &r.statbuf() ? " ptr=statbuf" : " ptr=?");
  };
  script s;
  s.l = &l;
  s.steps = {
      {"open", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.open(&lp, a.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0640, cb); },
       [](const pl::fs_req& r) {
         fd = static_cast<int>(r.result());
         return std::string("opened");
       }},
      {"write at the position", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         pl::fs_buf bufs[2] = {{out1, 6}, {out2, 4}};
         return r.write(&lp, fd, bufs, 2, -1, cb);
       }, {}},
      {"write at 0", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         pl::fs_buf buf{out3, 2};
         return r.write(&lp, fd, &buf, 1, 0, cb);
       }, {}},
      {"read at 0", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         std::memset(in, 0, sizeof in);
         pl::fs_buf buf{in, sizeof in};
         return r.read(&lp, fd, &buf, 1, 0, cb);
       }, [](const pl::fs_req&) { return std::string(in); }},
      {"read at the position (end)", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         pl::fs_buf buf{in, sizeof in};
         return r.read(&lp, fd, &buf, 1, -1, cb);
       }, {}},
      {"fstat", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.fstat(&lp, fd, cb); }, kind},
      {"ftruncate", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.ftruncate(&lp, fd, 4, cb); }, {}},
      {"fsync", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.fsync(&lp, fd, cb); }, {}},
      {"fdatasync", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.fdatasync(&lp, fd, cb); }, {}},
      {"stat", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.stat(&lp, a.c_str(), cb); }, size},
      {"link", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.link(&lp, a.c_str(), b.c_str(), cb); }, {}},
      {"link again", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.link(&lp, a.c_str(), b.c_str(), cb); }, {}},
      {"symlink", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.symlink(&lp, a.c_str(), c.c_str(), 0, cb); }, {}},
      {"symlink again", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.symlink(&lp, a.c_str(), c.c_str(), 0, cb); }, {}},
      {"lstat link", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.lstat(&lp, c.c_str(), cb); },
       [](const pl::fs_req& r) { return std::string((r.statbuf().st_mode & S_IFMT) == S_IFLNK ? "link" : "not a link"); }},
      {"stat through link", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.stat(&lp, c.c_str(), cb); }, kind},
      {"mkdir", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.mkdir(&lp, d.c_str(), 0750, cb); }, {}},
      {"mkdir again", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.mkdir(&lp, d.c_str(), 0750, cb); }, {}},
      {"stat dir", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.stat(&lp, d.c_str(), cb); },
       [](const pl::fs_req& r) { return "mode=" + std::to_string(r.statbuf().st_mode & 07777); }},
      {"rename", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.rename(&lp, b.c_str(), db.c_str(), cb); }, {}},
      {"rename missing", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.rename(&lp, missing.c_str(), b.c_str(), cb); }, {}},
      {"unlink", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.unlink(&lp, db.c_str(), cb); }, {}},
      {"unlink again", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.unlink(&lp, db.c_str(), cb); }, {}},
      {"unlink dir", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.unlink(&lp, d.c_str(), cb); }, {}},
      {"open missing", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.open(&lp, missing.c_str(), O_RDONLY, 0, cb); }, {}},
      {"stat missing", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.stat(&lp, missing.c_str(), cb); }, {}},
      {"lstat missing", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.lstat(&lp, missing.c_str(), cb); }, {}},
      {"mkdir in missing", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         static std::string p;
         p = missing + "/x";
         return r.mkdir(&lp, p.c_str(), 0755, cb);
       }, {}},
      {"close", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.close(&lp, fd, cb); }, {}},
      {"close again", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.close(&lp, fd, cb); }, {}},
      {"fstat closed", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.fstat(&lp, fd, cb); }, {}},
      {"read closed", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         pl::fs_buf buf{in, sizeof in};
         return r.read(&lp, fd, &buf, 1, 0, cb);
       }, {}},
      {"write closed", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) {
         pl::fs_buf buf{out3, 2};
         return r.write(&lp, fd, &buf, 1, -1, cb);
       }, {}},
      {"fsync closed", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.fsync(&lp, fd, cb); }, {}},
      {"ftruncate closed", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.ftruncate(&lp, fd, 0, cb); }, {}},
      {"unlink file", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.unlink(&lp, a.c_str(), cb); }, {}},
      {"unlink symlink", [&](pl::loop& lp, pl::fs_req& r, pl::fs_cb cb) { return r.unlink(&lp, c.c_str(), cb); }, {}},
  };
  s.start();
  l.run();
  *pool_jobs = hook.jobs;
  *ring = l.io_uring_ready();
  *phases = hook.fs_phases;
  l.remove_hook(hook);
  pl::fs_req rm;
  rm.rmdir(nullptr, d.c_str(), nullptr);
  EXPECT_EQ(s.next, s.steps.size());
  EXPECT_EQ(l.close(), 0);
  return s.transcript;
}

TEST_F(fs_ring, every_operation_gives_the_threadpools_results) {
  int pool_jobs_off = 0, pool_jobs_on = 0;
  bool ring_off = true, ring_on = false;
  std::vector<pl::phase> phases_off, phases_on;
  const std::string off = run_all_operations(dir_, pl::io_uring_use::off, &pool_jobs_off, &ring_off, &phases_off);
  const std::string on = run_all_operations(dir_, pl::io_uring_use::on, &pool_jobs_on, &ring_on, &phases_on);
  EXPECT_EQ(on, off);
  // Some lines, in case both were wrong the same way.
  EXPECT_NE(off.find("write at the position 10\n"), std::string::npos) << off;
  EXPECT_NE(off.find("read at 0 10 XYllo ring\n"), std::string::npos) << off;
  EXPECT_NE(off.find("stat 0 size=4\n"), std::string::npos) << off;
  EXPECT_NE(off.find("link again " + std::to_string(-EEXIST) + "\n"), std::string::npos) << off;
  EXPECT_NE(off.find("stat through link 0 file size=4 nlink=2 ptr=statbuf\n"), std::string::npos) << off;
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_NE(off.find("stat dir 0 mode=" + std::to_string(0750 & ~mask) + "\n"), std::string::npos) << off;
  EXPECT_NE(off.find("close again " + std::to_string(-EBADF) + "\n"), std::string::npos) << off;
  EXPECT_NE(off.find("unlink dir " + std::to_string(-EISDIR) + "\n"), std::string::npos) << off;
  EXPECT_FALSE(ring_off);
  ASSERT_TRUE(ring_on) << "io_uring was not available to this test";
  // On the ring no operation became a pool job (ftruncate only from Linux 6.9).
  const int steps = static_cast<int>(phases_off.size());
  EXPECT_EQ(pool_jobs_off, steps);
  EXPECT_EQ(pool_jobs_on, kernel_at_least(6, 9) ? 0 : 2);
  // Every callback ran in the poll phase, on both.
  for (pl::phase p : phases_on) EXPECT_EQ(p, pl::phase::poll);
  EXPECT_EQ(phases_on.size(), phases_off.size());

  // The same on a ring polled by a kernel thread.
  int pool_jobs_sq = 0;
  bool ring_sq = false;
  std::vector<pl::phase> phases_sq;
  const std::string sq = run_all_operations(dir_, pl::io_uring_use::sqpoll, &pool_jobs_sq, &ring_sq, &phases_sq);
  EXPECT_EQ(sq, off);
  EXPECT_TRUE(ring_sq);
  EXPECT_EQ(pool_jobs_sq, pool_jobs_on);
}

struct counted {
  int done = 0, failed = 0;
  static void cb(pl::fs_req* r) {
    auto* c = static_cast<counted*>(r->data);
    c->done++;
    if (r->result() != 0) c->failed++;
  }
};

TEST_F(fs_ring, requests_on_the_ring_are_not_canceled_and_keep_the_loop_alive) {
  pl::loop l;
  l.set_io_uring(pl::io_uring_use::on);
  counted c;
  pl::fs_req r;
  r.data = &c;
  ASSERT_EQ(r.stat(&l, dir_.c_str(), &counted::cb), 0);
  if (!l.io_uring_ready()) GTEST_SKIP() << "no io_uring here (the fallback tests cover this machine)";
  EXPECT_EQ(r.cancel(), pl::errc::busy);
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.active_requests(), 1u);
  EXPECT_EQ(l.backend_timeout(), 0);  // the ring's fd is not registered with epoll yet
  EXPECT_EQ(l.close(), pl::errc::busy);
  // Starting the request again while it is in flight is refused.
  EXPECT_EQ(r.stat(&l, dir_.c_str(), &counted::cb), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(c.done, 1);
  EXPECT_EQ(c.failed, 0);
  EXPECT_EQ(r.cancel(), pl::errc::busy);
  EXPECT_EQ(l.close(), 0);
}

TEST_F(fs_ring, more_requests_than_the_ring_holds) {
  // 1,500 stats at once: the ring takes 256 per iteration and at most 511
  // in flight; the rest run on the threadpool. All complete, once each.
  pl::loop l;
  l.set_io_uring(pl::io_uring_use::on);
  counted c;
  std::vector<pl::fs_req> reqs(1500);
  for (pl::fs_req& r : reqs) {
    r.data = &c;
    ASSERT_EQ(r.stat(&l, dir_.c_str(), &counted::cb), 0);
  }
  EXPECT_EQ(l.active_requests(), 1500u);
  const auto before = l.metrics_info().events;
  l.run();
  EXPECT_EQ(c.done, 1500);
  EXPECT_EQ(c.failed, 0);
  // Each completion counts as one event, as libuv counts them. So does
  // each wake-up of the pool's async handle that finds its queue drained
  // already (the loop took a request before its worker's send landed),
  // as in libuv; how many there are depends on how the workers and the
  // loop interleave, one per request the pool ran at most, and fewer
  // than 1,500 of them did. Completions counted twice would reach 3,000.
  const auto events = l.metrics_info().events - before;
  EXPECT_GE(events, 1500u);
  EXPECT_LT(events, 3000u);
  EXPECT_EQ(l.close(), 0);
}

TEST_F(fs_ring, writes_of_more_buffers_than_one_call_takes) {
  // 1,100 one-byte buffers (IOV_MAX is 1,024): the threadpool splits them,
  // both ways the whole count is written.
  for (pl::io_uring_use use : {pl::io_uring_use::on, pl::io_uring_use::off}) {
    pl::loop l;
    l.set_io_uring(use);
    const std::string path = at("many");
    pl::fs_req o;
    const int fd = o.open(nullptr, path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644, nullptr);
    ASSERT_GE(fd, 0);
    std::vector<char> bytes(1100, 'x');
    std::vector<pl::fs_buf> bufs(1100);
    for (std::size_t i = 0; i < bufs.size(); i++) bufs[i] = {&bytes[i], 1};
    static ssize_t result;
    result = -1;
    pl::fs_req w;
    ASSERT_EQ(w.write(&l, fd, bufs.data(), static_cast<unsigned>(bufs.size()), 0, [](pl::fs_req* r) { result = r->result(); }), 0);
    l.run();
    EXPECT_EQ(result, 1100);
    pl::fs_req s;
    ASSERT_EQ(s.fstat(nullptr, fd, nullptr), 0);
    EXPECT_EQ(s.statbuf().st_size, 1100u);
    pl::fs_req cl;
    cl.close(nullptr, fd, nullptr);
    EXPECT_EQ(l.close(), 0);
  }
}

// Runs `body` in a child process; true when it exited with status 0.
bool in_child(const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST_F(fs_ring, without_io_uring_the_threadpool_does_the_work) {
  // EPERM: kernel.io_uring_disabled=2 (or 1 for this user); ENOSYS: a
  // seccomp filter or a kernel without io_uring; ENOMEM: no memory for
  // the ring.
  for (int err : {EPERM, ENOSYS, ENOMEM}) {
    const std::string dir = dir_;
    EXPECT_TRUE(in_child([&] {
      if (!pltest::forbid_syscalls({__NR_io_uring_setup}, err)) return 2;
      int pool_jobs = 0;
      bool ring = true;
      std::vector<pl::phase> phases;
      const std::string t = run_all_operations(dir, pl::io_uring_use::on, &pool_jobs, &ring, &phases);
      if (ring) return 3;  // a ring after all
      if (pool_jobs != static_cast<int>(phases.size()) || phases.empty()) return 4;
      if (t.find("read at 0 10 XYllo ring\n") == std::string::npos) return 5;
      if (::testing::Test::HasFailure()) return 6;
      return 0;
    })) << "errno " << err;
  }
}

// Whether a loop here gets a working ring (a stat through it succeeds).
bool ring_works(const std::string& dir) {
  pl::loop probe;
  probe.set_io_uring(pl::io_uring_use::on);
  counted c;
  pl::fs_req r;
  r.data = &c;
  if (r.stat(&probe, dir.c_str(), &counted::cb) != 0) return false;
  probe.run();
  const bool ready = probe.io_uring_ready() && c.done == 1 && c.failed == 0;
  return probe.close() == 0 && ready;
}

TEST_F(fs_ring, a_ring_the_kernel_stops_taking_hands_its_requests_to_the_threadpool) {
  if (!ring_works(dir_)) GTEST_SKIP() << "no io_uring here (the fallback tests cover this machine)";
  // The ring works for a first request; then io_uring_enter fails for good
  // (EPERM, as a seccomp policy put on the running process does): the
  // requests submitted after it complete on the threadpool, with their
  // results, and the loop stops using the ring. Without the hand-over they
  // would stay in the ring's queue and the loop would wait forever (the
  // alarm ends the child then).
  const std::string dir = dir_;
  EXPECT_TRUE(in_child([&] {
    alarm(20);
    pl::loop l;
    l.set_io_uring(pl::io_uring_use::on);
    job_counter hook;
    l.add_hook(hook);
    counted c;
    pl::fs_req first;
    first.data = &c;
    if (first.stat(&l, dir.c_str(), &counted::cb) != 0) return 2;
    l.run();
    if (c.done != 1 || c.failed != 0 || hook.jobs != 0 || !l.io_uring_ready()) return 3;
    if (!pltest::forbid_syscalls({__NR_io_uring_enter}, EPERM)) return 4;
    const std::string path = dir + "/after";
    pl::fs_req o;
    const int fd = o.open(nullptr, path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644, nullptr);
    if (fd < 0) return 5;
    char text[] = "hello";
    pl::fs_buf buf{text, 5};
    static ssize_t written;
    written = -1;
    pl::fs_req w, s1, s2;
    s1.data = s2.data = &c;
    if (s1.stat(&l, dir.c_str(), &counted::cb) != 0) return 6;
    if (w.write(&l, fd, &buf, 1, 0, [](pl::fs_req* r) { written = r->result(); }) != 0) return 7;
    if (s2.stat(&l, path.c_str(), &counted::cb) != 0) return 8;
    if (l.run() != 0) return 9;
    if (c.done != 3 || c.failed != 0 || written != 5) return 10;
    if (hook.jobs != 3 || l.io_uring_ready()) return 11;
    // Later requests go to the threadpool directly.
    if (s1.stat(&l, path.c_str(), &counted::cb) != 0) return 12;
    l.run();
    if (c.done != 4 || hook.jobs != 4 || s1.statbuf().st_size != 5) return 13;
    pl::fs_req cl;
    cl.close(nullptr, fd, nullptr);
    l.remove_hook(hook);
    return l.close() == 0 ? 0 : 14;
  }));
}

TEST_F(fs_ring, a_write_cut_short_by_the_file_size_limit_counts_what_it_wrote) {
  // RLIMIT_FSIZE of 4 bytes: a 10-byte write writes 4, the rest fails
  // (EFBIG); the result is 4 both ways, as libuv's threadpool reports it.
  const std::string dir = dir_;
  for (pl::io_uring_use use : {pl::io_uring_use::on, pl::io_uring_use::off}) {
    EXPECT_TRUE(in_child([&] {
      alarm(20);
      signal(SIGXFSZ, SIG_IGN);
      rlimit lim{4, 4};
      if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 2;
      pl::loop l;
      l.set_io_uring(use);
      const std::string path = dir + (use == pl::io_uring_use::on ? "/limited-ring" : "/limited-pool");
      pl::fs_req o;
      const int fd = o.open(nullptr, path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644, nullptr);
      if (fd < 0) return 3;
      char a[] = "abcdef", b[] = "ghij";
      pl::fs_buf bufs[2] = {{a, 6}, {b, 4}};
      static ssize_t written;
      written = -1;
      pl::fs_req w;
      if (w.write(&l, fd, bufs, 2, 0, [](pl::fs_req* r) { written = r->result(); }) != 0) return 4;
      l.run();
      pl::fs_req st;
      if (st.fstat(nullptr, fd, nullptr) != 0 || st.statbuf().st_size != 4) return 5;
      pl::fs_req cl;
      cl.close(nullptr, fd, nullptr);
      if (written != 4) return 6;
      return l.close() == 0 ? 0 : 7;
    })) << (use == pl::io_uring_use::on ? "on the ring" : "on the threadpool");
  }
}

// Counts idle callbacks; stops the idle handle at `limit`, or once
// *count (requests done) reaches `want`.
struct idler {
  long calls = 0;
  long limit = 0;
  const int* count = nullptr;
  int want = 0;
  static void on_idle(pl::idle* h) {
    auto* s = static_cast<idler*>(h->data);
    if (++s->calls == s->limit || (s->count != nullptr && *s->count >= s->want)) h->stop();
  }
};

TEST_F(fs_ring, a_poll_that_would_not_wait_skips_the_system_call_when_the_ring_has_nothing) {
  // The ring's descriptor counts with the loop's own (eventfd, signal
  // pipe): with nothing written to those and no completion in the ring's
  // queue, a poll that would not wait makes no epoll_wait. In a child
  // that may not call epoll_wait once its ring is made (the loop would
  // abort on the error), 10,000 idle iterations run.
  if (!ring_works(dir_)) GTEST_SKIP() << "no io_uring here (the fallback tests cover this machine)";
  const std::string dir = dir_;
  EXPECT_TRUE(in_child([&] {
    alarm(20);
    pl::loop l;
    l.set_order(pl::profile::libuv_1_53);
    l.set_io_uring(pl::io_uring_use::on);
    counted c;
    pl::fs_req r;
    r.data = &c;
    if (r.stat(&l, dir.c_str(), &counted::cb) != 0) return 2;
    l.run();
    if (c.done != 1 || !l.io_uring_ready()) return 5;
    pl::idle idle(l);
    idler s;
    s.limit = 1;
    idle.data = &s;
    idle.start(&idler::on_idle);
    l.run();  // a first look after the request
    if (!pltest::forbid_syscalls({__NR_epoll_wait, __NR_epoll_pwait}, EPERM)) return 3;
    s.calls = 0;
    s.limit = 10000;
    idle.start(&idler::on_idle);
    if (l.run() != 0 || s.calls != 10000) return 4;
    return 0;
  }));
}

TEST_F(fs_ring, a_completion_reaches_a_loop_that_never_waits) {
  // The other side of the skip: an idle handle keeps every poll from
  // waiting, and stats on the ring (one, then 16 at once) still complete
  // -- the completion in the ring's queue makes the poll look.
  if (!ring_works(dir_)) GTEST_SKIP() << "no io_uring here (the fallback tests cover this machine)";
  pl::loop l;
  l.set_order(pl::profile::libuv_1_53);
  l.set_io_uring(pl::io_uring_use::on);
  for (int n : {1, 16}) {
    counted c;
    std::vector<pl::fs_req> reqs(static_cast<std::size_t>(n));
    for (pl::fs_req& r : reqs) {
      r.data = &c;
      ASSERT_EQ(r.stat(&l, dir_.c_str(), &counted::cb), 0);
    }
    pl::idle idle(l);
    idler s;
    s.limit = 50000000;  // about a minute: far more than a stat takes
    s.count = &c.done;
    s.want = n;
    idle.data = &s;
    idle.start(&idler::on_idle);
    l.run();
    EXPECT_EQ(c.done, n);
    EXPECT_EQ(c.failed, 0);
    EXPECT_LT(s.calls, s.limit) << n << " in flight";
    idle.close(nullptr);
    l.run();
  }
  EXPECT_EQ(l.close(), 0);
}

TEST_F(fs_ring, a_forked_child_gets_a_ring_of_its_own) {
  pl::loop l;
  l.set_io_uring(pl::io_uring_use::on);
  counted c;
  pl::fs_req r;
  r.data = &c;
  ASSERT_EQ(r.stat(&l, dir_.c_str(), &counted::cb), 0);
  l.run();
  ASSERT_EQ(c.done, 1);
  if (!l.io_uring_ready()) GTEST_SKIP() << "no io_uring here";
  const std::string dir = dir_;
  EXPECT_TRUE(in_child([&] {
    if (l.after_fork() != 0) return 2;
    if (!l.io_uring_ready()) return 3;
    counted cc;
    pl::fs_req q;
    q.data = &cc;
    for (int i = 0; i < 3; i++) {
      if (q.stat(&l, dir.c_str(), &counted::cb) != 0) return 4;
      l.run();
    }
    return cc.done == 3 && cc.failed == 0 ? 0 : 5;
  }));
  // The parent's ring still works.
  ASSERT_EQ(r.stat(&l, dir_.c_str(), &counted::cb), 0);
  l.run();
  EXPECT_EQ(c.done, 2);
  EXPECT_EQ(c.failed, 0);
  EXPECT_EQ(l.close(), 0);
}

}  // namespace
