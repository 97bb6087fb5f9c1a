// SPDX-License-Identifier: MIT
// Poll handles: readiness of a caller-owned fd, reported in the poll phase.

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "test_util.hpp"

namespace {

struct socket_pair {
  int fd[2] = {-1, -1};
  socket_pair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0); }
  ~socket_pair() {
    ::close(fd[0]);
    ::close(fd[1]);
  }
};

struct pstate {
  int calls = 0;
  int status = 1;
  int events = 0;
};

void record(pl::poll* p, int status, int events) {
  auto* st = static_cast<pstate*>(p->data);
  st->calls++;
  st->status = status;
  st->events = events;
}

TEST(poll, readable_in_poll_phase_with_hooks) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  socket_pair sp;
  ASSERT_EQ(pl::poll::prepare_fd(l, sp.fd[0]), 0);
  pl::poll p(l, sp.fd[0]);
  pstate st;
  p.data = &st;
  EXPECT_EQ(p.fd(), sp.fd[0]);
  EXPECT_FALSE(p.is_active());
  ASSERT_EQ(p.start(pl::poll::readable, record), 0);
  EXPECT_TRUE(p.is_active());
  EXPECT_EQ(l.backend_timeout(), 0) << "registration not yet made";
  ASSERT_EQ(::write(sp.fd[1], "x", 1), 1);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(st.calls, 1);
  EXPECT_EQ(st.status, 0);
  EXPECT_EQ(st.events, pl::poll::readable);
  EXPECT_EQ(rec.calls_of(pl::callback_kind::io), (pltest::call_sites{{pl::phase::poll, &p}}));
  l.remove_hook(rec);
  EXPECT_EQ(p.stop(), 0);
  EXPECT_FALSE(p.is_active());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(poll, prepare_fd_errors_and_nonblocking) {
  pl::loop l;
  const int file = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(file, 0);
  EXPECT_EQ(pl::poll::prepare_fd(l, file), -EPERM);
  ::close(file);
  EXPECT_EQ(pl::poll::prepare_fd(l, file), -EBADF);
  socket_pair sp;
  ASSERT_EQ(pl::poll::prepare_fd(l, sp.fd[0]), 0);
  EXPECT_NE(fcntl(sp.fd[0], F_GETFL) & O_NONBLOCK, 0);
  pl::poll a(l, sp.fd[0]);
  pl::poll b(l, sp.fd[0]);
  ASSERT_EQ(a.start(pl::poll::writable, record), 0);
  EXPECT_EQ(pl::poll::prepare_fd(l, sp.fd[0]), -EEXIST);
  EXPECT_EQ(b.start(pl::poll::readable, record), -EEXIST);
  EXPECT_EQ(a.start(0x100, record), pl::errc::invalid);
  EXPECT_EQ(finish(l), 0);
}

TEST(poll, start_zero_events_stops_and_close_stops) {
  pl::loop l;
  socket_pair sp;
  ASSERT_EQ(pl::poll::prepare_fd(l, sp.fd[1]), 0);
  pl::poll p(l, sp.fd[1]);
  pstate st;
  p.data = &st;
  ASSERT_EQ(p.start(pl::poll::writable, record), 0);
  ASSERT_EQ(p.start(0, record), 0);
  EXPECT_FALSE(p.is_active());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(st.calls, 0);
  ASSERT_EQ(p.start(pl::poll::writable, record), 0);
  ASSERT_EQ(p.close(nullptr), 0);
  EXPECT_EQ(p.start(pl::poll::writable, record), pl::errc::invalid);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(st.calls, 0) << "a closed handle gets no event";
  EXPECT_EQ(finish(l), 0);
}

TEST(poll, error_stops_the_handle) {
  pl::loop l;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(pl::poll::prepare_fd(l, fds[1]), 0);
  pl::poll p(l, fds[1]);
  pstate st;
  p.data = &st;
  ::close(fds[0]);
  ASSERT_EQ(p.start(pl::poll::writable, record), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(st.calls, 1);
  EXPECT_EQ(st.status, -EBADF);
  EXPECT_EQ(st.events, 0);
  EXPECT_FALSE(p.is_active());
  EXPECT_EQ(finish(l), 0);
  ::close(fds[1]);
}

TEST(poll, disconnect) {
  pl::loop l;
  socket_pair sp;
  ASSERT_EQ(pl::poll::prepare_fd(l, sp.fd[0]), 0);
  pl::poll p(l, sp.fd[0]);
  pstate st;
  p.data = &st;
  ASSERT_EQ(::shutdown(sp.fd[1], SHUT_WR), 0);
  ASSERT_EQ(p.start(pl::poll::disconnect, [](pl::poll* h, int s, int e) {
    record(h, s, e);
    h->stop();
  }), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(st.calls, 1);
  EXPECT_EQ(st.events, pl::poll::disconnect);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
