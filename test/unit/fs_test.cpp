// SPDX-License-Identifier: MIT
// File system requests (fs.hpp) through the C++ API: synchronous and
// asynchronous forms, where the callback runs, results and ptr() data,
// cleanup, cancellation, misuse. Each test works in its own temporary
// directory, removed at the end. The differential scenarios
// test/diff/081-101 compare the C API with libuv itself.

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <memory>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "uv.h"

namespace {

class fs : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(pltest::make_temp_dir("phaseloop-fs", dir_), 0);
  }
  void TearDown() override {
    pltest::remove_tree(dir_);
    pl::fs_req r;
    EXPECT_EQ(r.stat(nullptr, dir_.c_str(), nullptr), -ENOENT) << "the test directory was not removed";
  }

  // A path inside the test's directory (kept alive for the test).
  const char* at(const char* name) {
    paths_.push_back(std::make_unique<std::string>(dir_ + "/" + name));
    return paths_.back()->c_str();
  }

  // Creates `name` holding `text`.
  void put(const char* name, const char* text) {
    pl::fs_req r;
    const int fd = r.open(nullptr, at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644, nullptr);
    ASSERT_GE(fd, 0);
    pl::fs_buf b{const_cast<char*>(text), std::strlen(text)};
    ASSERT_EQ(r.write(nullptr, fd, &b, 1, -1, nullptr), static_cast<int>(b.len));
    ASSERT_EQ(r.close(nullptr, fd, nullptr), 0);
  }

  std::string get(const char* name) {
    pl::fs_req r;
    const int fd = r.open(nullptr, at(name), O_RDONLY, 0, nullptr);
    if (fd < 0) return "<" + std::string(pl::error_name(fd)) + ">";
    char buf[256];
    pl::fs_buf b{buf, sizeof buf};
    const int n = r.read(nullptr, fd, &b, 1, 0, nullptr);
    r.close(nullptr, fd, nullptr);
    return std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  }

  std::string dir_;
  std::vector<std::unique_ptr<std::string>> paths_;
};

// ---- synchronous requests ---------------------------------------------------

TEST_F(fs, sync_requests_return_the_result_and_keep_it) {
  pl::fs_req r;
  EXPECT_EQ(r.type(), pl::req_type::fs);
  const char* name = at("a.txt");
  const int fd = r.open(nullptr, name, O_RDWR | O_CREAT | O_EXCL, 0600, nullptr);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(r.result(), fd);
  EXPECT_EQ(r.operation(), pl::fs_type::open);
  EXPECT_EQ(r.path(), name) << "a synchronous request uses the caller's string";
  EXPECT_EQ(r.owner(), nullptr);
  EXPECT_EQ(r.callback(), nullptr);
  EXPECT_EQ(r.ptr(), nullptr);

  char hello[] = "hello ", world[] = "world";
  pl::fs_buf out[] = {{hello, 6}, {world, 5}};
  EXPECT_EQ(r.write(nullptr, fd, out, 2, -1, nullptr), 11);
  EXPECT_EQ(r.path(), nullptr) << "the next operation starts clean";

  char a[3], b[16] = {};
  pl::fs_buf in[] = {{a, sizeof a}, {b, sizeof b}};
  EXPECT_EQ(r.read(nullptr, fd, in, 2, 1, nullptr), 10);
  EXPECT_EQ(std::string(a, 3), "ell");
  EXPECT_EQ(std::string(b), "o world");
  EXPECT_EQ(r.read(nullptr, fd, in, 2, -1, nullptr), 0) << "the position is at the end";
  EXPECT_EQ(r.close(nullptr, fd, nullptr), 0);
  EXPECT_EQ(r.close(nullptr, fd, nullptr), -EBADF);
  EXPECT_EQ(r.result(), -EBADF);
}

TEST_F(fs, stat_fills_statbuf_and_points_ptr_at_it) {
  put("f", "twelve bytes");
  pl::fs_req r;
  ASSERT_EQ(r.chmod(nullptr, at("f"), 0640, nullptr), 0);
  ASSERT_EQ(r.utime(nullptr, at("f"), 100.5, 200.25, nullptr), 0);
  ASSERT_EQ(r.stat(nullptr, at("f"), nullptr), 0);
  EXPECT_EQ(r.ptr(), &r.statbuf());
  EXPECT_EQ(r.statbuf().st_size, 12u);
  EXPECT_TRUE(S_ISREG(r.statbuf().st_mode));
  EXPECT_EQ(r.statbuf().st_mode & 07777, 0640u);
  EXPECT_EQ(r.statbuf().st_atim.tv_sec, 100);
  EXPECT_EQ(r.statbuf().st_atim.tv_nsec, 500000000);
  EXPECT_EQ(r.statbuf().st_mtim.tv_nsec, 250000000);
  EXPECT_EQ(r.statbuf().st_uid, static_cast<std::uint64_t>(getuid()));

  ASSERT_EQ(r.symlink(nullptr, "f", at("ln"), 0, nullptr), 0);
  ASSERT_EQ(r.lstat(nullptr, at("ln"), nullptr), 0);
  EXPECT_TRUE(S_ISLNK(r.statbuf().st_mode));
  EXPECT_EQ(r.statbuf().st_size, 1u);

  EXPECT_EQ(r.stat(nullptr, at("missing"), nullptr), -ENOENT);
  EXPECT_EQ(r.ptr(), nullptr) << "ptr is set on success only";
  EXPECT_EQ(r.fstat(nullptr, -1, nullptr), -EBADF);
}

TEST_F(fs, times_keep_microseconds_and_refuse_what_time_t_cannot_hold) {
  // libuv 1.44 to 1.50: microseconds; NaN is refused like an overflow.
  for (pl::profile p : {pl::profile::libuv_1_44, pl::profile::libuv_1_45}) {
    put("f", "");
    pl::loop l;
    l.set_order(p);
    pl::fs_req r;
    ASSERT_EQ(r.utime(&l, at("f"), 1.0000019, -1.5, nullptr), 0);
    ASSERT_EQ(r.stat(&l, at("f"), nullptr), 0);
    EXPECT_EQ(r.statbuf().st_atim.tv_sec, 1);
    EXPECT_EQ(r.statbuf().st_atim.tv_nsec, 1000) << "truncated to the microsecond";
    EXPECT_EQ(r.statbuf().st_mtim.tv_sec, -2);
    EXPECT_EQ(r.statbuf().st_mtim.tv_nsec, 500000000);
    EXPECT_EQ(r.utime(&l, at("f"), 1e300, 0, nullptr), -EINVAL);
    EXPECT_EQ(r.utime(&l, at("f"), 0, std::nan(""), nullptr), -EINVAL);
    EXPECT_EQ(pltest::finish(l), 0);
  }
}

TEST_F(fs, times_keep_nanoseconds_and_take_nan_and_infinity_from_1_52) {
  put("f", "");
  pl::loop l;
  l.set_order(pl::profile::libuv_1_52);
  pl::fs_req r;
  ASSERT_EQ(r.utime(&l, at("f"), 1.0000019, -1.5, nullptr), 0);
  ASSERT_EQ(r.stat(&l, at("f"), nullptr), 0);
  EXPECT_EQ(r.statbuf().st_atim.tv_sec, 1);
  EXPECT_NEAR(static_cast<double>(r.statbuf().st_atim.tv_nsec), 1900.0, 2.0) << "nanoseconds kept";
  EXPECT_EQ(r.statbuf().st_mtim.tv_sec, -2);
  EXPECT_EQ(r.statbuf().st_mtim.tv_nsec, 500000000);
  // NaN leaves a time as it is (1.51); infinity sets it to now.
  ASSERT_EQ(r.utime(&l, at("f"), std::nan(""), 7.0, nullptr), 0);
  ASSERT_EQ(r.stat(&l, at("f"), nullptr), 0);
  EXPECT_EQ(r.statbuf().st_atim.tv_sec, 1) << "atime left as it was";
  EXPECT_EQ(r.statbuf().st_mtim.tv_sec, 7);
  const time_t before = time(nullptr);
  ASSERT_EQ(r.utime(&l, at("f"), 3.0, HUGE_VAL, nullptr), 0);
  ASSERT_EQ(r.stat(&l, at("f"), nullptr), 0);
  EXPECT_EQ(r.statbuf().st_atim.tv_sec, 3);
  EXPECT_GE(r.statbuf().st_mtim.tv_sec, before) << "infinity is now";
  EXPECT_EQ(r.utime(&l, at("f"), 1e300, 0, nullptr), -EINVAL);
  EXPECT_EQ(pltest::finish(l), 0);
}

TEST_F(fs, a_loopless_request_following_the_process_version_reads_it_when_its_operation_needs_it) {
  pltest::scoped_env profile("PHASELOOP_PROFILE");
  put("f", "");
  pl::fs_req r;
  r.follow_process_version();
  ASSERT_EQ(profile.set("libuv-1.44"), 0);
  ASSERT_EQ(r.utime(nullptr, at("f"), 1.0000019, 2.0, nullptr), 0);
  ASSERT_EQ(r.stat(nullptr, at("f"), nullptr), 0);
  EXPECT_EQ(r.statbuf().st_atim.tv_nsec, 1000) << "1.44: truncated to the microsecond";
  // The same request, the variable changed since it was told to follow it.
  ASSERT_EQ(profile.set("libuv-1.53"), 0);
  ASSERT_EQ(r.utime(nullptr, at("f"), 1.0000019, 2.0, nullptr), 0);
  ASSERT_EQ(r.stat(nullptr, at("f"), nullptr), 0);
  EXPECT_NEAR(static_cast<double>(r.statbuf().st_atim.tv_nsec), 1900.0, 2.0) << "1.53: nanoseconds kept";
  // A profile set on the request is not the variable's.
  pl::fs_req fixed;
  fixed.set_profile(pl::profile::libuv_1_44);
  ASSERT_EQ(fixed.utime(nullptr, at("f"), 1.0000019, 2.0, nullptr), 0);
  ASSERT_EQ(fixed.stat(nullptr, at("f"), nullptr), 0);
  EXPECT_EQ(fixed.statbuf().st_atim.tv_nsec, 1000);
}

TEST_F(fs, scandir_lists_sorted_entries_with_types) {
  put("b", "");
  put("a", "");
  put("B", "");
  pl::fs_req r;
  ASSERT_EQ(r.mkdir(nullptr, at("dir"), 0755, nullptr), 0);
  ASSERT_EQ(r.symlink(nullptr, "a", at("ln"), 0, nullptr), 0);
  ASSERT_EQ(r.scandir(nullptr, dir_.c_str(), 0, nullptr), 5);
  strings seen;
  pl::fs_dirent ent;
  while (r.scandir_next(ent) == 0) {
    const char* kind = ent.type == pl::fs_dirent_type::file  ? "file"
                       : ent.type == pl::fs_dirent_type::dir ? "dir"
                       : ent.type == pl::fs_dirent_type::link ? "link"
                                                              : "?";
    seen.push_back(std::string(ent.name) + ":" + kind);
  }
  EXPECT_EQ(seen, (strings{"B:file", "a:file", "b:file", "dir:dir", "ln:link"}));
  EXPECT_EQ(r.scandir_next(ent), pl::errc::eof);
  EXPECT_EQ(r.ptr(), nullptr);

  EXPECT_EQ(r.scandir(nullptr, at("missing"), 0, nullptr), -ENOENT);
  EXPECT_EQ(r.scandir_next(ent), -ENOENT);
  EXPECT_EQ(r.stat(nullptr, at("a"), nullptr), 0);
  EXPECT_EQ(r.scandir_next(ent), pl::errc::invalid) << "not a scandir request";
}

TEST_F(fs, unread_scandir_entries_are_freed_by_the_destructor) {
  for (const char* n : {"a", "b", "c", "d"}) put(n, "");
  {
    pl::fs_req r;
    ASSERT_EQ(r.scandir(nullptr, dir_.c_str(), 0, nullptr), 4);
    pl::fs_dirent ent;
    ASSERT_EQ(r.scandir_next(ent), 0);
    ASSERT_EQ(r.scandir_next(ent), 0);
    EXPECT_STREQ(ent.name, "b");
  }  // LeakSanitizer (build-san) checks the rest was freed
  pl::fs_req r;
  ASSERT_EQ(r.scandir(nullptr, dir_.c_str(), 0, nullptr), 4);
  r.cleanup();
  r.cleanup();
  EXPECT_EQ(r.ptr(), nullptr);
}

TEST_F(fs, readlink_realpath_and_statfs_leave_their_result_in_ptr) {
  put("target", "x");
  pl::fs_req r;
  ASSERT_EQ(r.symlink(nullptr, "target", at("ln"), 0, nullptr), 0);
  ASSERT_EQ(r.readlink(nullptr, at("ln"), nullptr), 0);
  EXPECT_STREQ(static_cast<const char*>(r.ptr()), "target");
  ASSERT_EQ(r.realpath(nullptr, at("ln"), nullptr), 0) << "the readlink string is freed here";
  char* real_dir = ::realpath(dir_.c_str(), nullptr);
  EXPECT_EQ(std::string(static_cast<const char*>(r.ptr())), std::string(real_dir) + "/target");
  std::free(real_dir);
  ASSERT_EQ(r.statfs(nullptr, dir_.c_str(), nullptr), 0);
  const auto* s = static_cast<const pl::fs_statfs*>(r.ptr());
  EXPECT_GT(s->f_bsize, 0u);
  EXPECT_EQ(s->f_spare[0], 0u);
  r.cleanup();
  EXPECT_EQ(r.ptr(), nullptr);
  EXPECT_EQ(r.readlink(nullptr, at("target"), nullptr), -EINVAL) << "not a link";
}

TEST_F(fs, mkstemp_checks_its_template) {
  pl::fs_req r;
  const std::string tpl = dir_ + "/tmpXXXXXX";
  const int fd = r.mkstemp(nullptr, tpl.c_str(), nullptr);
  ASSERT_GE(fd, 0);
  EXPECT_NE(r.path(), tpl.c_str()) << "always a copy";
  EXPECT_EQ(std::string(r.path()).substr(0, tpl.size() - 6), dir_ + "/tmp");
  EXPECT_NE(std::string(r.path()), tpl);
  EXPECT_EQ(::close(fd), 0);
  EXPECT_EQ(r.mkstemp(nullptr, at("tmpXXXXX"), nullptr), -EINVAL);
  EXPECT_STREQ(r.path(), "") << "a failed mkstemp empties the template";
}

// A futimens that fails with the error set here (0: the real one), for the
// library's calls too: this program's definition comes first.
std::atomic<int> futimens_fails{0};

}  // namespace

extern "C" int futimens(int fd, const timespec times[2]) noexcept {
  if (const int e = futimens_fails.load()) {
    errno = e;
    return -1;
  }
  using real_fn = int (*)(int, const timespec*);
  static const auto real = reinterpret_cast<real_fn>(dlsym(RTLD_NEXT, "futimens"));
  return real(fd, times);
}

namespace {

// From 1.49 copyfile gives the copy the source's times; a refusal of them
// fails the copy (the destination removed) until 1.53, which copies anyway.
TEST_F(fs, copyfile_times_from_1_49_and_their_refusal_fatal_until_1_53) {
  put("src", "");
  pl::fs_req r;
  ASSERT_EQ(r.utime(nullptr, at("src"), 1000, 2000, nullptr), 0);
  for (pl::profile p : {pl::profile::libuv_1_44, pl::profile::libuv_1_49, pl::profile::libuv_1_53}) {
    pl::fs_req c;
    c.set_profile(p);
    ASSERT_EQ(c.copyfile(nullptr, at("src"), at("dst"), 0, nullptr), 0);
    ASSERT_EQ(r.stat(nullptr, at("dst"), nullptr), 0);
    EXPECT_EQ(r.statbuf().st_mtim.tv_sec == 2000, p != pl::profile::libuv_1_44) << static_cast<int>(p);
    ASSERT_EQ(r.unlink(nullptr, at("dst"), nullptr), 0);
    futimens_fails = EPERM;
    EXPECT_EQ(c.copyfile(nullptr, at("src"), at("dst"), 0, nullptr), p == pl::profile::libuv_1_49 ? -EPERM : 0);
    futimens_fails = 0;
    EXPECT_EQ(r.stat(nullptr, at("dst"), nullptr), p == pl::profile::libuv_1_49 ? -ENOENT : 0)
        << "a failed copy leaves no destination";
    r.unlink(nullptr, at("dst"), nullptr);
  }
}

TEST_F(fs, copyfile_and_sendfile) {
  put("src", "0123456789");
  pl::fs_req r;
  ASSERT_EQ(r.chmod(nullptr, at("src"), 0604, nullptr), 0);
  EXPECT_EQ(r.copyfile(nullptr, at("src"), at("dst"), 0, nullptr), 0);
  EXPECT_EQ(get("dst"), "0123456789");
  ASSERT_EQ(r.stat(nullptr, at("dst"), nullptr), 0);
  EXPECT_EQ(r.statbuf().st_mode & 0777, 0604u);
  EXPECT_EQ(r.copyfile(nullptr, at("src"), at("dst"), pl::fs_copyfile_excl, nullptr), -EEXIST);
  EXPECT_EQ(r.copyfile(nullptr, at("src"), at("dst"), 0x10, nullptr), pl::errc::invalid);
  EXPECT_EQ(r.copyfile(nullptr, at("dst"), at("dst"), 0, nullptr), 0);
  EXPECT_EQ(get("dst"), "0123456789") << "a copy onto itself changes nothing";

  const int in = r.open(nullptr, at("src"), O_RDONLY, 0, nullptr);
  const int out = r.open(nullptr, at("out"), O_WRONLY | O_CREAT, 0644, nullptr);
  ASSERT_GE(in, 0);
  ASSERT_GE(out, 0);
  EXPECT_EQ(r.sendfile(nullptr, out, in, 7, 100, nullptr), 3);
  EXPECT_EQ(r.sendfile(nullptr, out, in, 0, 2, nullptr), 2);
  EXPECT_EQ(get("out"), "78901");
  EXPECT_EQ(::lseek(in, 0, SEEK_CUR), 0) << "in_fd's position does not move";
  r.close(nullptr, in, nullptr);
  r.close(nullptr, out, nullptr);
}

TEST_F(fs, writes_every_buffer_even_beyond_iov_max) {
  constexpr unsigned n = 1500;
  std::vector<char> bytes(n);
  std::vector<pl::fs_buf> bufs(n);
  for (unsigned i = 0; i < n; i++) {
    bytes[i] = static_cast<char>('a' + i % 26);
    bufs[i] = {&bytes[i], 1};
  }
  pl::fs_req r;
  const int fd = r.open(nullptr, at("f"), O_RDWR | O_CREAT, 0644, nullptr);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(r.write(nullptr, fd, bufs.data(), n, 0, nullptr), static_cast<int>(n));
  std::vector<char> back(n);
  for (unsigned i = 0; i < n; i++) bufs[i] = {&back[i], 1};
  EXPECT_EQ(r.read(nullptr, fd, bufs.data(), n, 0, nullptr), IOV_MAX) << "one preadv";
  EXPECT_TRUE(std::equal(back.begin(), back.begin() + IOV_MAX, bytes.begin()));
  r.close(nullptr, fd, nullptr);
}

TEST_F(fs, invalid_arguments_are_refused_before_anything_runs) {
  pl::loop l;
  pl::fs_req r;
  auto cb = [](pl::fs_req*) { ADD_FAILURE() << "no callback expected"; };
  char c;
  pl::fs_buf b{&c, 1};
  EXPECT_EQ(r.stat(nullptr, nullptr, nullptr), pl::errc::invalid) << "null path";
  EXPECT_EQ(r.stat(&l, nullptr, cb), pl::errc::invalid);
  EXPECT_EQ(r.rename(&l, at("x"), nullptr, cb), pl::errc::invalid);
  EXPECT_EQ(r.mkdtemp(nullptr, nullptr, nullptr), pl::errc::invalid);
  EXPECT_EQ(r.stat(nullptr, at("x"), cb), pl::errc::invalid) << "a callback needs a loop";
  EXPECT_EQ(r.read(&l, 0, &b, 0, -1, cb), pl::errc::invalid);
  EXPECT_EQ(r.write(&l, 1, nullptr, 1, -1, cb), pl::errc::invalid);
  EXPECT_EQ(r.readdir(&l, nullptr, cb), pl::errc::invalid);
  EXPECT_EQ(r.closedir(&l, nullptr, cb), pl::errc::invalid);
  pl::fs_dir never_opened;
  pl::fs_dirent ents[2];
  never_opened.dirents = ents;
  never_opened.nentries = 2;
  EXPECT_EQ(r.readdir(&l, &never_opened, cb), pl::errc::invalid);
  EXPECT_EQ(l.active_requests(), 0u);
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(r.cancel(), pl::errc::busy) << "nothing in flight";
  EXPECT_EQ(finish(l), 0);
}

// ---- asynchronous requests --------------------------------------------------

TEST_F(fs, callback_runs_in_the_poll_phase_and_hooks_see_an_fs_completion) {
  put("f", "abc");
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::fs_req r;
  int calls = 0;
  r.data = &calls;
  const char* name = at("f");
  ASSERT_EQ(r.stat(&l, name, [](pl::fs_req* q) {
    ++*static_cast<int*>(q->data);
    EXPECT_EQ(q->result(), 0);
    EXPECT_EQ(q->statbuf().st_size, 3u);
    EXPECT_EQ(q->owner()->active_requests(), 0u) << "no longer counted inside its callback";
  }), 0);
  EXPECT_NE(r.path(), name) << "an asynchronous request copies its path";
  EXPECT_STREQ(r.path(), name);
  EXPECT_EQ(r.owner(), &l);
  EXPECT_EQ(l.active_requests(), 1u);
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.close(), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(rec.calls_of(pl::callback_kind::fs), (pltest::call_sites{{pl::phase::poll, nullptr, &r}}));
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(fs, the_tracer_names_fs_completions) {
  pltest::traced_loop t;
  ASSERT_NE(t.out.get(), nullptr);
  pl::loop& l = t.l;
  pl::fs_req r;
  ASSERT_EQ(r.mkdir(&l, at("d"), 0755, [](pl::fs_req*) {}), 0);
  EXPECT_EQ(l.run(), 0);
  const std::string text = t.text();
  EXPECT_NE(text.find("  fs\n"), std::string::npos) << text;
  EXPECT_EQ(finish(l), 0);
}

// open, write, read back and close, each step started from the callback of
// the one before, with one request.
struct chain {
  pl::loop* loop = nullptr;
  const char* path = nullptr;
  int fd = -1;
  char text[6] = "chain";
  char back[8] = {};
  pl::fs_buf buf{};
  strings steps;
};

void chain_step(pl::fs_req* r) {
  auto* c = static_cast<chain*>(r->data);
  c->steps.push_back(r->result() >= 0 ? "ok" : pl::error_name(static_cast<int>(r->result())));
  switch (r->operation()) {
    case pl::fs_type::open:
      c->fd = static_cast<int>(r->result());
      c->buf = {c->text, 5};
      EXPECT_EQ(r->write(c->loop, c->fd, &c->buf, 1, 0, chain_step), 0);
      break;
    case pl::fs_type::write:
      EXPECT_EQ(r->result(), 5);
      c->buf = {c->back, sizeof c->back};
      EXPECT_EQ(r->read(c->loop, c->fd, &c->buf, 1, 0, chain_step), 0);
      break;
    case pl::fs_type::read:
      EXPECT_EQ(r->result(), 5);
      EXPECT_EQ(r->close(c->loop, c->fd, chain_step), 0);
      break;
    default:
      EXPECT_EQ(r->operation(), pl::fs_type::close);
      break;
  }
}

TEST_F(fs, a_request_can_be_restarted_from_its_own_callback) {
  pl::loop l;
  chain c;
  c.loop = &l;
  c.path = at("f");
  pl::fs_req r;
  r.data = &c;
  ASSERT_EQ(r.open(&l, c.path, O_RDWR | O_CREAT, 0644, chain_step), 0);
  EXPECT_EQ(r.stat(&l, c.path, chain_step), pl::errc::busy) << "still in flight";
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(c.steps, (strings{"ok", "ok", "ok", "ok"}));
  EXPECT_STREQ(c.back, "chain");
  EXPECT_EQ(finish(l), 0);
}

// opendir, readdir (two entries at a time) until the end, closedir.
struct listing {
  pl::loop* loop = nullptr;
  pl::fs_dir* dir = nullptr;
  pl::fs_dirent ents[2];
  strings names;
  bool closed = false;
};

void listing_step(pl::fs_req* r) {
  auto* s = static_cast<listing*>(r->data);
  ASSERT_GE(r->result(), 0);
  switch (r->operation()) {
    case pl::fs_type::opendir:
      s->dir = static_cast<pl::fs_dir*>(r->ptr());
      s->dir->dirents = s->ents;
      s->dir->nentries = 2;
      EXPECT_EQ(r->readdir(s->loop, s->dir, listing_step), 0);
      break;
    case pl::fs_type::readdir:
      EXPECT_EQ(r->ptr(), s->dir);
      for (ssize_t i = 0; i < r->result(); i++) s->names.push_back(s->ents[i].name);
      if (r->result() == 0)
        EXPECT_EQ(r->closedir(s->loop, s->dir, listing_step), 0);
      else
        EXPECT_EQ(r->readdir(s->loop, s->dir, listing_step), 0);  // frees the names
      break;
    default:
      EXPECT_EQ(r->ptr(), nullptr);
      s->closed = true;
      break;
  }
}

TEST_F(fs, opendir_readdir_closedir) {
  for (const char* n : {"one", "two", "three", "four", "five"}) put(n, "");
  pl::loop l;
  listing s;
  s.loop = &l;
  pl::fs_req r;
  r.data = &s;
  ASSERT_EQ(r.opendir(&l, dir_.c_str(), listing_step), 0);
  EXPECT_EQ(l.run(), 0);
  std::sort(s.names.begin(), s.names.end());
  EXPECT_EQ(s.names, (strings{"five", "four", "one", "three", "two"}));
  EXPECT_TRUE(s.closed);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(fs, cancel_of_a_queued_request_completes_it_with_canceled) {
  put("f", "x");
  pl::loop l;
  pltest::gate g;
  // More blocked requests than the pool can have threads (at most 1024):
  // the fs requests behind them cannot have started.
  ASSERT_EQ(g.occupy(l, 1025), 0);
  pl::fs_req stat_req, scan_req, kept;
  strings seen;
  stat_req.data = scan_req.data = kept.data = &seen;
  auto record = [](pl::fs_req* r) {
    auto* s = static_cast<strings*>(r->data);
    pl::fs_dirent ent;
    std::string line = std::string(r->operation() == pl::fs_type::stat      ? "stat"
                                   : r->operation() == pl::fs_type::scandir ? "scandir"
                                                                            : "access") +
                       "=" + (r->result() < 0 ? pl::error_name(static_cast<int>(r->result())) : "ok");
    if (r->operation() == pl::fs_type::scandir) line += " next=" + std::string(pl::error_name(r->scandir_next(ent)));
    s->push_back(line);
  };
  ASSERT_EQ(stat_req.stat(&l, at("f"), record), 0);
  ASSERT_EQ(scan_req.scandir(&l, dir_.c_str(), 0, record), 0);
  ASSERT_EQ(kept.access(&l, at("f"), F_OK, record), 0);
  EXPECT_EQ(stat_req.cancel(), 0);
  EXPECT_EQ(scan_req.cancel(), 0);
  EXPECT_EQ(stat_req.cancel(), 0) << "again before its callback: moves it last";
  EXPECT_EQ(l.active_requests(), 1025u + 3u) << "canceled requests count until their callback";
  g.open.count_down();
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(seen, (strings{"scandir=ECANCELED next=ECANCELED", "stat=ECANCELED", "access=ok"}));
  EXPECT_EQ(stat_req.cancel(), pl::errc::busy) << "its callback ran";
  EXPECT_EQ(kept.cancel(), pl::errc::busy);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(fs, many_requests_in_flight_all_complete) {
  pl::loop l;
  constexpr int n = 64;
  std::vector<pl::fs_req> reqs(n);
  int done = 0;
  for (int i = 0; i < n; i++) {
    reqs[static_cast<std::size_t>(i)].data = &done;
    const std::string name = "d" + std::to_string(i);
    ASSERT_EQ(reqs[static_cast<std::size_t>(i)].mkdir(&l, at(name.c_str()), 0700, [](pl::fs_req* r) {
      EXPECT_EQ(r->result(), 0);
      ++*static_cast<int*>(r->data);
    }), 0);
  }
  EXPECT_EQ(l.active_requests(), static_cast<unsigned>(n));
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(done, n);
  pl::fs_req r;
  EXPECT_EQ(r.scandir(nullptr, dir_.c_str(), 0, nullptr), n);
  EXPECT_EQ(finish(l), 0);
}

// ---- the C struct ---------------------------------------------------------

TEST(fs_layout, fs_req_fits_uv_fs_t_and_shares_its_public_fields) {
  EXPECT_LE(sizeof(pl::fs_req), sizeof(uv_fs_t));
  EXPECT_EQ(sizeof(uv_fs_t), 440u) << "libuv 1.44 on x86-64";
  EXPECT_EQ(sizeof(pl::fs_dir), sizeof(uv_dir_t));
  EXPECT_EQ(sizeof(pl::fs_stat), sizeof(uv_stat_t));
  pl::fs_req r;
  ASSERT_EQ(r.stat(nullptr, "/", nullptr), 0);
  const auto* c = reinterpret_cast<const uv_fs_t*>(&r);
  EXPECT_EQ(c->type, UV_FS);
  EXPECT_EQ(c->fs_type, UV_FS_STAT);
  EXPECT_EQ(c->result, 0);
  EXPECT_EQ(c->ptr, static_cast<const void*>(&c->statbuf));
  EXPECT_STREQ(c->path, "/");
  EXPECT_EQ(c->statbuf.st_ino, r.statbuf().st_ino);
}

}  // namespace
