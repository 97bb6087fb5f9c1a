// SPDX-License-Identifier: MIT
// The system side of each file system operation (io/fs_ops.hpp): small
// functions that make the system calls of one uv_fs_* operation on the
// calling thread (a pool thread, or the caller's for a synchronous
// request) and return a result or a negative errno. fs.cpp holds the
// request that records the arguments and calls them.
//
// The behaviour is libuv 1.44's on Linux, including its fallbacks: statx
// before stat, copy_file_range before sendfile before a read/write loop.

#include "io/fs_ops.hpp"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "phaseloop/behaviour.hpp"

#ifndef FICLONE
#define FICLONE _IOW(0x94, 9, int)  // <linux/fs.h>
#endif

namespace phaseloop::detail::fs_ops {

// Read and write buffers go to readv/writev as they are.
static_assert(sizeof(fs_buf) == sizeof(iovec));
static_assert(offsetof(fs_buf, base) == offsetof(iovec, iov_base));
static_assert(offsetof(fs_buf, len) == offsetof(iovec, iov_len));

namespace {

// One readv/writev takes at most this many buffers.
constexpr unsigned iov_max = IOV_MAX;

}  // namespace

// ---- open, close, read, write ---------------------------------------------

// close(2). EINTR and EINPROGRESS leave the descriptor closed all the same.
ssize_t close_file(int fd) noexcept {
  if (::close(fd) == 0) return 0;
  return errno == EINTR || errno == EINPROGRESS ? 0 : errno_code();
}

ssize_t read_into(int fd, fs_buf* b, unsigned n, std::int64_t off) noexcept {
  n = std::min(n, iov_max);
  auto* iov = reinterpret_cast<iovec*>(b);
  if (off < 0) return checked(n == 1 ? ::read(fd, b->base, b->len) : ::readv(fd, iov, static_cast<int>(n)));
  return checked(n == 1 ? ::pread(fd, b->base, b->len, off) : ::preadv(fd, iov, static_cast<int>(n), off));
}

namespace {

ssize_t write_once(int fd, const fs_buf* b, unsigned n, std::int64_t off) noexcept {
  auto* iov = reinterpret_cast<const iovec*>(b);
  if (off < 0) return n == 1 ? ::write(fd, b->base, b->len) : ::writev(fd, iov, static_cast<int>(n));
  return n == 1 ? ::pwrite(fd, b->base, b->len, off) : ::pwritev(fd, iov, static_cast<int>(n), off);
}

}  // namespace

// Writes every buffer: after a short write it goes on from where the
// kernel stopped (the array is the request's copy, so it may be edited).
// Stops at a zero-byte write or an error; an error is the result only when
// nothing was written.
ssize_t write_all(int fd, fs_buf* b, unsigned n, std::int64_t off) noexcept {
  ssize_t total = 0;
  while (n > 0) {
    ssize_t w;
    do {
      w = write_once(fd, b, std::min(n, iov_max), off);
    } while (w < 0 && errno == EINTR);
    if (w <= 0) return total > 0 ? total : checked(w);
    total += w;
    if (off >= 0) off += w;
    auto left = static_cast<std::size_t>(w);
    while (left > 0 && b->len <= left) {
      left -= b->len;
      b++;
      n--;
    }
    if (left > 0) {
      b->base += left;
      b->len -= left;
    }
  }
  return total;
}

// ---- stat family ----------------------------------------------------------

void fill_stat(const struct ::statx& s, fs_stat& out) noexcept {
  out.st_dev = makedev(s.stx_dev_major, s.stx_dev_minor);
  out.st_mode = s.stx_mode;
  out.st_nlink = s.stx_nlink;
  out.st_uid = s.stx_uid;
  out.st_gid = s.stx_gid;
  out.st_rdev = makedev(s.stx_rdev_major, s.stx_rdev_minor);
  out.st_ino = s.stx_ino;
  out.st_size = s.stx_size;
  out.st_blksize = s.stx_blksize;
  out.st_blocks = s.stx_blocks;
  out.st_flags = 0;
  out.st_gen = 0;
  out.st_atim = {s.stx_atime.tv_sec, s.stx_atime.tv_nsec};
  out.st_mtim = {s.stx_mtime.tv_sec, s.stx_mtime.tv_nsec};
  out.st_ctim = {s.stx_ctime.tv_sec, s.stx_ctime.tv_nsec};
  out.st_birthtim = {s.stx_btime.tv_sec, s.stx_btime.tv_nsec};
}

namespace {

// Set once statx turned out to be missing (old kernel, seccomp filter).
std::atomic<bool> statx_missing{false};

// Without statx there is no birth time: the change time stands in.
void fill_stat(const struct stat& s, fs_stat& out) noexcept {
  out.st_dev = s.st_dev;
  out.st_mode = s.st_mode;
  out.st_nlink = s.st_nlink;
  out.st_uid = s.st_uid;
  out.st_gid = s.st_gid;
  out.st_rdev = s.st_rdev;
  out.st_ino = s.st_ino;
  out.st_size = static_cast<std::uint64_t>(s.st_size);
  out.st_blksize = static_cast<std::uint64_t>(s.st_blksize);
  out.st_blocks = static_cast<std::uint64_t>(s.st_blocks);
  out.st_flags = 0;
  out.st_gen = 0;
  out.st_atim = {s.st_atim.tv_sec, s.st_atim.tv_nsec};
  out.st_mtim = {s.st_mtim.tv_sec, s.st_mtim.tv_nsec};
  out.st_ctim = {s.st_ctim.tv_sec, s.st_ctim.tv_nsec};
  out.st_birthtim = out.st_ctim;
}

}  // namespace

ssize_t stat_any(stat_of what, const char* path, int fd, fs_stat& out) noexcept {
  if (!statx_missing.load(std::memory_order_relaxed)) {
    int dirfd = AT_FDCWD;
    int flags = AT_STATX_SYNC_AS_STAT;
    if (what == stat_of::fd) {
      dirfd = fd;
      path = "";
      flags |= AT_EMPTY_PATH;
    } else if (what == stat_of::link) {
      flags |= AT_SYMLINK_NOFOLLOW;
    }
    struct statx s;
    const int r = ::statx(dirfd, path, flags, STATX_BASIC_STATS | STATX_BTIME, &s);
    if (r == 0) {
      fill_stat(s, out);
      return 0;
    }
    // These errors say statx itself is unusable here (as libuv reads
    // them), so are other return values: use the stat family from now on.
    if (r == -1 && errno != EINVAL && errno != EPERM && errno != ENOSYS && errno != EOPNOTSUPP) return errno_code();
    statx_missing.store(true, std::memory_order_relaxed);
  }
  struct stat s;
  const int r = what == stat_of::fd     ? ::fstat(fd, &s)
                : what == stat_of::link ? ::lstat(path, &s)
                                        : ::stat(path, &s);
  if (r != 0) return errno_code();
  fill_stat(s, out);
  return 0;
}

// ---- times ----------------------------------------------------------------

namespace {

// Seconds as a timespec, as libuv converts them: the whole seconds toward
// zero, the rest in nanoseconds, borrowed from the seconds when negative.
// Before 1.52 the nanoseconds are cut to whole microseconds. From 1.51 NaN
// leaves the time as it is and infinity sets it to now; before, and for any
// value that does not fit, the nanosecond field is one the kernel rejects
// (EINVAL), which is where libuv's conversion ends up on x86-64.
timespec to_timespec(double t, const behaviour& b) noexcept {
  if (b.file_times_nan_infinity) {
    if (std::isnan(t)) return timespec{0, UTIME_OMIT};
    if (std::isinf(t)) return timespec{0, UTIME_NOW};
  }
  if (!(t >= -0x1p63 && t < 0x1p63)) return timespec{0, -1};
  timespec ts;
  ts.tv_sec = static_cast<time_t>(t);
  ts.tv_nsec = static_cast<long>((t - static_cast<double>(ts.tv_sec)) * 1e9);
  if (!b.file_times_nanoseconds) ts.tv_nsec -= ts.tv_nsec % 1000;
  if (ts.tv_nsec < 0) {
    ts.tv_nsec += 1000000000;
    ts.tv_sec -= 1;
  }
  return ts;
}

}  // namespace

ssize_t set_times(int fd, const char* path, int at_flags, double atime, double mtime, profile p) noexcept {
  const behaviour& b = behaviour_of(p);
  const timespec ts[2] = {to_timespec(atime, b), to_timespec(mtime, b)};
  if (path == nullptr) return checked(::futimens(fd, ts));
  return checked(::utimensat(AT_FDCWD, path, ts, at_flags));
}

// ---- temporary files ------------------------------------------------------

// mkstemp with O_CLOEXEC. The template must end in XXXXXX (checked first:
// mkostemp's EINVAL could also mean something else). On failure the
// template is emptied, as libuv leaves it.
ssize_t make_temp_file(char* tpl) noexcept {
  static constexpr char suffix[] = "XXXXXX";
  const std::size_t n = std::strlen(tpl);
  int fd = -1;
  if (n < sizeof suffix - 1 || std::strcmp(tpl + n - (sizeof suffix - 1), suffix) != 0)
    errno = EINVAL;
  else
    fd = ::mkostemp(tpl, O_CLOEXEC);
  if (fd >= 0) return fd;
  const ssize_t e = errno_code();
  tpl[0] = '\0';
  return e;
}

// ---- directories ----------------------------------------------------------

fs_dirent_type dirent_type(unsigned char d_type) noexcept {
  switch (d_type) {
    case DT_REG: return fs_dirent_type::file;
    case DT_DIR: return fs_dirent_type::dir;
    case DT_LNK: return fs_dirent_type::link;
    case DT_FIFO: return fs_dirent_type::fifo;
    case DT_SOCK: return fs_dirent_type::socket;
    case DT_CHR: return fs_dirent_type::char_device;
    case DT_BLK: return fs_dirent_type::block_device;
    default: return fs_dirent_type::unknown;
  }
}

namespace {

bool is_dot_or_dotdot(const char* name) noexcept {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

}  // namespace

// scandir(3) without "." and "..", sorted by strcmp (not the locale, as
// alphasort would). `list` gets the malloc'd array, null when empty.
ssize_t scan_dir(const char* path, void*& list) noexcept {
  dirent** entries = nullptr;
  const int n = ::scandir(
      path, &entries, [](const dirent* d) { return is_dot_or_dotdot(d->d_name) ? 0 : 1; },
      [](const dirent** a, const dirent** b) { return std::strcmp((*a)->d_name, (*b)->d_name); });
  if (n < 0) return errno_code();
  if (n == 0) {
    std::free(entries);
    entries = nullptr;
  }
  list = entries;
  return n;
}

// Frees the first `n` names readdir stored.
void free_names(fs_dirent* entries, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; i++) {
    std::free(const_cast<char*>(entries[i].name));
    entries[i].name = nullptr;
  }
}

// Up to `max` entries of an open directory, skipping "." and "..". The
// names are copies. On an error, nothing is kept.
ssize_t read_dir(DIR* stream, fs_dirent* out, std::size_t max) noexcept {
  std::size_t n = 0;
  while (n < max) {
    errno = 0;  // readdir's null means the end, or an error if errno is set
    const dirent* d = ::readdir(stream);
    if (d == nullptr && errno == 0) break;
    char* name = nullptr;
    if (d != nullptr) {
      if (is_dot_or_dotdot(d->d_name)) continue;
      name = ::strdup(d->d_name);
    }
    if (name == nullptr) {
      const ssize_t e = errno_code();
      free_names(out, n);
      return e;
    }
    out[n++] = fs_dirent{name, dirent_type(d->d_type)};
  }
  return static_cast<ssize_t>(n);
}

// ---- links and paths ------------------------------------------------------

// readlink(2) into a string of its own. The buffer is as large as the
// longest path the file system allows, so a target is never cut short.
ssize_t read_link(const char* path, void*& out) noexcept {
  long max = ::pathconf(path, _PC_PATH_MAX);
  if (max <= 0) max = PATH_MAX;
  auto size = static_cast<std::size_t>(max);
  auto* buf = static_cast<char*>(std::malloc(size + 1));
  if (buf == nullptr) return -ENOMEM;
  const ssize_t n = ::readlink(path, buf, size);
  if (n < 0) {
    const ssize_t e = errno_code();
    std::free(buf);
    return e;
  }
  buf[n] = '\0';
  out = buf;
  return 0;
}

ssize_t real_path(const char* path, void*& out) noexcept {
  char* p = ::realpath(path, nullptr);
  if (p == nullptr) return errno_code();
  out = p;
  return 0;
}

ssize_t fs_stats(const char* path, void*& out) noexcept {
  struct statfs s;
  if (::statfs(path, &s) != 0) return errno_code();
  auto* r = static_cast<fs_statfs*>(std::malloc(sizeof(fs_statfs)));
  if (r == nullptr) return -ENOMEM;
  *r = fs_statfs{};
  r->f_type = static_cast<std::uint64_t>(s.f_type);
  r->f_bsize = static_cast<std::uint64_t>(s.f_bsize);
  r->f_blocks = s.f_blocks;
  r->f_bfree = s.f_bfree;
  r->f_bavail = s.f_bavail;
  r->f_files = s.f_files;
  r->f_ffree = s.f_ffree;
  r->f_frsize = static_cast<std::uint64_t>(s.f_frsize);
  out = r;
  return 0;
}

// ---- sendfile and copyfile ------------------------------------------------

namespace {

bool on_fs_type(int fd, std::initializer_list<unsigned long> magics) noexcept {
  struct statfs s;
  if (::fstatfs(fd, &s) != 0) return false;
  for (unsigned long m : magics)
    if (static_cast<unsigned long>(s.f_type) == m) return true;
  return false;
}

bool on_cifs_or_smb(int fd) noexcept { return on_fs_type(fd, {0x517Bul, 0xFE534D42ul, 0xFF534D42ul}); }

// Kernels before 4.20 let copy_file_range on CephFS fail with EACCES where
// a plain copy works.
bool on_old_cephfs(int fd) noexcept {
  if (!on_fs_type(fd, {0xC36400ul})) return false;
  utsname u;
  unsigned major = 0, minor = 0, patch = 0;
  if (::uname(&u) != 0 || std::sscanf(u.release, "%u.%u.%u", &major, &minor, &patch) != 3) return true;
  return (major << 16 | minor << 8 | patch) < 0x041400;
}

// Set once the kernel turned out not to have copy_file_range.
std::atomic<bool> copy_range_missing{false};

// copy_file_range(2), with every error that means "not between these two
// files, but a slower way may work" turned into ENOSYS.
ssize_t copy_range(int in_fd, off_t* off, int out_fd, std::size_t len) noexcept {
  if (copy_range_missing.load(std::memory_order_relaxed)) {
    errno = ENOSYS;
    return -1;
  }
  const ssize_t r = ::copy_file_range(in_fd, off, out_fd, nullptr, len, 0);
  if (r != -1) return r;
  switch (errno) {
    case ENOSYS:
      copy_range_missing.store(true, std::memory_order_relaxed);
      break;
    case EACCES:
      if (on_old_cephfs(in_fd)) errno = ENOSYS;
      break;
    case EPERM:  // seen spuriously on CIFS shares
      if (on_cifs_or_smb(out_fd)) errno = ENOSYS;
      break;
    case EOPNOTSUPP:  // another file system type may do it
    case EXDEV:       // across file systems, before Linux 5.3
      errno = ENOSYS;
      break;
  }
  return -1;
}

// The last resort: read and write through a buffer. pread keeps in_fd's
// position; a source that cannot seek is read instead. A read error after
// some bytes went out ends the copy with the count (the caller must not
// send them twice); a write error is always reported.
ssize_t copy_by_hand(int out_fd, int in_fd, std::int64_t& off, std::size_t len) noexcept {
  char buf[8192];
  bool positional = true;
  std::int64_t pos = off;
  std::size_t sent = 0;
  while (sent < len) {
    const std::size_t want = std::min(len - sent, sizeof buf);
    ssize_t got;
    do {
      got = positional ? ::pread(in_fd, buf, want, pos) : ::read(in_fd, buf, want);
    } while (got == -1 && errno == EINTR);
    if (got == 0) break;
    if (got == -1) {
      if (positional && sent == 0 && (errno == EIO || errno == ESPIPE)) {
        positional = false;
        continue;
      }
      if (sent == 0) return errno_code();
      break;
    }
    for (ssize_t put = 0; put < got;) {
      ssize_t n;
      do {
        n = ::write(out_fd, buf + put, static_cast<std::size_t>(got - put));
      } while (n == -1 && errno == EINTR);
      if (n != -1) {
        put += n;
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) return errno_code();
      // A non-blocking destination is full: wait until it drains.
      pollfd p{out_fd, POLLOUT, 0};
      do {
        n = ::poll(&p, 1, -1);
      } while (n == -1 && errno == EINTR);
      if (n == -1 || (p.revents & ~POLLOUT) != 0) return -EIO;
    }
    pos += got;
    sent += static_cast<std::size_t>(got);
  }
  off = pos;
  return static_cast<ssize_t>(sent);
}

}  // namespace

// Copies up to `len` bytes of in_fd from `off` (advanced by the count) to
// out_fd: copy_file_range, else sendfile, else by hand.
ssize_t send_file(int out_fd, int in_fd, std::int64_t& off, std::size_t len) noexcept {
  off_t pos = off;
  ssize_t r = copy_range(in_fd, &pos, out_fd, len);
  if (r == -1 && errno == ENOSYS) r = ::sendfile(out_fd, in_fd, &pos, len);
  if (r != -1 || pos > off) {
    r = pos - off;
    off = pos;
    return r;
  }
  if (errno == EINVAL || errno == EIO || errno == ENOTSOCK || errno == EXDEV)
    return copy_by_hand(out_fd, in_fd, off, len);
  return errno_code();
}

namespace {

int open_retrying(const char* path, int flags, mode_t mode) noexcept {
  int fd;
  do {
    fd = ::open(path, flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  return fd < 0 ? -errno : fd;
}

// close(2) for copyfile: EINTR and EINPROGRESS count as closed; errno is
// left as it was.
int close_quietly(int fd) noexcept {
  const int saved = errno;
  const int r = static_cast<int>(close_file(fd));
  errno = saved;
  return r;
}

}  // namespace

// The steps of copyfile; any failure jumps to the end, which closes both
// files and removes a destination it could not fill.
ssize_t copy_file(const char* from, const char* to, int flags, profile p) noexcept {
  const behaviour& b = behaviour_of(p);
  const int src = open_retrying(from, O_RDONLY, 0);
  if (src < 0) return src;
  int dst = -1;
  int err = 0;
  struct stat src_st;
  struct stat dst_st;
  do {
    if (::fstat(src, &src_st) != 0) {
      err = -errno;
      break;
    }
    const int dst_flags = O_WRONLY | O_CREAT | ((flags & fs_copyfile_excl) ? O_EXCL : 0);
    dst = open_retrying(to, dst_flags, src_st.st_mode);
    if (dst < 0) {
      err = dst;
      break;
    }
    if (!(flags & fs_copyfile_excl)) {
      // Copying a file onto itself: done, and it must not be truncated.
      if (::fstat(dst, &dst_st) != 0) {
        err = -errno;
        break;
      }
      if (src_st.st_dev == dst_st.st_dev && src_st.st_ino == dst_st.st_ino) break;
      if (::ftruncate(dst, 0) != 0) {
        err = -errno;
        break;
      }
    }
    // From libuv 1.49 the source's times and owner, as `cp -p` would; the
    // owner as far as the kernel lets it.
    if (b.copyfile_times_and_owner) {
      const timespec times[2] = {src_st.st_atim, src_st.st_mtim};
      if (::futimens(dst, times) != 0 && !b.copyfile_times_best_effort) {
        err = -errno;
        break;
      }
      if (::fchown(dst, src_st.st_uid, src_st.st_gid) != 0) {
      }
    }
    // CIFS refuses every fchmod unless mounted with noperm; there the mode
    // means nothing anyway.
    if (::fchmod(dst, src_st.st_mode) != 0 && !(errno == EPERM && on_cifs_or_smb(dst))) {
      err = -errno;
      break;
    }
    if (flags & (fs_copyfile_ficlone | fs_copyfile_ficlone_force)) {
      if (::ioctl(dst, FICLONE, src) == 0) break;
      if (flags & fs_copyfile_ficlone_force) {
        err = -errno;
        break;
      }
    }
    std::int64_t off = 0;
    for (auto left = static_cast<std::uint64_t>(src_st.st_size); left > 0;) {
      const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(left, SSIZE_MAX));
      ssize_t n;
      do {
        n = send_file(dst, src, off, chunk);
      } while (n == -EINTR);
      if (n < 0) {
        err = static_cast<int>(n);
        break;
      }
      if (n == 0) break;  // the source shrank
      left -= static_cast<std::uint64_t>(n);
    }
  } while (false);

  int result = err;
  if (const int c = close_quietly(src); c != 0 && result == 0) result = c;
  if (dst >= 0) {
    if (const int c = close_quietly(dst); c != 0 && result == 0) result = c;
    if (result != 0) ::unlink(to);
  }
  return result;
}

}  // namespace phaseloop::detail::fs_ops
