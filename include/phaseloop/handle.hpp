#pragma once
/// The base of every handle: a long-lived object registered with one loop.
///
/// Lifetime, as in libuv: a handle lives in memory the caller owns. It joins
/// its loop on construction (init) and leaves it when its close callback has
/// run; only then may its memory be reused. Handles are not copyable and have
/// trivial destructors so that the C layer can place them in C structs.
/// Every method must be called on the loop's thread, except where a method
/// says otherwise (`async::send`).

#include <cstdint>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/types.hpp"

namespace phaseloop {

namespace detail {
struct loop_access;
struct signal_registry;
struct resolver;
class threadpool;
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

  enum : std::uint32_t {
    closing_flag = 1u << 0,
    closed_flag = 1u << 1,
    active_flag = 1u << 2,
    ref_flag = 1u << 3,
    internal_flag = 1u << 4,  ///< owned by the loop; invisible to walk()
    type_flag_1 = 1u << 8,    ///< meaning defined by each handle type
  };

  phaseloop::loop* loop_;        // offset 8, as libuv's `loop`
  handle_type type_;             // offset 16, as libuv's `type`
  std::uint32_t flags_;          // offset 20 (libuv keeps private data here)
  close_cb close_cb_;            // callback for the closing phase
  detail::link<handle> all_;     // the loop's list of all handles (walk)
  handle* next_closing_;         // the loop's LIFO list of closing handles

  friend class phaseloop::loop;
  friend struct detail::loop_access;
  friend class fs_poll;  // marks its internal timer
  friend struct detail::resolver;  // so does the DNS resolver
};

}  // namespace phaseloop
