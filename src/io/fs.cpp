// File system requests (include/phaseloop/fs.hpp).
//
// Each operation records its arguments in the request, then runs on a pool
// thread (with a callback) or at once on the caller's thread. The system
// side of every operation is a small function in the anonymous namespace
// below, which returns a result or a negative errno; execute_() retries the
// ones interrupted by a signal and stores the result where C programs read
// uv_fs_t.result. Completion (fs_req::pool_ops_.done) runs in the poll
// phase and is reported to phase hooks as callback_kind::fs.
//
// The behaviour is libuv 1.44's on Linux, including its fallbacks: statx
// before stat, copy_file_range before sendfile before a read/write loop.

#include "phaseloop/fs.hpp"

#include <dirent.h>
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
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>

#include "core/internal.hpp"

#ifndef FICLONE
#define FICLONE _IOW(0x94, 9, int)  // <linux/fs.h>
#endif

namespace phaseloop {

namespace {

// Read and write buffers go to readv/writev as they are.
static_assert(sizeof(fs_buf) == sizeof(iovec));
static_assert(offsetof(fs_buf, base) == offsetof(iovec, iov_base));
static_assert(offsetof(fs_buf, len) == offsetof(iovec, iov_len));

// One readv/writev takes at most this many buffers.
constexpr unsigned iov_max = IOV_MAX;

// The thread's errno as an error code.
ssize_t errno_code() noexcept { return -static_cast<ssize_t>(errno); }

// A system call's return value (-1 meaning errno) as a result.
ssize_t checked(ssize_t r) noexcept { return r < 0 ? errno_code() : r; }

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

ssize_t write_once(int fd, const fs_buf* b, unsigned n, std::int64_t off) noexcept {
  auto* iov = reinterpret_cast<const iovec*>(b);
  if (off < 0) return n == 1 ? ::write(fd, b->base, b->len) : ::writev(fd, iov, static_cast<int>(n));
  return n == 1 ? ::pwrite(fd, b->base, b->len, off) : ::pwritev(fd, iov, static_cast<int>(n), off);
}

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

// Set once statx turned out to be missing (old kernel, seccomp filter).
std::atomic<bool> statx_missing{false};

void fill_stat(const struct statx& s, fs_stat& out) noexcept {
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

enum class stat_of { path, link, fd };

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

// Seconds as a timespec, truncated to microseconds as libuv does. A value
// that does not fit (or NaN) gets a nanosecond field the kernel rejects
// (EINVAL), which is where libuv's conversion ends up on x86-64.
timespec to_timespec(double t) noexcept {
  if (!(t >= -0x1p63 && t < 0x1p63)) return timespec{0, -1};
  timespec ts;
  ts.tv_sec = static_cast<time_t>(t);
  ts.tv_nsec = static_cast<long>((t - static_cast<double>(ts.tv_sec)) * 1e9);
  ts.tv_nsec -= ts.tv_nsec % 1000;
  if (ts.tv_nsec < 0) {
    ts.tv_nsec += 1000000000;
    ts.tv_sec -= 1;
  }
  return ts;
}

ssize_t set_times(int fd, const char* path, int at_flags, double atime, double mtime) noexcept {
  const timespec ts[2] = {to_timespec(atime), to_timespec(mtime)};
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

bool is_dot_or_dotdot(const char* name) noexcept {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

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
  out = r;
  return 0;
}

// ---- sendfile and copyfile ------------------------------------------------

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

// The steps of copyfile; any failure jumps to the end, which closes both
// files and removes a destination it could not fill.
ssize_t copy_file(const char* from, const char* to, int flags) noexcept {
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

}  // namespace

// ---- the request ------------------------------------------------------------

fs_req& fs_req::of_(detail::pool_task& t) noexcept {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  return detail::task_owner<fs_req>(t, offsetof(fs_req, task_));
#pragma GCC diagnostic pop
}

const detail::pool_ops fs_req::pool_ops_ = {
    [](detail::pool_task& t) { of_(t).execute_(); },
    [](detail::pool_task& t) -> loop& { return *of_(t).loop_; },
    [](detail::pool_task& t, int status) {
      fs_req& r = of_(t);
      r.in_flight_ = false;
      if (status == errc::canceled) r.result_ = errc::canceled;
      // The callback may free the request: nothing touches it afterwards.
      detail::loop_seam::complete(*r.loop_, callback_kind::fs, nullptr, &r, [&r] { r.cb_(&r); });
    },
};

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
  bufs_ = bufsml_;
  if (nbufs > std::size(bufsml_)) {
    bufs_ = static_cast<fs_buf*>(std::malloc(nbufs * sizeof(fs_buf)));
    if (bufs_ == nullptr) return errc::no_memory;
  }
  std::memcpy(bufs_, bufs, nbufs * sizeof(fs_buf));
  nbufs_ = nbufs;
  return 0;
}

void fs_req::release_bufs_() noexcept {
  if (bufs_ != bufsml_) std::free(bufs_);
  bufs_ = nullptr;
  nbufs_ = 0;
}

int fs_req::submit_() noexcept {
  if (cb_ == nullptr) {
    execute_();
    return static_cast<int>(result_);
  }
  in_flight_ = true;
  const int r = detail::pool_submit(*loop_, task_, pool_ops_);
  if (r != 0) in_flight_ = false;
  return r;
}

// On a pool thread, or the caller's for a synchronous request.
void fs_req::execute_() noexcept {
  // As libuv, every operation but read and close is made again when a
  // signal interrupted it (a close must not be: the descriptor is gone).
  const bool retry = fs_type_ != fs_type::read && fs_type_ != fs_type::close;
  ssize_t r;
  do {
    r = dispatch_();
  } while (r == -EINTR && retry);
  if (fs_type_ == fs_type::read || fs_type_ == fs_type::write) release_bufs_();
  result_ = r;
  if (r == 0 && (fs_type_ == fs_type::stat || fs_type_ == fs_type::lstat || fs_type_ == fs_type::fstat))
    ptr_ = &statbuf_;
}

ssize_t fs_req::dispatch_() noexcept {
  switch (fs_type_) {
    case fs_type::open: return checked(::open(path_, flags_ | O_CLOEXEC, mode_));
    case fs_type::close: return close_file(file_);
    case fs_type::read: return read_into(file_, bufs_, nbufs_, off_);
    case fs_type::write: return write_all(file_, bufs_, nbufs_, off_);
    case fs_type::sendfile: return send_file(file_, flags_, off_, length_);
    case fs_type::stat: return stat_any(stat_of::path, path_, -1, statbuf_);
    case fs_type::lstat: return stat_any(stat_of::link, path_, -1, statbuf_);
    case fs_type::fstat: return stat_any(stat_of::fd, nullptr, file_, statbuf_);
    case fs_type::ftruncate: return checked(::ftruncate(file_, off_));
    case fs_type::utime: return set_times(-1, path_, 0, args_.times.atime, args_.times.mtime);
    case fs_type::futime: return set_times(file_, nullptr, 0, args_.times.atime, args_.times.mtime);
    case fs_type::lutime:
      return set_times(-1, path_, AT_SYMLINK_NOFOLLOW, args_.times.atime, args_.times.mtime);
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
    case fs_type::copyfile: return copy_file(path_, new_path_, flags_);
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
  if (ptr_ != nullptr) {
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
        if (ptr_ != &statbuf_) std::free(ptr_);
        break;
    }
    ptr_ = nullptr;
  }
  release_bufs_();
}

int fs_req::cancel() noexcept {
  if (!in_flight_) return errc::busy;
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
