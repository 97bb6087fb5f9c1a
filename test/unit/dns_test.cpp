// SPDX-License-Identifier: MIT
// DNS lookups (dns.hpp): answers that need no name server compared with
// glibc's own getaddrinfo/getnameinfo, names resolved through a loopback
// server (dns_server.hpp), timeouts and cancellation with a server that
// never answers, where callbacks run, IDNA, misuse. The differential
// scenarios test/diff/160-169 compare the C API with libuv itself.

#include <dirent.h>
#include <unistd.h>
#include <netdb.h>

#include <algorithm>
#include <semaphore>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dns_server.hpp"
#include "phaseloop/dns.hpp"
#include "phaseloop/fs.hpp"
#include "test_util.hpp"

namespace {

using pltest::dns_server;

// glibc's EAI_* code as libuv reports it.
int uv_code(int e) {
  switch (e) {
    case 0: return 0;
    case EAI_ADDRFAMILY: return pl::eai::addrfamily;
    case EAI_AGAIN: return pl::eai::again;
    case EAI_BADFLAGS: return pl::eai::badflags;
    case EAI_FAIL: return pl::eai::fail;
    case EAI_FAMILY: return pl::eai::family;
    case EAI_MEMORY: return pl::eai::memory;
    case EAI_NODATA: return pl::eai::nodata;
    case EAI_NONAME: return pl::eai::noname;
    case EAI_SERVICE: return pl::eai::service;
    case EAI_SOCKTYPE: return pl::eai::socktype;
  }
  return 1;  // not expected here
}

std::string address_of(const sockaddr* sa) {
  char text[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (sa->sa_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(sa);
    inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
    port = ntohs(a->sin_port);
  } else if (sa->sa_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(sa);
    inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
    port = ntohs(a->sin6_port);
  }
  return std::string(text) + " port " + std::to_string(port);
}

// Every field a caller can see, one line per entry.
strings describe(const addrinfo* ai) {
  strings out;
  for (; ai != nullptr; ai = ai->ai_next)
    out.push_back("family " + std::to_string(ai->ai_family) + " socktype " + std::to_string(ai->ai_socktype) +
                  " protocol " + std::to_string(ai->ai_protocol) + " flags " + std::to_string(ai->ai_flags) +
                  " addrlen " + std::to_string(ai->ai_addrlen) + " " + address_of(ai->ai_addr) + " canon " +
                  (ai->ai_canonname ? ai->ai_canonname : "-"));
  return out;
}

// Just the addresses, sorted (c-ares orders a server's answers itself).
strings addresses(const addrinfo* ai) {
  strings out;
  for (; ai != nullptr; ai = ai->ai_next) out.push_back(address_of(ai->ai_addr));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

addrinfo hints_of(int family, int socktype, int flags, int protocol = 0) {
  addrinfo h{};
  h.ai_family = family;
  h.ai_socktype = socktype;
  h.ai_flags = flags;
  h.ai_protocol = protocol;
  return h;
}

// What an asynchronous getaddrinfo callback saw.
struct gai_result {
  int calls = 0;
  int status = 1;
  strings entries;
  strings addrs;
  std::string canon;
};

void on_gai(pl::getaddrinfo_req* r, int status, addrinfo* res) {
  auto* out = static_cast<gai_result*>(r->data);
  out->calls++;
  out->status = status;
  out->entries = describe(res);
  out->addrs = addresses(res);
  if (res != nullptr && res->ai_canonname != nullptr) out->canon = res->ai_canonname;
  EXPECT_EQ(res, r->addrinfo());
  EXPECT_EQ(status, r->status());
  pl::free_addrinfo(res);
}

// One asynchronous lookup, run to its end.
gai_result lookup(pl::loop& l, const char* node, const char* service, const addrinfo* hints) {
  gai_result out;
  pl::getaddrinfo_req r;
  r.data = &out;
  EXPECT_EQ(r.start(&l, on_gai, node, service, hints), 0);
  l.run();
  EXPECT_EQ(out.calls, 1);
  return out;
}

struct gni_result {
  int calls = 0;
  int status = 1;
  std::string host, service;
};

void on_gni(pl::getnameinfo_req* r, int status, const char* host, const char* service) {
  auto* out = static_cast<gni_result*>(r->data);
  out->calls++;
  out->status = status;
  EXPECT_EQ(status == 0, host != nullptr);
  EXPECT_EQ(status == 0, service != nullptr);
  if (host) out->host = host;
  if (service) out->service = service;
}

gni_result name_of(pl::loop& l, const sockaddr* sa, int flags) {
  gni_result out;
  pl::getnameinfo_req r;
  r.data = &out;
  EXPECT_EQ(r.start(&l, on_gni, sa, flags), 0);
  l.run();
  EXPECT_EQ(out.calls, 1);
  return out;
}

sockaddr_storage sockaddr_of(const char* ip, int port) {
  sockaddr_storage ss{};
  if (std::strchr(ip, ':')) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET6, ip, &a->sin6_addr);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, ip, &a->sin_addr);
  }
  return ss;
}

const sockaddr* sa(const sockaddr_storage& ss) { return reinterpret_cast<const sockaddr*>(&ss); }

// The name the system's services database (/etc/services) gives a port, or
// the number where it has none (a minimal system has no netbase): what
// getnameinfo answers without NI_NUMERICSERV.
std::string service_name(int port, const char* protocol) {
  const servent* s = ::getservbyport(htons(static_cast<uint16_t>(port)), protocol);
  return s != nullptr ? s->s_name : std::to_string(port);
}

// Descriptors open now: the resolver's sockets must go with its channel.
int open_fds() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d) != nullptr) n++;
    closedir(d);
  }
  return n;
}

// The server's table: made-up names under .test, documentation addresses.
std::vector<dns_server::record> test_zone() {
  return {
      {"host.test", dns_server::type_a, "192.0.2.10"},
      {"host.test", dns_server::type_aaaa, "2001:db8::10"},
      {"alias.test", dns_server::type_cname, "host.test"},
      {"v4only.test", dns_server::type_a, "192.0.2.11"},
      {"10.2.0.192.in-addr.arpa", dns_server::type_ptr, "host.test"},
      {"xn--bcher-kva.test", dns_server::type_a, "192.0.2.20"},
      {"xn--mnchen-3ya.test", dns_server::type_a, "192.0.2.21"},
  };
}

// A loop whose resolver asks `server` only, quickly giving up.
void use(pl::loop& l, const dns_server& server, int timeout_ms = 300, int tries = 2) {
  const std::string address = server.address();
  pl::resolver_config c;
  c.servers = address.c_str();
  c.timeout_ms = timeout_ms;
  c.tries = tries;
  ASSERT_EQ(pl::configure_resolver(l, c), 0);
}

// ---- no name server: glibc's answers, exactly ------------------------------

TEST(dns, answers_without_a_name_server_are_glibcs) {
  const char* nodes[] = {nullptr, "127.0.0.1", "::1", "127.1", "0x7f.0.0.1", "::ffff:127.0.0.1", "localhost"};
  const char* services[] = {nullptr, "80", "http", "domain", "tftp", "nosuchservice", "65536", "-1", ""};
  struct variant {
    bool null_hints;
    addrinfo h;
  };
  const variant variants[] = {
      {true, {}},
      {false, hints_of(AF_UNSPEC, 0, 0)},
      {false, hints_of(AF_UNSPEC, SOCK_STREAM, 0)},
      {false, hints_of(AF_INET, SOCK_DGRAM, AI_PASSIVE)},
      {false, hints_of(AF_UNSPEC, SOCK_STREAM, AI_PASSIVE)},
      {false, hints_of(AF_INET, SOCK_STREAM, AI_CANONNAME)},
      {false, hints_of(AF_INET6, 0, 0)},
      {false, hints_of(AF_INET6, SOCK_STREAM, AI_V4MAPPED)},
      {false, hints_of(AF_UNSPEC, 0, AI_NUMERICHOST)},
      {false, hints_of(AF_UNSPEC, SOCK_STREAM, AI_NUMERICSERV)},
      {false, hints_of(AF_UNSPEC, SOCK_RAW, 0)},
      {false, hints_of(AF_UNSPEC, 0, 0, IPPROTO_UDP)},
      {false, hints_of(AF_UNSPEC, SOCK_STREAM, 0, IPPROTO_UDP)},
      {false, hints_of(AF_UNSPEC, 99, 0)},
      {false, hints_of(99, 0, 0)},
      {false, hints_of(AF_UNSPEC, 0, 0x10000)},
  };
  pl::loop l;
  int compared = 0;
  for (const char* node : nodes)
    for (const char* service : services)
      for (const variant& v : variants) {
        if (node == nullptr && service == nullptr) continue;  // libuv's EINVAL
        const addrinfo* hints = v.null_hints ? nullptr : &v.h;
        // localhost's IPv6 address may be missing from /etc/hosts, and glibc
        // would then ask a name server: not here.
        if (node != nullptr && std::strcmp(node, "localhost") == 0 && hints != nullptr &&
            hints->ai_family == AF_INET6)
          continue;
        const std::string what = std::string(node ? node : "(null)") + " / " + (service ? service : "(null)") +
                                 " / variant " + std::to_string(&v - variants);
        addrinfo* want = nullptr;
        const int want_status = uv_code(::getaddrinfo(node, service, hints, &want));
        pl::getaddrinfo_req r;
        const int status = r.start(&l, nullptr, node, service, hints);
        EXPECT_EQ(status, want_status) << what;
        EXPECT_EQ(describe(r.addrinfo()), describe(want)) << what;
        EXPECT_EQ(r.status(), status);
        pl::free_addrinfo(r.addrinfo());
        if (want) freeaddrinfo(want);
        compared++;
      }
  EXPECT_GT(compared, 900);
  EXPECT_EQ(finish(l), 0);
}

TEST(dns, asynchronous_answers_match_synchronous_ones) {
  pl::loop l;
  const addrinfo any = hints_of(AF_UNSPEC, 0, AI_CANONNAME);
  for (const char* node : {"127.0.0.1", "::1", "localhost"}) {
    pl::getaddrinfo_req s;
    const int status = s.start(&l, nullptr, node, "http", &any);
    const gai_result a = lookup(l, node, "http", &any);
    EXPECT_EQ(a.status, status) << node;
    EXPECT_EQ(a.entries, describe(s.addrinfo())) << node;
    pl::free_addrinfo(s.addrinfo());
  }
  EXPECT_EQ(finish(l), 0);
}

TEST(dns, lists_are_freed_by_the_c_librarys_freeaddrinfo) {
  pl::loop l;
  const addrinfo h = hints_of(AF_INET, 0, AI_CANONNAME);
  pl::getaddrinfo_req r;
  ASSERT_EQ(r.start(&l, nullptr, "127.0.0.1", "80", &h), 0);
  ASSERT_NE(r.addrinfo(), nullptr);
  EXPECT_STREQ(r.addrinfo()->ai_canonname, "127.0.0.1");
  ::freeaddrinfo(r.addrinfo());  // what a program may do instead of uv_freeaddrinfo
  pl::free_addrinfo(nullptr);
  EXPECT_EQ(finish(l), 0);
}

TEST(dns, getnameinfo_without_a_name_server_is_glibcs) {
  pl::loop l;
  const char* ips[] = {"127.0.0.1", "::1", "::ffff:127.0.0.1", "192.0.2.1"};
  const int ports[] = {0, 22, 53, 69, 80, 12345};
  const int flag_sets[] = {NI_NUMERICHOST,
                           NI_NUMERICHOST | NI_NUMERICSERV,
                           NI_NUMERICHOST | NI_DGRAM,
                           NI_NUMERICHOST | NI_NAMEREQD,
                           NI_NUMERICHOST | NI_NOFQDN,
                           NI_NUMERICHOST | 0x1000};
  for (const char* ip : ips)
    for (int port : ports)
      for (int flags : flag_sets) {
        const sockaddr_storage ss = sockaddr_of(ip, port);
        const socklen_t len = ss.ss_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
        char host[NI_MAXHOST], service[NI_MAXSERV];
        const int want = uv_code(::getnameinfo(sa(ss), len, host, sizeof host, service, sizeof service, flags));
        pl::getnameinfo_req r;
        const std::string what = std::string(ip) + ":" + std::to_string(port) + " flags " + std::to_string(flags);
        EXPECT_EQ(r.start(&l, nullptr, sa(ss), flags), want) << what;
        EXPECT_EQ(r.status(), want);
        if (want == 0) {
          EXPECT_STREQ(r.host(), host) << what;
          EXPECT_STREQ(r.service(), service) << what;
        }
        const gni_result a = name_of(l, sa(ss), flags);
        EXPECT_EQ(a.status, want) << what;
        if (want == 0) {
          EXPECT_EQ(a.host, host) << what;
          EXPECT_EQ(a.service, service) << what;
        }
      }
  EXPECT_EQ(finish(l), 0);
}

TEST(dns, getnameinfo_finds_hosts_file_names) {
  // 127.0.0.1 is in every /etc/hosts; glibc finds its name there too.
  pl::loop l;
  const sockaddr_storage ss = sockaddr_of("127.0.0.1", 80);
  char host[NI_MAXHOST], service[NI_MAXSERV];
  ASSERT_EQ(::getnameinfo(sa(ss), sizeof(sockaddr_in), host, sizeof host, service, sizeof service, 0), 0);
  const gni_result a = name_of(l, sa(ss), 0);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.host, host);
  EXPECT_EQ(a.service, service);
  EXPECT_EQ(finish(l), 0);
}

// ---- where callbacks run, what keeps the loop alive -------------------------

TEST(dns, callbacks_run_in_the_poll_phase_from_the_completion_queue) {
  pl::loop l;
  pltest::recorder rec;
  l.add_hook(rec);
  gai_result out;
  pl::getaddrinfo_req r;
  r.data = &out;
  ASSERT_EQ(r.start(&l, on_gai, "127.0.0.1", "80", nullptr), 0);
  EXPECT_EQ(out.calls, 0) << "never called back from start()";
  EXPECT_EQ(r.owner(), &l);
  EXPECT_EQ(l.active_requests(), 1u);
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.close(), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, 0);
  int dns_calls = 0;
  for (const pltest::callback_rec& e : rec.calls())
    if (e.kind == pl::callback_kind::dns) {
      dns_calls++;
      EXPECT_EQ(e.which, pl::phase::poll);
      EXPECT_EQ(e.request, &r);
      EXPECT_EQ(e.iteration, 1u);
    }
  EXPECT_EQ(dns_calls, 1);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

// Occupies every pool thread until release(): requests queued meanwhile
// cannot start.
class pool_blocker {
 public:
  explicit pool_blocker(pl::loop& l) : works_(threads()) {
    for (pl::work& w : works_) {
      w.data = this;
      EXPECT_EQ(w.queue(l,
                        [](pl::work* self) {
                          auto* b = static_cast<pool_blocker*>(self->data);
                          b->started_.release();
                          b->release_.acquire();
                        },
                        nullptr),
                0);
    }
    for (std::size_t i = 0; i < works_.size(); i++) started_.acquire();
  }
  void release() { release_.release(static_cast<std::ptrdiff_t>(works_.size())); }

 private:
  static std::size_t threads() {
    const char* v = std::getenv("UV_THREADPOOL_SIZE");
    const int n = v ? std::atoi(v) : 4;
    return static_cast<std::size_t>(n < 1 ? 1 : n > 1024 ? 1024 : n);
  }
  std::vector<pl::work> works_;
  std::counting_semaphore<> started_{0};
  std::counting_semaphore<> release_{0};
};

TEST(dns, answers_known_at_start_queue_on_the_pool_like_libuvs_lookups) {
  pl::loop l;
  pool_blocker blocker(l);
  strings order;
  struct item {
    strings* order;
    std::string name;
  };
  item items[3] = {{&order, "gai 1"}, {&order, "gni"}, {&order, "gai 2"}};
  pl::getaddrinfo_req g1, g2;
  pl::getnameinfo_req n;
  g1.data = &items[0];
  n.data = &items[1];
  g2.data = &items[2];
  auto gai = [](pl::getaddrinfo_req* r, int status, addrinfo* res) {
    auto* it = static_cast<item*>(r->data);
    it->order->push_back(it->name + " " + std::to_string(status) + (res ? " list" : ""));
    pl::free_addrinfo(res);
  };
  const sockaddr_storage ss = sockaddr_of("127.0.0.1", 80);
  ASSERT_EQ(g1.start(&l, gai, "127.0.0.1", nullptr, nullptr), 0);
  ASSERT_EQ(n.start(&l,
                    [](pl::getnameinfo_req* r, int status, const char* host, const char*) {
                      auto* it = static_cast<item*>(r->data);
                      it->order->push_back(it->name + " " + std::to_string(status) + (host ? " host" : ""));
                    },
                    sa(ss), NI_NUMERICHOST),
            0);
  ASSERT_EQ(g2.start(&l, gai, "::1", nullptr, nullptr), 0);
  // Queued, so cancelable; canceling again moves to the back, as in libuv.
  EXPECT_EQ(g1.cancel(), 0);
  EXPECT_EQ(n.cancel(), 0);
  EXPECT_EQ(g1.cancel(), 0);
  blocker.release();
  EXPECT_EQ(l.run(), 0);
  const std::string canceled = std::to_string(pl::eai::canceled);
  EXPECT_EQ(order, (strings{"gni " + canceled, "gai 1 " + canceled, "gai 2 0 list"}));
  EXPECT_EQ(g1.addrinfo(), nullptr);
  EXPECT_EQ(g1.status(), pl::eai::canceled);
  EXPECT_EQ(n.status(), pl::eai::canceled);
  EXPECT_EQ(g1.cancel(), pl::errc::busy) << "after its callback";
  EXPECT_EQ(finish(l), 0);
}

void chain(pl::getaddrinfo_req* req, int status, addrinfo* res) {
  EXPECT_EQ(status, 0);
  pl::free_addrinfo(res);
  int& n = *static_cast<int*>(req->data);
  if (++n < 3) {
    EXPECT_EQ(req->start(req->owner(), chain, "127.0.0.1", "80", nullptr), 0);
  }
}

TEST(dns, a_callback_may_start_the_next_lookup_with_its_own_request) {
  pl::loop l;
  int rounds = 0;
  pl::getaddrinfo_req r;
  r.data = &rounds;
  ASSERT_EQ(r.start(&l, chain, "::1", nullptr, nullptr), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(rounds, 3);
  EXPECT_EQ(finish(l), 0);
}

// ---- a name server on the loopback ----------------------------------------

class dns_net : public ::testing::Test {
 protected:
  dns_server server{test_zone(), false, {"broken.test"}};
  pl::loop l;
  void TearDown() override { EXPECT_EQ(finish(l), 0); }
};

TEST_F(dns_net, names_come_from_the_server) {
  use(l, server);
  const addrinfo v4 = hints_of(AF_INET, SOCK_STREAM, 0);
  gai_result a = lookup(l, "host.test", "80", &v4);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.entries, (strings{"family 2 socktype 1 protocol 6 flags 0 addrlen 16 192.0.2.10 port 80 canon -"}));

  const addrinfo v6 = hints_of(AF_INET6, SOCK_DGRAM, 0);
  a = lookup(l, "host.test", "53", &v6);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.entries, (strings{"family 10 socktype 2 protocol 17 flags 0 addrlen 28 2001:db8::10 port 53 canon -"}));

  // Both families, each address with glibc's three socket types.
  const addrinfo any = hints_of(AF_UNSPEC, 0, 0);
  a = lookup(l, "host.test", "443", &any);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.entries.size(), 6u);
  EXPECT_EQ(a.addrs, (strings{"192.0.2.10 port 443", "2001:db8::10 port 443"}));
  EXPECT_GE(server.queries(), 4u);
}

TEST_F(dns_net, canonical_names_follow_cnames) {
  use(l, server);
  const addrinfo h = hints_of(AF_INET, SOCK_STREAM, AI_CANONNAME);
  const gai_result a = lookup(l, "alias.test", nullptr, &h);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.canon, "host.test");
  EXPECT_EQ(a.addrs, (strings{"192.0.2.10 port 0"}));
}

TEST_F(dns_net, unknown_names_and_missing_families) {
  use(l, server);
  const addrinfo v6 = hints_of(AF_INET6, SOCK_STREAM, 0);
  EXPECT_EQ(lookup(l, "missing.test", "80", nullptr).status, pl::eai::noname);
  EXPECT_EQ(lookup(l, "nothing.invalid", nullptr, nullptr).status, pl::eai::noname);
  EXPECT_EQ(lookup(l, "v4only.test", "80", &v6).status, pl::eai::nodata);
  EXPECT_EQ(lookup(l, "broken.test", "80", nullptr).status, pl::eai::again);
  // AI_V4MAPPED: IPv4 addresses stand in, mapped, when there is no IPv6 one.
  const addrinfo mapped = hints_of(AF_INET6, SOCK_STREAM, AI_V4MAPPED);
  gai_result a = lookup(l, "v4only.test", "80", &mapped);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.addrs, (strings{"::ffff:192.0.2.11 port 80"}));
  a = lookup(l, "host.test", "80", &mapped);
  EXPECT_EQ(a.addrs, (strings{"2001:db8::10 port 80"}));
  const addrinfo all = hints_of(AF_INET6, SOCK_STREAM, AI_V4MAPPED | AI_ALL);
  a = lookup(l, "host.test", "80", &all);
  EXPECT_EQ(a.addrs, (strings{"2001:db8::10 port 80", "::ffff:192.0.2.10 port 80"}));
  // The service is refused before the name is asked for, as glibc does.
  const unsigned before = server.queries();
  EXPECT_EQ(lookup(l, "missing.test", "nosuchservice", nullptr).status, pl::eai::service);
  EXPECT_EQ(server.queries(), before);
}

TEST_F(dns_net, synchronous_lookups_use_the_loops_settings) {
  use(l, server);
  const addrinfo v4 = hints_of(AF_INET, SOCK_STREAM, 0);
  pl::getaddrinfo_req r;
  EXPECT_EQ(r.start(&l, nullptr, "host.test", "80", &v4), 0);
  EXPECT_EQ(addresses(r.addrinfo()), (strings{"192.0.2.10 port 80"}));
  pl::free_addrinfo(r.addrinfo());
  EXPECT_EQ(r.start(&l, nullptr, "missing.test", "80", &v4), pl::eai::noname);
  EXPECT_EQ(r.addrinfo(), nullptr);
  EXPECT_EQ(l.active_requests(), 0u);

  pl::getnameinfo_req n;
  const sockaddr_storage ss = sockaddr_of("192.0.2.10", 80);
  EXPECT_EQ(n.start(&l, nullptr, sa(ss), 0), 0);
  EXPECT_STREQ(n.host(), "host.test");
  EXPECT_EQ(n.service(), service_name(80, "tcp"));
}

TEST_F(dns_net, the_environment_names_the_servers_of_unconfigured_lookups) {
  const std::string address = server.address();
  ASSERT_EQ(setenv("PHASELOOP_DNS_SERVERS", address.c_str(), 1), 0);
  const addrinfo v4 = hints_of(AF_INET, SOCK_STREAM, 0);
  pl::getaddrinfo_req r;
  EXPECT_EQ(r.start(nullptr, nullptr, "host.test", "80", &v4), 0);
  EXPECT_EQ(addresses(r.addrinfo()), (strings{"192.0.2.10 port 80"}));
  pl::free_addrinfo(r.addrinfo());
  unsetenv("PHASELOOP_DNS_SERVERS");
}

TEST_F(dns_net, reverse_lookups) {
  use(l, server);
  const sockaddr_storage known = sockaddr_of("192.0.2.10", 80);
  gni_result a = name_of(l, sa(known), 0);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.host, "host.test");
  EXPECT_EQ(a.service, service_name(80, "tcp"));
  a = name_of(l, sa(known), NI_NUMERICSERV | NI_DGRAM);
  EXPECT_EQ(a.host, "host.test");
  EXPECT_EQ(a.service, "80");
  // No PTR record: the numeric form, or EAI_NONAME when a name is required.
  const sockaddr_storage unknown = sockaddr_of("192.0.2.99", 53);
  a = name_of(l, sa(unknown), 0);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.host, "192.0.2.99");
  EXPECT_EQ(a.service, service_name(53, "tcp"));
  EXPECT_EQ(name_of(l, sa(unknown), NI_NAMEREQD).status, pl::eai::noname);
}

TEST_F(dns_net, non_ascii_names_are_sent_as_punycode) {
  use(l, server);
  const addrinfo v4 = hints_of(AF_INET, SOCK_STREAM, 0);
  gai_result a = lookup(l, "b\xC3\xBC" "cher.test", nullptr, &v4);  // bücher.test
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.addrs, (strings{"192.0.2.20 port 0"}));
  // A full-width full stop separates labels too.
  a = lookup(l, "m\xC3\xBCnchen\xEF\xBC\x8Etest", nullptr, &v4);  // münchen．test
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.addrs, (strings{"192.0.2.21 port 0"}));
}

TEST_F(dns_net, a_lookup_leaves_no_descriptor_and_no_handle_behind) {
  use(l, server);
  const addrinfo any = hints_of(AF_UNSPEC, SOCK_STREAM, 0);
  // The answer cache opens its change reports once per process, on first
  // use: that first use comes before the count.
  EXPECT_EQ(lookup(l, "host.test", nullptr, &any).status, 0);
  const int before = open_fds();
  int done = 0;
  pl::getaddrinfo_req r;
  r.data = &done;
  ASSERT_EQ(r.start(&l,
                    [](pl::getaddrinfo_req* req, int status, addrinfo* res) {
                      EXPECT_EQ(status, 0);
                      pl::free_addrinfo(res);
                      ++*static_cast<int*>(req->data);
                    },
                    "host.test", nullptr, &any),
            0);
  // Only the request keeps the loop alive: the resolver's timer and
  // sockets are internal.
  EXPECT_EQ(l.active_handles(), 0u);
  int visible = 0;
  l.walk([](pl::handle*, void* n) { ++*static_cast<int*>(n); }, &visible);
  EXPECT_EQ(visible, 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(done, 1);
  EXPECT_EQ(open_fds(), before);
}

// ---- timeouts and cancellation ---------------------------------------------

// Runs `l` until `server` has received `n` queries: the lookups are then
// waiting for it (past their trip through the pool), and cancel() works
// on them at any time.
void until_asked(pl::loop& l, const dns_server& server, unsigned n) {
  const std::uint64_t start = pl::loop::hrtime();
  while (server.queries() < n && pltest::ms_since(start) < 5000) {
    l.run(pl::run_mode::nowait);
    usleep(1000);
  }
  ASSERT_GE(server.queries(), n);
}

class dns_silent : public ::testing::Test {
 protected:
  dns_server server{{}, true};
  pl::loop l;
  void TearDown() override { EXPECT_EQ(finish(l), 0); }
};

TEST_F(dns_silent, a_server_that_never_answers_times_out_with_eai_again) {
  use(l, server, 100, 2);
  const std::uint64_t start = pl::loop::hrtime();
  const gai_result a = lookup(l, "host.test", "80", nullptr);
  EXPECT_EQ(a.status, pl::eai::again);
  EXPECT_GE(pltest::ms_since(start), 150.0) << "two tries of at least 100 ms and more";
  EXPECT_GE(server.queries(), 2u);
  const sockaddr_storage ss = sockaddr_of("192.0.2.10", 80);
  EXPECT_EQ(name_of(l, sa(ss), 0).status, pl::eai::again);
}

TEST_F(dns_silent, a_lookup_a_pool_thread_runs_cannot_be_canceled) {
  // As in libuv: the thread is inside the C library's getaddrinfo, waiting
  // for the server; uv_cancel says UV_EBUSY and the lookup runs its course.
  use(l, server, 1000, 1);
  gai_result out;
  pl::getaddrinfo_req r;
  r.data = &out;
  ASSERT_EQ(r.start(&l, on_gai, "host.test", "80", nullptr), 0);
  until_asked(l, server, 1);
  EXPECT_EQ(r.cancel(), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, pl::eai::again);
  EXPECT_EQ(r.cancel(), pl::errc::busy) << "after the callback";

  gni_result n;
  pl::getnameinfo_req g;
  g.data = &n;
  const sockaddr_storage ss = sockaddr_of("192.0.2.10", 80);
  // Counted before the start: a pool thread may send the PTR query before
  // this thread reads the count again.
  const unsigned asked = server.queries();
  ASSERT_EQ(g.start(&l, on_gni, sa(ss), NI_NAMEREQD), 0);
  until_asked(l, server, asked + 1);
  EXPECT_EQ(g.cancel(), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(n.calls, 1);
  EXPECT_EQ(n.status, pl::eai::again);
}

TEST_F(dns_silent, lookups_take_at_most_half_the_pool_and_queued_ones_cancel) {
  // libuv runs lookups as "slow" pool work: with the default 4 threads, at
  // most 2 lookups wait for a server at once; the others stay queued (and
  // can be canceled), and file system work still gets threads.
  use(l, server, 1000, 1);
  constexpr int n = 8;
  gai_result out[n];
  pl::getaddrinfo_req reqs[n];
  const addrinfo v4 = hints_of(AF_INET, SOCK_STREAM, 0);
  for (int i = 0; i < n; i++) {
    reqs[i].data = &out[i];
    const std::string name = "n" + std::to_string(i) + ".test";
    ASSERT_EQ(reqs[i].start(&l, on_gai, name.c_str(), nullptr, &v4), 0);
  }
  until_asked(l, server, 2);
  const std::uint64_t start = pl::loop::hrtime();
  while (pltest::ms_since(start) < 300) {
    l.run(pl::run_mode::nowait);
    usleep(1000);
  }
  EXPECT_EQ(server.queries(), 2u) << "two lookups at a time (one A query each)";
  pl::fs_req stat;
  bool stat_done = false;
  stat.data = &stat_done;
  ASSERT_EQ(stat.stat(&l, "/", [](pl::fs_req* r) { *static_cast<bool*>(r->data) = true; }), 0);
  for (int i = 2; i < n; i++) EXPECT_EQ(reqs[i].cancel(), 0) << i;
  EXPECT_EQ(reqs[0].cancel(), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_TRUE(stat_done);
  for (int i = 0; i < n; i++) {
    EXPECT_EQ(out[i].calls, 1);
    EXPECT_EQ(out[i].status, i < 2 ? pl::eai::again : pl::eai::canceled) << i;
  }
}

TEST_F(dns_silent, a_lookup_canceled_on_its_way_through_the_pool_never_asks) {
  use(l, server, 5000, 1);
  pool_blocker blocker(l);
  gai_result a;
  gni_result n;
  pl::getaddrinfo_req r;
  pl::getnameinfo_req g;
  r.data = &a;
  g.data = &n;
  const sockaddr_storage ss = sockaddr_of("192.0.2.10", 80);
  ASSERT_EQ(r.start(&l, on_gai, "host.test", "80", nullptr), 0);
  ASSERT_EQ(g.start(&l, on_gni, sa(ss), 0), 0);
  EXPECT_EQ(r.cancel(), 0);
  EXPECT_EQ(g.cancel(), 0);
  blocker.release();
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(a.status, pl::eai::canceled);
  EXPECT_EQ(n.status, pl::eai::canceled);
  EXPECT_EQ(server.queries(), 0u);
}

// ---- misuse ----------------------------------------------------------------

TEST(dns, bad_arguments_are_refused_before_anything_starts) {
  pl::loop l;
  pl::getaddrinfo_req r;
  EXPECT_EQ(r.start(&l, on_gai, nullptr, nullptr, nullptr), pl::errc::invalid);
  EXPECT_EQ(r.start(&l, on_gai, "", "80", nullptr), pl::errc::invalid) << "as libuv >= 1.48 and Debian's 1.44.2";
  EXPECT_EQ(r.start(nullptr, on_gai, "127.0.0.1", nullptr, nullptr), pl::errc::invalid);
  EXPECT_EQ(r.start(&l, on_gai, "bad\xFFutf8.test", nullptr, nullptr), pl::errc::invalid);
  EXPECT_EQ(r.start(&l, on_gai, "\xE2\x82", nullptr, nullptr), pl::errc::invalid) << "truncated sequence";
  const std::string long_name(300, 'a');
  EXPECT_EQ(r.start(&l, on_gai, long_name.c_str(), nullptr, nullptr), pl::errc::invalid);
  EXPECT_EQ(r.cancel(), pl::errc::busy) << "never started";
  EXPECT_EQ(l.active_requests(), 0u);

  gai_result out;
  r.data = &out;
  ASSERT_EQ(r.start(&l, on_gai, "127.0.0.1", nullptr, nullptr), 0);
  EXPECT_EQ(r.start(&l, on_gai, "127.0.0.1", nullptr, nullptr), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(out.calls, 1);

  pl::getnameinfo_req n;
  sockaddr_storage unix_addr{};
  unix_addr.ss_family = AF_UNIX;
  EXPECT_EQ(n.start(&l, on_gni, nullptr, 0), pl::errc::invalid);
  EXPECT_EQ(n.start(&l, on_gni, sa(unix_addr), 0), pl::errc::invalid);
  const sockaddr_storage ss = sockaddr_of("127.0.0.1", 80);
  EXPECT_EQ(n.start(nullptr, on_gni, sa(ss), 0), pl::errc::invalid);
  EXPECT_EQ(n.start(&l, nullptr, sa(ss), 0x1000), pl::eai::badflags);

  pl::resolver_config c;
  c.timeout_ms = -1;
  EXPECT_EQ(pl::configure_resolver(l, c), pl::errc::invalid);
  c.timeout_ms = 0;
  c.servers = "this is not a server list";
  EXPECT_EQ(pl::configure_resolver(l, c), pl::errc::invalid);
  c.servers = nullptr;
  EXPECT_EQ(pl::configure_resolver(l, c), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(dns, settings_cannot_change_under_lookups_in_flight) {
  dns_server silent({}, true);
  pl::loop l;
  use(l, silent, 1000, 1);
  gai_result out;
  pl::getaddrinfo_req r;
  r.data = &out;
  ASSERT_EQ(r.start(&l, on_gai, "host.test", nullptr, nullptr), 0);
  EXPECT_EQ(pl::configure_resolver(l, pl::resolver_config{}), pl::errc::busy);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(out.status, pl::eai::again);
  EXPECT_EQ(pl::configure_resolver(l, pl::resolver_config{}), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(dns, the_tracer_names_dns_completions) {
  pltest::traced_loop t;
  ASSERT_NE(t.out.get(), nullptr);
  pl::loop& l = t.l;
  gai_result res;
  pl::getaddrinfo_req r;
  r.data = &res;
  ASSERT_EQ(r.start(&l, on_gai, "127.0.0.1", nullptr, nullptr), 0);
  EXPECT_EQ(l.run(), 0);
  const std::string text = t.text();
  EXPECT_NE(text.find("  dns\n"), std::string::npos) << text;
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
