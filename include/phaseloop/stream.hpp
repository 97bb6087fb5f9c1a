// SPDX-License-Identifier: MIT
#pragma once
/// Streams: the byte-stream handles (tcp, pipe, tty) and their requests,
/// with libuv's semantics.
///
/// When callbacks run:
///  - read callbacks, connection callbacks and connect results run in the
///    poll phase;
///  - write completions run in the pending phase of the next iteration (a
///    write finished inside uv_write is not reported from inside it), as do
///    shutdowns requested with nothing queued and connect errors known at
///    once (ECONNREFUSED on loopback);
///  - closing a stream cancels what is left: its connect, queued writes and
///    shutdown get errc::canceled in the closing phase, right before the
///    close callback.
///
/// Memory: requests and buffers belong to the caller and must stay valid
/// until the request's callback has run. Every method is for the loop's
/// thread only.

#include <sys/types.h>

#include <cstddef>
#include <vector>

#include "phaseloop/detail/poller.hpp"
#include "phaseloop/fs.hpp"
#include "phaseloop/handle.hpp"
#include "phaseloop/request.hpp"

namespace phaseloop {

namespace detail {
class chaos;
}

class stream;
class write_req;
class connect_req;
class shutdown_req;

/// Asks for a buffer to read into (suggested size 64 KiB). An empty buffer
/// makes the read callback run with -ENOBUFS. Poll phase.
using stream_alloc_cb = void (*)(handle*, std::size_t suggested, fs_buf* buf);
/// Bytes read (> 0), 0 (nothing read now: EAGAIN), errc::eof or an error.
/// Poll phase. `buf` is the one alloc gave (perhaps empty).
using read_cb = void (*)(stream*, ssize_t nread, const fs_buf* buf);
/// A write finished (0), failed, or was canceled. Pending phase (closing
/// phase when canceled by close).
using write_cb = void (*)(write_req*, int status);
/// A connect finished. Poll phase (pending phase for an error known at
/// once; closing phase when canceled).
using connect_cb = void (*)(connect_req*, int status);
/// The write side was shut down. Pending or poll phase.
using shutdown_cb = void (*)(shutdown_req*, int status);
/// A connection arrived (status 0: call accept()) or accepting failed.
/// Poll phase.
using connection_cb = void (*)(stream*, int status);

/// A write (libuv's uv_write_t). Fields the C layer reads sit at libuv's
/// offsets: cb, send_handle, handle.
class write_req : public req {
 public:
  write_req() noexcept : req(req_type::write) {}
  /// The stream written to.
  stream* target() const noexcept { return handle_; }
  /// The handle passed along (IPC pipes), or nullptr.
  handle* send_handle() const noexcept { return send_handle_; }
  /// Bytes written so far (libuv 1.53's uv_write_nwritten); meant for the
  /// write callback.
  std::size_t written() const noexcept { return extra_; }

  /// Offsets of the fields libuv's uv_write_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t cb, send_handle, handle; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class stream;
  write_cb cb_ = nullptr;
  handle* send_handle_ = nullptr;
  stream* handle_ = nullptr;
  detail::link<write_req> node_;  // the stream's write or completed queue
  fs_buf* bufs_ = nullptr;        // what is left to write; null once written
  unsigned nbufs_ = 0;
  unsigned index_ = 0;            // first buffer not fully written
  int error_ = 0;
  fs_buf small_[3];               // bufs_ for up to three buffers

 public:
  /// The stream's queue type (an implementation detail).
  using list = detail::ilist<write_req, &write_req::node_>;
};

/// A connect (libuv's uv_connect_t): cb and handle at libuv's offsets.
class connect_req : public req {
 public:
  connect_req() noexcept : req(req_type::connect) {}
  /// The stream being connected.
  stream* target() const noexcept { return handle_; }

  /// Offsets of the fields libuv's uv_connect_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t cb, handle; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class stream;
  friend class tcp;
  friend class pipe;
  connect_cb cb_ = nullptr;
  stream* handle_ = nullptr;
};

/// A shutdown (libuv's uv_shutdown_t): handle and cb at libuv's offsets.
class shutdown_req : public req {
 public:
  shutdown_req() noexcept : req(req_type::shutdown) {}
  /// The stream shut down.
  stream* target() const noexcept { return handle_; }

  /// Offsets of the fields libuv's uv_shutdown_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t handle, cb; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class stream;
  stream* handle_ = nullptr;
  shutdown_cb cb_ = nullptr;
};

/// The common part of tcp, pipe and tty handles.
class stream : public handle {
 public:
  /// Starts reading: `alloc` then `cb` run in the poll phase for each read.
  /// errc::invalid for null callbacks or a closing stream, -EALREADY when
  /// reading, -ENOTCONN when the stream is not readable.
  int read_start(stream_alloc_cb alloc, read_cb cb) noexcept;
  /// Stops reading. Always 0.
  int read_stop() noexcept;

  /// Queues a write of `nbufs` buffers (copied; the bytes are not).
  /// -EBADF without an fd, -EPIPE when not writable, errc::no_memory.
  int write(write_req& r, const fs_buf bufs[], unsigned nbufs, write_cb cb) noexcept {
    return write2(r, bufs, nbufs, nullptr, cb);
  }
  /// As write(), passing `send` along (IPC pipes only; errc::invalid
  /// otherwise).
  int write2(write_req& r, const fs_buf bufs[], unsigned nbufs, handle* send, write_cb cb) noexcept;
  /// Writes what can be written now: bytes written, or -EAGAIN when nothing
  /// could be (or writes are queued or a connect is in progress).
  int try_write(const fs_buf bufs[], unsigned nbufs) noexcept { return try_write2(bufs, nbufs, nullptr); }
  /// As try_write(), passing `send` along.
  int try_write2(const fs_buf bufs[], unsigned nbufs, handle* send) noexcept;
  /// Shuts the write side down once queued writes are done. -ENOTCONN when
  /// not writable, already shut (or shutting) or closing.
  int shutdown(shutdown_req& r, shutdown_cb cb) noexcept;

  /// Listens (tcp, pipe); `cb` runs in the poll phase per connection.
  int listen(int backlog, connection_cb cb) noexcept;
  /// Takes the connection the connection callback announced into `client`
  /// (a fresh tcp or pipe handle). -EAGAIN when there is none.
  int accept(handle& client) noexcept;

  /// True while the stream may be read from / written to.
  bool is_readable() const noexcept { return flags_ & readable_flag; }
  bool is_writable() const noexcept { return flags_ & writable_flag; }
  /// Makes the fd blocking (or not). 0 or an error code.
  int set_blocking(bool blocking) noexcept;
  /// Bytes queued but not yet written. (libuv: `write_queue_size`.)
  std::size_t write_queue_size() const noexcept { return write_queue_size_; }
  /// The fd, -1 if none.
  int fd() const noexcept { return watcher_.fd; }
  /// True while a connect is in progress.
  bool connecting() const noexcept { return connect_req_ != nullptr; }

 protected:
  stream(phaseloop::loop& l, handle_type t) noexcept;
  ~stream() = default;

  // libuv 1.44's values (uv-common.h's table).
  enum : std::uint32_t {
    shutting_flag = 0x100,
    shut_flag = 0x200,
    read_partial_flag = 0x400,
    read_eof_flag = 0x800,
    reading_flag = 0x1000,
    bound_flag = 0x2000,
    readable_flag = 0x4000,
    writable_flag = 0x8000,
    blocking_writes_flag = 0x100000,
    ipv6_flag = 0x400000,
    nodelay_flag = 0x01000000,  // tcp
    keepalive_flag = 0x02000000,
    single_accept_flag = 0x04000000,
    // Not libuv's: the last read was cut short by chaos mode (its socket
    // not drained, so no end of stream with a hang-up; hangup_).
    chaos_cut_flag = 0x00800000,
  };

  // Adopts `fd` (libuv's uv__stream_open): -EBUSY when another fd is held.
  int open_(int fd, std::uint32_t flags) noexcept;
  // The pieces of close and of the closing phase (uv__stream_close/destroy).
  void close_() noexcept;
  void finish_close_() noexcept;
  // Queues the watcher for the pending phase (libuv's uv__io_feed).
  void feed_() noexcept;
  // Starts the poll-phase callback for incoming connections.
  int start_listening_(connection_cb cb) noexcept;
  int watch_(unsigned events) noexcept;
  void unwatch_(unsigned events) noexcept;
  // unwatch_ for a stream that stays open: the kernel keeps the fd until
  // the poll phase, in case the stream wants events again before then.
  void disarm_(unsigned events) noexcept;
  // Runs a user callback, reported to hooks as an I/O callback when made
  // from the poll phase (pending-phase calls are reported by the loop).
  template <class F>
  void call_(unsigned events, req* r, F&& f);

  static void io_(phaseloop::loop& l, detail::io_watcher& w, unsigned events);
  static void server_io_(phaseloop::loop& l, detail::io_watcher& w, unsigned events);
  static stream* from_(detail::io_watcher& w) noexcept;
  void read_(unsigned events);
  void hangup_(unsigned events);
  void refused_(int err, unsigned events);
  void eof_(const fs_buf& b, unsigned events);
  // Whether the stream reads: the reading bit in flags_ up to libuv 1.52,
  // a read callback from 1.53 (which keeps no bit).
  bool reading_() const noexcept;
  // Reading ends (end of file, a read error): the bit goes; from 1.53 the
  // callbacks go too.
  void end_reading_() noexcept;
  void write_();
  void write_callbacks_(unsigned events);
  void drain_(unsigned events);
  void connect_done_(unsigned events);
  void finish_write_(write_req& r) noexcept;
  void flush_writes_(int error) noexcept;
  ssize_t try_write_(const fs_buf* bufs, unsigned nbufs, handle* send) noexcept;
  ssize_t chaos_read_(detail::chaos& c, const fs_buf& b) noexcept;
  ssize_t chaos_write_(detail::chaos& c, const fs_buf* bufs, unsigned nbufs) noexcept;
  int check_before_write_(unsigned nbufs, handle* send) const noexcept;
  ssize_t read_ipc_(const fs_buf& b, int& fds_error);
  int receive_fds_(void* msghdr);
  // True for a pipe made to carry handles (its `ipc`, which C programs see).
  bool carries_handles_() const noexcept;

  friend class phaseloop::handle;
  friend class phaseloop::loop;
  friend class process;  // opens the parent's end of a child's pipe
 public:
  /// Offsets of the fields libuv's uv_stream_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t write_queue_size, alloc_cb, read_cb; };
  static constexpr c_fields c_layout() noexcept;

 protected:

  // Ordered so that write_queue_size_, alloc_cb_ and read_cb_ sit at
  // libuv's offsets 96, 104 and 112 (checked in compat/uv_stream.cpp).
  std::size_t write_queue_size_ = 0;
  stream_alloc_cb alloc_cb_ = nullptr;
  read_cb read_cb_ = nullptr;
  connection_cb connection_cb_ = nullptr;
  connect_req* connect_req_ = nullptr;
  shutdown_req* shutdown_req_ = nullptr;
  int accepted_fd_ = -1;
  int delayed_error_ = 0;      // an error to report later (bind, connect)
  int write_error_ = 0;        // the failed write that ended writing (write_())
  detail::io_watcher watcher_;
  write_req::list write_queue_;
  write_req::list completed_;  // finished writes whose callbacks are due
  std::vector<int>* queued_fds_ = nullptr;  // IPC: fds received after accepted_fd_
};

}  // namespace phaseloop
