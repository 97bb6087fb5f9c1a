// SPDX-License-Identifier: MIT
// Child processes through the C++ API (spawn, exit callbacks, pipes, kill,
// the SIGCHLD watcher) and loop::after_fork(). Children are /bin/sh
// one-liners and standard tools; every loop run stops by itself.

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "phaseloop/process.hpp"
#include "test_util.hpp"

namespace {

// What an exit callback saw.
struct outcome {
  int calls = 0;
  std::int64_t status = -1;
  int signal = -1;
  bool active_in_cb = true;
};

void record_exit(pl::process* p, std::int64_t status, int sig) {
  auto* o = static_cast<outcome*>(p->data);
  o->calls++;
  o->status = status;
  o->signal = sig;
  o->active_in_cb = p->is_active();
}

// argv for `/bin/sh -c script`, kept alive with the options.
struct sh_command {
  std::string script;
  char* argv[4];
  pl::process_options opts;

  explicit sh_command(std::string s, pl::exit_cb cb = record_exit) : script(std::move(s)) {
    argv[0] = const_cast<char*>("sh");
    argv[1] = const_cast<char*>("-c");
    argv[2] = script.data();
    argv[3] = nullptr;
    opts.file = "/bin/sh";
    opts.args = argv;
    opts.on_exit = cb;
  }
};

// A pipe handle that collects what it reads until end of file.
struct sink {
  pl::pipe pipe;
  std::string text;
  bool eof = false;
  char buf[65536];

  explicit sink(pl::loop& l) : pipe(l, false) { pipe.data = this; }

  int start() {
    return pipe.read_start(
        [](pl::handle* h, std::size_t, pl::fs_buf* b) {
          auto* s = static_cast<sink*>(h->data);
          *b = pl::fs_buf{s->buf, sizeof s->buf};
        },
        [](pl::stream* st, ssize_t n, const pl::fs_buf*) {
          auto* s = static_cast<sink*>(st->data);
          if (n > 0) s->text.append(s->buf, static_cast<std::size_t>(n));
          if (n == pl::errc::eof) s->eof = true;
          if (n < 0) st->read_stop();
        });
  }
};

// Runs one child to its end and returns what its exit callback saw.
outcome run_sh(const std::string& script) {
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  sh_command c(script);
  EXPECT_EQ(p.spawn(c.opts), 0);
  EXPECT_TRUE(p.is_active());
  EXPECT_GT(p.pid(), 0);
  l.run();
  EXPECT_EQ(finish(l), 0);
  return o;
}

// A fresh directory under $TMPDIR, removed at the end.
struct temp_dir {
  std::string path;
  temp_dir() {
    const char* base = std::getenv("TMPDIR");
    std::string tpl = std::string(base && *base ? base : "/tmp") + "/pl-process-XXXXXX";
    EXPECT_NE(mkdtemp(tpl.data()), nullptr);
    path = tpl;
  }
  ~temp_dir() { EXPECT_EQ(std::system(("rm -rf '" + path + "'").c_str()), 0); }
};

// The whole of a small file ("" when it cannot be read).
std::string read_file(const std::string& path) {
  std::string text(8192, '\0');
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const ssize_t n = fd < 0 ? -1 : ::read(fd, text.data(), text.size());
  if (fd >= 0) ::close(fd);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

void write_file(const std::string& path, const char* text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  ASSERT_GE(fd, 0);
  const auto len = static_cast<ssize_t>(std::char_traits<char>::length(text));
  ASSERT_EQ(::write(fd, text, static_cast<std::size_t>(len)), len);
  ::close(fd);
}

TEST(process, exit_codes_and_signals) {
  outcome o = run_sh("exit 0");
  EXPECT_EQ(o.calls, 1);
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.signal, 0);
  EXPECT_FALSE(o.active_in_cb) << "inactive by the time its exit is reported";
  o = run_sh("exit 42");
  EXPECT_EQ(o.status, 42);
  o = run_sh("kill -KILL $$");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.signal, SIGKILL);
}

TEST(process, true_and_false_found_in_path) {
  for (const char* prog : {"true", "false"}) {
    pl::loop l;
    pl::process p(l);
    outcome o;
    p.data = &o;
    char* argv[] = {const_cast<char*>(prog), nullptr};
    pl::process_options opts;
    opts.file = prog;
    opts.args = argv;
    opts.on_exit = record_exit;
    ASSERT_EQ(p.spawn(opts), 0);
    EXPECT_EQ(l.run(), 0);
    EXPECT_EQ(o.calls, 1);
    EXPECT_EQ(o.status, std::string(prog) == "true" ? 0 : 1);
    EXPECT_EQ(finish(l), 0);
  }
}

TEST(process, pipes_to_stdin_and_from_stdout) {
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  sink in(l), out(l), err(l);
  pl::stdio_container stdio[3];
  stdio[0].flags = pl::stdio_container::create_pipe | pl::stdio_container::readable_pipe;
  stdio[0].data.stream = &in.pipe;
  stdio[1].flags = pl::stdio_container::create_pipe | pl::stdio_container::writable_pipe;
  stdio[1].data.stream = &out.pipe;
  stdio[2].flags = pl::stdio_container::create_pipe | pl::stdio_container::writable_pipe;
  stdio[2].data.stream = &err.pipe;
  sh_command c("tr a-z A-Z; echo bye >&2");
  c.opts.stdio = stdio;
  c.opts.stdio_count = 3;
  ASSERT_EQ(p.spawn(c.opts), 0);
  EXPECT_TRUE(in.pipe.is_writable());
  EXPECT_FALSE(in.pipe.is_readable()) << "the child only reads this one";
  EXPECT_TRUE(out.pipe.is_readable());
  EXPECT_FALSE(out.pipe.is_writable());
  ASSERT_EQ(out.start(), 0);
  ASSERT_EQ(err.start(), 0);
  char msg[] = "hello child\n";
  pl::fs_buf buf{msg, sizeof msg - 1};
  pl::write_req w;
  pl::shutdown_req sd;
  ASSERT_EQ(in.pipe.write(w, &buf, 1, nullptr), 0);
  ASSERT_EQ(in.pipe.shutdown(sd, nullptr), 0);
  l.run();
  EXPECT_EQ(o.calls, 1);
  EXPECT_EQ(o.status, 0);
  EXPECT_TRUE(out.eof);
  EXPECT_EQ(out.text, "HELLO CHILD\n");
  EXPECT_EQ(err.text, "bye\n");
  EXPECT_EQ(finish(l), 0);
}

TEST(process, env_cwd_and_inherited_fd) {
  temp_dir dir;
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  const std::string file = dir.path + "/out.txt";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  pl::stdio_container stdio[4];
  stdio[1].flags = pl::stdio_container::inherit_fd;
  stdio[1].data.fd = fd;
  stdio[3].flags = pl::stdio_container::inherit_fd;
  stdio[3].data.fd = fd;
  char x[] = "X=from env";
  char* env[] = {x, nullptr};
  sh_command c("echo \"$X\"; pwd; echo three >&3; echo ${HOME-nohome}");
  c.opts.env = env;
  c.opts.cwd = dir.path.c_str();
  c.opts.stdio = stdio;
  c.opts.stdio_count = 4;
  ASSERT_EQ(p.spawn(c.opts), 0);
  l.run();
  ::close(fd);
  EXPECT_EQ(o.status, 0);
  char real[4096];
  ASSERT_NE(realpath(dir.path.c_str(), real), nullptr);
  EXPECT_EQ(read_file(file), "from env\n" + std::string(real) + "\nthree\nnohome\n");
  EXPECT_EQ(finish(l), 0);
}

TEST(process, many_stdio_slots) {
  // More slots than fit the small arrays; slot 11 is the file.
  temp_dir dir;
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  const std::string file = dir.path + "/out.txt";
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  pl::stdio_container stdio[12];
  stdio[11].flags = pl::stdio_container::inherit_fd;
  stdio[11].data.fd = fd;
  // (dash redirects only descriptors 0-9: go through /proc.)
  sh_command c("echo eleven >> /proc/$$/fd/11");
  c.opts.stdio = stdio;
  c.opts.stdio_count = 12;
  ASSERT_EQ(p.spawn(c.opts), 0);
  l.run();
  ::close(fd);
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(read_file(file), "eleven\n");
  EXPECT_EQ(finish(l), 0);
}

TEST(process, detached_child_leads_a_session) {
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  // exit 0 when the child's session id is its own pid.
  sh_command c("read pid comm state ppid pgrp sid rest < /proc/$$/stat; [ \"$sid\" = \"$$\" ]");
  c.opts.flags = pl::process_options::detached;
  ASSERT_EQ(p.spawn(c.opts), 0);
  l.run();
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(process, errors_before_exec_come_from_spawn) {
  temp_dir dir;
  write_file(dir.path + "/prog", "#!/bin/sh\nexit 0\n", 0644);  // not executable
  struct attempt {
    const char* file;
    const char* cwd;
    char** env;
    int expected;
  };
  char path_entry[4200];
  std::snprintf(path_entry, sizeof path_entry, "PATH=/nonexistent:%s", dir.path.c_str());
  char* env_with_dir[] = {path_entry, nullptr};
  const attempt attempts[] = {
      {"/nonexistent/prog", nullptr, nullptr, -ENOENT},
      {"phaseloop-no-such-program", nullptr, nullptr, -ENOENT},
      {"", nullptr, nullptr, -ENOENT},
      {"/", nullptr, nullptr, -EACCES},
      {"/bin/true", "/nonexistent", nullptr, -ENOENT},
      {"prog", nullptr, env_with_dir, -EACCES},  // found, not executable: EACCES over ENOENT
  };
  for (const attempt& a : attempts) {
    pl::loop l;
    l.set_order(pl::profile::libuv_1_44);  // execvp's lookup, as libuv had it up to 1.52
    pl::process p(l);
    outcome o;
    p.data = &o;
    sink out(l);
    pl::stdio_container stdio[2];
    stdio[1].flags = pl::stdio_container::create_pipe | pl::stdio_container::writable_pipe;
    stdio[1].data.stream = &out.pipe;
    char* argv[] = {const_cast<char*>("x"), nullptr};
    pl::process_options opts;
    opts.file = a.file;
    opts.args = argv;
    opts.cwd = a.cwd;
    opts.env = a.env;
    opts.on_exit = record_exit;
    opts.stdio = stdio;
    opts.stdio_count = 2;
    EXPECT_EQ(p.spawn(opts), a.expected) << a.file;
    EXPECT_FALSE(p.is_active());
    EXPECT_EQ(p.pid(), 0);
    EXPECT_EQ(p.kill(SIGTERM), -ESRCH);
    // The pipe is open all the same, and reads end of file.
    ASSERT_EQ(out.start(), 0);
    l.run();
    EXPECT_TRUE(out.eof);
    EXPECT_EQ(o.calls, 0);
    EXPECT_EQ(finish(l), 0);
  }
}

// How a test asks for the child to be started: as the profile's libuv
// does, or through PHASELOOP_SPAWN, or by asking for our own user id
// (which always forks, even when posix_spawn is asked for).
enum class start_how { profile, fork_env, spawn_env, uid };
constexpr start_how every_way[] = {start_how::profile, start_how::fork_env, start_how::spawn_env, start_how::uid};
const char* how_name(start_how h) {
  switch (h) {
    case start_how::profile: return "as the profile";
    case start_how::fork_env: return "PHASELOOP_SPAWN=fork";
    case start_how::spawn_env: return "PHASELOOP_SPAWN=posix_spawn";
    case start_how::uid: return "posix_spawn asked, uid set";
  }
  return "?";
}
// Sets the environment and options for `h`; true when the child starts
// with posix_spawn.
bool start_as(start_how h, pl::profile prof, pl::process_options& opts) {
  unsetenv("PHASELOOP_SPAWN");
  if (h == start_how::fork_env) setenv("PHASELOOP_SPAWN", "fork", 1);
  if (h == start_how::spawn_env || h == start_how::uid) setenv("PHASELOOP_SPAWN", "posix_spawn", 1);
  if (h == start_how::uid) {
    opts.flags |= pl::process_options::set_uid;
    opts.uid = getuid();
  }
  return h == start_how::spawn_env || (h == start_how::profile && prof >= pl::profile::libuv_1_53);
}

// libuv 1.53 looks the program up itself (for posix_spawn): an empty name
// is tried in every PATH entry, each a directory (EACCES), where execvp
// gives ENOENT; when it must fork (a user or group to set) it uses execvp.
// From 1.52 a handle whose spawn failed is off the loop's handle list, and
// may still be closed.
TEST(process, newer_profiles_fail_a_spawn_their_way) {
  for (pl::profile prof : {pl::profile::libuv_1_44, pl::profile::libuv_1_52, pl::profile::libuv_1_53})
    for (start_how how : every_way) {
      pl::loop l;
      l.set_order(prof);
      pl::process p(l);
      char* argv[] = {const_cast<char*>("x"), nullptr};
      char path[] = "PATH=/usr/bin:/bin";
      char* env[] = {path, nullptr};
      pl::process_options opts;
      opts.file = "";
      opts.args = argv;
      opts.env = env;
      const bool spawned = start_as(how, prof, opts);
      const std::string what = std::string(pl::profile_name(prof)) + ", " + how_name(how);
      const int r = p.spawn(opts);
      unsetenv("PHASELOOP_SPAWN");
      EXPECT_EQ(r, prof >= pl::profile::libuv_1_53 && spawned ? -EACCES : -ENOENT) << what;
      int seen = 0;
      l.walk([](pl::handle*, void* n) { ++*static_cast<int*>(n); }, &seen);
      EXPECT_EQ(seen, prof >= pl::profile::libuv_1_52 ? 0 : 1) << what;
      int closed = 0;
      p.data = &closed;
      p.close([](pl::handle* h) { ++*static_cast<int*>(h->data); });
      l.run();
      EXPECT_EQ(closed, 1) << what;
      EXPECT_EQ(finish(l), 0);
    }
}

// execvp hands a file the kernel cannot run (no "#!" line) to /bin/sh, as
// libuv up to 1.52 does, and 1.53 when it forks; 1.53's posix_spawn
// refuses it (ENOEXEC), as real 1.53 does (test/diff/198). An older
// profile made to use posix_spawn keeps execvp's way.
TEST(process, script_without_interpreter_line_runs_in_sh) {
  temp_dir dir;
  write_file(dir.path + "/script", "exit 17\n", 0755);
  for (pl::profile prof : {pl::profile::libuv_1_44, pl::profile::libuv_1_53})
    for (start_how how : every_way)
      // By path, and found in PATH (an empty entry in PATH is the working
      // directory, as for execvp).
      for (int by_path = 0; by_path < 2; by_path++) {
        pl::loop l;
        l.set_order(prof);
        pl::process p(l);
        outcome o;
        p.data = &o;
        const std::string file = dir.path + "/script";
        char* argv[] = {const_cast<char*>("script"), const_cast<char*>("arg"), nullptr};
        char path[] = "PATH=/nonexistent::/bin";
        char* env[] = {path, nullptr};
        pl::process_options opts;
        opts.file = by_path ? file.c_str() : "script";
        opts.args = argv;
        opts.env = by_path ? nullptr : env;
        opts.cwd = dir.path.c_str();
        opts.on_exit = record_exit;
        const bool spawned = start_as(how, prof, opts);
        const std::string what =
            std::string(pl::profile_name(prof)) + ", " + how_name(how) + (by_path ? ", by path" : ", in PATH");
        const int r = p.spawn(opts);
        unsetenv("PHASELOOP_SPAWN");
        if (prof >= pl::profile::libuv_1_53 && spawned) {
          EXPECT_EQ(r, -ENOEXEC) << what;
          p.close(nullptr);
          l.run();
          EXPECT_EQ(o.calls, 0) << what;
        } else {
          ASSERT_EQ(r, 0) << what;
          l.run();
          EXPECT_EQ(o.status, 17) << what;
        }
        EXPECT_EQ(finish(l), 0);
      }
}

TEST(process, invalid_options) {
  pl::loop l;
  pl::pipe opened(l, false), twice(l, false);
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  ASSERT_EQ(opened.open(fds[0]), 0);
  pl::tcp tcp(l);
  sh_command c("exit 0");
  auto expect = [&](const pl::process_options& o, int code) {
    pl::process p(l);
    EXPECT_EQ(p.spawn(o), code);
    EXPECT_FALSE(p.is_active());
    p.close(nullptr);
    l.run();
  };
  pl::process_options o = c.opts;
  o.file = nullptr;
  expect(o, pl::errc::invalid);
  o = c.opts;
  o.flags = 1u << 12;
  expect(o, pl::errc::invalid);
  o = c.opts;
  o.stdio_count = 2;
  expect(o, pl::errc::invalid);
  pl::stdio_container stdio[2];
  o = c.opts;
  o.stdio = stdio;
  o.stdio_count = 2;
  stdio[0].flags = pl::stdio_container::create_pipe;
  stdio[0].data.stream = &tcp;
  expect(o, pl::errc::invalid);
  stdio[0].data.stream = nullptr;
  expect(o, pl::errc::invalid);
  stdio[0].data.stream = &opened;
  expect(o, -EBUSY);
  stdio[0].data.stream = &twice;
  stdio[1].flags = pl::stdio_container::create_pipe;
  stdio[1].data.stream = &twice;
  expect(o, -EBUSY);
  stdio[1].flags = pl::stdio_container::inherit_fd | pl::stdio_container::create_pipe;
  expect(o, pl::errc::invalid);
  EXPECT_EQ(twice.fd(), -1) << "nothing was opened";

  // A handle that already spawned cannot spawn again.
  pl::process p(l);
  outcome out;
  p.data = &out;
  ASSERT_EQ(p.spawn(c.opts), 0);
  EXPECT_EQ(p.spawn(c.opts), pl::errc::invalid);
  l.run();
  EXPECT_EQ(out.calls, 1);
  ::close(fds[1]);
  EXPECT_EQ(finish(l), 0);
}

TEST(process, kill_and_close_before_exit) {
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  sh_command c("exec sleep 10");
  ASSERT_EQ(p.spawn(c.opts), 0);
  EXPECT_EQ(p.kill(0), 0);
  EXPECT_EQ(p.kill(-5), pl::errc::invalid);
  EXPECT_EQ(p.kill(SIGTERM), 0);
  l.run();
  EXPECT_EQ(o.calls, 1);
  EXPECT_EQ(o.signal, SIGTERM);
  EXPECT_EQ(p.kill(SIGTERM), -ESRCH) << "reaped";
  EXPECT_EQ(pl::kill(p.pid(), 0), -ESRCH);

  // Closed while its child runs: no exit callback, nothing keeps the loop.
  pl::process q(l);
  outcome qo;
  q.data = &qo;
  ASSERT_EQ(q.spawn(c.opts), 0);
  const int pid = q.pid();
  q.close(nullptr);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(pl::kill(pid, SIGKILL), 0) << "the child runs on";
  int status;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_EQ(qo.calls, 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(process, many_children_at_once) {
  constexpr int n = 50;
  pl::loop l;
  std::vector<pl::process*> procs;
  std::vector<outcome> outs(n);
  std::vector<sh_command> cmds;
  cmds.reserve(n);
  alignas(pl::process) static unsigned char mem[n][sizeof(pl::process)];
  for (int i = 0; i < n; i++) {
    auto* p = new (mem[i]) pl::process(l);
    p->data = &outs[static_cast<std::size_t>(i)];
    cmds.emplace_back("exit " + std::to_string(i));
    ASSERT_EQ(p->spawn(cmds.back().opts), 0);
    procs.push_back(p);
  }
  EXPECT_EQ(l.run(), 0);
  for (int i = 0; i < n; i++) {
    EXPECT_EQ(outs[static_cast<std::size_t>(i)].calls, 1);
    EXPECT_EQ(outs[static_cast<std::size_t>(i)].status, i);
  }
  EXPECT_EQ(finish(l), 0);
}

TEST(process, exits_reported_in_spawn_order_as_signal_callbacks) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::process a(l), b(l);
  std::vector<int> order;
  a.data = b.data = &order;
  auto note = [](pl::process* p, std::int64_t status, int) {
    static_cast<std::vector<int>*>(p->data)->push_back(static_cast<int>(status));
  };
  sh_command ca("exit 1", note), cb("exit 2", note);
  ASSERT_EQ(a.spawn(ca.opts), 0);
  ASSERT_EQ(b.spawn(cb.opts), 0);
  // Both have ended before the loop looks (waited for without reaping).
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(b.pid()), &info, WEXITED | WNOWAIT), 0);
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(a.pid()), &info, WEXITED | WNOWAIT), 0);
  // walk() hides the loop's SIGCHLD watcher; walk_all() shows it.
  int seen = 0, all = 0;
  l.walk([](pl::handle*, void* n) { ++*static_cast<int*>(n); }, &seen);
  l.walk_all([](pl::handle* h, void* n) { *static_cast<int*>(n) += h->type() == pl::handle_type::signal; }, &all);
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(all, 1);
  l.run(pl::run_mode::once);
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  std::vector<pl::handle*> called;
  for (const auto& e : rec.calls()) {
    EXPECT_EQ(e.kind, pl::callback_kind::signal);
    EXPECT_EQ(e.which, pl::phase::poll);
    called.push_back(e.handle);
  }
  EXPECT_EQ(called, (std::vector<pl::handle*>{&a, &b})) << "the internal watcher is not reported";
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(process, unreferenced_child_does_not_keep_the_loop) {
  pl::loop l;
  pl::process p(l);
  outcome o;
  p.data = &o;
  sh_command c("exit 3");
  ASSERT_EQ(p.spawn(c.opts), 0);
  p.unref();
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.run(), 0);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(p.pid()), &info, WEXITED | WNOWAIT), 0);
  // A child that ended while the loop was not running: the next poll
  // reports it (a timer makes the loop run one).
  pl::timer t(l);
  t.start([](pl::timer*) {}, 0, 0);
  l.run(pl::run_mode::nowait);
  EXPECT_EQ(o.calls, 1);
  EXPECT_EQ(o.status, 3);
  EXPECT_EQ(finish(l), 0);
}

// What the after_fork test's callbacks saw, through the loop's data:
// timer, async, read, fs event.
using seen4 = bool[4];

void mark(pl::loop& l, int what) {
  if (l.data) (*static_cast<seen4*>(l.data))[what] = true;
}

// In the forked child: an exit code naming the first check that failed.
int child_after_fork(pl::loop& l, pl::async& a, int writer, const std::string& watched) {
  if (l.after_fork() != 0) return 10;
  seen4 st = {};
  l.data = &st;
  pl::timer t(l);
  t.start([](pl::timer* h) { mark(h->owner(), 0); }, 1, 0);
  a.send();
  if (::write(writer, "x", 1) != 1) return 11;
  write_file(watched, "changed", 0644);
  for (int i = 0; i < 200 && !(st[0] && st[1] && st[2] && st[3]); i++) l.run(pl::run_mode::once);
  for (int i = 0; i < 4; i++)
    if (!st[i]) return 12 + i;
  return finish(l) == 0 ? 0 : 16;
}

TEST(loop, after_fork_gives_the_child_its_own_loop) {
  temp_dir dir;
  const std::string watched = dir.path + "/watched";
  write_file(watched, "start", 0644);
  pl::loop l;
  pl::async a(l, [](pl::async* h) { mark(h->owner(), 1); });
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  pl::pipe reader(l, false);
  ASSERT_EQ(reader.open(fds[0]), 0);
  static char buf[16];
  ASSERT_EQ(reader.read_start([](pl::handle*, std::size_t, pl::fs_buf* b) { *b = pl::fs_buf{buf, sizeof buf}; },
                              [](pl::stream* s, ssize_t n, const pl::fs_buf*) {
                                if (n > 0) mark(s->owner(), 2);
                              }),
            0);
  pl::fs_event ev(l);
  ASSERT_EQ(ev.start([](pl::fs_event* e, const char*, int, int) { mark(e->owner(), 3); }, watched.c_str(), 0), 0);
  l.run(pl::run_mode::nowait);  // registers everything with the parent's epoll

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(child_after_fork(l, a, fds[1], watched));
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);

  // The parent's loop still has its own wake-ups: an async send works, and
  // the byte the child wrote was the child's to read.
  seen4 st = {};
  l.data = &st;
  a.send();
  l.run(pl::run_mode::once);
  EXPECT_TRUE(st[1]);
  ::close(fds[1]);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace

namespace {

// The write end of a pipe the pthread_atfork child handler below writes
// to (-1: the handler does nothing), set only around one spawn.
int atfork_fd = -1;

void atfork_child() {
  if (atfork_fd >= 0) {
    const char c = 'f';
    (void) !write(atfork_fd, &c, 1);
  }
}

}  // namespace

// libuv up to 1.52 forks: a program's pthread_atfork handlers run for a
// spawn (uvloop runs a subprocess's preexec_fn from one). Profiles before
// 1.53 fork too; 1.53 calls posix_spawn, which runs none.
TEST(process, atfork_handlers_run_for_a_spawn_before_1_53_only) {
  static const bool registered = pthread_atfork(nullptr, nullptr, atfork_child) == 0;
  ASSERT_TRUE(registered);
  unsetenv("PHASELOOP_SPAWN");
  for (pl::profile prof : {pl::profile::libuv_1_44, pl::profile::libuv_1_52, pl::profile::libuv_1_53}) {
    int fds[2];
    ASSERT_EQ(pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
    pl::loop l;
    l.set_order(prof);
    pl::process p(l);
    outcome o;
    p.data = &o;
    sh_command c("exit 0");
    atfork_fd = fds[1];
    ASSERT_EQ(p.spawn(c.opts), 0) << pl::profile_name(prof);
    atfork_fd = -1;
    l.run();
    char got = 0;
    const bool ran = read(fds[0], &got, 1) == 1 && got == 'f';
    EXPECT_EQ(ran, prof < pl::profile::libuv_1_53) << pl::profile_name(prof);
    EXPECT_EQ(o.status, 0);
    EXPECT_EQ(finish(l), 0);
    close(fds[0]);
    close(fds[1]);
  }
}
