// SPDX-License-Identifier: MIT
// Streams: reading, the write queue, shutdown, listening and accepting,
// shared by tcp, pipe and tty handles. The rules follow libuv 1.44's unix
// streams: a write is tried at once when nothing is queued, its completion
// is reported from the pending phase; a read pass makes at most 32 reads.

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstring>
#include <new>

#include "core/chaos.hpp"
#include "core/internal.hpp"
#include "phaseloop/pipe.hpp"
#include "phaseloop/stream.hpp"
#include "phaseloop/tcp.hpp"
#include "phaseloop/udp.hpp"

namespace phaseloop {

namespace {

constexpr unsigned read_events = detail::io_readable;
constexpr unsigned write_events = detail::io_writable;

int accept_fd(int server) noexcept {
  for (;;) {
    int fd = ::accept4(server, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno != EINTR) return -errno;
  }
}

int open_spare_fd() noexcept {
  int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd < 0) fd = ::open("/", O_RDONLY | O_CLOEXEC);
  return fd;
}

// The descriptor a loop keeps in reserve and gives up when accept() fails
// with EMFILE (see server_io_): a part of the loop, made by its first
// stream.
struct spare_fd final : detail::loop_part {
  static constexpr char tag = 0;
  explicit spare_fd(phaseloop::loop& l) noexcept : loop_part(l) {}
  ~spare_fd() override {
    if (fd >= 0) ::close(fd);
  }
  int fd = -1;
};

// The fd a handle passed over IPC stands for: TCP, pipe and UDP handles
// can be sent, as in libuv.
int fd_of(handle* h) noexcept {
  if (h == nullptr) return -1;
  switch (h->type()) {
    case handle_type::tcp:
    case handle_type::named_pipe: return static_cast<stream*>(h)->fd();
    case handle_type::udp: return static_cast<udp*>(h)->fd();
    default: return -1;
  }
}

}  // namespace

stream::stream(phaseloop::loop& l, handle_type t) noexcept : handle(l, t) {
  watcher_.cb = &stream::io_;
  // A spare fd for the day accept() fails with EMFILE (see server_io_).
  if (spare_fd* spare = detail::loop_seam::part<spare_fd>(l); spare != nullptr && spare->fd == -1)
    spare->fd = open_spare_fd();
}

[[gnu::hot]] stream* stream::from_(detail::io_watcher& w) noexcept {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  return reinterpret_cast<stream*>(reinterpret_cast<char*>(&w) - offsetof(stream, watcher_));
#pragma GCC diagnostic pop
}

template <class F>
inline void stream::call_(unsigned events, req* r, F&& f) {
  if (events & detail::io_fed) {
    // The pending phase: the loop's hooks saw the pending callback (which
    // names no request); a request completed in it is told as an I/O
    // callback nested in that one, so that hooks see which one.
    if (r != nullptr && loop_->hooked()) [[unlikely]]
      detail::loop_seam::callback<true>(*loop_, phase::pending, callback_kind::io, this, r, static_cast<F&&>(f));
    else
      f();
  } else {
    detail::loop_seam::complete(*loop_, callback_kind::io, this, r, static_cast<F&&>(f));
  }
}

int stream::watch_(unsigned events) noexcept {
  // Fails only without memory for the poller's room for the fd, which
  // open_() made for every fd a stream is given: for such an fd the change
  // is queued with no allocation (poller::reserve), and what the kernel
  // then refuses reaches the stream's callbacks (refused_). read_start()
  // returns the error for an fd without room.
  return detail::loop_seam::poller(*loop_).watch(watcher_, events);
}

void stream::unwatch_(unsigned events) noexcept { detail::loop_seam::poller(*loop_).unwatch(watcher_, events); }

void stream::disarm_(unsigned events) noexcept { detail::loop_seam::poller(*loop_).disarm(watcher_, events); }

[[gnu::hot]] void stream::feed_() noexcept {
  detail::loop_seam::defer(*loop_, watcher_);
}

int stream::open_(int fd, std::uint32_t flags) noexcept {
  if (watcher_.fd != -1 && watcher_.fd != fd) return -EBUSY;
  flags_ |= flags;
  if (type_ == handle_type::tcp) {
    int on = 1;
    if ((flags_ & nodelay_flag) && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0)
      return -errno;
    if (flags_ & keepalive_flag) {
      // As libuv: a 60 s idle delay, whatever was asked before the socket.
      int idle_s = 60, interval = 1, count = 10;
      if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0 ||
          setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s) != 0 ||
          setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval) != 0 ||
          setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count) != 0)
        return -errno;
    }
  }
  // Room in the poller now, so that watching the fd later cannot fail for
  // want of memory of ours (a read that never starts, a write never told).
  if (int r = detail::loop_seam::poller(*loop_).reserve(fd); r != 0) return r;
  watcher_.fd = fd;
  return 0;
}

// ---- reading ---------------------------------------------------------------

[[gnu::hot]] bool stream::reading_() const noexcept {
  // The bit is only ever set before 1.53.
  return (flags_ & reading_flag) != 0 || (read_cb_ != nullptr && loop_->behaves().no_reading_bit);
}

void stream::end_reading_() noexcept {
  flags_ &= ~reading_flag;
  if (loop_->behaves().no_reading_bit) {
    read_cb_ = nullptr;
    alloc_cb_ = nullptr;
  }
}

int stream::read_start(stream_alloc_cb alloc, read_cb cb) noexcept {
  if (alloc == nullptr || cb == nullptr || is_closing()) return errc::invalid;
  if (reading_()) return -EALREADY;
  if (!(flags_ & readable_flag)) return -ENOTCONN;
  if (!loop_->behaves().no_reading_bit) flags_ |= reading_flag;
  flags_ &= ~read_eof_flag;
  if (int r = watch_(read_events); r != 0) {
    flags_ &= ~reading_flag;
    return r;
  }
  read_cb_ = cb;
  alloc_cb_ = alloc;
  start_();
  return 0;
}

int stream::read_stop() noexcept {
  if (!reading_()) return 0;
  flags_ &= ~reading_flag;
  disarm_(read_events);  // a stream often reads again soon (backpressure)
  stop_();
  read_cb_ = nullptr;
  alloc_cb_ = nullptr;
  return 0;
}

void stream::eof_(const fs_buf& b, unsigned events) {
  flags_ |= read_eof_flag;
  read_cb cb = read_cb_;
  end_reading_();
  unwatch_(read_events);
  stop_();
  call_(events, nullptr, [&] { cb(this, errc::eof, &b); });
}

[[gnu::hot]] void stream::read_(unsigned events) {
  flags_ &= ~(read_partial_flag | chaos_cut_flag);
  const bool ipc = carries_handles_();
  // A bound on reads per pass, so one busy stream cannot starve the rest.
  for (int count = 32; read_cb_ != nullptr && reading_() && count > 0; count--) {
    fs_buf b{nullptr, 0};
    stream_alloc_cb alloc = alloc_cb_;
    alloc(this, 64 * 1024, &b);
    read_cb cb = read_cb_;
    if (cb == nullptr) return;  // the alloc callback stopped reading
    if (b.base == nullptr || b.len == 0) {
      call_(events, nullptr, [&] { cb(this, -ENOBUFS, &b); });
      return;
    }
    ssize_t n;
    int fds_error = 0;  // taking the descriptors that came with the bytes
    if (ipc) [[unlikely]] {
      n = read_ipc_(b, fds_error);
    } else if (detail::chaos* c = detail::loop_seam::chaos(*loop_); c != nullptr) [[unlikely]] {
      n = chaos_read_(*c, b);
    } else {
      do n = ::read(watcher_.fd, b.base, b.len);
      while (n < 0 && errno == EINTR);
    }
    if (n < 0) {
      const int err = errno;
      if (err == EAGAIN || err == EWOULDBLOCK) {
        if (reading_()) watch_(read_events);
        call_(events, nullptr, [&] { cb(this, 0, &b); });
      } else {
        flags_ &= ~(readable_flag | writable_flag);
        call_(events, nullptr, [&] { cb(this, -err, &b); });
        if (reading_()) {
          end_reading_();
          unwatch_(read_events);
          stop_();
        }
      }
      return;
    }
    if (n == 0) {
      eof_(b, events);
      return;
    }
    if (fds_error != 0) [[unlikely]] {
      call_(events, nullptr, [&] { cb(this, fds_error, &b); });
      return;
    }
    call_(events, nullptr, [&] { cb(this, n, &b); });
    if (static_cast<std::size_t>(n) < b.len) {
      flags_ |= read_partial_flag;
      return;
    }
  }
}

// ---- writing ---------------------------------------------------------------

[[gnu::hot]] bool stream::carries_handles_() const noexcept {
  return type_ == handle_type::named_pipe && static_cast<const pipe*>(this)->ipc();
}

[[gnu::always_inline]] inline int stream::check_before_write_(unsigned nbufs, handle* send) const noexcept {
  if (nbufs == 0) return errc::invalid;  // libuv asserts
  if (watcher_.fd < 0) return -EBADF;
  if (!(flags_ & writable_flag)) return -EPIPE;
  if (send != nullptr) {
    if (!carries_handles_()) return errc::invalid;
    if (fd_of(send) < 0) return -EBADF;
  }
  return 0;
}

[[gnu::hot]] int stream::write2(write_req& r, const fs_buf bufs[], unsigned nbufs, handle* send, write_cb cb) noexcept {
  if (int err = check_before_write_(nbufs, send); err < 0) return err;
  const bool queue_was_empty = write_queue_size_ == 0;
  r.bufs_ = detail::copy_bufs(r.small_, sizeof r.small_ / sizeof r.small_[0], bufs, nbufs);
  if (r.bufs_ == nullptr) return errc::no_memory;
  // Every field is set here, as libuv's request init does, so the C layer
  // may hand over a struct that was never constructed or is being reused.
  r.type_ = req_type::write;
  r.node_ = {};
  r.cb_ = cb;
  r.handle_ = this;
  r.send_handle_ = send;
  r.error_ = 0;
  r.nbufs_ = nbufs;
  r.index_ = 0;
  r.extra_ = 0;  // bytes written so far
  detail::loop_seam::req_register(*loop_);
  detail::loop_seam::started(*loop_, r, this);
  write_queue_size_ += detail::buf_bytes(bufs, nbufs);
  write_queue_.push_back(r);
  if (write_error_ != 0) [[unlikely]] {
    flush_writes_(write_error_);  // (r is the only one queued)
    feed_();
  } else if (connect_req_ != nullptr) {
    // Written once connected.
  } else if (queue_was_empty) {
    write_();
  } else {
    watch_(write_events);
  }
  return 0;
}

[[gnu::hot]] int stream::try_write2(const fs_buf bufs[], unsigned nbufs, handle* send) noexcept {
  if (connect_req_ != nullptr || write_queue_size_ != 0) return errc::again;
  if (write_error_ != 0) [[unlikely]] return write_error_;  // see write_()
  // libuv checks the handle to send as write2 does from 1.53 only.
  if (int err = check_before_write_(nbufs, loop_->behaves().try_write2_checks_handle ? send : nullptr); err < 0) return err;
  const ssize_t n = try_write_(bufs, nbufs, send);
  return static_cast<int>(n);
}

namespace {

// What a write(2), writev(2) or sendmsg(2) returned, as try_write_ says it.
ssize_t written(ssize_t n) noexcept {
  if (n >= 0) return n;
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) return errc::again;
  return -errno;
}

// Whether a call on `fd` could say EAGAIN: it is open and non-blocking
// (asked on chaos mode's path only: a system call). A descriptor in
// blocking mode waits instead, and one that is closed fails with EBADF.
bool may_say_eagain(int fd) noexcept {
  const int fl = ::fcntl(fd, F_GETFL);
  return fl >= 0 && (fl & O_NONBLOCK);
}

// The buffers written to `fd` as they are (no descriptor passed).
[[gnu::always_inline]] inline ssize_t write_plain(int fd, const fs_buf* bufs, unsigned nbufs) noexcept {
  // fs_buf is laid out as iovec (checked in the C layer).
  const iovec* iov = reinterpret_cast<const iovec*>(bufs);
  const int iovcnt = nbufs > IOV_MAX ? IOV_MAX : static_cast<int>(nbufs);
  ssize_t n;
  do n = iovcnt == 1 ? ::write(fd, iov->iov_base, iov->iov_len) : ::writev(fd, iov, iovcnt);
  while (n < 0 && errno == EINTR);
  return written(n);
}

}  // namespace

[[gnu::hot]] ssize_t stream::try_write_(const fs_buf* bufs, unsigned nbufs, handle* send) noexcept {
  if (send == nullptr) {
    if (detail::chaos* c = detail::loop_seam::chaos(*loop_); c != nullptr) [[unlikely]]
      return chaos_write_(*c, bufs, nbufs);
    return write_plain(watcher_.fd, bufs, nbufs);
  }
  if (send->is_closing()) return -EBADF;
  // fs_buf is laid out as iovec (checked in the C layer).
  const iovec* iov = reinterpret_cast<const iovec*>(bufs);
  const int passed = fd_of(send);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = const_cast<iovec*>(iov);
  msg.msg_iovlen = nbufs > IOV_MAX ? IOV_MAX : nbufs;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &passed, sizeof passed);
  ssize_t n;
  do n = ::sendmsg(watcher_.fd, &msg, 0);
  while (n < 0 && errno == EINTR);
  return written(n);
}

// Chaos mode: a read may say EAGAIN although data waits, or take less
// than is there.
ssize_t stream::chaos_read_(detail::chaos& c, const fs_buf& b) noexcept {
  if (may_say_eagain(watcher_.fd) && c.spurious_eagain(this, 2)) {
    errno = EAGAIN;
    return -1;
  }
  // How much waits matters off TCP only (chaos::read_size): asked there.
  int waiting = 0;
  if (type_ != handle_type::tcp && (::ioctl(watcher_.fd, FIONREAD, &waiting) != 0 || waiting <= 0)) waiting = 1;
  const std::size_t want = c.read_size(this, b.len, type_ == handle_type::tcp ? 0 : static_cast<std::size_t>(waiting));
  ssize_t n;
  do n = ::read(watcher_.fd, b.base, want);
  while (n < 0 && errno == EINTR);
  // Cut short with more waiting: the short read did not drain the socket.
  if (want < b.len && n == static_cast<ssize_t>(want)) flags_ |= chaos_cut_flag;
  return n;
}

// Chaos mode: the kernel may say EAGAIN, or take fewer bytes than asked
// (a socket buffer nearly full): the write is made with the buffers cut
// short, and the rest waits for writability as any rest does.
ssize_t stream::chaos_write_(detail::chaos& c, const fs_buf* bufs, unsigned nbufs) noexcept {
  // A write in blocking mode (uv_stream_set_blocking, a TTY's) takes
  // everything and never says EAGAIN, and one on a closed descriptor fails:
  // chaos mode leaves them alone.
  if ((flags_ & blocking_writes_flag) || !may_say_eagain(watcher_.fd)) return write_plain(watcher_.fd, bufs, nbufs);
  if (c.spurious_eagain(this, 3)) return errc::again;
  const unsigned count = nbufs > IOV_MAX ? IOV_MAX : nbufs;
  std::size_t total = 0;
  for (unsigned i = 0; i < count; i++) total += bufs[i].len;
  std::size_t left = c.write_size(this, total);
  if (left == total) return write_plain(watcher_.fd, bufs, count);
  fs_buf cut[IOV_MAX];
  unsigned n = 0;
  for (; n < count && left > 0; n++) {
    cut[n] = bufs[n];
    if (cut[n].len > left) cut[n].len = left;
    left -= cut[n].len;
  }
  return write_plain(watcher_.fd, cut, n);
}

[[gnu::hot]] void stream::finish_write_(write_req& r) noexcept {
  write_queue_.erase(r);
  // On success the buffer list is done with; on error it stays, so that
  // write_queue_size keeps saying "stop writing" until the callback.
  if (r.error_ == 0) {
    detail::free_bufs(r.bufs_, r.small_);
    r.bufs_ = nullptr;
  }
  completed_.push_back(r);
  feed_();
}

[[gnu::hot]] void stream::write_() {
  // libuv >= 1.45 goes on to the next requests after one completes (up to
  // 32 more, so that a fast reader cannot starve the loop); 1.44 waits for
  // writability first.
  int more = -1;  // not yet known
  for (;;) {
    write_req* r = write_queue_.front();
    if (r == nullptr) return;
    const ssize_t n = try_write_(r->bufs_ + r->index_, r->nbufs_ - r->index_, r->send_handle_);
    if (n >= 0) {
      r->send_handle_ = nullptr;  // sent with the first bytes; never again
      // Consume n bytes from the request's buffers. As in libuv, one step
      // is taken even for n == 0, and an empty buffer is passed over only
      // when a step lands on it: a request ending in an empty buffer needs
      // one more (zero-byte) write to complete.
      std::size_t left = static_cast<std::size_t>(n);
      write_queue_size_ -= left;
      r->extra_ += left;
      do {
        fs_buf& b = r->bufs_[r->index_];
        const std::size_t take = left < b.len ? left : b.len;
        b.base += take;
        b.len -= take;
        left -= take;
        if (b.len == 0) r->index_++;
      } while (left > 0);
      if (r->index_ == r->nbufs_) {
        finish_write_(*r);
        if (write_queue_.empty()) return;
        if (more < 0) more = loop_->behaves().writes_go_on ? 32 : 0;
        if (more-- > 0) continue;
        return;
      }
    } else if (n != errc::again) {
      // Nothing is written after a failed write: a byte stream with a
      // hole is worse than an error. The requests behind it, and any made
      // later, get its error (libuv goes on with them).
      r->error_ = static_cast<int>(n);
      write_error_ = r->error_;
      finish_write_(*r);
      flush_writes_(write_error_);
      unwatch_(write_events);
      return;
    }
    if (flags_ & blocking_writes_flag) continue;
    watch_(write_events);
    return;
  }
}

[[gnu::hot]] void stream::write_callbacks_(unsigned events) {
  if (completed_.empty()) return;
  write_req::list done;
  done.splice_back(completed_);
  while (write_req* r = done.pop_front()) {
    detail::loop_seam::req_unregister(*loop_);
    if (r->bufs_ != nullptr) {
      write_queue_size_ -= detail::buf_bytes(r->bufs_ + r->index_, r->nbufs_ - r->index_);
      detail::free_bufs(r->bufs_, r->small_);
      r->bufs_ = nullptr;
    }
    if (write_cb cb = r->cb_) call_(events, r, [&] { cb(r, r->error_); });
  }
}

void stream::flush_writes_(int error) noexcept {
  while (write_req* r = write_queue_.pop_front()) {
    r->error_ = error;
    completed_.push_back(*r);
  }
}

void stream::drain_(unsigned events) {
  if (!(flags_ & closing_flag)) disarm_(write_events);
  if (shutdown_req_ == nullptr) return;
  shutdown_req* r = shutdown_req_;
  if (!(flags_ & closing_flag) && (flags_ & shut_flag)) return;
  shutdown_req_ = nullptr;
  flags_ &= ~shutting_flag;
  detail::loop_seam::req_unregister(*loop_);
  int err = 0;
  if (flags_ & closing_flag) err = errc::canceled;  // closed before it was done
  else if (::shutdown(watcher_.fd, SHUT_WR) != 0) err = -errno;
  else flags_ |= shut_flag;
  if (shutdown_cb cb = r->cb_) call_(events, r, [&] { cb(r, err); });
}

int stream::shutdown(shutdown_req& r, shutdown_cb cb) noexcept {
  if (!(flags_ & writable_flag) || (flags_ & shut_flag) || shutdown_req_ != nullptr || is_closing()) return -ENOTCONN;
  r.type_ = req_type::shutdown;
  r.handle_ = this;
  r.cb_ = cb;
  detail::loop_seam::req_register(*loop_);
  detail::loop_seam::started(*loop_, r, this);
  shutdown_req_ = &r;
  // libuv 1.44 also keeps the state in the handle's flags (gone in 1.45).
  if (loop_->behaves().keeps_shutting_bit) flags_ |= shutting_flag;
  flags_ &= ~writable_flag;
  if (write_queue_.empty()) feed_();
  return 0;
}

int stream::set_blocking(bool blocking) noexcept {
  int on = blocking ? 0 : 1;
  int r;
  do r = ioctl(watcher_.fd, FIONBIO, &on);
  while (r != 0 && errno == EINTR);
  return r == 0 ? 0 : -errno;
}

// ---- the poll-phase callback -----------------------------------------------

[[gnu::hot]] void stream::io_(phaseloop::loop&, detail::io_watcher& w, unsigned events) {
  stream* s = from_(w);
  if (events & detail::io_refused) [[unlikely]] {
    s->refused_(-detail::refused_errno(events), events);
    return;
  }
  if (s->connect_req_ != nullptr) {
    s->connect_done_(events);
    return;
  }
  // libuv >= 1.52 reads on readiness or error only; before, a hang-up too.
  if (events & (detail::io_readable | detail::io_error)) {
    s->read_(events);
    if (s->watcher_.fd == -1) return;  // a read callback closed the stream
  }
  if (events & (detail::io_hangup | detail::io_read_hangup)) [[unlikely]] {
    s->hangup_(events);
    if (s->watcher_.fd == -1) return;
  }
  if (s->watcher_.fd == -1) return;
  if (events & (detail::io_writable | detail::io_error | detail::io_hangup)) {
    s->write_();
    s->write_callbacks_(events);
    if (s->write_queue_.empty()) s->drain_(events);
  }
}

// The kernel would not watch the fd (poller::flush): whatever waits on it
// fails with the error -- the connect, else the read (which stops, as
// after a failed read) and the queued writes -- so that nothing waits for
// events that can no longer come.
void stream::refused_(int err, unsigned events) {
  if (connect_req_ != nullptr) {
    delayed_error_ = err;
    connect_done_(events);
    return;
  }
  flags_ &= ~(readable_flag | writable_flag);
  if (read_cb cb = read_cb_; cb != nullptr && reading_()) {
    fs_buf none{nullptr, 0};
    call_(events, nullptr, [&] { cb(this, err, &none); });
    if (watcher_.fd == -1) return;  // closed by the read callback
    if (reading_()) {
      end_reading_();
      stop_();
    }
  }
  flush_writes_(err);
  write_callbacks_(events);
  if (watcher_.fd != -1 && write_queue_.empty()) drain_(events);
}

// A hang-up reported: reads and end of file as the loop's libuv does.
void stream::hangup_(unsigned events) {
  const behaviour& b = loop_->behaves();
  if (!b.reads_on_readiness && !(events & (detail::io_readable | detail::io_error))) {
    read_(events);
    if (watcher_.fd == -1) return;
  }
  // The peer is gone, and no EOF was seen yet: before 1.52, a hang-up after
  // a short read; from 1.52, a hang-up with nothing readable (1.53 also
  // counts a read hang-up).
  const unsigned hangup = detail::io_hangup | (b.read_hangup_ends_stream ? detail::io_read_hangup : 0u);
  // (A read chaos mode cut short drained nothing: chaos_read_.)
  const bool gone = !b.reads_on_readiness ? (flags_ & (read_partial_flag | chaos_cut_flag)) == read_partial_flag
                                          : !(events & detail::io_readable);
  if ((events & hangup) && gone && reading_() && !(flags_ & read_eof_flag)) {
    const fs_buf empty{nullptr, 0};
    eof_(empty, events);
  }
}

void stream::connect_done_(unsigned events) {
  connect_req* r = connect_req_;
  int error;
  if (delayed_error_ != 0) {
    error = delayed_error_;
    delayed_error_ = 0;
  } else {
    int so = 0;
    socklen_t len = sizeof so;
    getsockopt(watcher_.fd, SOL_SOCKET, SO_ERROR, &so, &len);
    error = -so;
  }
  if (error == -EINPROGRESS) return;
  connect_req_ = nullptr;
  detail::loop_seam::req_unregister(*loop_);
  // Disarmed, not unwatched: the callback usually starts reading at once,
  // and the kernel then changes the fd's events instead of removing it and
  // adding it again (a cost that shows in connection-heavy servers).
  if (error < 0 || write_queue_.empty()) disarm_(write_events);
  if (connect_cb cb = r->cb_) call_(events, r, [&] { cb(r, error); });
  if (watcher_.fd == -1) return;
  if (error < 0) {
    flush_writes_(errc::canceled);
    write_callbacks_(events);
  }
}

// ---- listening and accepting -------------------------------------------------

int stream::listen(int backlog, connection_cb cb) noexcept {
  if (is_closing()) return errc::invalid;
  int err;
  switch (type_) {
    case handle_type::tcp: err = static_cast<tcp*>(this)->listen_(backlog, cb); break;
    case handle_type::named_pipe: err = static_cast<pipe*>(this)->listen_(backlog, cb); break;
    default: err = errc::invalid; break;
  }
  if (err == 0) start_();
  return err;
}

int stream::start_listening_(connection_cb cb) noexcept {
  connection_cb_ = cb;
  flags_ |= bound_flag;
  watcher_.cb = &stream::server_io_;
  watch_(read_events);
  return 0;
}

void stream::server_io_(phaseloop::loop& l, detail::io_watcher& w, unsigned events) {
  stream* s = from_(w);
  // Watched again at once, and then tried at each poll: a refusal (the
  // kernel would not watch the fd; poller::flush) is told to the
  // connection callback as accept's errors are, and listening goes on.
  s->watch_(read_events);
  if (events & detail::io_refused) [[unlikely]] {
    const int err = -detail::refused_errno(events);
    connection_cb cb = s->connection_cb_;
    s->call_(events, nullptr, [&] { cb(s, err); });
    return;
  }
  detail::chaos* chaos = detail::loop_seam::chaos(l);
  const auto next = [&] {
    return chaos != nullptr && may_say_eagain(s->watcher_.fd) && chaos->spurious_eagain(s, 1)
               ? -EAGAIN
               : accept_fd(s->watcher_.fd);
  };
  // Out of fds: give up the spare one, accept and drop what waits (so the
  // clients learn), then take a spare again. The last accept's error, or
  // EMFILE without a spare.
  const auto shed = [&] {
    spare_fd* spare = detail::loop_seam::find<spare_fd>(l);
    if (spare == nullptr || spare->fd == -1) return -EMFILE;
    ::close(spare->fd);
    spare->fd = -1;
    int r;
    do {
      r = accept_fd(s->watcher_.fd);
      if (r >= 0) ::close(r);
    } while (r >= 0 || r == -EINTR);
    spare->fd = open_spare_fd();
    return r;
  };
  if (l.behaves().accepts_one) {
    // One connection; the poll, level-triggered, finds the next one at its
    // next pass. A failed accept is not told.
    int fd = next();
    if (fd == -EMFILE || fd == -ENFILE) fd = shed();
    if (fd < 0) return;
    s->accepted_fd_ = fd;
    connection_cb cb = s->connection_cb_;
    s->call_(events, nullptr, [&] { cb(s, 0); });
    if (s->accepted_fd_ != -1) s->unwatch_(read_events);  // not accepted yet
    return;
  }
  // Until EAGAIN. The connection callback may close the server: check the
  // fd each time.
  while (s->watcher_.fd != -1) {
    int fd = next();
    if (fd < 0) {
      if (fd == -EAGAIN || fd == -EWOULDBLOCK) return;
      if (fd == -ECONNABORTED) continue;
      if (fd == -EMFILE || fd == -ENFILE) {
        fd = shed();
        if (fd == -EAGAIN || fd == -EWOULDBLOCK) break;
      }
      const int err = fd;
      connection_cb cb = s->connection_cb_;
      s->call_(events, nullptr, [&] { cb(s, err); });
      continue;
    }
    s->accepted_fd_ = fd;
    connection_cb cb = s->connection_cb_;
    s->call_(events, nullptr, [&] { cb(s, 0); });
    if (s->accepted_fd_ != -1) {
      // Not accepted yet: stop listening until it is.
      s->unwatch_(read_events);
      return;
    }
    if (s->type_ == handle_type::tcp && (s->flags_ & single_accept_flag)) {
      const timespec pause{0, 1};
      nanosleep(&pause, nullptr);
    }
  }
}

int stream::accept(handle& client) noexcept {
  if (accepted_fd_ == -1) return errc::again;
  int err;
  switch (client.type()) {
    case handle_type::named_pipe:
    case handle_type::tcp: {
      stream& s = static_cast<stream&>(client);
      err = s.open_(accepted_fd_, readable_flag | writable_flag);
      if (err != 0) ::close(accepted_fd_);
      else s.flags_ |= bound_flag;
      break;
    }
    case handle_type::udp:  // a bound socket received over an IPC pipe
      err = static_cast<udp&>(client).open(accepted_fd_);
      if (err != 0) ::close(accepted_fd_);
      break;
    default: return errc::invalid;
  }
  if (queued_fds_ != nullptr && !queued_fds_->empty()) {
    accepted_fd_ = queued_fds_->front();
    queued_fds_->erase(queued_fds_->begin());
  } else {
    accepted_fd_ = -1;
    // Before libuv 1.53 a failed accept left the server deaf.
    if (err == 0 || loop_->behaves().failed_accept_listens) watch_(read_events);
  }
  return err;
}

// A read on an IPC pipe: recvmsg(2) as read(2) returns (-1 with errno
// on failure); the descriptors that came with the bytes are taken by
// receive_fds_, and `fds_error` says if that failed. Apart from the plain
// read so that the plain read's frame holds no control buffer.
[[gnu::noinline]] ssize_t stream::read_ipc_(const fs_buf& b, int& fds_error) {
  iovec iov{b.base, b.len};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 64)];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do n = ::recvmsg(watcher_.fd, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n > 0) fds_error = receive_fds_(&msg);
  return n;
}

// File descriptors that came with a read on an IPC pipe: the first waits
// in accepted_fd_, the rest in queued_fds_, for accept() to take in order.
int stream::receive_fds_(void* m) {
  auto* msg = static_cast<msghdr*>(m);
  for (cmsghdr* c = CMSG_FIRSTHDR(msg); c != nullptr; c = CMSG_NXTHDR(msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < n; i++) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (accepted_fd_ == -1) {
        accepted_fd_ = fd;
        continue;
      }
      if (queued_fds_ == nullptr) queued_fds_ = new (std::nothrow) std::vector<int>;
      if (queued_fds_ == nullptr) {
        ::close(fd);
        return errc::no_memory;
      }
      try {
        queued_fds_->push_back(fd);
      } catch (...) {
        ::close(fd);
        return errc::no_memory;
      }
    }
  }
  return 0;
}

// ---- close -------------------------------------------------------------------

void stream::close_() noexcept {
  detail::loop_seam::undefer(watcher_);
  unwatch_(read_events | write_events | detail::io_read_hangup | detail::io_priority);
  read_stop();
  stop_();
  flags_ &= ~(readable_flag | writable_flag);
  if (watcher_.fd != -1) {
    if (watcher_.fd > STDERR_FILENO) ::close(watcher_.fd);  // stdio stays open
    watcher_.fd = -1;
  }
  if (accepted_fd_ != -1) {
    ::close(accepted_fd_);
    accepted_fd_ = -1;
  }
  if (queued_fds_ != nullptr) {
    for (int fd : *queued_fds_) ::close(fd);
    delete queued_fds_;
    queued_fds_ = nullptr;
  }
}

void stream::finish_close_() noexcept {
  if (connect_req* r = connect_req_) {
    connect_req_ = nullptr;
    detail::loop_seam::req_unregister(*loop_);
    if (r->cb_) r->cb_(r, errc::canceled);
  }
  flush_writes_(errc::canceled);
  write_callbacks_(detail::io_fed);
  drain_(detail::io_fed);
}

}  // namespace phaseloop
