// SPDX-License-Identifier: MIT
#pragma once
// A loopback DNS server for the resolver tests: a thread answering UDP
// queries on 127.0.0.1 from a fixed table (A, AAAA, PTR, following CNAMEs),
// or a silent one that only counts them. Test names live under .test and
// .invalid and the server never forwards: nothing leaves the machine.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace pltest {

class dns_server {
 public:
  enum : int { type_a = 1, type_cname = 5, type_ptr = 12, type_aaaa = 28 };

  /// One answer: `data` is an address (A, AAAA) or a name (CNAME, PTR).
  struct record {
    std::string name;
    int type;
    std::string data;
  };

  /// Starts answering from `records`; a silent server answers nothing.
  /// Names in `servfail` get SERVFAIL.
  explicit dns_server(std::vector<record> records, bool silent = false, std::vector<std::string> servfail = {})
      : records_(std::move(records)), servfail_(std::move(servfail)), silent_(silent) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return;
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { run(); });
  }

  ~dns_server() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }

  dns_server(const dns_server&) = delete;
  dns_server& operator=(const dns_server&) = delete;

  /// "127.0.0.1:PORT", for resolver_config::servers.
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  /// Queries received so far.
  unsigned queries() const { return queries_.load(); }

 private:
  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  static void put16(std::vector<std::uint8_t>& out, unsigned v) {
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
  }

  static void put_name(std::vector<std::uint8_t>& out, const std::string& name) {
    std::size_t start = 0;
    while (start < name.size()) {
      std::size_t dot = name.find('.', start);
      if (dot == std::string::npos) dot = name.size();
      out.push_back(static_cast<std::uint8_t>(dot - start));
      out.insert(out.end(), name.begin() + static_cast<long>(start), name.begin() + static_cast<long>(dot));
      start = dot + 1;
    }
    out.push_back(0);
  }

  void put_record(std::vector<std::uint8_t>& out, const record& r) const {
    put_name(out, r.name);
    put16(out, static_cast<unsigned>(r.type));
    put16(out, 1);  // class IN
    put16(out, 0);  // TTL 60
    put16(out, 60);
    std::vector<std::uint8_t> data;
    if (r.type == type_a || r.type == type_aaaa) {
      std::uint8_t bytes[16];
      const int family = r.type == type_a ? AF_INET : AF_INET6;
      inet_pton(family, r.data.c_str(), bytes);
      data.assign(bytes, bytes + (r.type == type_a ? 4 : 16));
    } else {
      put_name(data, r.data);
    }
    put16(out, static_cast<unsigned>(data.size()));
    out.insert(out.end(), data.begin(), data.end());
  }

  // The reply to one query, or nothing for one we cannot read.
  std::vector<std::uint8_t> reply(const std::uint8_t* q, std::size_t n) const {
    std::vector<std::uint8_t> out;
    if (n < 12 || q[4] != 0 || q[5] != 1) return out;
    std::size_t p = 12;
    std::string name;
    while (p < n && q[p] != 0) {
      const std::size_t len = q[p++];
      if (p + len > n) return out;
      if (!name.empty()) name += '.';
      name.append(reinterpret_cast<const char*>(q + p), len);
      p += len;
    }
    if (p + 5 > n) return out;
    const int qtype = (q[p + 1] << 8) | q[p + 2];
    const std::size_t question_end = p + 5;
    name = lower(name);

    std::vector<const record*> answers;
    bool known = false;
    std::string current = name;
    for (int hops = 0; hops < 8; hops++) {
      const record* alias = nullptr;
      for (const record& r : records_) {
        if (lower(r.name) != current) continue;
        known = true;
        if (r.type == type_cname && qtype != type_cname) alias = &r;
        else if (r.type == qtype) answers.push_back(&r);
      }
      if (alias == nullptr || !answers.empty()) break;
      answers.push_back(alias);
      current = lower(alias->data);
    }
    const bool fail = std::find(servfail_.begin(), servfail_.end(), name) != servfail_.end();
    const unsigned rcode = fail ? 2 : known ? 0 : 3;  // SERVFAIL, NOERROR, NXDOMAIN
    if (fail) answers.clear();

    out.push_back(q[0]);
    out.push_back(q[1]);
    out.push_back(static_cast<std::uint8_t>(0x80 | (q[2] & 0x01)));  // QR, RD echoed
    out.push_back(static_cast<std::uint8_t>(0x80 | rcode));          // RA
    put16(out, 1);
    put16(out, static_cast<unsigned>(answers.size()));
    put16(out, 0);
    put16(out, 0);
    out.insert(out.end(), q + 12, q + question_end);
    for (const record* r : answers) put_record(out, *r);
    return out;
  }

  void run() {
    std::uint8_t buf[1500];
    while (!stop_) {
      pollfd pfd{fd_, POLLIN, 0};
      if (::poll(&pfd, 1, 20) <= 0) continue;
      sockaddr_storage from;
      socklen_t len = sizeof from;
      const ssize_t n = ::recvfrom(fd_, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &len);
      if (n <= 0) continue;
      queries_++;
      if (silent_) continue;
      const std::vector<std::uint8_t> out = reply(buf, static_cast<std::size_t>(n));
      if (!out.empty()) ::sendto(fd_, out.data(), out.size(), 0, reinterpret_cast<sockaddr*>(&from), len);
    }
  }

  std::vector<record> records_;
  std::vector<std::string> servfail_;
  bool silent_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> queries_{0};
  std::thread thread_;
};

}  // namespace pltest
