// SPDX-License-Identifier: MIT
// The system side of the file system operations (src/io/fs_ops.cpp), for
// fs_req (src/io/fs.cpp). Each function makes the system calls of one
// operation on the calling thread and returns its result (a count, a
// descriptor or 0) or a negative errno, which fs_req::execute_ stores
// (making again the operations a signal interrupted). Results that are
// allocated (scandir's list, readlink's string, ...) are malloc'd;
// fs_req::cleanup frees them.

#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "phaseloop/fs.hpp"

namespace phaseloop::detail::fs_ops {

// The thread's errno as an error code.
inline ssize_t errno_code() noexcept { return -static_cast<ssize_t>(errno); }

// A system call's return value (-1 meaning errno) as a result.
inline ssize_t checked(ssize_t r) noexcept { return r < 0 ? errno_code() : r; }

// ---- open, close, read, write ---------------------------------------------

// close(2). EINTR and EINPROGRESS leave the descriptor closed all the same.
ssize_t close_file(int fd) noexcept;
// read/readv, or pread/preadv at `off` >= 0, into at most IOV_MAX buffers.
ssize_t read_into(int fd, fs_buf* b, unsigned n, std::int64_t off) noexcept;
// Writes every buffer, going on after short writes (edits the array).
ssize_t write_all(int fd, fs_buf* b, unsigned n, std::int64_t off) noexcept;

// ---- stat family, times, temporary files ------------------------------------

enum class stat_of { path, link, fd };

// A statx result as libuv's uv_stat_t.
void fill_stat(const struct ::statx& s, fs_stat& out) noexcept;

// statx (stat, lstat or fstat where it is missing) into `out`.
ssize_t stat_any(stat_of what, const char* path, int fd, fs_stat& out) noexcept;
// futimens (null path) or utimensat; times in seconds.
ssize_t set_times(int fd, const char* path, int at_flags, double atime, double mtime, profile p) noexcept;
// mkstemp with O_CLOEXEC: the descriptor; the template emptied on failure.
ssize_t make_temp_file(char* tpl) noexcept;

// ---- directories, links and paths -----------------------------------------

// A dirent's d_type as an fs_dirent_type.
fs_dirent_type dirent_type(unsigned char d_type) noexcept;
// scandir(3) without "." and "..", sorted by strcmp: the count; `list`
// gets the array of dirent*, null when empty.
ssize_t scan_dir(const char* path, void*& list) noexcept;
// Frees the first `n` names read_dir stored.
void free_names(fs_dirent* entries, std::size_t n) noexcept;
// Up to `max` entries of an open directory (names copied): the count.
ssize_t read_dir(DIR* stream, fs_dirent* out, std::size_t max) noexcept;
// readlink(2) into a malloc'd string in `out`.
ssize_t read_link(const char* path, void*& out) noexcept;
// realpath(3) into a malloc'd string in `out`.
ssize_t real_path(const char* path, void*& out) noexcept;
// statfs(2) into a malloc'd fs_statfs in `out`.
ssize_t fs_stats(const char* path, void*& out) noexcept;

// ---- sendfile and copyfile ------------------------------------------------

// Up to `len` bytes of in_fd from `off` (advanced by the count) to out_fd.
ssize_t send_file(int out_fd, int in_fd, std::int64_t& off, std::size_t len) noexcept;
// copyfile with fs_copyfile_* flags: 0 or a negative errno.
ssize_t copy_file(const char* from, const char* to, int flags, profile p) noexcept;

}  // namespace phaseloop::detail::fs_ops
