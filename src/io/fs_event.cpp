// SPDX-License-Identifier: MIT
// File system event handles on inotify.
//
// One inotify descriptor per loop, made by the first start() and watched by
// the poll phase like any fd. Each kernel watch (wd) has an inotify_watch
// listing the handles that share it: inotify gives the same wd for the
// same file however it is named, so the first handle's path is kept for
// them all. A watch goes away when its last handle stops, unless its
// handles are being called back (then after the pass).

#include "phaseloop/fs_event.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/internal.hpp"

namespace phaseloop {

struct detail::inotify_watch {
  int wd = -1;
  bool iterating = false;  // handles are being called back: keep it
  fs_event::list handles;  // in start order
  std::unique_ptr<char[]> path;
};

// The loop's inotify instance and its watches: a part of the loop (see
// src/core/internal.hpp), made by the first start().
struct detail::inotify_state final : loop_part {
  static constexpr char tag = 0;
  io_watcher watcher;
  std::map<int, std::unique_ptr<inotify_watch>> watches;  // by wd

  explicit inotify_state(phaseloop::loop& l) noexcept : loop_part(l) { watcher.cb = &fs_event::read_events_; }
  ~inotify_state() override { close_fd(); }

  // Makes the descriptor and has the poll phase watch it, unless done.
  int open_fd() noexcept {
    if (watcher.fd >= 0) return 0;
    const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -errno;
    watcher.fd = fd;
    if (int r = loop_seam::poller(owner()).watch(watcher, io_readable); r != 0) {
      ::close(fd);
      watcher.fd = -1;
      return r;
    }
    return 0;
  }
  void close_fd() noexcept {
    if (watcher.fd < 0) return;
    detail::poller& p = loop_seam::poller(owner());
    if (p.fd() >= 0) p.unwatch(watcher, io_readable);
    ::close(watcher.fd);
    watcher.fd = -1;
  }
  int after_fork() noexcept override;

  inotify_watch* find(int wd) const {
    auto it = watches.find(wd);
    return it == watches.end() ? nullptr : it->second.get();
  }

  // Drops a watch whose last handle left, unless it is being iterated.
  void maybe_drop(inotify_watch& w) {
    if (w.iterating || !w.handles.empty()) return;
    inotify_rm_watch(watcher.fd, w.wd);
    watches.erase(w.wd);
  }
};

namespace {

// What the kernel is asked to report for every watch.
constexpr std::uint32_t watch_mask =
    IN_ATTRIB | IN_CREATE | IN_MODIFY | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_MOVED_FROM | IN_MOVED_TO;

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

}  // namespace

fs_event::fs_event(phaseloop::loop& l) noexcept : handle(l, handle_type::fs_event) {}

int fs_event::start(fs_event_cb cb, const char* path, unsigned) noexcept {
  if (is_active() || is_closing() || cb == nullptr || path == nullptr) return errc::invalid;
  detail::inotify_state* part = detail::loop_seam::part<detail::inotify_state>(*loop_);
  if (part == nullptr) return errc::no_memory;
  if (int r = part->open_fd(); r != 0) return r;
  detail::inotify_state& st = *part;
  const int wd = inotify_add_watch(st.watcher.fd, path, watch_mask);
  if (wd < 0) return -errno;
  detail::inotify_watch* w = st.find(wd);
  if (w == nullptr) {
    try {
      auto made = std::make_unique<detail::inotify_watch>();
      const std::size_t len = std::strlen(path) + 1;
      made->path.reset(new char[len]);
      std::memcpy(made->path.get(), path, len);
      made->wd = wd;
      w = made.get();
      st.watches.emplace(wd, std::move(made));
    } catch (...) {
      return errc::no_memory;
    }
  }
  w->handles.push_back(*this);
  watch_ = w;
  path_ = w->path.get();
  cb_ = cb;
  start_();
  return 0;
}

int fs_event::stop() noexcept {
  if (!is_active()) return 0;
  detail::inotify_watch* w = watch_;
  fs_event::list::unlink(*this);
  watch_ = nullptr;
  path_ = nullptr;
  stop_();
  detail::loop_seam::find<detail::inotify_state>(*loop_)->maybe_drop(*w);
  return 0;
}

int fs_event::getpath(char* buf, std::size_t* size) const noexcept {
  if (!is_active()) {
    *size = 0;
    return errc::invalid;
  }
  const std::size_t need = std::strlen(path_);
  if (need >= *size) {
    *size = need + 1;
    return -ENOBUFS;
  }
  std::memcpy(buf, path_, need);
  buf[need] = '\0';
  *size = need;
  return 0;
}

void fs_event::read_events_(phaseloop::loop& l, detail::io_watcher& iw, unsigned) {
  detail::inotify_state& st = *detail::loop_seam::find<detail::inotify_state>(l);
  alignas(inotify_event) char buf[4096];
  for (;;) {
    ssize_t n;
    do n = ::read(iw.fd, buf, sizeof buf);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return;  // EAGAIN: drained
    const inotify_event* e;
    for (const char* p = buf; p < buf + n; p += sizeof *e + e->len) {
      e = reinterpret_cast<const inotify_event*>(p);
      int events = 0;
      if (e->mask & (IN_ATTRIB | IN_MODIFY)) events |= fs_event_change;
      if (e->mask & ~(IN_ATTRIB | IN_MODIFY)) events |= fs_event_rename;
      detail::inotify_watch* w = st.find(e->wd);
      if (w == nullptr) continue;  // no handle watches it any more
      // A watched file's own events carry no name: report its base name.
      const char* name = e->len ? e->name : base_name(w->path.get());
      // Each handle goes back to the live list before its callback, so a
      // callback may stop or start any handle; the watch stays until the
      // pass is over.
      w->iterating = true;
      fs_event::list pass;
      pass.splice_back(w->handles);
      while (fs_event* h = pass.pop_front()) {
        w->handles.push_back(*h);
        detail::loop_seam::complete(l, callback_kind::io, h, nullptr, [h, name, events] { h->cb_(h, name, events, 0); });
      }
      w->iterating = false;
      st.maybe_drop(*w);
    }
  }
}

int detail::inotify_state::after_fork() noexcept {
  // The descriptor is shared with the parent: it goes before the handles
  // stop, so that dropping their watches cannot drop the parent's.
  close_fd();
  // Every handle is stopped and started again on a new descriptor, by
  // watch and in start order, with the path its watch was made for.
  struct restart {
    fs_event* h;
    fs_event_cb cb;
    std::string path;
  };
  std::vector<restart> again;
  try {
    for (auto& [wd, w] : watches)
      for (fs_event* h = w->handles.front(); h; h = w->handles.next(*h)) again.push_back({h, h->cb_, w->path.get()});
  } catch (...) {
    return errc::no_memory;
  }
  for (restart& r : again) r.h->stop();
  watches.clear();
  for (restart& r : again)
    if (int e = r.h->start(r.cb, r.path.c_str(), 0); e != 0) return e;
  return 0;
}

}  // namespace phaseloop
