// SPDX-License-Identifier: MIT
// TCP streams over loopback through the C++ API: phases of the callbacks,
// write queue accounting, cancellation on close, delayed errors.

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>
#include <string>

#include "test_util.hpp"

namespace {

sockaddr_in loopback(int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

int port_of(const pl::tcp& t) {
  sockaddr_in a{};
  int len = sizeof a;
  EXPECT_EQ(t.sockname(reinterpret_cast<sockaddr*>(&a), &len), 0);
  return ntohs(a.sin_port);
}

// A server and a client connected over loopback, with the accepted side.
struct pair_fixture {
  pl::loop l;
  pl::tcp server{l}, client{l}, conn{l};
  pl::connect_req creq;
  bool connected = false;

  pair_fixture() {
    sockaddr_in a = loopback(0);
    EXPECT_EQ(server.bind(reinterpret_cast<sockaddr*>(&a)), 0);
    server.data = this;
    EXPECT_EQ(server.listen(8, [](pl::stream* s, int status) {
      auto* f = static_cast<pair_fixture*>(s->data);
      EXPECT_EQ(status, 0);
      EXPECT_EQ(s->accept(f->conn), 0);
    }), 0);
    a = loopback(port_of(server));
    creq.data = this;
    EXPECT_EQ(client.connect(creq, reinterpret_cast<sockaddr*>(&a), [](pl::connect_req* r, int status) {
      EXPECT_EQ(status, 0);
      static_cast<pair_fixture*>(r->data)->connected = true;
    }), 0);
    while (!connected || conn.fd() == -1) l.run(pl::run_mode::once);
  }
};

TEST(tcp, connect_accept_and_echo_phases) {
  pair_fixture f;
  EXPECT_TRUE(f.client.is_readable());
  EXPECT_TRUE(f.client.is_writable());
  EXPECT_TRUE(f.conn.is_readable());

  pltest::recorder rec;
  f.l.add_hook(rec);
  struct state {
    std::string got;
    int write_status = 1;
    char buf[64];
  } st;
  f.conn.data = &st;
  ASSERT_EQ(f.conn.read_start(
                [](pl::handle* h, std::size_t, pl::fs_buf* b) {
                  auto* s = static_cast<state*>(h->data);
                  *b = pl::fs_buf{s->buf, sizeof s->buf};
                },
                [](pl::stream* s, ssize_t n, const pl::fs_buf* b) {
                  auto* st2 = static_cast<state*>(s->data);
                  if (n > 0) st2->got.append(b->base, static_cast<std::size_t>(n));
                  if (st2->got.size() == 10) s->read_stop();
                }),
            0);
  char a[] = "hello", b[] = "world";
  pl::fs_buf bufs[2] = {{a, 5}, {b, 5}};
  pl::write_req w;
  w.data = &st;
  ASSERT_EQ(f.client.write(w, bufs, 2, [](pl::write_req* r, int status) {
    static_cast<state*>(r->data)->write_status = status;
  }), 0);
  EXPECT_EQ(w.target(), &f.client);
  EXPECT_EQ(f.client.write_queue_size(), 0u) << "written at once";
  EXPECT_EQ(st.write_status, 1) << "the callback waits for the pending phase";
  EXPECT_EQ(f.l.active_requests(), 1u);
  f.l.run(pl::run_mode::once);
  EXPECT_EQ(st.write_status, 0);
  EXPECT_EQ(f.l.active_requests(), 0u);
  while (st.got.size() < 10) f.l.run(pl::run_mode::once);
  EXPECT_EQ(st.got, "helloworld");

  bool pending_seen = false, io_seen = false;
  for (const auto& e : rec.calls()) {
    if (e.kind == pl::callback_kind::pending) {
      pending_seen = true;
      EXPECT_EQ(e.which, pl::phase::pending);
    }
    if (e.kind == pl::callback_kind::io && e.handle == &f.conn) {
      io_seen = true;
      EXPECT_EQ(e.which, pl::phase::poll);
    }
  }
  EXPECT_TRUE(pending_seen);
  EXPECT_TRUE(io_seen);
  f.l.remove_hook(rec);
  EXPECT_EQ(finish(f.l), 0);
}

TEST(tcp, close_cancels_queued_writes_and_shutdown) {
  pair_fixture f;
  std::string chunk(1 << 20, 'x');
  pl::fs_buf buf{chunk.data(), chunk.size()};
  constexpr int n = 16;
  pl::write_req w[n];
  int ok = 0, canceled = 0;
  struct counts {
    int* ok;
    int* canceled;
  } c{&ok, &canceled};
  for (auto& r : w) {
    r.data = &c;
    ASSERT_EQ(f.client.write(r, &buf, 1, [](pl::write_req* q, int status) {
      auto* cc = static_cast<counts*>(q->data);
      if (status == 0) ++*cc->ok;
      else if (status == pl::errc::canceled) ++*cc->canceled;
    }), 0);
  }
  EXPECT_GT(f.client.write_queue_size(), 0u) << "the peer does not read";
  pl::shutdown_req s;
  int shut_status = 1;
  s.data = &shut_status;
  ASSERT_EQ(f.client.shutdown(s, [](pl::shutdown_req* r, int status) { *static_cast<int*>(r->data) = status; }), 0);
  EXPECT_FALSE(f.client.is_writable());
  pl::shutdown_req s2;
  EXPECT_EQ(f.client.shutdown(s2, nullptr), -ENOTCONN);
  EXPECT_EQ(f.client.write(w[0], &buf, 1, nullptr), -EPIPE);
  ASSERT_EQ(f.client.close(nullptr), 0);
  f.l.run(pl::run_mode::nowait);
  EXPECT_EQ(ok + canceled, n);
  EXPECT_GT(canceled, 0);
  EXPECT_EQ(shut_status, pl::errc::canceled);
  EXPECT_EQ(f.client.write_queue_size(), 0u);
  EXPECT_EQ(finish(f.l), 0);
}

TEST(tcp, refused_connect_and_delayed_bind_error) {
  pl::loop l;
  pl::tcp probe(l);
  sockaddr_in a = loopback(0);
  ASSERT_EQ(probe.bind(reinterpret_cast<sockaddr*>(&a)), 0);
  ASSERT_EQ(probe.listen(1, nullptr), 0);
  const int port = port_of(probe);
  // A second socket on the same port: bind succeeds, listen reports it.
  pl::tcp dup(l);
  a = loopback(port);
  EXPECT_EQ(dup.bind(reinterpret_cast<sockaddr*>(&a)), 0);
  EXPECT_EQ(dup.listen(1, nullptr), -EADDRINUSE);
  probe.close(nullptr);
  dup.close(nullptr);
  l.run();

  pl::tcp c(l);
  pl::connect_req r;
  int status = 1;
  r.data = &status;
  ASSERT_EQ(c.connect(r, reinterpret_cast<sockaddr*>(&a),
                      [](pl::connect_req* q, int s) { *static_cast<int*>(q->data) = s; }),
            0);
  EXPECT_TRUE(c.connecting());
  pl::connect_req r2;
  EXPECT_EQ(c.connect(r2, reinterpret_cast<sockaddr*>(&a), nullptr), -EALREADY);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(status, -ECONNREFUSED);
  EXPECT_FALSE(c.connecting());
  EXPECT_EQ(finish(l), 0);
}

TEST(tcp, enobufs_when_alloc_gives_nothing) {
  pair_fixture f;
  char x = 'x';
  pl::fs_buf b{&x, 1};
  EXPECT_EQ(f.client.try_write(&b, 1), 1);
  int result = 1;
  f.conn.data = &result;
  ASSERT_EQ(f.conn.read_start([](pl::handle*, std::size_t, pl::fs_buf* out) { *out = pl::fs_buf{nullptr, 0}; },
                              [](pl::stream* s, ssize_t n, const pl::fs_buf*) {
                                *static_cast<int*>(s->data) = static_cast<int>(n);
                                s->read_stop();
                              }),
            0);
  EXPECT_EQ(f.conn.read_start([](pl::handle*, std::size_t, pl::fs_buf*) {}, [](pl::stream*, ssize_t, const pl::fs_buf*) {}),
            -EALREADY);
  while (result == 1) f.l.run(pl::run_mode::once);
  EXPECT_EQ(result, -ENOBUFS);
  EXPECT_EQ(finish(f.l), 0);
}

}  // namespace
