// SPDX-License-Identifier: MIT
#pragma once
/// Pipe handles (libuv's uv_pipe_t): Unix domain stream sockets, by path,
/// and any pipe or socket fd adopted with open(). An IPC pipe can carry
/// handles along with its bytes (write2 / accept). Stream operations are in
/// stream.hpp.

#include <cstddef>

#include "phaseloop/stream.hpp"

namespace phaseloop {

class pipe : public stream {
 public:
  /// chmod() mode bits (libuv's UV_READABLE / UV_WRITABLE).
  enum : int { readable_mode = 1, writable_mode = 2 };

  /// Joins `l` with no socket yet. `ipc`: may carry handles. Loop thread.
  pipe(phaseloop::loop& l, bool ipc) noexcept;

  /// Binds to `path` (removed again when the handle closes). errc::invalid
  /// when a socket exists or the handle is closing; -EACCES for a missing
  /// directory (as libuv reports ENOENT).
  int bind(const char* path) noexcept;
  /// Starts connecting to `path`; `cb` runs in the poll phase, or in the
  /// pending phase with an error known at once.
  void connect(connect_req& r, const char* path, connect_cb cb) noexcept;

  /// bind2/connect2 flag: a name too long for a socket address is refused
  /// (errc::invalid) instead of cut.
  static constexpr unsigned no_truncate = 1;
  /// libuv 1.46's bind and connect with a name of `len` bytes: one that
  /// starts with a 0 byte is a Linux abstract socket name (no file, nothing
  /// to remove). errc::invalid for unknown flags, a null name, a 0 byte
  /// inside the name, or (no_truncate) a name too long; the rest as bind()
  /// and connect(), whose errors connect2 reports through `cb`.
  int bind2(const char* name, std::size_t len, unsigned flags) noexcept;
  int connect2(connect_req& r, const char* name, std::size_t len, unsigned flags, connect_cb cb) noexcept;
  /// Adopts `fd` (readable / writable as its open mode says). -EEXIST when
  /// this loop already watches it.
  int open(int fd) noexcept;
  /// The bound / peer path, NUL-terminated (Linux abstract names are not).
  /// -ENOBUFS when `*size` is too small; *size is set to the length.
  int sockname(char* buffer, std::size_t* size) const noexcept;
  int peername(char* buffer, std::size_t* size) const noexcept;
  /// Makes the socket file readable and/or writable by everyone.
  int chmod(int mode) noexcept;
  /// Handles received and waiting for accept() (IPC pipes).
  int pending_count() const noexcept;
  /// The type of the next handle accept() would take (handle_type::unknown
  /// when none).
  handle_type pending_type() const noexcept;
  /// True for an IPC pipe. (libuv: `ipc`.)
  bool ipc() const noexcept { return ipc_ != 0; }

  /// Offsets of the fields libuv's uv_pipe_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t ipc, pipe_fname; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class stream;
  friend class phaseloop::handle;
  int listen_(int backlog, connection_cb cb) noexcept;
  int bind_address_(const void* address, unsigned length, char* path) noexcept;
  void connect_address_(connect_req& r, const void* address, unsigned length, connect_cb cb) noexcept;
  void connect_begin_(connect_req& r, int err, connect_cb cb) noexcept;
  void close_() noexcept;
  int name_(bool peer, char* buffer, std::size_t* size) const noexcept;

  // Padding so that ipc_ sits at offset 248 like libuv's public `ipc`.
  unsigned char unused_[248 - sizeof(stream)] = {};
  int ipc_ = 0;
  char* path_ = nullptr;  // bound path (owned), unlinked on close
};

}  // namespace phaseloop
