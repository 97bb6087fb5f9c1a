// DNS lookups (libuv's uv_getaddrinfo and uv_getnameinfo) on c-ares.
//
// Two sources answer. What needs no name server -- a numeric address, a
// null node, checking the hints and the service -- is the C library's own
// getaddrinfo and getnameinfo with AI_NUMERICHOST / NI_NUMERICHOST, which
// never leave the process. Names go to c-ares, and every address it finds
// is turned into list entries by the C library again, one numeric call per
// address: the list (socket type triples, ports, flags, errors) is glibc's
// by construction, and it is allocated as glibc's, so freeaddrinfo and
// uv_freeaddrinfo both free it.
//
// Every asynchronous request first passes through the threadpool as a
// task with nothing to do, then comes back through the loop's completion
// queue in the poll phase. libuv runs the whole lookup on the pool: this
// way a request waits behind pool work as libuv's does, uv_cancel acts on
// it as on a pool request (a lookup canceled while queued never starts),
// and its callback keeps libuv's place among the pool's completions. An
// answer known at start is delivered when the task comes back. A name is
// handed to c-ares then, on the loop's thread: a hosts-file answer is
// delivered at once; a name server's answer comes back through the
// completion queue when it arrives, and until then the lookup can be
// canceled (no pool thread waits for it).
//
// c-ares runs on the loop: one channel per loop, made when a lookup needs
// it and destroyed once the loop's last lookup has completed. The channel's
// sockets are watched by the loop's poller (sock_state_cb) and its timeouts
// by an internal, unreferenced timer, so only the requests keep the loop
// alive.
//
// A lookup without a callback runs on the calling thread with a channel of
// its own, waiting in poll(2) for its sockets.

#include "phaseloop/dns.hpp"

#include <ares.h>
#include <arpa/inet.h>
#include <poll.h>
#include <strings.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "core/loop_impl.hpp"

namespace phaseloop {

namespace {

// Returned by the local steps when only a name server can answer.
constexpr int need_lookup = 1;

// libuv's uv__getaddrinfo_translate_error, for the C library's EAI_* codes.
int from_glibc(int e) noexcept {
  switch (e) {
    case 0: return 0;
    case EAI_ADDRFAMILY: return eai::addrfamily;
    case EAI_AGAIN: return eai::again;
    case EAI_BADFLAGS: return eai::badflags;
    case EAI_CANCELED: return eai::canceled;
    case EAI_FAIL: return eai::fail;
    case EAI_FAMILY: return eai::family;
    case EAI_MEMORY: return eai::memory;
    case EAI_NODATA: return eai::nodata;
    case EAI_NONAME: return eai::noname;
    case EAI_OVERFLOW: return eai::overflow;
    case EAI_SERVICE: return eai::service;
    case EAI_SOCKTYPE: return eai::socktype;
    case EAI_SYSTEM: return errno != 0 ? -errno : eai::fail;
  }
  return eai::fail;  // libuv aborts on a code it does not know
}

// A c-ares status as the C library would have reported the same outcome:
// a name server that does not answer, fails or refuses is EAI_AGAIN, a
// name it does not know EAI_NONAME, a name without addresses EAI_NODATA.
int from_ares(int status) noexcept {
  switch (status) {
    case ARES_SUCCESS: return 0;
    case ARES_ENODATA: return eai::nodata;
    case ARES_ENOTFOUND:
    case ARES_ENONAME:
    case ARES_EBADNAME: return eai::noname;
    case ARES_ETIMEOUT:
    case ARES_ECONNREFUSED:
    case ARES_ESERVFAIL:
    case ARES_EREFUSED:
    case ARES_EOF: return eai::again;
    case ARES_ENOMEM: return eai::memory;
    case ARES_EBADFAMILY: return eai::family;
    case ARES_EBADFLAGS: return eai::badflags;
    case ARES_ESERVICE: return eai::service;
    case ARES_ECANCELLED:
    case ARES_EDESTRUCTION: return eai::canceled;
  }
  return eai::fail;
}

// ---- IDNA: host names to ASCII, as libuv does before getaddrinfo ---------

// The next code point of a UTF-8 string, or -1 for a malformed sequence
// (bad or missing continuation bytes, overlong forms, surrogates, values
// past U+10FFFF).
long utf8_next(const unsigned char*& p, const unsigned char* end) noexcept {
  const unsigned lead = *p++;
  if (lead < 0x80) return lead;
  int more;
  long cp, min;
  if (lead >= 0xC2 && lead <= 0xDF) {
    more = 1, cp = lead & 0x1F, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    more = 2, cp = lead & 0x0F, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    more = 3, cp = lead & 0x07, min = 0x10000;
  } else {
    return -1;
  }
  if (end - p < more) return -1;
  for (; more > 0; more--) {
    const unsigned c = *p++;
    if ((c & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

// Characters libuv takes as label separators: '.' and its CJK and
// full-width forms (all written as '.').
bool is_dot(long cp) noexcept { return cp == '.' || cp == 0x3002 || cp == 0xFF0E || cp == 0xFF61; }

// An output buffer that counts what does not fit, so that the caller can
// tell an over-long result.
struct ascii_out {
  char* p;
  std::size_t cap;
  std::size_t n = 0;
  void put(char c) noexcept {
    if (n < cap) p[n] = c;
    n++;
  }
};

char puny_digit(unsigned d) noexcept { return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26)); }

// RFC 3492's bias adaptation.
unsigned puny_adapt(unsigned delta, unsigned points, bool first) noexcept {
  delta = first ? delta / 700 : delta / 2;
  delta += delta / points;
  unsigned k = 0;
  while (delta > 35 * 26 / 2) {
    delta /= 35;
    k += 36;
  }
  return k + 36 * delta / (delta + 38);
}

// One label: copied when it is all ASCII, else "xn--" and its punycode
// (RFC 3492; no case folding or normalisation, as in libuv).
int encode_label(const char32_t* cps, unsigned len, ascii_out& out) noexcept {
  unsigned basic = 0;
  for (unsigned i = 0; i < len; i++)
    if (cps[i] < 0x80) basic++;
  if (basic == len) {
    for (unsigned i = 0; i < len; i++) out.put(static_cast<char>(cps[i]));
    return 0;
  }
  for (const char* s = "xn--"; *s; s++) out.put(*s);
  for (unsigned i = 0; i < len; i++)
    if (cps[i] < 0x80) out.put(static_cast<char>(cps[i]));
  if (basic > 0) out.put('-');
  unsigned n = 0x80, delta = 0, bias = 72, done = basic;
  bool first = true;
  while (done < len) {
    unsigned m = UINT_MAX;
    for (unsigned i = 0; i < len; i++)
      if (cps[i] >= n && cps[i] < m) m = cps[i];
    if (m - n > (UINT_MAX - delta) / (done + 1)) return -E2BIG;
    delta += (m - n) * (done + 1);
    n = m;
    for (unsigned i = 0; i < len; i++) {
      if (cps[i] < n && ++delta == 0) return -E2BIG;
      if (cps[i] != n) continue;
      unsigned q = delta;
      for (unsigned k = 36;; k += 36) {
        const unsigned t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (q < t) break;
        out.put(puny_digit(t + (q - t) % (36 - t)));
        q = (q - t) / (36 - t);
      }
      out.put(puny_digit(q));
      bias = puny_adapt(delta, done + 1, first);
      first = false;
      delta = 0;
      done++;
    }
    delta++;
    n++;
  }
  return 0;
}

// libuv's uv__idna_toascii into a 256-byte buffer: errc::invalid for an
// empty name, one that is not UTF-8 or one that does not fit (as in
// Debian's 1.44.2, which has the 1.48 fixes), -E2BIG when punycode
// overflows.
int to_ascii(const char* name, char (&out)[256]) noexcept {
  if (*name == '\0') return errc::invalid;
  ascii_out o{out, sizeof out - 1};
  char32_t label[sizeof out];
  unsigned len = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(name);
  const unsigned char* end = p + std::strlen(name);
  while (p < end) {
    const long cp = utf8_next(p, end);
    if (cp < 0) return errc::invalid;
    if (!is_dot(cp)) {
      // A label this long cannot fit once written out.
      if (len == sizeof out) return errc::invalid;
      label[len++] = static_cast<char32_t>(cp);
      continue;
    }
    if (int r = encode_label(label, len, o); r != 0) return r;
    o.put('.');
    len = 0;
  }
  if (int r = encode_label(label, len, o); r != 0) return r;
  if (o.n > o.cap) return errc::invalid;
  out[o.n] = '\0';
  return 0;
}

// ---- the local steps (no name server) ------------------------------------

// The hints glibc applies: its defaults for null hints (AI_V4MAPPED |
// AI_ADDRCONFIG, any family), else the caller's, whose list fields glibc
// ignores anyway.
addrinfo effective_hints(const addrinfo* hints) noexcept {
  addrinfo h{};
  if (hints == nullptr) {
    h.ai_flags = AI_V4MAPPED | AI_ADDRCONFIG;
    h.ai_family = AF_UNSPEC;
  } else {
    h.ai_flags = hints->ai_flags;
    h.ai_family = hints->ai_family;
    h.ai_socktype = hints->ai_socktype;
    h.ai_protocol = hints->ai_protocol;
  }
  return h;
}

// Entries made by a call with extra flags show the caller's, as glibc's own.
void set_flags(addrinfo* list, int flags) noexcept {
  for (; list != nullptr; list = list->ai_next) list->ai_flags = flags;
}

// Everything glibc answers before it would look a name up: the whole
// answer for a null node or a numeric address, or the error that hints or
// service would give. need_lookup when a name server must be asked.
int local_addrinfo(const char* node, const char* service, const addrinfo* hints, const addrinfo& h,
                   addrinfo** out) noexcept {
  if (node == nullptr) return from_glibc(::getaddrinfo(nullptr, service, hints, out));
  addrinfo numeric = h;
  numeric.ai_flags |= AI_NUMERICHOST;
  int r = ::getaddrinfo(node, service, &numeric, out);
  if (r != EAI_NONAME) {
    if (r == 0) set_flags(*out, h.ai_flags);
    return from_glibc(r);
  }
  if (h.ai_flags & AI_NUMERICHOST) return eai::noname;
  // Not an address. glibc checks the hints and the service before the name:
  // ask it the same with an address that always parses. AI_ADDRCONFIG is
  // left out (it could rule that address's family out, not the name's).
  addrinfo probe = h;
  probe.ai_flags = (h.ai_flags & ~(AI_CANONNAME | AI_ADDRCONFIG)) | AI_NUMERICHOST;
  addrinfo* dummy = nullptr;
  r = ::getaddrinfo(h.ai_family == AF_INET ? "0.0.0.0" : "::", service, &probe, &dummy);
  if (dummy != nullptr) ::freeaddrinfo(dummy);
  if (r != 0) return from_glibc(r);
  if (*node == '\0') return eai::noname;
  return need_lookup;
}

// The name glibc would give as ai_canonname: the end of the CNAME chain
// from the name asked (a hosts-file alias leads to its line's first name),
// spelt as the answer spells it.
const char* canonical_name(const ares_addrinfo* ai, const char* asked) noexcept {
  const char* name = ai->name != nullptr ? ai->name : asked;
  for (int hops = 0; hops < 16; hops++) {  // bounded: CNAMEs may form a loop
    const ares_addrinfo_cname* next = nullptr;
    for (const ares_addrinfo_cname* c = ai->cnames; c != nullptr; c = c->next)
      if (c->alias != nullptr && c->name != nullptr && strcasecmp(c->alias, name) == 0) {
        next = c;
        break;
      }
    if (next == nullptr) break;
    name = next->name;
  }
  for (const ares_addrinfo_cname* c = ai->cnames; c != nullptr; c = c->next)
    if (c->name != nullptr && strcasecmp(c->name, name) == 0) return c->name;
  return name;
}

// The list for the addresses c-ares found: each address through glibc's
// numeric path (with the caller's service and hints), in c-ares' order
// (RFC 6724, as glibc sorts). With AF_INET6 and AI_V4MAPPED, c-ares was
// asked for both families: IPv4 addresses come mapped, and only when
// there is no IPv6 one or with AI_ALL.
int expand_addrinfo(const ares_addrinfo* ai, const char* asked, const char* service, const addrinfo& h,
                    addrinfo** out) noexcept {
  const bool mapping = h.ai_family == AF_INET6 && (h.ai_flags & AI_V4MAPPED);
  bool have_v6 = false;
  for (const ares_addrinfo_node* n = ai->nodes; n != nullptr; n = n->ai_next)
    if (n->ai_family == AF_INET6) have_v6 = true;
  addrinfo each = h;
  each.ai_flags = (h.ai_flags & ~AI_CANONNAME) | AI_NUMERICHOST;
  addrinfo* head = nullptr;
  addrinfo** tail = &head;
  int first_error = 0;
  for (const ares_addrinfo_node* n = ai->nodes; n != nullptr; n = n->ai_next) {
    if (mapping && n->ai_family == AF_INET && have_v6 && !(h.ai_flags & AI_ALL)) continue;
    const void* bytes = n->ai_family == AF_INET6
                            ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(n->ai_addr)->sin6_addr)
                            : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(n->ai_addr)->sin_addr);
    char text[INET6_ADDRSTRLEN];
    if (inet_ntop(n->ai_family, bytes, text, sizeof text) == nullptr) continue;
    addrinfo* part = nullptr;
    if (int r = ::getaddrinfo(text, service, &each, &part); r != 0) {
      // AI_ADDRCONFIG rules out the families this host has no address of.
      if (first_error == 0) first_error = r;
      continue;
    }
    *tail = part;
    while (*tail != nullptr) tail = &(*tail)->ai_next;
  }
  if (head == nullptr) return first_error != 0 ? from_glibc(first_error) : eai::noname;
  set_flags(head, h.ai_flags);
  if (h.ai_flags & AI_CANONNAME) {
    head->ai_canonname = ::strdup(canonical_name(ai, asked));  // glibc's freeaddrinfo frees it
    if (head->ai_canonname == nullptr) {
      ::freeaddrinfo(head);
      return eai::memory;
    }
  }
  *out = head;
  return 0;
}

// getnameinfo without a name server: the whole answer with NI_NUMERICHOST,
// else the flags checked, the numeric host (kept if no name is found) and
// the service, and need_lookup.
int local_nameinfo(const sockaddr* sa, socklen_t len, int flags, char* host, char* service) noexcept {
  if (flags & NI_NUMERICHOST)
    return from_glibc(::getnameinfo(sa, len, host, NI_MAXHOST, service, NI_MAXSERV, flags));
  const int r = ::getnameinfo(sa, len, host, NI_MAXHOST, service, NI_MAXSERV,
                              (flags | NI_NUMERICHOST) & ~NI_NAMEREQD);
  return r != 0 ? from_glibc(r) : need_lookup;
}

// glibc's NI_NOFQDN: the name loses the local domain (taken here from the
// host name only; glibc may also look the host name up).
std::size_t without_local_domain(const char* name) noexcept {
  const std::size_t whole = std::strlen(name);
  char self[256];
  if (gethostname(self, sizeof self) != 0) return whole;
  self[sizeof self - 1] = '\0';
  const char* domain = std::strchr(self, '.');
  if (domain == nullptr || domain[1] == '\0') return whole;
  const char* at = std::strstr(name, domain + 1);
  if (at == nullptr || at == name || at[-1] != '.') return whole;
  return static_cast<std::size_t>(at - 1 - name);
}

// Writes the host name of a reverse lookup's answer, as glibc's
// getnameinfo would: the name found, else (a name server failing aside)
// the numeric form already in `host`, or EAI_NONAME with NI_NAMEREQD.
int finish_nameinfo(int status, const hostent* he, int flags, char* host) noexcept {
  if (status == ARES_SUCCESS && he != nullptr && he->h_name != nullptr) {
    const std::size_t len = (flags & NI_NOFQDN) ? without_local_domain(he->h_name) : std::strlen(he->h_name);
    if (len >= NI_MAXHOST) return eai::overflow;
    std::memcpy(host, he->h_name, len);
    host[len] = '\0';
    return 0;
  }
  switch (status) {
    case ARES_ETIMEOUT:
    case ARES_ECONNREFUSED:
    case ARES_ESERVFAIL:
    case ARES_EREFUSED:
    case ARES_EOF: return eai::again;
    case ARES_ENOMEM: return eai::memory;
    case ARES_ECANCELLED:
    case ARES_EDESTRUCTION: return eai::canceled;
  }
  return (flags & NI_NAMEREQD) ? eai::noname : 0;
}

// ---- channels ------------------------------------------------------------

// Resolver settings of one loop (empty: the system's).
struct settings {
  std::string servers;
  int timeout_ms = 0;
  int tries = 0;
};

const settings no_settings{};

// c-ares wants one library initialisation per process before any channel.
int library_status() noexcept {
  static const int status = ares_library_init(ARES_LIB_INIT_ALL);
  return status;
}

// A channel with `s` applied; `state_cb` (with `data`) is told which
// sockets to watch, or is null for a channel the caller polls itself.
int make_channel(const settings& s, ares_sock_state_cb state_cb, void* data, ares_channel* out) noexcept {
  if (library_status() != ARES_SUCCESS) return eai::fail;
  ares_options o{};
  int mask = 0;
  if (state_cb != nullptr) {
    o.sock_state_cb = state_cb;
    o.sock_state_cb_data = data;
    mask |= ARES_OPT_SOCK_STATE_CB;
  }
  if (s.timeout_ms > 0) {
    o.timeout = s.timeout_ms;
    mask |= ARES_OPT_TIMEOUTMS;
  }
  if (s.tries > 0) {
    o.tries = s.tries;
    mask |= ARES_OPT_TRIES;
  }
  int st = ares_init_options(out, &o, mask);
  if (st != ARES_SUCCESS) return st == ARES_ENOMEM ? eai::memory : eai::fail;
  const char* servers = !s.servers.empty() ? s.servers.c_str() : std::getenv("PHASELOOP_DNS_SERVERS");
  if (servers != nullptr && *servers != '\0' && (st = ares_set_servers_ports_csv(*out, servers)) != ARES_SUCCESS) {
    ares_destroy(*out);
    return st == ARES_ENOMEM ? eai::memory : eai::fail;
  }
  return 0;
}

// A timeval from ares_timeout as whole milliseconds, rounded up so that a
// wake-up never comes before c-ares' deadline.
std::uint64_t ceil_ms(const timeval& tv) noexcept {
  return static_cast<std::uint64_t>(tv.tv_sec) * 1000 + (static_cast<std::uint64_t>(tv.tv_usec) + 999) / 1000;
}

ares_addrinfo_hints ares_hints_for(const addrinfo& h) noexcept {
  ares_addrinfo_hints a{};
  a.ai_family = h.ai_family == AF_INET6 && (h.ai_flags & AI_V4MAPPED) ? AF_UNSPEC : h.ai_family;
  // CARES_HOSTS may name another hosts file (c-ares' own variable).
  a.ai_flags = ARES_AI_ENVHOSTS | ((h.ai_flags & AI_CANONNAME) ? ARES_AI_CANONNAME : 0);
  return a;
}

}  // namespace

// ---- one lookup ----------------------------------------------------------

// What c-ares holds as its callback argument, and what the threadpool and
// the loop's completion queue hold. It outlives its request's callback
// when that came first (a lookup canceled while a name server had it): it
// goes when both are done with it.
struct detail::dns_query {
  pool_task task;            // the pool's queue, the completion queue; first member
  resolver* res = nullptr;   // null for a synchronous lookup
  req* owner = nullptr;      // the request served
  bool lookup = false;       // c-ares must look it up after the pool trip
  bool starting = false;     // handed to c-ares just now: an answer is delivered at once
  bool waiting = false;      // a name server has it
  bool in_ares = false;      // c-ares still has it
  bool answered = false;     // c-ares is done with it
  bool delivered = false;    // its callback ran
  bool canceled = false;
  int status = 0;
  addrinfo* list = nullptr;  // getaddrinfo's result until delivered
  addrinfo hints{};          // getaddrinfo's effective hints
  char* node = nullptr;      // getaddrinfo's name and service, for the answer
  char* service = nullptr;

  ~dns_query() {
    if (list != nullptr) ::freeaddrinfo(list);
    std::free(node);
    std::free(service);
  }
};

// One loop's resolver: its settings, its channel while lookups need one,
// the sockets c-ares asked to watch and the timer for its timeouts.
struct detail::resolver {
  explicit resolver(loop& owner) noexcept : l(owner), tick(owner) {
    tick.data = this;
    tick.flags_ |= handle::internal_flag;
    tick.unref();
  }

  // One c-ares socket in the loop's poller.
  struct sock_watch {
    io_watcher w;  // first member: the poller hands back its address
    resolver* r;
  };

  loop& l;
  settings config;
  ares_channel channel = nullptr;
  timer tick;
  std::vector<std::unique_ptr<sock_watch>> socks;
  unsigned requests = 0;  // asynchronous requests whose callback has not run

  static resolver* of(loop& l) noexcept {
    if (l.resolver_ == nullptr) l.resolver_ = new (std::nothrow) resolver(l);
    return l.resolver_;
  }

  static const settings& settings_of(loop* l) noexcept {
    return l != nullptr && l->resolver_ != nullptr ? l->resolver_->config : no_settings;
  }

  int open_channel() noexcept {
    return channel != nullptr ? 0 : make_channel(config, &resolver::on_sock_state, this, &channel);
  }

  // Also what loop::close() does: c-ares closes its sockets (telling
  // on_sock_state) and ends the lookups it still has, which can only be
  // canceled ones whose callbacks ran.
  void close_channel() noexcept {
    if (channel == nullptr) return;
    ares_channel ch = channel;
    channel = nullptr;
    ares_destroy(ch);
    for (auto& s : socks) l.poller_.unwatch(s->w, io_readable | io_writable);
    socks.clear();
    tick.stop();
  }

  // Arms the timer for c-ares' next deadline, or stops it.
  void rearm() noexcept {
    timeval tv;
    if (channel == nullptr || ares_timeout(channel, nullptr, &tv) == nullptr) {
      tick.stop();
      return;
    }
    tick.start(&resolver::on_tick, ceil_ms(tv), 0);
  }

  // Queues the completion of `q` (a canceled one moves to the back).
  void post(dns_query& q) noexcept {
    std::lock_guard<std::mutex> lock(l.wq_mutex_);
    pool_task::list::unlink(q.task);
    l.wq_done_.push_back(q.task);
    l.wq_async_().send();
  }

  // The request is in flight from here until its callback.
  void begin(dns_query& q, req& r) noexcept {
    q.res = this;
    q.owner = &r;
    q.task.ops = &ops;
    requests++;
  }

  // The trip through the pool (see the top of this file).
  int submit(dns_query& q, req& r) noexcept {
    if (int e = pool_submit(l, q.task, ops); e != 0) {
      if (r.type() == req_type::getaddrinfo)
        static_cast<getaddrinfo_req&>(r).query_ = nullptr;
      else
        static_cast<getnameinfo_req&>(r).query_ = nullptr;
      delete &q;
      if (--requests == 0) close_channel();
      return e;
    }
    return 0;
  }

  static void on_sock_state(void* data, ares_socket_t fd, int readable, int writable) {
    resolver& r = *static_cast<resolver*>(data);
    auto it = r.socks.begin();
    while (it != r.socks.end() && (*it)->w.fd != fd) ++it;
    if (!readable && !writable) {
      if (it != r.socks.end()) {
        r.l.poller_.unwatch((*it)->w, io_readable | io_writable);
        r.socks.erase(it);
      }
      return;
    }
    sock_watch* s;
    if (it != r.socks.end()) {
      s = it->get();
    } else {
      // No memory: the socket goes unwatched and its lookup times out.
      try {
        r.socks.push_back(std::make_unique<sock_watch>());
      } catch (...) {
        return;
      }
      s = r.socks.back().get();
      s->w.fd = fd;
      s->w.cb = &resolver::on_io;
      s->r = &r;
    }
    const unsigned want = (readable ? io_readable : 0u) | (writable ? io_writable : 0u);
    r.l.poller_.unwatch(s->w, ~want & (io_readable | io_writable));
    // A refusal leaves the socket unwatched: its lookup times out.
    (void)r.l.poller_.watch(s->w, want);
  }

  static void on_io(loop&, io_watcher& w, unsigned events) {
    resolver& r = *reinterpret_cast<sock_watch&>(w).r;
    const int fd = w.fd;
    // c-ares may close this socket (and free `w`) while it processes it.
    const bool rd = events & (io_readable | io_error | io_hangup);
    const bool wr = events & io_writable;
    ares_process_fd(r.channel, rd ? fd : ARES_SOCKET_BAD, wr ? fd : ARES_SOCKET_BAD);
    r.rearm();
  }

  static void on_tick(timer* t) {
    resolver& r = *static_cast<resolver*>(t->data);
    ares_process_fd(r.channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
    r.rearm();
  }

  // Back from the pool trip, `q` goes to c-ares. False when it has its
  // answer now (or failed to start); true when a name server has it, whose
  // answer will come back through the completion queue (the loop counts
  // the request until then).
  bool resolve(dns_query& q) noexcept {
    if ((q.status = open_channel()) != 0) return false;
    q.starting = true;
    if (q.owner->type() == req_type::getaddrinfo)
      start_addrinfo(channel, q);
    else
      start_hostent(channel, q);
    q.starting = false;
    if (q.answered) return false;
    q.waiting = true;
    l.active_reqs_++;
    rearm();
    return true;
  }

  // c-ares is done with `q`: a synchronous lookup's waiter sees it, and so
  // does resolve() for an answer given at once; an asynchronous one
  // completes, unless it was canceled (then completing was done by
  // cancel()) or even delivered (then nobody needs it).
  static void answered(dns_query& q) noexcept {
    q.in_ares = false;
    q.answered = true;
    if (q.res == nullptr || q.starting) return;
    if (q.delivered) {
      delete &q;
      return;
    }
    if (!q.canceled) q.res->post(q);
  }

  static void on_addrinfo(void* arg, int status, int, ares_addrinfo* ai) {
    auto& q = *static_cast<dns_query*>(arg);
    if (!q.canceled)
      q.status = status == ARES_SUCCESS ? expand_addrinfo(ai, q.node, q.service, q.hints, &q.list) : from_ares(status);
    if (ai != nullptr) ares_freeaddrinfo(ai);
    answered(q);
  }

  static void on_hostent(void* arg, int status, int timeouts, hostent* he) {
    auto& q = *static_cast<dns_query*>(arg);
    // c-ares reports a name server that never answered as "not found"
    // (it has no lookup left after DNS); glibc says EAI_AGAIN then.
    if (status == ARES_ENOTFOUND && timeouts > 0) status = ARES_ETIMEOUT;
    if (!q.canceled) {
      auto& r = static_cast<getnameinfo_req&>(*q.owner);
      q.status = finish_nameinfo(status, he, r.flags_, r.host_);
    }
    answered(q);
  }

  static void start_addrinfo(ares_channel ch, dns_query& q) noexcept {
    q.in_ares = true;
    const ares_addrinfo_hints ah = ares_hints_for(q.hints);
    ares_getaddrinfo(ch, q.node, nullptr, &ah, &resolver::on_addrinfo, &q);
  }

  static void start_hostent(ares_channel ch, dns_query& q) noexcept {
    auto& r = static_cast<getnameinfo_req&>(*q.owner);
    q.in_ares = true;
    if (r.storage_.ss_family == AF_INET6)
      ares_gethostbyaddr(ch, &reinterpret_cast<const sockaddr_in6&>(r.storage_).sin6_addr, sizeof(in6_addr),
                         AF_INET6, &resolver::on_hostent, &q);
    else
      ares_gethostbyaddr(ch, &reinterpret_cast<const sockaddr_in&>(r.storage_).sin_addr, sizeof(in_addr), AF_INET,
                         &resolver::on_hostent, &q);
  }

  // A lookup on the calling thread: its own channel, polled here until
  // c-ares answers.
  static int run_blocking(const settings& s, dns_query& q, void (*start)(ares_channel, dns_query&)) noexcept {
    ares_channel ch;
    if (int r = make_channel(s, nullptr, nullptr, &ch); r != 0) return r;
    start(ch, q);
    while (!q.answered) {
      ares_socket_t socks[ARES_GETSOCK_MAXNUM];
      const int bits = ares_getsock(ch, socks, ARES_GETSOCK_MAXNUM);
      pollfd fds[ARES_GETSOCK_MAXNUM];
      nfds_t n = 0;
      for (int i = 0; i < ARES_GETSOCK_MAXNUM; i++) {
        const short ev = static_cast<short>((ARES_GETSOCK_READABLE(bits, i) ? POLLIN : 0) |
                                            (ARES_GETSOCK_WRITABLE(bits, i) ? POLLOUT : 0));
        if (ev != 0) fds[n++] = pollfd{socks[i], ev, 0};
      }
      timeval tv;
      const int wait = ares_timeout(ch, nullptr, &tv) != nullptr ? static_cast<int>(ceil_ms(tv)) : -1;
      if (n == 0 && wait < 0) {
        // Nothing left to wait for, yet no answer: never block forever.
        ares_destroy(ch);
        return eai::fail;
      }
      const int ready = ::poll(fds, n, wait);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) {
        ares_process_fd(ch, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
        continue;
      }
      for (nfds_t i = 0; i < n; i++) {
        const short ev = fds[i].revents;
        if (ev == 0) continue;
        ares_process_fd(ch, (ev & (POLLIN | POLLERR | POLLHUP)) ? fds[i].fd : ARES_SOCKET_BAD,
                        (ev & POLLOUT) ? fds[i].fd : ARES_SOCKET_BAD);
      }
    }
    ares_destroy(ch);
    return q.status;
  }

  // A request on its pool trip is canceled as a pool request (not once a
  // thread took it); one a name server has, at any time before its
  // callback.
  static int cancel(dns_query* q) noexcept {
    if (q == nullptr || q->res == nullptr) return errc::busy;
    if (!q->waiting) return pool_cancel(q->res->l, q->task);
    if (q->list != nullptr) {
      ::freeaddrinfo(q->list);
      q->list = nullptr;
    }
    q->canceled = true;
    q->status = eai::canceled;
    q->res->post(*q);
    return 0;
  }

  // From the loop's completion queue in the poll phase (the loop stopped
  // counting the request just before): back from the pool trip, or with a
  // name server's answer. Delivers the answer, unless c-ares must now ask
  // a name server first.
  static void done(pool_task& t, int pool_status) {
    auto& q = reinterpret_cast<dns_query&>(t);
    resolver& r = *q.res;
    if (pool_status == errc::canceled) {
      q.canceled = true;
      q.status = eai::canceled;
      if (q.list != nullptr) ::freeaddrinfo(q.list);
      q.list = nullptr;
    } else if (q.lookup) {
      q.lookup = false;
      if (r.resolve(q)) return;
    }
    req& owner = *q.owner;
    const int status = q.status;
    addrinfo* list = q.list;
    q.list = nullptr;
    q.delivered = true;
    r.requests--;
    if (!q.in_ares) delete &q;
    if (owner.type() == req_type::getaddrinfo) {
      auto& g = static_cast<getaddrinfo_req&>(owner);
      g.query_ = nullptr;
      g.retcode_ = status;
      g.addrinfo_ = list;
      // The callback may free the request: nothing touches it afterwards.
      if (getaddrinfo_cb cb = g.cb_)
        r.l.poll_callback_(callback_kind::dns, nullptr, &g, [cb, &g, status, list] { cb(&g, status, list); });
    } else {
      auto& n = static_cast<getnameinfo_req&>(owner);
      n.query_ = nullptr;
      n.retcode_ = status;
      const char* host = status == 0 ? n.host_ : nullptr;
      const char* service = status == 0 ? n.service_ : nullptr;
      if (getnameinfo_cb cb = n.cb_)
        r.l.poll_callback_(callback_kind::dns, nullptr, &n, [cb, &n, status, host, service] {
          cb(&n, status, host, service);
        });
    }
    // The last lookup is over: the channel goes (the settings stay).
    if (r.requests == 0) r.close_channel();
  }

  static const pool_ops ops;

  static int getaddrinfo(getaddrinfo_req& req, const char* node, const char* service,
                         const addrinfo* hints) noexcept {
    const addrinfo h = effective_hints(hints);
    addrinfo* list = nullptr;
    int r = local_addrinfo(node, service, hints, h, &list);
    if (req.cb_ == nullptr) {
      if (r == need_lookup) {
        dns_query q;
        q.owner = &req;
        q.hints = h;
        q.node = const_cast<char*>(node);
        q.service = const_cast<char*>(service);
        r = run_blocking(settings_of(req.loop_), q, &resolver::start_addrinfo);
        list = q.list;
        q.list = nullptr;
        q.node = q.service = nullptr;  // the caller's strings
      }
      req.addrinfo_ = list;
      req.retcode_ = r;
      return r;
    }
    resolver* res = of(*req.loop_);
    auto* q = new (std::nothrow) dns_query;
    if (res == nullptr || q == nullptr) {
      delete q;
      if (list != nullptr) ::freeaddrinfo(list);
      return errc::no_memory;
    }
    if (r == need_lookup) {
      q->node = ::strdup(node);
      q->service = service != nullptr ? ::strdup(service) : nullptr;
      if (q->node == nullptr || (service != nullptr && q->service == nullptr)) {
        delete q;
        return errc::no_memory;
      }
    }
    res->begin(*q, req);
    req.query_ = q;
    q->hints = h;
    q->list = list;
    q->status = r;
    q->lookup = r == need_lookup;
    return res->submit(*q, req);
  }

  static int getnameinfo(getnameinfo_req& req, socklen_t len) noexcept {
    const auto* sa = reinterpret_cast<const sockaddr*>(&req.storage_);
    int r = local_nameinfo(sa, len, req.flags_, req.host_, req.service_);
    if (req.cb_ == nullptr) {
      if (r == need_lookup) {
        dns_query q;
        q.owner = &req;
        r = run_blocking(settings_of(req.loop_), q, &resolver::start_hostent);
      }
      req.retcode_ = r;
      return r;
    }
    resolver* res = of(*req.loop_);
    auto* q = new (std::nothrow) dns_query;
    if (res == nullptr || q == nullptr) {
      delete q;
      return errc::no_memory;
    }
    res->begin(*q, req);
    req.query_ = q;
    q->status = r;
    q->lookup = r == need_lookup;
    return res->submit(*q, req);
  }

  static int configure(loop& l, const resolver_config& c) noexcept {
    if (c.timeout_ms < 0 || c.tries < 0) return errc::invalid;
    resolver* r = of(l);
    if (r == nullptr) return errc::no_memory;
    if (r->requests != 0) return errc::busy;
    settings s;
    try {
      if (c.servers != nullptr) s.servers = c.servers;
    } catch (...) {
      return errc::no_memory;
    }
    s.timeout_ms = c.timeout_ms;
    s.tries = c.tries;
    if (!s.servers.empty()) {
      // Let c-ares read the list once now, so that a bad one is refused here.
      ares_channel probe;
      if (int e = make_channel(s, nullptr, nullptr, &probe); e != 0)
        return e == eai::memory ? errc::no_memory : errc::invalid;
      ares_destroy(probe);
    }
    r->close_channel();
    r->config = std::move(s);
    return 0;
  }
};

const detail::pool_ops detail::resolver::ops = {
    // Nothing for a pool thread to do: the trip only gives the request its
    // place among the pool's (see the top of this file).
    [](detail::pool_task&) {},
    [](detail::pool_task& t) -> loop& { return reinterpret_cast<dns_query&>(t).res->l; },
    &resolver::done,
};

// ---- public entry points -------------------------------------------------

void free_addrinfo(struct addrinfo* ai) noexcept {
  if (ai != nullptr) ::freeaddrinfo(ai);
}

int getaddrinfo_req::start(loop* l, getaddrinfo_cb cb, const char* node, const char* service,
                           const struct addrinfo* hints) noexcept {
  if (query_ != nullptr) return errc::busy;
  if ((node == nullptr && service == nullptr) || (cb != nullptr && l == nullptr)) return errc::invalid;
  char ascii[256];
  if (node != nullptr) {
    if (int r = to_ascii(node, ascii); r != 0) return r;
    node = ascii;
  }
  loop_ = l;
  cb_ = cb;
  addrinfo_ = nullptr;
  retcode_ = 0;
  return detail::resolver::getaddrinfo(*this, node, service, hints);
}

int getaddrinfo_req::cancel() noexcept { return detail::resolver::cancel(query_); }

int getnameinfo_req::start(loop* l, getnameinfo_cb cb, const struct sockaddr* addr, int flags) noexcept {
  if (query_ != nullptr) return errc::busy;
  if (addr == nullptr || (cb != nullptr && l == nullptr)) return errc::invalid;
  socklen_t len;
  if (addr->sa_family == AF_INET)
    len = sizeof(sockaddr_in);
  else if (addr->sa_family == AF_INET6)
    len = sizeof(sockaddr_in6);
  else
    return errc::invalid;
  std::memcpy(&storage_, addr, len);
  loop_ = l;
  cb_ = cb;
  flags_ = flags;
  retcode_ = 0;
  return detail::resolver::getnameinfo(*this, len);
}

int getnameinfo_req::cancel() noexcept { return detail::resolver::cancel(query_); }

int configure_resolver(loop& l, const resolver_config& config) noexcept {
  return detail::resolver::configure(l, config);
}

void loop::close_resolver_() noexcept {
  if (resolver_ == nullptr) return;
  resolver_->close_channel();
  resolver_->tick.stop();
  handles_.erase(resolver_->tick);
  delete resolver_;
  resolver_ = nullptr;
}

}  // namespace phaseloop
