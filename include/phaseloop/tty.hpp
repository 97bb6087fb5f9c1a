// SPDX-License-Identifier: MIT
#pragma once
/// Terminal handles (libuv's uv_tty_t): a stream over a terminal fd, with
/// the terminal modes libuv offers. Stream operations are in stream.hpp.

#include <termios.h>

#include "phaseloop/stream.hpp"

namespace phaseloop {

/// The kind of handle that would serve `fd`, as libuv's uv_guess_handle
/// answers: tty for a terminal, file for a regular file or other character
/// device, named_pipe for a FIFO or Unix stream socket, tcp / udp for IP
/// sockets, unknown otherwise (also for a bad fd). Any thread.
handle_type guess_handle(int fd) noexcept;

class tty : public stream {
 public:
  /// Terminal modes; the values are libuv's uv_tty_mode_t.
  enum class mode : int {
    normal = 0,  ///< as the terminal was
    raw = 1,     ///< no line editing, no echo, no signals from keys
    io = 2,      ///< binary-safe raw mode (cfmakeraw)
    raw_vt = 3,  ///< libuv 1.51+: raw mode, with VT input on Windows
  };

  /// Checks that `fd` can back a tty handle (a terminal, pipe or socket,
  /// not a file): 0 or errc::invalid / -errno. Call before constructing.
  static int check_fd(int fd) noexcept;
  /// Joins `l` over `fd`. A terminal slave is reopened by name so that
  /// making it non-blocking does not affect other processes sharing the
  /// open file; when that is impossible, writes block instead. Loop thread.
  tty(phaseloop::loop& l, int fd) noexcept;

  /// Switches the terminal mode; the first switch away from normal saves
  /// the terminal's settings (process-wide, for reset_mode()).
  int set_mode(mode m) noexcept;
  /// The window size in columns and rows.
  int winsize(int* width, int* height) const noexcept;
  /// Restores the settings saved by the first set_mode() of the process.
  /// -EBUSY while a set_mode() is in progress on another thread. Any thread,
  /// async-signal-safe.
  static int reset_mode() noexcept;

 private:
  friend class phaseloop::handle;
  void close_() noexcept;

  // Padding so that the private part starts at libuv's offset 248.
  unsigned char unused_[248 - sizeof(stream)] = {};
  termios orig_{};
  mode mode_ = mode::normal;
};

}  // namespace phaseloop
