// SPDX-License-Identifier: MIT
#pragma once
/// File system requests: libuv's uv_fs_* operations with libuv 1.44's
/// results, over phaseloop's threadpool or the loop's io_uring ring.
///
/// Every operation takes the loop and a callback last. With a callback it
/// is asynchronous: it runs on a pool thread, or through the loop's ring
/// when the loop uses io_uring (loop::set_io_uring) and the ring can do it
/// (open, close, read, write, stat, lstat, fstat, fsync, fdatasync,
/// ftruncate, rename, unlink, mkdir, link, symlink: handed to the kernel
/// at once); the callback runs later in the poll phase on the loop's
/// thread, and the call returns 0 (or an error if the request could not be
/// started). Without a callback (nullptr) it runs
/// on the calling thread and returns its result; the loop may then be null.
/// While asynchronous, a request counts as active: it keeps its loop alive
/// and loop::close() reports busy.
///
/// Results, as libuv: result() is >= 0 on success (a file descriptor, a
/// byte count, an entry count, else 0) or a negative error code (errc, or
/// -errno). Some operations leave data in ptr() (see each one) until
/// cleanup(), which the destructor and the next operation also call.
///
/// Example, reading a file's first bytes:
///
///     phaseloop::fs_req open_req;
///     open_req.open(&loop, "notes.txt", O_RDONLY, 0, [](phaseloop::fs_req* r) {
///       if (r->result() < 0) return;           // e.g. -ENOENT
///       int fd = static_cast<int>(r->result());
///       ...                                    // r->read(...), r->close(...)
///     });
///
/// Threads: start, cancel and clean up a request on its loop's thread
/// (synchronous calls: any thread). The memory is the caller's and must
/// stay valid, unmoved, until the callback has run.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "phaseloop/detail/pool_task.hpp"
#include "phaseloop/request.hpp"

namespace phaseloop {

namespace detail {
struct fs_ring;
}

/// The operation of an fs_req. The values are libuv's uv_fs_type, in its
/// order from -1 (unknown) to 36 (lutime).
enum class fs_type : int {
  unknown = -1,
  custom,
  open, close, read, write, sendfile, stat, lstat, fstat, ftruncate, utime, futime, access, chmod, fchmod,
  fsync, fdatasync, unlink, rmdir, mkdir, mkdtemp, rename, scandir, link, symlink, readlink, chown, fchown,
  realpath, copyfile, lchown, opendir, readdir, closedir, statfs, mkstemp, lutime,
};

/// A buffer for read and write (libuv's uv_buf_t; the layout of iovec).
struct fs_buf {
  char* base;       ///< first byte
  std::size_t len;  ///< number of bytes
};

/// Seconds and nanoseconds (libuv's uv_timespec_t).
struct fs_timespec {
  long tv_sec;
  long tv_nsec;
};

/// File status (libuv's uv_stat_t), filled by stat, lstat and fstat.
struct fs_stat {
  std::uint64_t st_dev;      ///< device holding the file
  std::uint64_t st_mode;     ///< type and permission bits (S_IFMT, 0777 ...)
  std::uint64_t st_nlink;    ///< hard link count
  std::uint64_t st_uid;      ///< owner
  std::uint64_t st_gid;      ///< group
  std::uint64_t st_rdev;     ///< device number, for device files
  std::uint64_t st_ino;      ///< inode number
  std::uint64_t st_size;     ///< size in bytes
  std::uint64_t st_blksize;  ///< preferred I/O block size
  std::uint64_t st_blocks;   ///< 512-byte blocks allocated
  std::uint64_t st_flags;    ///< 0 on Linux
  std::uint64_t st_gen;      ///< 0 on Linux
  fs_timespec st_atim;       ///< last access
  fs_timespec st_mtim;       ///< last modification
  fs_timespec st_ctim;       ///< last status change
  fs_timespec st_birthtim;   ///< creation (statx), else st_ctim
};

/// File system statistics (libuv's uv_statfs_t), the result of statfs.
struct fs_statfs {
  std::uint64_t f_type;    ///< file system magic number
  std::uint64_t f_bsize;   ///< block size
  std::uint64_t f_blocks;  ///< total blocks
  std::uint64_t f_bfree;   ///< free blocks
  std::uint64_t f_bavail;  ///< free blocks for unprivileged users
  std::uint64_t f_files;   ///< total inodes
  std::uint64_t f_ffree;   ///< free inodes
  std::uint64_t f_frsize;    ///< fragment size (libuv 1.52; before, the first spare)
  std::uint64_t f_spare[3];  ///< zero
};

/// The kind of a directory entry. The values are libuv's uv_dirent_type_t,
/// in its order from 0 (unknown) to 7 (block device).
enum class fs_dirent_type : int { unknown, file, dir, link, fifo, socket, char_device, block_device };

/// One directory entry (libuv's uv_dirent_t).
struct fs_dirent {
  const char* name;     ///< the entry's name (no directory part)
  fs_dirent_type type;  ///< unknown when the file system does not say
};

/// An open directory, made by fs_req::opendir and freed by closedir
/// (libuv's uv_dir_t). Before each readdir, point `dirents` at an array
/// and set `nentries` to its size.
class fs_dir {
 public:
  fs_dirent* dirents = nullptr;  ///< where readdir stores entries (caller's)
  std::size_t nentries = 0;      ///< capacity of `dirents`
  void* reserved[4] = {};        ///< libuv's; unused

  /// Offsets of the fields libuv's uv_dir_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t dirents, nentries, uv_private_; };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class fs_req;
  void* stream_ = nullptr;  // the DIR*
};

/// copyfile flags (libuv's UV_FS_COPYFILE_*).
/// Fail with -EEXIST when the destination exists.
inline constexpr int fs_copyfile_excl = 1;
/// Try a copy-on-write clone (FICLONE), else copy the bytes.
inline constexpr int fs_copyfile_ficlone = 2;
/// Clone or fail (the clone's error, e.g. -EOPNOTSUPP or -EXDEV).
inline constexpr int fs_copyfile_ficlone_force = 4;

class fs_req;
/// Runs in the poll phase, on the loop's thread, when an asynchronous
/// request finished, or was canceled (then result() is errc::canceled).
/// The request may be cleaned up, reused or freed inside the callback.
using fs_cb = void (*)(fs_req*);

class fs_req : public req {
 public:
  fs_req() noexcept : req(req_type::fs) {}
  /// Frees what the last operation left (cleanup()). A request must not be
  /// destroyed while it is in flight.
  ~fs_req() { cleanup(); }

  // ---- operations ------------------------------------------------------
  // Each returns, with a callback, 0 or an error that kept the request from
  // starting (errc::invalid for a null path or a null loop; errc::busy when
  // this request is still in flight); without one, the result. Starting an
  // operation first calls cleanup(). Paths are copied for asynchronous
  // requests; synchronous ones use the caller's strings.

  /// open(2) with O_CLOEXEC added. Result: the file descriptor.
  int open(loop* l, const char* path, int flags, int mode, fs_cb cb) noexcept;
  /// close(2); an interrupted close counts as done (0).
  int close(loop* l, int file, fs_cb cb) noexcept;
  /// Reads into `bufs` in order (readv/preadv) at `offset`, or at the file
  /// position when offset < 0. Result: bytes read, 0 at end of file.
  /// The array is copied; the buffers must stay valid until completion.
  /// errc::invalid when nbufs is 0 or bufs null. Not retried on EINTR.
  int read(loop* l, int file, const fs_buf bufs[], unsigned nbufs, std::int64_t offset, fs_cb cb) noexcept;
  /// Writes all of `bufs` (retrying short writes and EINTR) at `offset`, or
  /// at the file position when offset < 0. Result: bytes written (fewer
  /// only when an error stopped it after some were written).
  int write(loop* l, int file, const fs_buf bufs[], unsigned nbufs, std::int64_t offset, fs_cb cb) noexcept;
  /// unlink(2).
  int unlink(loop* l, const char* path, fs_cb cb) noexcept;
  /// Copies a file with its mode; `flags` is a mix of fs_copyfile_*
  /// (others: errc::invalid). A destination left by a failed copy is
  /// removed; copying a file onto itself succeeds and changes nothing.
  int copyfile(loop* l, const char* path, const char* new_path, int flags, fs_cb cb) noexcept;
  /// mkdir(2).
  int mkdir(loop* l, const char* path, int mode, fs_cb cb) noexcept;
  /// mkdtemp(3); path() is then the directory made (always a copy of tpl).
  int mkdtemp(loop* l, const char* tpl, fs_cb cb) noexcept;
  /// mkstemp(3) with O_CLOEXEC. Result: the descriptor; path() the file
  /// made, or "" on failure. A template not ending in XXXXXX: -EINVAL.
  int mkstemp(loop* l, const char* tpl, fs_cb cb) noexcept;
  /// rmdir(2).
  int rmdir(loop* l, const char* path, fs_cb cb) noexcept;
  /// Lists a directory, without "." and "..", sorted by strcmp. Result: the
  /// entry count; read the entries with scandir_next(). `flags` is unused.
  int scandir(loop* l, const char* path, int flags, fs_cb cb) noexcept;
  /// The next entry of a finished scandir: 0, else errc::eof at the end
  /// (or the scandir's error). `ent.name` stays valid until the next call.
  int scandir_next(fs_dirent& ent) noexcept;
  /// Opens a directory for readdir. ptr(): the new fs_dir.
  int opendir(loop* l, const char* path, fs_cb cb) noexcept;
  /// Reads up to dir->nentries entries (no "." or "..", in directory
  /// order) into dir->dirents. Result: the count, 0 at the end. The names
  /// belong to this request until cleanup(). errc::invalid when `dir`, its
  /// stream or its `dirents` is null.
  int readdir(loop* l, fs_dir* dir, fs_cb cb) noexcept;
  /// Closes and frees an fs_dir. errc::invalid when `dir` is null.
  int closedir(loop* l, fs_dir* dir, fs_cb cb) noexcept;
  /// stat(2) (statx where the kernel has it): statbuf(), and ptr() points
  /// at it on success.
  int stat(loop* l, const char* path, fs_cb cb) noexcept;
  /// As stat, of an open file.
  int fstat(loop* l, int file, fs_cb cb) noexcept;
  /// As stat, not following a final symbolic link.
  int lstat(loop* l, const char* path, fs_cb cb) noexcept;
  /// statfs(2). ptr(): an fs_statfs.
  int statfs(loop* l, const char* path, fs_cb cb) noexcept;
  /// rename(2).
  int rename(loop* l, const char* path, const char* new_path, fs_cb cb) noexcept;
  /// fsync(2).
  int fsync(loop* l, int file, fs_cb cb) noexcept;
  /// fdatasync(2).
  int fdatasync(loop* l, int file, fs_cb cb) noexcept;
  /// ftruncate(2).
  int ftruncate(loop* l, int file, std::int64_t length, fs_cb cb) noexcept;
  /// Copies `length` bytes of in_fd from in_offset to out_fd's position
  /// (copy_file_range, sendfile, else read/write). Result: bytes copied.
  int sendfile(loop* l, int out_fd, int in_fd, std::int64_t in_offset, std::size_t length, fs_cb cb) noexcept;
  /// access(2) with `mode` (F_OK, R_OK, W_OK, X_OK).
  int access(loop* l, const char* path, int mode, fs_cb cb) noexcept;
  /// chmod(2).
  int chmod(loop* l, const char* path, int mode, fs_cb cb) noexcept;
  /// fchmod(2).
  int fchmod(loop* l, int file, int mode, fs_cb cb) noexcept;
  /// Sets access and modification times (seconds since the epoch; kept to
  /// microseconds, as libuv does).
  int utime(loop* l, const char* path, double atime, double mtime, fs_cb cb) noexcept;
  /// As utime, of an open file.
  int futime(loop* l, int file, double atime, double mtime, fs_cb cb) noexcept;
  /// As utime, of a symbolic link itself.
  int lutime(loop* l, const char* path, double atime, double mtime, fs_cb cb) noexcept;
  /// link(2).
  int link(loop* l, const char* path, const char* new_path, fs_cb cb) noexcept;
  /// symlink(2): a link at new_path pointing at path. `flags` is unused.
  int symlink(loop* l, const char* path, const char* new_path, int flags, fs_cb cb) noexcept;
  /// readlink(2). ptr(): the target, a NUL-terminated char string.
  int readlink(loop* l, const char* path, fs_cb cb) noexcept;
  /// realpath(3). ptr(): the canonical path, a NUL-terminated char string.
  int realpath(loop* l, const char* path, fs_cb cb) noexcept;
  /// chown(2).
  int chown(loop* l, const char* path, uid_t uid, gid_t gid, fs_cb cb) noexcept;
  /// fchown(2).
  int fchown(loop* l, int file, uid_t uid, gid_t gid, fs_cb cb) noexcept;
  /// lchown(2).
  int lchown(loop* l, const char* path, uid_t uid, gid_t gid, fs_cb cb) noexcept;

  /// The profile a request made without a loop (a synchronous call)
  /// follows; by default the process's (process_profile()). The C API
  /// gives it the libuv version the program was built for.
  void set_profile(phaseloop::profile p) noexcept { loopless_profile_ = static_cast<std::uint8_t>(p); }
  /// Makes a request without a loop follow profile_of(process_version()),
  /// looked up only if its operation has a rule that differs between
  /// versions (most have none, and a synchronous stat should not pay for
  /// reading the environment).
  void follow_process_version() noexcept { loopless_profile_ = by_process_version_; }

  // ---- lifetime ----------------------------------------------------------

  /// Frees what the request allocated: the path copies, scandir entries
  /// not yet read, readdir names, readlink/realpath strings, the statfs
  /// result (not an opendir's fs_dir, which closedir frees). path() and
  /// ptr() become null. Safe to call again, and on a request never started.
  void cleanup() noexcept;
  /// Cancels an asynchronous request no pool thread has started: its
  /// callback then runs with result() errc::canceled. errc::busy when it is
  /// running or done, was synchronous, or went to the loop's io_uring ring
  /// (as in libuv). Loop thread only.
  int cancel() noexcept;

  // ---- results (libuv's public fields) -----------------------------------

  /// The operation last started. (libuv: `fs_type`.)
  fs_type operation() const noexcept { return fs_type_; }
  /// The loop given to the operation, possibly null. (libuv: `loop`.)
  phaseloop::loop* owner() const noexcept { return loop_; }
  /// The callback, null for a synchronous request. (libuv: `cb`.)
  fs_cb callback() const noexcept { return cb_; }
  /// >= 0 on success, else a negative error code. (libuv: `result`.)
  ssize_t result() const noexcept { return result_; }
  /// Operation-specific data, see each operation. (libuv: `ptr`.)
  void* ptr() const noexcept { return ptr_; }
  /// The path argument (a copy for asynchronous requests, the caller's
  /// string for synchronous ones), or null. (libuv: `path`.)
  const char* path() const noexcept { return path_; }
  /// The stat, lstat and fstat result. (libuv: `statbuf`.)
  const fs_stat& statbuf() const noexcept { return statbuf_; }

  /// Offsets of the fields libuv's uv_fs_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields {
    std::size_t fs_type, loop, cb, result, ptr, path, statbuf, new_path, file, nbufs, bufs, off, work_req, bufsml;
  };
  static constexpr c_fields c_layout() noexcept;

 private:
  friend class phaseloop::loop;
  friend struct detail::fs_ring;

  friend struct detail::pool_request<fs_req>;
  void pool_run_() noexcept;
  void pool_done_(int status) noexcept;

  int begin_(loop* l, fs_type t, fs_cb cb) noexcept;
  int set_path_(const char* path, bool always_copy) noexcept;
  int set_paths_(const char* path, const char* new_path) noexcept;
  int set_bufs_(const fs_buf bufs[], unsigned nbufs) noexcept;
  int submit_() noexcept;
  void execute_() noexcept;
  // The profile whose rules the operation follows: its loop's, else
  // set_profile()'s or the process's (a synchronous request may have no
  // loop).
  phaseloop::profile profile_() const noexcept;
  ssize_t dispatch_() noexcept;
  void release_bufs_() noexcept;

  // libuv's public fields, at uv_fs_t's offsets (checked in compat/uv_fs.cpp).
  fs_type fs_type_ = fs_type::unknown;  // offset 64
  bool owns_path_ = false;              // path_ (and new_path_) are ours
  bool in_flight_ = false;              // submitted, callback not yet run
  std::uint8_t ring_ = 0;               // on the loop's ring: see src/io/fs_ring.cpp
  static constexpr std::uint8_t by_process_profile_ = 0xff, by_process_version_ = 0xfe;
  std::uint8_t loopless_profile_ = by_process_profile_;  // set_profile()'s, or one of those two
  phaseloop::loop* loop_ = nullptr;     // offset 72
  fs_cb cb_ = nullptr;                  // offset 80
  ssize_t result_ = 0;                  // offset 88
  void* ptr_ = nullptr;                 // offset 96
  const char* path_ = nullptr;          // offset 104
  fs_stat statbuf_{};                   // offset 112

  // Arguments, in the bytes libuv keeps private (168 of them).
  // The rest is ordered as libuv's private fields, whose names include/phaseloop/uv/uv.h
  // gives them too: new_path and bufs at libuv's offsets (programs and
  // libuv's own tests read them), the pool entry where libuv's work_req is.
  const char* new_path_ = nullptr;  // offset 272: second path, in path_'s allocation
  int file_ = -1;                   // the descriptor (sendfile: out_fd)
  int flags_ = 0;                   // open/access/copyfile flags; sendfile: in_fd
  int mode_ = 0;
  unsigned nbufs_ = 0;              // read/write buffers; scandir: next entry
  fs_buf* bufs_ = nullptr;          // offset 296: bufsml_ or an allocated array
  std::int64_t off_ = 0;            // file offset, or ftruncate's length
  union {
    struct {
      uid_t uid, gid;
    } ids;
    struct {
      double atime, mtime;
    } times;
  } args_{};
  std::size_t length_ = 0;          // sendfile's byte count; a write's bytes the ring wrote
  detail::pool_task task_;          // offset 336, libuv's work_req
  fs_buf bufsml_[4];                // offset 376: up to four read/write buffers
};

}  // namespace phaseloop
