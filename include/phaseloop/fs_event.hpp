// SPDX-License-Identifier: MIT
#pragma once
/// File system events: a callback when a watched file or directory changes
/// (Linux: inotify, one inotify descriptor per loop, made on first use).
///
/// Callbacks run in the poll phase with the name of the entry that changed
/// (for a watched file: the file's own base name) and libuv's event bits:
/// fs_event_change for content or attribute changes, fs_event_rename for
/// everything else (creation, deletion, moves). Handles watching the same
/// file share one kernel watch; each gets the callback, in start order.
/// Every method is for the loop's thread only.

#include <cstddef>

#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/detail/poller.hpp"
#include "phaseloop/handle.hpp"

namespace phaseloop {

namespace detail {
struct inotify_state;
struct inotify_watch;
}  // namespace detail

class fs_event;

/// libuv's event bits (uv_fs_event).
inline constexpr int fs_event_rename = 1;
inline constexpr int fs_event_change = 2;

/// Runs in the poll phase: `filename` changed (never null here), `events`
/// holds fs_event_rename and/or fs_event_change, `status` is 0.
using fs_event_cb = void (*)(fs_event*, const char* filename, int events, int status);

class fs_event : public handle {
 public:
  /// Joins `l` as an inactive handle. Loop thread only.
  explicit fs_event(phaseloop::loop& l) noexcept;

  /// Starts watching `path` (`flags` is accepted and ignored, as libuv does
  /// on Linux). errc::invalid when already started, or for a null path or
  /// callback; the kernel's error (-ENOENT ...) when it cannot be watched.
  int start(fs_event_cb cb, const char* path, unsigned flags) noexcept;
  /// Stops watching. Always 0.
  int stop() noexcept;
  /// The watched path (the first path given for this file, shared by the
  /// handles watching it), or nullptr when stopped. (libuv: `path`.)
  const char* path() const noexcept { return path_; }
  /// Copies path() into `buf` (size in/out, as libuv's
  /// uv_fs_event_getpath): errc::invalid when stopped, -ENOBUFS when it
  /// does not fit (then *size is the size needed).
  int getpath(char* buf, std::size_t* size) const noexcept;

  /// Offsets of the fields libuv's uv_fs_event_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t path; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  friend struct detail::inotify_state;
  void close_() noexcept { stop(); }
  // The inotify descriptor's watcher callback (poll phase).
  static void read_events_(phaseloop::loop& l, detail::io_watcher& w, unsigned events);

  // Laid out so that path_ sits at offset 96, libuv's public `path`.
  char* path_ = nullptr;
  fs_event_cb cb_ = nullptr;
  detail::inotify_watch* watch_ = nullptr;

 public:
  /// The handles sharing one kernel watch (an implementation detail).
  using list = detail::ilist<fs_event, &fs_event::link_>;  // the handles of one watch
};

}  // namespace phaseloop
