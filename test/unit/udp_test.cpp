// SPDX-License-Identifier: MIT
// UDP handles through the C++ API, on loopback: when send and receive
// callbacks run (pending vs poll vs closing phase), what hooks see, the
// send queue counters, and the error codes of misuse.

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>
#include <string>

#include "test_util.hpp"

namespace {

sockaddr_in loopback4(unsigned short port = 0) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// Binds `u` to 127.0.0.1 on a kernel-chosen port; returns the address.
sockaddr_in bind_loopback(pl::udp& u) {
  sockaddr_in a = loopback4();
  EXPECT_EQ(u.bind(reinterpret_cast<const sockaddr*>(&a), 0), 0);
  int len = sizeof a;
  EXPECT_EQ(u.sockname(reinterpret_cast<sockaddr*>(&a), &len), 0);
  return a;
}

char buffer[65536];
void alloc_static(pl::handle*, std::size_t, pl::fs_buf* b) {
  b->base = buffer;
  b->len = sizeof buffer;
}

struct ctx {
  event_log log;
  int sends = 0;
  int last_status = 1;
};

void on_send(pl::udp_send* r, int status) {
  auto* c = static_cast<ctx*>(r->data);
  c->sends++;
  c->last_status = status;
  c->log.add("send " + std::to_string(status));
}

void on_recv(pl::udp* u, ssize_t n, const pl::fs_buf* b, const sockaddr* addr, unsigned flags) {
  auto* c = static_cast<ctx*>(u->data);
  if (n > 0)
    c->log.add("recv " + std::string(b->base, static_cast<std::size_t>(n)) + (flags & pl::udp_partial ? " partial" : ""));
  else
    c->log.add(std::string("recv ") + std::to_string(n) + (addr ? " addr" : " null"));
}

TEST(udp, send_completes_in_pending_and_datagram_arrives_in_poll) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  pl::udp server(l), client(l);
  ctx c;
  server.data = &c;
  const sockaddr_in to = bind_loopback(server);
  ASSERT_EQ(server.recv_start(alloc_static, on_recv), 0);
  pl::udp_send req;
  req.data = &c;
  char text[] = "ping";
  pl::fs_buf b{text, 4};
  ASSERT_EQ(client.send(req, &b, 1, reinterpret_cast<const sockaddr*>(&to), on_send), 0);
  EXPECT_EQ(client.send_queue_count(), 1u);
  EXPECT_EQ(client.send_queue_size(), 4u);
  EXPECT_TRUE(client.is_active());
  EXPECT_EQ(l.active_requests(), 1u);
  EXPECT_EQ(req.sender(), &client);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(c.log.events, (strings{"send 0", "recv ping", "recv 0 null"}));
  EXPECT_EQ(client.send_queue_count(), 0u);
  EXPECT_FALSE(client.is_active());
  EXPECT_EQ(l.active_requests(), 0u);
  // The send callback ran inside the pending phase's callback; the receive
  // callbacks are reported as I/O callbacks of the poll phase.
  EXPECT_EQ(rec.calls_of(pl::callback_kind::io),
            (pltest::call_sites{{pl::phase::poll, &server}, {pl::phase::poll, &server}}));
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(udp, close_cancels_queued_sends_before_close_callback) {
  pl::loop l;
  pl::udp server(l), client(l);
  const sockaddr_in to = bind_loopback(server);
  ctx c;
  client.data = &c;
  char text[] = "x";
  pl::fs_buf b{text, 1};
  pl::udp_send r1, r2;
  r1.data = r2.data = &c;
  ASSERT_EQ(client.send(r1, &b, 1, reinterpret_cast<const sockaddr*>(&to), on_send), 0);
  ASSERT_EQ(client.send(r2, &b, 1, reinterpret_cast<const sockaddr*>(&to), on_send), 0);
  EXPECT_EQ(client.send_queue_count(), 2u);
  client.close([](pl::handle* h) { static_cast<ctx*>(h->data)->log.add("close"); });
  l.run();
  EXPECT_EQ(c.log.events, (strings{"send 0", "send " + std::to_string(-ECANCELED), "close"}));
  EXPECT_EQ(finish(l), 0);
}

TEST(udp, partial_datagram_and_errors) {
  pl::loop l;
  pl::udp server(l), client(l), fresh(l);
  ctx c;
  server.data = &c;
  const sockaddr_in to = bind_loopback(server);
  char big[] = "0123456789";
  pl::fs_buf b{big, 10};
  EXPECT_EQ(client.try_send(&b, 1, reinterpret_cast<const sockaddr*>(&to)), 10);
  EXPECT_EQ(client.try_send(&b, 1, nullptr), -EDESTADDRREQ);
  EXPECT_EQ(client.try_send(&b, 0, reinterpret_cast<const sockaddr*>(&to)), pl::errc::invalid);
  ASSERT_EQ(server.recv_start(
                [](pl::handle*, std::size_t, pl::fs_buf* out) {
                  static char small[4];
                  out->base = small;
                  out->len = sizeof small;
                },
                on_recv),
            0);
  EXPECT_EQ(server.recv_start(alloc_static, on_recv), -EALREADY);
  EXPECT_EQ(server.recv_start(nullptr, on_recv), pl::errc::invalid);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(c.log.events, (strings{"recv 0123 partial", "recv 0 null"}));
  EXPECT_EQ(server.recv_stop(), 0);
  EXPECT_FALSE(server.is_active());

  int len = sizeof(sockaddr_in);
  sockaddr_in a{};
  EXPECT_EQ(fresh.sockname(reinterpret_cast<sockaddr*>(&a), &len), -EBADF);
  EXPECT_EQ(fresh.connect(nullptr), -ENOTCONN);
  EXPECT_EQ(fresh.connect(reinterpret_cast<const sockaddr*>(&to)), 0);
  EXPECT_EQ(fresh.connect(reinterpret_cast<const sockaddr*>(&to)), -EISCONN);
  EXPECT_EQ(fresh.peername(reinterpret_cast<sockaddr*>(&a), &len), 0);
  EXPECT_EQ(a.sin_port, to.sin_port);
  EXPECT_EQ(fresh.set_ttl(0), pl::errc::invalid);
  EXPECT_EQ(fresh.set_ttl(7), 0);
  EXPECT_EQ(fresh.set_membership("not an address", nullptr, pl::udp_membership::join), pl::errc::invalid);
  EXPECT_EQ(fresh.bind(reinterpret_cast<const sockaddr*>(&to), pl::udp_ipv6only), pl::errc::invalid);
  EXPECT_EQ(finish(l), 0);
}

TEST(udp, recvmmsg_slices_one_buffer) {
  pl::loop l;
  pl::udp server(l), client(l);
  server.set_recvmmsg(true);
  EXPECT_TRUE(server.using_recvmmsg());
  const sockaddr_in to = bind_loopback(server);
  char t1[] = "a", t2[] = "b";
  pl::fs_buf b1{t1, 1}, b2{t2, 1};
  EXPECT_EQ(client.try_send(&b1, 1, reinterpret_cast<const sockaddr*>(&to)), 1);
  EXPECT_EQ(client.try_send(&b2, 1, reinterpret_cast<const sockaddr*>(&to)), 1);
  static char two[2 * pl::udp_max_datagram];
  struct seen {
    std::string text;
    unsigned flags;
  };
  static std::vector<seen> got;
  got.clear();
  ASSERT_EQ(server.recv_start(
                [](pl::handle*, std::size_t, pl::fs_buf* out) {
                  out->base = two;
                  out->len = sizeof two;
                },
                [](pl::udp*, ssize_t n, const pl::fs_buf* b, const sockaddr*, unsigned flags) {
                  got.push_back({n > 0 ? std::string(b->base, static_cast<std::size_t>(n)) : "", flags});
                }),
            0);
  l.run(pl::run_mode::nowait);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].text, "a");
  EXPECT_EQ(got[0].flags, pl::udp_mmsg_chunk);
  EXPECT_EQ(got[1].text, "b");
  EXPECT_EQ(got[2].flags, pl::udp_mmsg_free);
  EXPECT_EQ(got[3].flags, 0u);
  EXPECT_EQ(finish(l), 0);
}

// A socket connected to a loopback port nobody listens on, bound with
// udp_linux_recverr: the datagram it sends brings back ICMP port
// unreachable, held as the socket's error and queued on its error queue.
// What the receive callback hears in one poll, per profile: before 1.52
// the error only; from 1.52 (PR #4902) also the queued error, with the
// address that sent it, and the empty queue.
struct error_queue_case {
  const char* name;
  pl::profile profile;
  strings heard;
};

class udp_error_queue : public ::testing::TestWithParam<error_queue_case> {};

const error_queue_case error_queue_cases[] = {
    {"libuv_1_50", pl::profile::libuv_1_50, {"recv -111 null"}},
    {"libuv_1_52", pl::profile::libuv_1_52, {"recv -111 null", "queued 4294967185 addr recverr", "recv 0 null"}},
    {"libuv_1_53", pl::profile::libuv_1_53, {"recv -111 null", "queued 4294967185 addr recverr", "recv 0 null"}},
};

INSTANTIATE_TEST_SUITE_P(profiles, udp_error_queue, ::testing::ValuesIn(error_queue_cases), pltest::row_name());

TEST_P(udp_error_queue, what_one_poll_reports_is_the_profiles) {
  pl::loop l;
  l.set_order(GetParam().profile);
  pl::udp gone(l), u(l);
  // A port that was bound, and is free again.
  const sockaddr_in to = bind_loopback(gone);
  gone.close(nullptr);
  l.run();
  ctx c;
  u.data = &c;
  const sockaddr_in here = loopback4();
  ASSERT_EQ(u.bind(reinterpret_cast<const sockaddr*>(&here), pl::udp_linux_recverr), 0);
  ASSERT_EQ(u.connect(reinterpret_cast<const sockaddr*>(&to)), 0);
  ASSERT_EQ(u.recv_start(alloc_static,
                         [](pl::udp* h, ssize_t n, const pl::fs_buf* b, const sockaddr* addr, unsigned flags) {
                           if (flags & pl::udp_linux_recverr)
                             static_cast<ctx*>(h->data)->log.add("queued " + std::to_string(n) +
                                                                 (addr ? " addr" : " null") + " recverr");
                           else
                             on_recv(h, n, b, addr, flags);
                         }),
            0);
  char text[] = "x";
  pl::fs_buf b{text, 1};
  EXPECT_EQ(u.try_send(&b, 1, nullptr), 1);
  // One poll reports the error (it is there before try_send returns).
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(c.log.events, GetParam().heard);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
