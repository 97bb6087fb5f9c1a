// SPDX-License-Identifier: MIT
// File system requests (include/phaseloop/fs.hpp).
//
// Each operation records its arguments in the request, then runs on a pool
// thread (with a callback) or at once on the caller's thread. The system
// side of every operation is a small function in fs_ops.cpp
// (io/fs_ops.hpp), which returns a result or a negative errno; execute_()
// retries the ones interrupted by a signal and stores the result where C
// programs read uv_fs_t.result. A loop using io_uring hands the operations
// its ring can do to the kernel instead (io/fs_ring.hpp). Completion
// (fs_req::pool_done_, or the ring's) runs in the poll phase and is
// reported to phase hooks as callback_kind::fs.

#include "phaseloop/fs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>

#include "core/internal.hpp"
#include "io/fs_ops.hpp"
#include "io/fs_ring.hpp"

namespace phaseloop {

using namespace detail::fs_ops;

// ---- the request ------------------------------------------------------------

void fs_req::pool_run_() noexcept { execute_(); }

void fs_req::pool_done_(int status) noexcept {
  in_flight_ = false;
  if (status == errc::canceled) result_ = errc::canceled;
  // The callback may free the request: nothing touches it afterwards.
  detail::loop_seam::complete(*loop_, callback_kind::fs, nullptr, this, [this] { cb_(this); });
}

// libuv's INIT: every operation starts from a clean request.
int fs_req::begin_(loop* l, fs_type t, fs_cb cb) noexcept {
  if (in_flight_) return errc::busy;
  cleanup();
  fs_type_ = t;
  loop_ = l;
  cb_ = cb;
  result_ = 0;
  if (cb != nullptr && l == nullptr) return errc::invalid;
  return 0;
}

// An asynchronous request copies its path: the caller's string may be gone
// when a pool thread uses it. mkdtemp and mkstemp always copy, since they
// write into the template.
int fs_req::set_path_(const char* path, bool always_copy) noexcept {
  if (path == nullptr) return errc::invalid;
  if (cb_ == nullptr && !always_copy) {
    path_ = path;
    return 0;
  }
  char* copy = ::strdup(path);
  if (copy == nullptr) return errc::no_memory;
  path_ = copy;
  owns_path_ = true;
  return 0;
}

// Both paths of rename, link, symlink and copyfile, in one allocation.
int fs_req::set_paths_(const char* path, const char* new_path) noexcept {
  if (path == nullptr || new_path == nullptr) return errc::invalid;
  if (cb_ == nullptr) {
    path_ = path;
    new_path_ = new_path;
    return 0;
  }
  const std::size_t n1 = std::strlen(path) + 1;
  const std::size_t n2 = std::strlen(new_path) + 1;
  auto* copy = static_cast<char*>(std::malloc(n1 + n2));
  if (copy == nullptr) return errc::no_memory;
  std::memcpy(copy, path, n1);
  std::memcpy(copy + n1, new_path, n2);
  path_ = copy;
  new_path_ = copy + n1;
  owns_path_ = true;
  return 0;
}

// The buffer array is copied (the buffers themselves are not).
int fs_req::set_bufs_(const fs_buf bufs[], unsigned nbufs) noexcept {
  if (bufs == nullptr || nbufs == 0) return errc::invalid;
  bufs_ = detail::copy_bufs(bufsml_, std::size(bufsml_), bufs, nbufs);
  if (bufs_ == nullptr) return errc::no_memory;
  nbufs_ = nbufs;
  return 0;
}

void fs_req::release_bufs_() noexcept {
  detail::free_bufs(bufs_, bufsml_);
  bufs_ = nullptr;
  nbufs_ = 0;
}

int fs_req::submit_() noexcept {
  if (cb_ == nullptr) {
    execute_();
    return static_cast<int>(result_);
  }
  in_flight_ = true;
  if (detail::fs_ring_submit(*loop_, *this)) {
    detail::loop_seam::started(*loop_, *this, nullptr);
    return 0;
  }
  const int r = detail::pool_submit(*loop_, task_, detail::pool_request<fs_req>::ops);
  if (r != 0) in_flight_ = false;
  else detail::loop_seam::started(*loop_, *this, nullptr);
  return r;
}

// On a pool thread, or the caller's for a synchronous request.
phaseloop::profile fs_req::profile_() const noexcept {
  if (loop_ != nullptr) return loop_->order();
  switch (loopless_profile_) {
    case by_process_profile_: return process_profile();
    case by_process_version_: return profile_of(process_version());
    default: return static_cast<phaseloop::profile>(loopless_profile_);
  }
}

void fs_req::execute_() noexcept {
  // As libuv, every operation but read and close is made again when a
  // signal interrupted it (a close must not be: the descriptor is gone).
  const bool retry = fs_type_ != fs_type::read && fs_type_ != fs_type::close;
  ssize_t r;
  do {
    r = dispatch_();
  } while (r == -EINTR && retry);
  if (bufs_ != nullptr) release_bufs_();  // read and write's
  result_ = r;
  if (r == 0 && (fs_type_ == fs_type::stat || fs_type_ == fs_type::lstat || fs_type_ == fs_type::fstat))
    ptr_ = &statbuf_;
}

ssize_t fs_req::dispatch_() noexcept {
  switch (fs_type_) {
    case fs_type::open: return checked(::open(path_, flags_ | O_CLOEXEC, mode_));
    case fs_type::close: return close_file(file_);
    case fs_type::read: return read_into(file_, bufs_, nbufs_, off_);
    case fs_type::write: {
      // What the ring wrote of it first counts too, also when the rest
      // fails (as write_all counts what it wrote before an error).
      const ssize_t r = write_all(file_, bufs_, nbufs_, off_);
      if (length_ == 0) return r;
      return static_cast<ssize_t>(length_) + (r > 0 ? r : 0);
    }
    case fs_type::sendfile: return send_file(file_, flags_, off_, length_);
    case fs_type::stat: return stat_any(stat_of::path, path_, -1, statbuf_);
    case fs_type::lstat: return stat_any(stat_of::link, path_, -1, statbuf_);
    case fs_type::fstat: return stat_any(stat_of::fd, nullptr, file_, statbuf_);
    case fs_type::ftruncate: return checked(::ftruncate(file_, off_));
    case fs_type::utime: return set_times(-1, path_, 0, args_.times.atime, args_.times.mtime, profile_());
    case fs_type::futime: return set_times(file_, nullptr, 0, args_.times.atime, args_.times.mtime, profile_());
    case fs_type::lutime:
      return set_times(-1, path_, AT_SYMLINK_NOFOLLOW, args_.times.atime, args_.times.mtime, profile_());
    case fs_type::access: return checked(::access(path_, flags_));
    case fs_type::chmod: return checked(::chmod(path_, static_cast<mode_t>(mode_)));
    case fs_type::fchmod: return checked(::fchmod(file_, static_cast<mode_t>(mode_)));
    case fs_type::fsync: return checked(::fsync(file_));
    case fs_type::fdatasync: return checked(::fdatasync(file_));
    case fs_type::unlink: return checked(::unlink(path_));
    case fs_type::rmdir: return checked(::rmdir(path_));
    case fs_type::mkdir: return checked(::mkdir(path_, static_cast<mode_t>(mode_)));
    // Both write into their template, always the request's own copy.
    case fs_type::mkdtemp: return ::mkdtemp(const_cast<char*>(path_)) != nullptr ? 0 : errno_code();
    case fs_type::mkstemp: return make_temp_file(const_cast<char*>(path_));
    case fs_type::rename: return checked(::rename(path_, new_path_));
    case fs_type::scandir:
      nbufs_ = 0;  // the next entry scandir_next returns
      return scan_dir(path_, ptr_);
    case fs_type::link: return checked(::link(path_, new_path_));
    case fs_type::symlink: return checked(::symlink(path_, new_path_));
    case fs_type::readlink: return read_link(path_, ptr_);
    case fs_type::realpath: return real_path(path_, ptr_);
    case fs_type::chown: return checked(::chown(path_, args_.ids.uid, args_.ids.gid));
    case fs_type::fchown: return checked(::fchown(file_, args_.ids.uid, args_.ids.gid));
    case fs_type::lchown: return checked(::lchown(path_, args_.ids.uid, args_.ids.gid));
    case fs_type::copyfile: return copy_file(path_, new_path_, flags_, profile_());
    case fs_type::opendir: {
      void* mem = std::malloc(sizeof(fs_dir));
      if (mem == nullptr) return -ENOMEM;
      DIR* stream = ::opendir(path_);
      if (stream == nullptr) {
        const ssize_t e = errno_code();
        std::free(mem);
        return e;
      }
      auto* dir = new (mem) fs_dir;
      dir->stream_ = stream;
      ptr_ = dir;
      return 0;
    }
    case fs_type::readdir: {
      auto* dir = static_cast<fs_dir*>(ptr_);
      return read_dir(static_cast<DIR*>(dir->stream_), dir->dirents, dir->nentries);
    }
    case fs_type::closedir: {
      auto* dir = static_cast<fs_dir*>(ptr_);
      if (dir->stream_ != nullptr) ::closedir(static_cast<DIR*>(dir->stream_));
      std::free(dir);
      ptr_ = nullptr;
      return 0;
    }
    case fs_type::statfs: return fs_stats(path_, ptr_);
    case fs_type::unknown:
    case fs_type::custom: break;
  }
  return errc::invalid;
}

void fs_req::cleanup() noexcept {
  if (owns_path_) std::free(const_cast<char*>(path_));  // new_path_ shares it
  owns_path_ = false;
  path_ = nullptr;
  new_path_ = nullptr;
  if (ptr_ == &statbuf_) {  // a stat's result: nothing to free
    ptr_ = nullptr;
  } else if (ptr_ != nullptr) {
    switch (fs_type_) {
      case fs_type::scandir: {
        // Entries before the last one scandir_next returned are freed.
        auto** list = static_cast<dirent**>(ptr_);
        for (ssize_t i = nbufs_ > 0 ? nbufs_ - 1 : 0; i < result_; i++) std::free(list[i]);
        std::free(list);
        break;
      }
      case fs_type::readdir: {
        // The names; the fs_dir and its array are the caller's.
        auto* dir = static_cast<fs_dir*>(ptr_);
        if (dir->dirents != nullptr && result_ > 0) free_names(dir->dirents, static_cast<std::size_t>(result_));
        break;
      }
      case fs_type::opendir:   // the caller's until closedir
      case fs_type::closedir:  // not closed (canceled): still the caller's
        break;
      default:
        std::free(ptr_);
        break;
    }
    ptr_ = nullptr;
  }
  if (bufs_ != nullptr) release_bufs_();
}

int fs_req::cancel() noexcept {
  if (!in_flight_) return errc::busy;
  if (ring_ != 0) return errc::busy;  // the kernel has it, or soon will
  return detail::pool_cancel(*loop_, task_);
}

int fs_req::scandir_next(fs_dirent& ent) noexcept {
  if (result_ < 0) return static_cast<int>(result_);
  if (ptr_ == nullptr) return errc::eof;
  if (fs_type_ != fs_type::scandir) return errc::invalid;
  auto** list = static_cast<dirent**>(ptr_);
  if (nbufs_ > 0) std::free(list[nbufs_ - 1]);
  if (static_cast<ssize_t>(nbufs_) == result_) {
    std::free(list);
    ptr_ = nullptr;
    return errc::eof;
  }
  const dirent* d = list[nbufs_++];
  ent.name = d->d_name;
  ent.type = dirent_type(d->d_type);
  return 0;
}

// ---- the operations: record the arguments, then run or queue ---------------

int fs_req::open(loop* l, const char* path, int flags, int mode, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::open, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  flags_ = flags;
  mode_ = mode;
  return submit_();
}

int fs_req::close(loop* l, int file, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::close, cb); r != 0) return r;
  file_ = file;
  return submit_();
}

int fs_req::read(loop* l, int file, const fs_buf bufs[], unsigned nbufs, std::int64_t offset, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::read, cb); r != 0) return r;
  if (int r = set_bufs_(bufs, nbufs); r != 0) return r;
  file_ = file;
  off_ = offset;
  return submit_();
}

int fs_req::write(loop* l, int file, const fs_buf bufs[], unsigned nbufs, std::int64_t offset, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::write, cb); r != 0) return r;
  if (int r = set_bufs_(bufs, nbufs); r != 0) return r;
  file_ = file;
  off_ = offset;
  length_ = 0;  // bytes written so far (by the io_uring ring, before a rest went to the pool)
  return submit_();
}

int fs_req::unlink(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::unlink, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::copyfile(loop* l, const char* path, const char* new_path, int flags, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::copyfile, cb); r != 0) return r;
  if (flags & ~(fs_copyfile_excl | fs_copyfile_ficlone | fs_copyfile_ficlone_force)) return errc::invalid;
  if (int r = set_paths_(path, new_path); r != 0) return r;
  flags_ = flags;
  return submit_();
}

int fs_req::mkdir(loop* l, const char* path, int mode, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::mkdir, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  mode_ = mode;
  return submit_();
}

int fs_req::mkdtemp(loop* l, const char* tpl, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::mkdtemp, cb); r != 0) return r;
  if (int r = set_path_(tpl, true); r != 0) return r;
  return submit_();
}

int fs_req::mkstemp(loop* l, const char* tpl, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::mkstemp, cb); r != 0) return r;
  if (int r = set_path_(tpl, true); r != 0) return r;
  return submit_();
}

int fs_req::rmdir(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::rmdir, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::scandir(loop* l, const char* path, int flags, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::scandir, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  flags_ = flags;
  return submit_();
}

int fs_req::opendir(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::opendir, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::readdir(loop* l, fs_dir* dir, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::readdir, cb); r != 0) return r;
  if (dir == nullptr || dir->stream_ == nullptr || dir->dirents == nullptr) return errc::invalid;
  ptr_ = dir;
  return submit_();
}

int fs_req::closedir(loop* l, fs_dir* dir, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::closedir, cb); r != 0) return r;
  if (dir == nullptr) return errc::invalid;
  ptr_ = dir;
  return submit_();
}

int fs_req::stat(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::stat, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::fstat(loop* l, int file, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::fstat, cb); r != 0) return r;
  file_ = file;
  return submit_();
}

int fs_req::lstat(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::lstat, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::statfs(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::statfs, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::rename(loop* l, const char* path, const char* new_path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::rename, cb); r != 0) return r;
  if (int r = set_paths_(path, new_path); r != 0) return r;
  return submit_();
}

int fs_req::fsync(loop* l, int file, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::fsync, cb); r != 0) return r;
  file_ = file;
  return submit_();
}

int fs_req::fdatasync(loop* l, int file, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::fdatasync, cb); r != 0) return r;
  file_ = file;
  return submit_();
}

int fs_req::ftruncate(loop* l, int file, std::int64_t length, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::ftruncate, cb); r != 0) return r;
  file_ = file;
  off_ = length;
  return submit_();
}

int fs_req::sendfile(loop* l, int out_fd, int in_fd, std::int64_t in_offset, std::size_t length, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::sendfile, cb); r != 0) return r;
  file_ = out_fd;
  flags_ = in_fd;
  off_ = in_offset;
  length_ = length;
  return submit_();
}

int fs_req::access(loop* l, const char* path, int mode, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::access, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  flags_ = mode;
  return submit_();
}

int fs_req::chmod(loop* l, const char* path, int mode, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::chmod, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  mode_ = mode;
  return submit_();
}

int fs_req::fchmod(loop* l, int file, int mode, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::fchmod, cb); r != 0) return r;
  file_ = file;
  mode_ = mode;
  return submit_();
}

int fs_req::utime(loop* l, const char* path, double atime, double mtime, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::utime, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  args_.times = {atime, mtime};
  return submit_();
}

int fs_req::futime(loop* l, int file, double atime, double mtime, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::futime, cb); r != 0) return r;
  file_ = file;
  args_.times = {atime, mtime};
  return submit_();
}

int fs_req::lutime(loop* l, const char* path, double atime, double mtime, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::lutime, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  args_.times = {atime, mtime};
  return submit_();
}

int fs_req::link(loop* l, const char* path, const char* new_path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::link, cb); r != 0) return r;
  if (int r = set_paths_(path, new_path); r != 0) return r;
  return submit_();
}

int fs_req::symlink(loop* l, const char* path, const char* new_path, int flags, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::symlink, cb); r != 0) return r;
  if (int r = set_paths_(path, new_path); r != 0) return r;
  flags_ = flags;
  return submit_();
}

int fs_req::readlink(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::readlink, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::realpath(loop* l, const char* path, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::realpath, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  return submit_();
}

int fs_req::chown(loop* l, const char* path, uid_t uid, gid_t gid, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::chown, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  args_.ids = {uid, gid};
  return submit_();
}

int fs_req::fchown(loop* l, int file, uid_t uid, gid_t gid, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::fchown, cb); r != 0) return r;
  file_ = file;
  args_.ids = {uid, gid};
  return submit_();
}

int fs_req::lchown(loop* l, const char* path, uid_t uid, gid_t gid, fs_cb cb) noexcept {
  if (int r = begin_(l, fs_type::lchown, cb); r != 0) return r;
  if (int r = set_path_(path, false); r != 0) return r;
  args_.ids = {uid, gid};
  return submit_();
}

}  // namespace phaseloop
