// SPDX-License-Identifier: MIT
// Pipes (by path, adopted fds, IPC handle passing) and terminals through
// the C++ API.

#include <fcntl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstdlib>
#include <ctime>
#include <string>

#include "test_util.hpp"

namespace {

TEST(pipe, bind_listen_connect_names) {
  pl::loop l;
  const std::string path = "/tmp/pl-unit-pipe-" + std::to_string(getpid()) + ".sock";
  ::unlink(path.c_str());
  pl::pipe server(l, false), client(l, false), conn(l, false);
  EXPECT_FALSE(server.ipc());
  ASSERT_EQ(server.bind(path.c_str()), 0);
  EXPECT_EQ(server.bind(path.c_str()), pl::errc::invalid);
  char name[128];
  std::size_t len = sizeof name;
  ASSERT_EQ(server.sockname(name, &len), 0);
  EXPECT_EQ(std::string(name), path);
  EXPECT_EQ(len, path.size());
  server.data = &conn;
  ASSERT_EQ(server.listen(4, [](pl::stream* s, int status) {
    ASSERT_EQ(status, 0);
    EXPECT_EQ(s->accept(*static_cast<pl::pipe*>(s->data)), 0);
  }), 0);
  pl::connect_req r;
  int status = 1;
  r.data = &status;
  client.connect(r, path.c_str(), [](pl::connect_req* q, int s) { *static_cast<int*>(q->data) = s; });
  while (status == 1) l.run(pl::run_mode::once);
  EXPECT_EQ(status, 0);
  len = sizeof name;
  ASSERT_EQ(client.peername(name, &len), 0);
  EXPECT_EQ(std::string(name), path);
  len = 2;
  EXPECT_EQ(client.peername(name, &len), -ENOBUFS);
  EXPECT_EQ(len, path.size() + 1);

  pl::pipe bad(l, false);
  pl::connect_req r2;
  int status2 = 1;
  r2.data = &status2;
  bad.connect(r2, "/nonexistent-dir/x.sock", [](pl::connect_req* q, int s) { *static_cast<int*>(q->data) = s; });
  EXPECT_EQ(status2, 1) << "reported from the pending phase";
  l.run(pl::run_mode::nowait);
  EXPECT_EQ(status2, -ENOENT);
  EXPECT_EQ(finish(l), 0);
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "the socket file goes with the handle";
}

// bind2 of an empty name: EINVAL until 1.48; from 1.49 (PR #4499) Linux
// picks an abstract name (a NUL and five hex digits), reported in exactly
// its length.
TEST(pipe, bind2_of_an_empty_name_autobinds_from_1_49) {
  for (pl::profile p : {pl::profile::libuv_1_48, pl::profile::libuv_1_49}) {
    pl::loop l;
    l.set_order(p);
    pl::pipe s(l, false);
    const int r = s.bind2("", 0, 0);
    if (p == pl::profile::libuv_1_48) {
      EXPECT_EQ(r, pl::errc::invalid);
    } else {
      ASSERT_EQ(r, 0);
      char name[16];
      std::size_t size = sizeof name;
      ASSERT_EQ(s.sockname(name, &size), 0);
      EXPECT_EQ(size, 6u);
      EXPECT_EQ(name[0], '\0');
    }
    s.close(nullptr);
    EXPECT_EQ(pltest::finish(l), 0);
  }
}

TEST(pipe, ipc_passes_a_handle) {
  pl::loop l;
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  pl::pipe a(l, true), b(l, true);
  ASSERT_EQ(a.open(fds[0]), 0);
  ASSERT_EQ(b.open(fds[1]), 0);
  EXPECT_EQ(a.listen(1, nullptr), pl::errc::invalid);
  pl::tcp t(l);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(t.bind(reinterpret_cast<sockaddr*>(&addr)), 0);
  char msg[] = "x";
  pl::fs_buf buf{msg, 1};
  pl::write_req w;
  ASSERT_EQ(a.write2(w, &buf, 1, &t, nullptr), 0);
  struct state {
    pl::pipe* b = nullptr;
    int count = -1;
    pl::handle_type type = pl::handle_type::unknown;
    char space[16] = {};
  } st;
  st.b = &b;
  b.data = &st;
  ASSERT_EQ(b.read_start([](pl::handle* h, std::size_t, pl::fs_buf* out) {
    auto* s = static_cast<state*>(h->data);
    *out = pl::fs_buf{s->space, sizeof s->space};
  },
                         [](pl::stream* s, ssize_t n, const pl::fs_buf*) {
                           auto* st2 = static_cast<state*>(s->data);
                           if (n <= 0) return;
                           st2->count = st2->b->pending_count();
                           st2->type = st2->b->pending_type();
                           s->read_stop();
                         }),
            0);
  while (st.count == -1) l.run(pl::run_mode::once);
  EXPECT_EQ(st.count, 1);
  EXPECT_EQ(st.type, pl::handle_type::tcp);
  pl::tcp got(l);
  EXPECT_EQ(b.accept(got), 0);
  EXPECT_EQ(b.pending_count(), 0);
  EXPECT_GE(got.fd(), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(tty, guess_handle_names_each_kind_of_fd) {
  EXPECT_EQ(pl::guess_handle(-1), pl::handle_type::unknown);

  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  EXPECT_EQ(pl::guess_handle(pair[0]), pl::handle_type::named_pipe);
  ::close(pair[0]);
  ::close(pair[1]);
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_DGRAM, 0, pair), 0);
  EXPECT_EQ(pl::guess_handle(pair[0]), pl::handle_type::unknown);  // not a stream, not IP
  ::close(pair[0]);
  ::close(pair[1]);

  const int tcp = socket(AF_INET, SOCK_STREAM, 0);
  const int udp = socket(AF_INET6, SOCK_DGRAM, 0);
  ASSERT_GE(tcp, 0);
  ASSERT_GE(udp, 0);
  EXPECT_EQ(pl::guess_handle(tcp), pl::handle_type::tcp);
  EXPECT_EQ(pl::guess_handle(udp), pl::handle_type::udp);
  ::close(tcp);
  ::close(udp);

  int fifo[2];
  ASSERT_EQ(::pipe(fifo), 0);
  EXPECT_EQ(pl::guess_handle(fifo[1]), pl::handle_type::named_pipe);
  // A closed fd is unknown, as fstat() fails on it.
  ::close(fifo[0]);
  ::close(fifo[1]);
  EXPECT_EQ(pl::guess_handle(fifo[1]), pl::handle_type::unknown);

  const int null = ::open("/dev/null", O_RDONLY);
  EXPECT_EQ(pl::guess_handle(null), pl::handle_type::file);  // a character device
  ::close(null);

  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  EXPECT_EQ(pl::guess_handle(master), pl::handle_type::tty);
  // A terminal can back a tty handle; a regular file cannot.
  EXPECT_EQ(pl::tty::check_fd(master), 0);
  ::close(master);
  char path[] = "/tmp/pl-unit-guess-XXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  ::unlink(path);
  EXPECT_EQ(pl::guess_handle(file), pl::handle_type::file);
  EXPECT_EQ(pl::tty::check_fd(file), pl::errc::invalid);
  ::close(file);
}

TEST(tty, modes_and_winsize_on_a_pty) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  const int slave = ::open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(slave, 0);
  pl::loop l;
  ASSERT_EQ(pl::tty::check_fd(slave), 0);
  pl::tty t(l, slave);
  EXPECT_TRUE(t.is_readable());
  EXPECT_TRUE(t.is_writable());
  int w = 0, h = 0;
  EXPECT_EQ(t.winsize(&w, &h), 0);
  ASSERT_EQ(t.set_mode(pl::tty::mode::raw), 0);
  termios tio;
  ASSERT_EQ(tcgetattr(slave, &tio), 0);
  EXPECT_EQ(tio.c_lflag & ICANON, 0u);
  ASSERT_EQ(pl::tty::reset_mode(), 0);
  ASSERT_EQ(tcgetattr(slave, &tio), 0);
  EXPECT_NE(tio.c_lflag & ICANON, 0u);
  ASSERT_EQ(t.set_mode(pl::tty::mode::normal), 0);
  const int file = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(pl::tty::check_fd(file), pl::errc::invalid);
  ::close(file);
  EXPECT_EQ(finish(l), 0);
  ::close(master);
}

// A stream that stops reading after the poll phase told the kernel about
// its fds and before it waits (here from the callback the phase makes for
// an fd the kernel refused: a regular file), with data waiting for it: its
// event is not delivered, and the phase does not spin on it (the kernel
// forgets the fd at its first event) but sleeps until its timer.
TEST(pipe, read_stop_just_before_the_wait_does_not_spin_the_poll_phase) {
  pl::loop l;
  int sp[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
  auto alloc = [](pl::handle*, std::size_t, pl::fs_buf* b) {
    static char buf[64];
    b->base = buf;
    b->len = sizeof buf;
  };
  pl::pipe s(l, false);
  ASSERT_EQ(s.open(sp[0]), 0);
  int reads = 0;
  s.data = &reads;
  ASSERT_EQ(s.read_start(alloc, [](pl::stream* st, ssize_t, const pl::fs_buf*) { ++*static_cast<int*>(st->data); }), 0);
  l.run(pl::run_mode::nowait);  // s is registered with the kernel
  ASSERT_EQ(::write(sp[1], "x", 1), 1);  // and readable from now on
  char path[] = "/tmp/pl-unit-file-XXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  ::unlink(path);
  ASSERT_EQ(::write(file, "data", 4), 4);
  ASSERT_EQ(::lseek(file, 0, SEEK_SET), 0);
  pl::pipe f(l, false);
  ASSERT_EQ(f.open(file), 0);
  f.data = &s;
  ASSERT_EQ(f.read_start(alloc, [](pl::stream* st, ssize_t, const pl::fs_buf*) {
    static_cast<pl::stream*>(st->data)->read_stop();
  }), 0);
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 300, 0), 0);
  timespec cpu0{}, cpu1{};
  ASSERT_EQ(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0), 0);
  const std::uint64_t start = pl::loop::hrtime();
  l.run(pl::run_mode::once);
  const double wall_ms = pltest::ms_since(start);
  ASSERT_EQ(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1), 0);
  const double cpu_ms = (cpu1.tv_sec - cpu0.tv_sec) * 1e3 + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e6;
  EXPECT_GE(wall_ms, 250.0) << "the poll phase waited for the timer";
  EXPECT_LT(cpu_ms, 100.0) << "the poll phase spun on the stopped stream's fd";
  EXPECT_EQ(reads, 0);
  EXPECT_EQ(finish(l), 0);
  ::close(sp[1]);
}

}  // namespace
