// SPDX-License-Identifier: MIT
#pragma once
/// The base of every handle: a long-lived object registered with one loop.
///
/// Lifetime, as in libuv: a handle lives in memory the caller owns. It joins
/// its loop on construction (init) and leaves it when its close callback has
/// run; only then may its memory be reused. Handles are not copyable and have
/// trivial destructors so that the C layer can place them in C structs.
/// Every method must be called on the loop's thread, except where a method
/// says otherwise (`async::send`).

#include <cstddef>
#include <cstdint>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/types.hpp"

namespace phaseloop {

namespace detail {
struct signal_registry;
struct resolver;
class threadpool;
class wakeup;
}

/// Called in the closing phase once a closed handle is finished with.
using close_cb = void (*)(handle*);

class handle {
 public:
  /// Free for the user; phaseloop never reads it. Construction sets it to
  /// nullptr (the C layer keeps the value the caller stored before init, as
  /// libuv does). libuv: `data`, offset 0.
  void* data = nullptr;

  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;

  /// The loop this handle belongs to.
  phaseloop::loop& owner() const noexcept { return *loop_; }
  /// What kind of handle this is.
  handle_type type() const noexcept { return type_; }

  /// True while the handle is started (libuv's uv_is_active).
  bool is_active() const noexcept { return flags_ & active_flag; }
  /// True once close() was called (libuv's uv_is_closing).
  bool is_closing() const noexcept { return flags_ & (closing_flag | closed_flag); }
  /// True when an active handle keeps the loop alive (the default).
  bool has_ref() const noexcept { return flags_ & ref_flag; }
  /// True for handles the loop made for itself (hidden from walk()).
  bool is_internal() const noexcept { return flags_ & internal_flag; }
  /// The descriptor the handle works on (TCP, pipe, TTY, UDP and poll
  /// handles; libuv's uv_fileno): errc::invalid for a type without one,
  /// errc::bad_fd while it has none or once it is closing.
  int fileno() const noexcept;
  /// SO_SNDBUF (`send`) or SO_RCVBUF of a TCP, pipe or UDP handle's socket:
  /// read into *value when it is 0, else set to it (libuv's
  /// uv_send_buffer_size); errc::not_supported for other types.
  int socket_buffer_size(bool send, int* value) const noexcept;
  /// Makes the handle keep the loop alive while active. Idempotent.
  void ref() noexcept;
  /// Stops the handle from keeping the loop alive. Idempotent.
  void unref() noexcept;

  /// Stops the handle and schedules `cb` for the closing phase. Close
  /// callbacks run in the reverse order of the close() calls; a handle
  /// closed from a close callback is finished in the next iteration.
  /// Returns errc::invalid (and does nothing) if the handle is already
  /// closing or closed.
  int close(close_cb cb) noexcept;

 protected:
  handle(phaseloop::loop& l, handle_type t) noexcept;
  ~handle() = default;

  // Bookkeeping for subclasses: mark active/inactive, keeping the loop's
  // count of active referenced handles right.
  void start_() noexcept;
  void stop_() noexcept;

  // The state bits, with libuv 1.44's values: C programs read (and some
  // write) them at libuv's offset, and phaseloop reads them back from there.
  // Each handle type adds its own from libuv's table (stream.hpp, udp.hpp,
  // signal.hpp).
  enum : std::uint32_t {
    closing_flag = 0x1,
    closed_flag = 0x2,
    active_flag = 0x4,
    ref_flag = 0x8,
    internal_flag = 0x10,  ///< owned by the loop; invisible to walk()
  };

  // The layout is libuv's: members a C program may use sit at libuv's
  // offsets (test/layout checks them through include/phaseloop/uv/uv.h).
  phaseloop::loop* loop_;        // offset 8, libuv's `loop`
  handle_type type_;             // offset 16, libuv's `type`
  close_cb close_cb_;            // offset 24, libuv's `close_cb`
  detail::link<handle> all_;     // 32: the loop's list of all handles (walk), libuv's `handle_queue`
  /// 48: the handle's place in the one list of its kind it can be on (the
  /// loop's idle handles, running children, a signal's watchers, a timers
  /// pass's expired timers...); each type names its list.
  detail::link<handle> link_;
  // 64: the rest of libuv's `u`; an async handle keeps its send stamp
  // here (async.hpp), other types leave it free.
  std::uint64_t spare_[2] = {};
  handle* next_closing_;         // offset 80, libuv's `next_closing`: the loop's LIFO of closing handles
  std::uint32_t flags_;          // offset 88, libuv's `flags`

  friend class phaseloop::loop;
 public:
  /// Offsets of the fields libuv's uv_handle_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t data, loop, type, close_cb, next_closing, flags; };
  static constexpr c_fields c_layout() noexcept;

 protected:
  friend class fs_poll;  // marks its internal timer
  friend struct detail::resolver;  // so does the DNS resolver
};

}  // namespace phaseloop
