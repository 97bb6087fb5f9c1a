// SPDX-License-Identifier: MIT
// fs_poll handles: a chain of polling contexts, one per start(). A context
// owns an internal timer and a stat request; it lives until its timer has
// been closed, which happens when the handle is stopped (at once if the
// timer is waiting, else after the stat in flight completes). A closing
// handle is finished when its last context is gone.

#include "phaseloop/fs_poll.hpp"

#include <cstring>
#include <memory>
#include <new>

#include "core/internal.hpp"

namespace phaseloop {

struct detail::fs_poll_ctx {
  fs_poll_ctx(loop& l, fs_poll* h) : parent(h), tick(l) {}

  fs_poll* parent;
  fs_poll_ctx* previous = nullptr;  // context of an earlier start, still closing
  fs_poll_cb cb = nullptr;
  ssize_t state = 0;  // 0: nothing seen yet; 1: last stat succeeded; < 0: its error
  unsigned interval = 1;
  std::uint64_t start_time = 0;
  timer tick;
  fs_req stat_req;
  fs_stat last{};
  std::unique_ptr<char[]> path;

  static void on_timer(timer* t);
  static void on_stat(fs_req* r);
  static void on_timer_closed(handle* t);
};

namespace {

const fs_stat zero_stat{};

// What counts as a change (libuv's comparison; atime is left out).
bool same_stat(const fs_stat& a, const fs_stat& b) {
  return a.st_ctim.tv_nsec == b.st_ctim.tv_nsec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
         a.st_birthtim.tv_nsec == b.st_birthtim.tv_nsec && a.st_ctim.tv_sec == b.st_ctim.tv_sec &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_birthtim.tv_sec == b.st_birthtim.tv_sec &&
         a.st_size == b.st_size && a.st_mode == b.st_mode && a.st_uid == b.st_uid && a.st_gid == b.st_gid &&
         a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_flags == b.st_flags && a.st_gen == b.st_gen;
}

}  // namespace

fs_poll::fs_poll(phaseloop::loop& l) noexcept : handle(l, handle_type::fs_poll) {}

int fs_poll::start(fs_poll_cb cb, const char* path, unsigned interval) noexcept {
  if (is_active()) return 0;
  if (cb == nullptr || path == nullptr || is_closing()) return errc::invalid;
  auto* ctx = new (std::nothrow) detail::fs_poll_ctx(*loop_, this);
  if (ctx == nullptr) return errc::no_memory;
  const std::size_t len = std::strlen(path) + 1;
  ctx->path.reset(new (std::nothrow) char[len]);
  if (ctx->path == nullptr) {
    detail::loop_seam::unlist(*loop_, ctx->tick);
    delete ctx;
    return errc::no_memory;
  }
  std::memcpy(ctx->path.get(), path, len);
  ctx->cb = cb;
  ctx->interval = interval ? interval : 1;
  ctx->start_time = loop_->now();
  ctx->tick.data = ctx;
  ctx->tick.flags_ |= internal_flag;
  ctx->tick.unref();
  ctx->stat_req.data = ctx;
  if (int r = ctx->stat_req.stat(loop_, ctx->path.get(), &detail::fs_poll_ctx::on_stat); r != 0) {
    detail::loop_seam::unlist(*loop_, ctx->tick);
    delete ctx;
    return r;
  }
  ctx->previous = ctx_;
  ctx_ = ctx;
  start_();
  return 0;
}

int fs_poll::stop() noexcept {
  if (!is_active()) return 0;
  // A waiting timer is closed now; with a stat in flight, its completion
  // sees the handle stopped and closes the timer then.
  if (ctx_->tick.is_active()) ctx_->tick.close(&detail::fs_poll_ctx::on_timer_closed);
  stop_();
  return 0;
}

bool fs_poll::close_() noexcept {
  stop();
  return ctx_ == nullptr;
}

void fs_poll::finish_close_() noexcept { detail::loop_seam::close_pending(*loop_, *this); }

int fs_poll::getpath(char* buf, std::size_t* size) const noexcept {
  if (!is_active()) {
    *size = 0;
    return errc::invalid;
  }
  const char* path = ctx_->path.get();
  const std::size_t need = std::strlen(path);
  if (need >= *size) {
    *size = need + 1;
    return -ENOBUFS;
  }
  std::memcpy(buf, path, need);
  buf[need] = '\0';
  *size = need;
  return 0;
}

void detail::fs_poll_ctx::on_timer(timer* t) {
  auto* ctx = static_cast<fs_poll_ctx*>(t->data);
  loop& l = t->owner();
  ctx->start_time = l.now();
  // Cannot fail for a started loop and a path; if it did, polling ends.
  (void)ctx->stat_req.stat(&l, ctx->path.get(), &fs_poll_ctx::on_stat);
}

void detail::fs_poll_ctx::on_stat(fs_req* r) {
  auto* ctx = static_cast<fs_poll_ctx*>(r->data);
  fs_poll* h = ctx->parent;
  if (h->is_active() && !h->is_closing()) {
    const ssize_t result = r->result();
    if (result != 0) {
      if (ctx->state != result) {
        ctx->cb(h, static_cast<int>(result), &ctx->last, &zero_stat);
        ctx->state = result;
      }
    } else {
      const fs_stat& now = r->statbuf();
      if (ctx->state != 0 && (ctx->state < 0 || !same_stat(ctx->last, now))) ctx->cb(h, 0, &ctx->last, &now);
      ctx->last = now;
      ctx->state = 1;
    }
  }
  r->cleanup();
  if (!h->is_active() || h->is_closing()) {
    ctx->tick.close(&fs_poll_ctx::on_timer_closed);
    return;
  }
  // The next stat is due one interval after this one started.
  loop& l = ctx->tick.owner();
  const std::uint64_t wait = ctx->interval - (l.now() - ctx->start_time) % ctx->interval;
  ctx->tick.start(&fs_poll_ctx::on_timer, wait, 0);
}

void detail::fs_poll_ctx::on_timer_closed(handle* t) {
  auto* ctx = static_cast<fs_poll_ctx*>(t->data);
  fs_poll* h = ctx->parent;
  if (h->ctx_ == ctx) {
    h->ctx_ = ctx->previous;
    if (h->ctx_ == nullptr && h->is_closing()) h->finish_close_();
  } else {
    fs_poll_ctx* later = h->ctx_;
    while (later->previous != ctx) later = later->previous;
    later->previous = ctx->previous;
  }
  delete ctx;
}

}  // namespace phaseloop
