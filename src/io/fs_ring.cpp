// SPDX-License-Identifier: MIT
// File requests through io_uring: one ring per loop (a loop part, made by
// the first request that may use it), completions reaped in the poll phase.
//
//   fs_req::submit_ ──> fs_ring_submit: an SQE filled in the ring's
//                       submission queue and handed to the kernel at once
//                       (io_uring_enter), as libuv's polling kernel thread
//                       takes it at once; requests started by the ring's
//                       own callbacks go together, after the last of them
//   ring fd readable (an epoll event among the others, as libuv's ring
//   fd is) ──> on_ready(): each completion's callback, in the order the
//                       kernel posted them
//   kernel busy (completions to reap first) ──> the SQEs wait for the
//                       poll phase (before_poll), which hands them over
//                       before it waits
//
// A request on the ring cannot be canceled (errc::busy), as in libuv,
// whose io_uring requests never sit in the threadpool's queue. An
// operation the kernel refuses with EOPNOTSUPP goes to the threadpool,
// and so does every request while the ring is full. When the ring cannot
// be made (no io_uring, io_uring_disabled, seccomp, ENOMEM), the loop
// remembers it and uses the threadpool; when the kernel stops taking
// submissions for good, the requests not yet handed over go there too.
//
// fs_req::ring_ holds the request's state here: 0 (not on the ring),
// queued (its SQE not yet seen by the kernel) or handed (to the kernel).

#include "io/fs_ring.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/internal.hpp"

#if PHASELOOP_HAVE_LIBURING
#include <fcntl.h>
#include <limits.h>
#include <liburing.h>
#include <sys/stat.h>

#include "io/fs_ops.hpp"
#endif

namespace phaseloop {

namespace {

// Whether the profile of loop `l` uses io_uring for file requests
// (types.hpp, io_uring_use::automatic, has the rules).
bool wanted_by_profile(const loop& l) noexcept {
  const bool asked = l.io_uring_asked();
  const int env = detail::uv_use_io_uring_env();
  switch (l.behaves().files_through_uring) {
    case uring_files::never: return false;
    case uring_files::unless_env_off: return env != 0;
    case uring_files::asked_unless_env_off: return asked && env != 0;
    case uring_files::asked_and_env_on: return asked && env > 0;
  }
  return false;
}

// How loop `l` does its file requests: io_uring_use::off (the
// threadpool), on or sqpoll.
io_uring_use ring_use(const loop& l) noexcept {
  if (const io_uring_use use = detail::io_uring_choice(l); use != io_uring_use::automatic) return use;
  return wanted_by_profile(l) ? io_uring_use::on : io_uring_use::off;
}

}  // namespace

#if PHASELOOP_HAVE_LIBURING

namespace detail {

// The ring's opcode for ftruncate (Linux 6.9), newer than liburing 2.3.
constexpr unsigned op_ftruncate = 55;
// fs_req::ring_ values.
enum : std::uint8_t { off_ring = 0, queued = 1, handed = 2 };

struct fs_ring final : loop_part {
  static const char tag;
  static constexpr unsigned entries = 64;  // libuv's size for its file ring

  io_uring ring{};
  io_watcher watcher;
  bool ready = false;           // the ring works
  unsigned char can[64] = {};   // the opcodes this kernel does
  unsigned in_kernel = 0;       // completions still to come
  pool_task::list unsent;       // requests whose SQEs the kernel has not seen
  unsigned unsent_n = 0;
  bool reaping = false;         // on_ready is running callbacks

  explicit fs_ring(loop& l, bool sqpoll) noexcept : loop_part(l), polled(sqpoll) {
    watcher.cb = &fs_ring::on_ready;
    ready = open_() == 0;
  }
  const bool polled;  // a kernel thread polls the submission queue
  ~fs_ring() override { close_(); }

  static fs_ring& of(io_watcher& w) noexcept {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    return *reinterpret_cast<fs_ring*>(reinterpret_cast<char*>(&w) - offsetof(fs_ring, watcher));
#pragma GCC diagnostic pop
  }
  static fs_req& req_of(pool_task& t) noexcept {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    return task_owner<fs_req>(t, offsetof(fs_req, task_));
#pragma GCC diagnostic pop
  }

  int open_() noexcept {
    io_uring_params params{};
    if (polled) {
      params.flags |= IORING_SETUP_SQPOLL;
      params.sq_thread_idle = 10;  // ms, as libuv's
    }
    // Room for twice as many completions as submissions (the kernel's
    // default); submit() never lets more than that be in flight.
    if (int r = io_uring_queue_init_params(entries, &ring, &params); r < 0) return r;
    if (!(params.features & IORING_FEAT_RW_CUR_POS) || !(params.features & IORING_FEAT_NODROP)) {
      io_uring_queue_exit(&ring);
      return -ENOSYS;  // older than Linux 5.6: the threadpool it is
    }
    if (io_uring_probe* probe = io_uring_get_probe_ring(&ring)) {
      for (unsigned op = 0; op < sizeof can; op++) can[op] = io_uring_opcode_supported(probe, static_cast<int>(op));
      io_uring_free_probe(probe);
    }
    watcher.fd = ring.ring_fd;
    if (int r = loop_seam::poller(owner()).watch(watcher, io_readable); r != 0) {
      io_uring_queue_exit(&ring);
      watcher.fd = -1;
      return r;
    }
    loop_seam::spin_on(owner(), this);
    return 0;
  }

  void close_() noexcept {
    if (watcher.fd < 0) return;
    loop_seam::spin_on(owner(), nullptr);
    loop_seam::poller(owner()).unwatch(watcher, io_readable);
    io_uring_queue_exit(&ring);
    watcher.fd = -1;
    ready = false;
  }

  // The child shares the parent's ring memory: it gets a ring of its own.
  // Requests not yet handed to the kernel go to the threadpool; those the
  // kernel had complete in the parent's ring, never in the child.
  int after_fork() noexcept override {
    close_();  // unmaps: the parent keeps its ring
    in_kernel = 0;
    unsent_to_pool();
    ready = open_() == 0;
    return 0;
  }

  // Hands the kernel every SQE filled and not yet handed over.
  void before_poll() noexcept override { flush(); }
  // The poll phase counts the ring's descriptor with the loop's own
  // (loop_seam::spin_on): readable while completions wait in the queue
  // (or the kernel holds more it could not post there); worth spinning
  // for unless exactly one request is in the kernel (run.cpp says why).
  bool readable_now() const noexcept override {
    return io_uring_cq_ready(&ring) > 0 || io_uring_cq_has_overflow(&ring);
  }
  bool spin_helps() const noexcept override { return in_kernel != 1; }

  void flush() noexcept {
    int r;
    do r = io_uring_submit(&ring);
    while (r == -EINTR);
    if (r >= 0) {
      while (pool_task* t = unsent.pop_front()) {
        fs_req& q = req_of(*t);
        q.ring_ = handed;
        in_kernel++;
      }
      unsent_n = 0;
      // Entries the kernel did not take yet go with the next call.
      if (io_uring_sq_ready(&ring) > 0) loop_seam::before_poll(owner(), *this);
      return;
    }
    // The kernel took none of them. Busy (completions to reap first, or
    // no memory for a moment): again when the poll phase starts. Another
    // error says the ring is broken: new requests go to the threadpool
    // from now on, and so do these -- a plain ring's kernel side reads
    // entries only inside io_uring_enter, so the published ones become
    // no-ops (should anything enter the ring again) and cannot run twice.
    // A polled ring's kernel thread may still take them: they stay, and
    // the submission is tried again.
    if (r != -EAGAIN && r != -EBUSY) {
      ready = false;
      if (!polled) {
        // The entry at position i of the queue: through the index array,
        // or directly when liburing made the ring without one
        // (IORING_SETUP_NO_SQARRAY, liburing >= 2.5 on Linux >= 6.6).
        const unsigned mask = *ring.sq.kring_mask;
        for (unsigned i = *ring.sq.khead; i != *ring.sq.ktail; i++) {
          const unsigned at = ring.sq.array != nullptr ? ring.sq.array[i & mask] : i;
          io_uring_sqe* sqe = &ring.sq.sqes[at & mask];
          io_uring_prep_nop(sqe);
          io_uring_sqe_set_data(sqe, nullptr);
        }
        unsent_to_pool();
        return;
      }
    }
    loop_seam::before_poll(owner(), *this);
  }

  // Every request whose SQE the kernel has not seen goes to the threadpool.
  void unsent_to_pool() noexcept {
    while (pool_task* t = unsent.pop_front()) {
      fs_req& q = req_of(*t);
      loop_seam::req_unregister(owner());
      q.ring_ = off_ring;
      to_pool(q);
    }
    unsent_n = 0;
  }

  // The request goes to the threadpool instead (it is out of the ring's
  // hands and no longer counted as active).
  void to_pool(fs_req& q) noexcept {
    if (q.fs_type_ == fs_type::stat || q.fs_type_ == fs_type::lstat || q.fs_type_ == fs_type::fstat) {
      std::free(q.ptr_);
      q.ptr_ = nullptr;
    }
    if (int r = pool_submit(owner(), q.task_, pool_request<fs_req>::ops); r != 0) finish(q, r);
  }

  bool submit(fs_req& q) noexcept {
    if (in_kernel + unsent_n >= 2 * entries - 1) return false;  // completions must fit
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    if (sqe == nullptr) return false;  // this iteration filled the queue
    if (!prepare(q, *sqe)) {
      // Give the slot back: it is the last one taken.
      ring.sq.sqe_tail--;
      return false;
    }
    io_uring_sqe_set_data(sqe, &q);
    q.ring_ = queued;
    unsent.push_back(q.task_);
    unsent_n++;
    loop_seam::req_register(owner());
    if (!reaping) flush();
    return true;
  }

  // Fills `sqe` for `q`: false when the ring cannot do this operation.
  bool prepare(fs_req& q, io_uring_sqe& sqe) noexcept {
    unsigned op;
    switch (q.fs_type_) {
      case fs_type::open: op = IORING_OP_OPENAT; break;
      case fs_type::close: op = IORING_OP_CLOSE; break;
      case fs_type::read: op = IORING_OP_READV; break;
      case fs_type::write: op = IORING_OP_WRITEV; break;
      case fs_type::stat:
      case fs_type::lstat:
      case fs_type::fstat: op = IORING_OP_STATX; break;
      case fs_type::fsync:
      case fs_type::fdatasync: op = IORING_OP_FSYNC; break;
      case fs_type::ftruncate: op = op_ftruncate; break;
      case fs_type::rename: op = IORING_OP_RENAMEAT; break;
      case fs_type::unlink: op = IORING_OP_UNLINKAT; break;
      case fs_type::mkdir: op = IORING_OP_MKDIRAT; break;
      case fs_type::link: op = IORING_OP_LINKAT; break;
      case fs_type::symlink: op = IORING_OP_SYMLINKAT; break;
      default: return false;
    }
    if (op >= sizeof can || !can[op]) return false;
    // The operations each libuv version does through io_uring: 1.45 open,
    // close, read, write, the stat family, fsync and fdatasync; 1.46 adds
    // rename, unlink, mkdir, link and symlink; 1.49.1 ftruncate. (Profile
    // libuv_1_45 stands for 1.45 to 1.47, with 1.46's set; libuv_1_44,
    // whose libuv had no io_uring, takes the newest.)
    const behaviour& b = owner().behaves();
    if (op == op_ftruncate && !b.uring_ftruncate) return false;
    switch (q.fs_type_) {
      case fs_type::open:
        io_uring_prep_openat(&sqe, AT_FDCWD, q.path_, q.flags_ | O_CLOEXEC, static_cast<mode_t>(q.mode_));
        break;
      case fs_type::close: io_uring_prep_close(&sqe, q.file_); break;
      case fs_type::read:
      case fs_type::write: {
        if (q.nbufs_ > IOV_MAX) return false;  // the threadpool splits them
        const auto* iov = reinterpret_cast<const iovec*>(q.bufs_);
        // An offset below 0 reads or writes at the file position (-1 to
        // the kernel).
        const auto off = q.off_ < 0 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(q.off_);
        if (q.fs_type_ == fs_type::read) io_uring_prep_readv(&sqe, q.file_, iov, q.nbufs_, off);
        else io_uring_prep_writev(&sqe, q.file_, iov, q.nbufs_, off);
        break;
      }
      case fs_type::stat:
      case fs_type::lstat:
      case fs_type::fstat: {
        auto* buf = static_cast<struct ::statx*>(std::malloc(sizeof(struct ::statx)));
        if (buf == nullptr) return false;
        q.ptr_ = buf;
        const char* path = q.fs_type_ == fs_type::fstat ? "" : q.path_;
        const int dirfd = q.fs_type_ == fs_type::fstat ? q.file_ : AT_FDCWD;
        int flags = AT_STATX_SYNC_AS_STAT;
        if (q.fs_type_ == fs_type::fstat) flags |= AT_EMPTY_PATH;
        if (q.fs_type_ == fs_type::lstat) flags |= AT_SYMLINK_NOFOLLOW;
        io_uring_prep_statx(&sqe, dirfd, path, flags, STATX_BASIC_STATS | STATX_BTIME, buf);
        break;
      }
      case fs_type::fsync: io_uring_prep_fsync(&sqe, q.file_, 0); break;
      case fs_type::fdatasync: io_uring_prep_fsync(&sqe, q.file_, IORING_FSYNC_DATASYNC); break;
      case fs_type::ftruncate:
        // libuv 1.49.1 to 1.51 put the length where the kernel reads a
        // count, which it refuses (EINVAL) unless the length is 0; 1.52
        // put it right (libuv's fd89e63f2). Each profile makes its
        // version's request.
        if (!b.uring_ftruncate_length)
          io_uring_prep_rw(static_cast<int>(op_ftruncate), &sqe, q.file_, nullptr, static_cast<unsigned>(q.off_), 0);
        else
          io_uring_prep_rw(static_cast<int>(op_ftruncate), &sqe, q.file_, nullptr, 0, static_cast<std::uint64_t>(q.off_));
        break;
      case fs_type::rename: io_uring_prep_renameat(&sqe, AT_FDCWD, q.path_, AT_FDCWD, q.new_path_, 0); break;
      case fs_type::unlink: io_uring_prep_unlinkat(&sqe, AT_FDCWD, q.path_, 0); break;
      case fs_type::mkdir: io_uring_prep_mkdirat(&sqe, AT_FDCWD, q.path_, static_cast<mode_t>(q.mode_)); break;
      case fs_type::link: io_uring_prep_linkat(&sqe, AT_FDCWD, q.path_, AT_FDCWD, q.new_path_, 0); break;
      case fs_type::symlink: io_uring_prep_symlinkat(&sqe, q.path_, AT_FDCWD, q.new_path_); break;
      default: return false;
    }
    return true;
  }

  // The ring fd is readable: completions wait. Those there now are
  // delivered (what their callbacks cause waits for the next poll).
  static void on_ready(loop& l, io_watcher& w, unsigned) {
    fs_ring& self = of(w);
    unsigned left = io_uring_cq_ready(&self.ring);
    unsigned delivered = 0;
    self.reaping = true;
    while (left > 0) {
      io_uring_cqe* cqes[32];
      struct done {
        fs_req* q;
        int res;
      } batch[32];
      const unsigned n = io_uring_peek_batch_cqe(&self.ring, cqes, left < 32 ? left : 32);
      if (n == 0) break;
      unsigned reqs = 0;  // without the no-ops of a broken ring (flush)
      for (unsigned i = 0; i < n; i++)
        if (auto* q = static_cast<fs_req*>(io_uring_cqe_get_data(cqes[i]))) batch[reqs++] = {q, cqes[i]->res};
      io_uring_cq_advance(&self.ring, n);
      left -= n;
      self.in_kernel -= reqs;
      for (unsigned i = 0; i < reqs; i++) {
        loop_seam::req_unregister(l);
        if (self.complete(*batch[i].q, batch[i].res)) delivered++;
      }
    }
    self.reaping = false;
    if (!self.unsent.empty()) self.flush();
    // The fd's event counted as one.
    if (delivered > 1) loop_seam::more_events(l, delivered - 1);
  }

  // One completion: false when the request goes on (to the threadpool, or
  // to the ring again for the rest of a short write).
  bool complete(fs_req& q, int res) noexcept {
    q.ring_ = off_ring;
    if (res == -EOPNOTSUPP) {  // not on this file system: the threadpool
      to_pool(q);
      return false;
    }
    switch (q.fs_type_) {
      case fs_type::stat:
      case fs_type::lstat:
      case fs_type::fstat: {
        auto* buf = static_cast<struct ::statx*>(q.ptr_);
        q.ptr_ = nullptr;
        if (res == 0) {
          fs_ops::fill_stat(*buf, q.statbuf_);
          q.ptr_ = &q.statbuf_;
        }
        std::free(buf);
        break;
      }
      case fs_type::write:
        // Writes go on after a short write, as on the threadpool (there
        // when the ring is full or broken); the result is every byte
        // written, also when an error stops it after some. length_ counts
        // them, and the threadpool adds it to what it writes of the rest.
        if (res > 0) {
          q.length_ += static_cast<std::size_t>(res);
          if (skip_written(q, static_cast<std::size_t>(res))) {
            if (!ready || !submit(q)) to_pool(q);
            return false;
          }
        }
        if (q.length_ > 0) {
          finish(q, static_cast<ssize_t>(q.length_));
          return true;
        }
        break;
      default: break;
    }
    finish(q, res);
    return true;
  }

  // Drops the first `done` bytes from a write's buffers (the request's own
  // copy of the array): true when some are left to write.
  static bool skip_written(fs_req& q, std::size_t done) noexcept {
    fs_buf* b = q.bufs_;
    unsigned n = q.nbufs_;
    if (q.off_ >= 0) q.off_ += static_cast<std::int64_t>(done);
    while (n > 0 && done >= b->len) {
      done -= b->len;
      b++;
      n--;
    }
    if (n == 0) return false;
    b->base += done;
    b->len -= done;
    std::memmove(q.bufs_, b, n * sizeof *b);
    q.nbufs_ = n;
    return true;
  }

  void finish(fs_req& q, ssize_t res) noexcept {
    if (q.bufs_ != nullptr) q.release_bufs_();  // read and write's
    q.result_ = res;
    q.in_flight_ = false;
    // The callback may free the request: nothing touches it afterwards.
    loop_seam::complete(owner(), callback_kind::fs, nullptr, &q, [&q] { q.cb_(&q); });
  }
};

const char fs_ring::tag = 0;

bool fs_ring_submit(loop& l, fs_req& r) noexcept {
  const io_uring_use use = ring_use(l);
  if (use == io_uring_use::off) return false;
  fs_ring* ring = loop_seam::find<fs_ring>(l);
  if (ring == nullptr) {
    ring = new (std::nothrow) fs_ring(l, use == io_uring_use::sqpoll);
    if (ring == nullptr) return false;
    loop_seam::adopt(l, *ring);
  }
  return ring->ready && ring->submit(r);
}

}  // namespace detail

bool loop::io_uring_ready() const noexcept {
  const detail::fs_ring* ring = detail::loop_seam::find<detail::fs_ring>(const_cast<loop&>(*this));
  return ring != nullptr && ring->ready;
}

#else  // no liburing: every request runs on the threadpool

namespace detail {
bool fs_ring_submit(loop& l, fs_req&) noexcept {
  (void)ring_use(l);
  return false;
}
}  // namespace detail

bool loop::io_uring_ready() const noexcept { return false; }

#endif

}  // namespace phaseloop
