// SPDX-License-Identifier: MIT
// fs_event (inotify) and fs_poll (stat polling) through the C++ API: which
// names and event bits a directory watch reports, shared watches, and the
// ENOENT / change / ENOENT transitions of a polled path.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "test_util.hpp"

namespace {

// A fresh directory under $TMPDIR, removed (with its files) at the end.
struct temp_dir {
  std::string path;
  temp_dir() {
    const char* base = std::getenv("TMPDIR");
    std::string tpl = std::string(base && *base ? base : "/tmp") + "/pl-fswatch-XXXXXX";
    char* made = mkdtemp(tpl.data());
    EXPECT_NE(made, nullptr);
    path = tpl;
  }
  ~temp_dir() { EXPECT_EQ(std::system(("rm -rf '" + path + "'").c_str()), 0); }
  std::string operator/(const char* name) const { return path + "/" + name; }
};

void put(const std::string& file, const char* text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, text, std::char_traits<char>::length(text)),
            static_cast<ssize_t>(std::char_traits<char>::length(text)));
  ::close(fd);
}

void log_event(pl::fs_event* e, const char* name, int events, int status) {
  std::string s = std::string(name) + ((events & pl::fs_event_rename) ? " rename" : "") +
                  ((events & pl::fs_event_change) ? " change" : "") + (status ? " error" : "");
  static_cast<event_log*>(e->data)->add(s);
}

TEST(fs_event, directory_entries_by_name_in_poll_phase) {
  temp_dir dir;
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  event_log log;
  pl::fs_event ev(l);
  ev.data = &log;
  ASSERT_EQ(ev.start(log_event, dir.path.c_str(), 0), 0);
  EXPECT_EQ(ev.start(log_event, dir.path.c_str(), 0), pl::errc::invalid);
  EXPECT_STREQ(ev.path(), dir.path.c_str());
  put(dir / "a", "1");
  ASSERT_EQ(::rename((dir / "a").c_str(), (dir / "b").c_str()), 0);
  ASSERT_EQ(::unlink((dir / "b").c_str()), 0);
  l.run(pl::run_mode::nowait);
  EXPECT_EQ(log.events, (strings{"a rename", "a change", "a rename", "b rename", "b rename"}));
  EXPECT_EQ(rec.calls_of(pl::callback_kind::io), pltest::call_sites(5, {pl::phase::poll, &ev}));
  l.remove_hook(rec);

  char buf[8];
  std::size_t size = sizeof buf;
  EXPECT_EQ(ev.getpath(buf, &size), -ENOBUFS);
  EXPECT_EQ(size, dir.path.size() + 1);
  EXPECT_EQ(ev.stop(), 0);
  EXPECT_EQ(ev.path(), nullptr);
  size = sizeof buf;
  EXPECT_EQ(ev.getpath(buf, &size), pl::errc::invalid);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(ev.start(log_event, (dir / "missing").c_str(), 0), -ENOENT);
  EXPECT_EQ(finish(l), 0);
}

TEST(fs_event, handles_share_a_watch_and_a_file_reports_its_base_name) {
  temp_dir dir;
  const std::string file = dir / "watched";
  put(file, "x");
  pl::loop l;
  event_log log;
  pl::fs_event one(l), two(l);
  one.data = two.data = &log;
  ASSERT_EQ(one.start(log_event, file.c_str(), 0), 0);
  ASSERT_EQ(two.start(
                [](pl::fs_event* e, const char* name, int, int) {
                  static_cast<event_log*>(e->data)->add(std::string("two ") + name);
                },
                (dir.path + "/./watched").c_str(), 0),
            0);
  EXPECT_EQ(one.path(), two.path()) << "the first handle's path is shared";
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  l.run(pl::run_mode::nowait);
  EXPECT_EQ(log.events, (strings{"watched change", "two watched"}));
  EXPECT_EQ(finish(l), 0);
}

struct poll_state {
  event_log log;
  std::string file;
  int calls = 0;
};

TEST(fs_poll, missing_created_changed_deleted) {
  temp_dir dir;
  pl::loop l;
  pl::fs_poll p(l);
  poll_state st;
  st.file = dir / "f";
  p.data = &st;
  ASSERT_EQ(p.start(
                [](pl::fs_poll* h, int status, const pl::fs_stat* prev, const pl::fs_stat* curr) {
                  auto* s = static_cast<poll_state*>(h->data);
                  s->log.add(std::to_string(status) + " " + std::to_string(prev->st_size) + "->" +
                             std::to_string(curr->st_size));
                  switch (++s->calls) {
                    case 1: put(s->file, "abc"); break;
                    case 2: put(s->file, "abcdef"); break;
                    case 3: ::unlink(s->file.c_str()); break;
                    default: h->close(nullptr); break;
                  }
                },
                st.file.c_str(), 2),
            0);
  EXPECT_EQ(p.start(nullptr, "other", 2), 0) << "starting an active handle does nothing";
  char buf[256];
  std::size_t size = sizeof buf;
  EXPECT_EQ(p.getpath(buf, &size), 0);
  EXPECT_EQ(std::string(buf), st.file);
  l.run();
  EXPECT_EQ(st.log.events,
            (strings{std::to_string(-ENOENT) + " 0->0", "0 0->3", "0 3->6", std::to_string(-ENOENT) + " 6->0"}));
  EXPECT_EQ(finish(l), 0);
}

TEST(fs_poll, close_with_stat_in_flight_waits_for_it) {
  pl::loop l;
  pl::fs_poll p(l);
  int closed = 0;
  p.data = &closed;
  ASSERT_EQ(p.start([](pl::fs_poll*, int, const pl::fs_stat*, const pl::fs_stat*) { FAIL(); }, "/", 1000), 0);
  p.close([](pl::handle* h) { ++*static_cast<int*>(h->data); });
  EXPECT_TRUE(l.alive());
  l.run();
  EXPECT_EQ(closed, 1);
  EXPECT_EQ(l.close(), 0);
}

}  // namespace
