// SPDX-License-Identifier: MIT
// Pipe handles: Unix domain stream sockets and adopted pipe fds. Connecting
// by path either succeeds at once (then the poll phase reports it, as for
// any connect) or fails at once (reported from the pending phase).

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "core/internal.hpp"
#include "phaseloop/pipe.hpp"
#include "phaseloop/tty.hpp"

namespace phaseloop {

namespace {

sockaddr_un unix_address(const char* path) noexcept {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  // Truncated to fit, as libuv does.
  std::strncpy(a.sun_path, path, sizeof a.sun_path - 1);
  return a;
}

}  // namespace

pipe::pipe(phaseloop::loop& l, bool ipc) noexcept : stream(l, handle_type::named_pipe), ipc_(ipc ? 1 : 0) {}

int pipe::bind(const char* path) noexcept {
  if (watcher_.fd >= 0 || is_closing()) return errc::invalid;
  char* copy = strdup(path);
  if (copy == nullptr) return errc::no_memory;
  const sockaddr_un a = unix_address(copy);
  return bind_address_(&a, sizeof a, copy);
}

// Binds a new socket to the address; `path` (owned, may be null) is the file
// to remove at close.
int pipe::bind_address_(const void* address, unsigned length, char* path) noexcept {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    const int err = -errno;
    std::free(path);
    return err;
  }
  if (::bind(fd, static_cast<const sockaddr*>(address), length) != 0) {
    int err = -errno;
    if (err == -ENOENT) err = -EACCES;
    ::close(fd);
    std::free(path);
    return err;
  }
  flags_ |= bound_flag;
  path_ = path;
  watcher_.fd = fd;
  return 0;
}

namespace {

// A bind2/connect2 name as a socket address: errc::invalid, or 0 with the
// address and its length (an abstract name counts its bytes only).
int name_address(const char* name, std::size_t len, unsigned flags, sockaddr_un* a, socklen_t* length) noexcept {
  if ((flags & ~pipe::no_truncate) != 0 || name == nullptr) return errc::invalid;
  // (A length of 0 with an empty name asks Linux to pick an abstract name.)
  const bool abstract = name[0] == '\0';
  if (len > 0 && std::memchr(abstract ? name + 1 : name, '\0', abstract ? len - 1 : len) != nullptr)
    return errc::invalid;
  if (len > sizeof a->sun_path) {
    if (flags & pipe::no_truncate) return errc::invalid;
    len = sizeof a->sun_path;
  }
  *a = sockaddr_un{};
  a->sun_family = AF_UNIX;
  std::memcpy(a->sun_path, name, len);
  *length = abstract ? static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + len) : sizeof *a;
  return 0;
}

// connect2's name as an address: as bind2's, but an empty one is refused
// (only bind2 lets Linux pick a name).
int connect_address(const char* name, std::size_t len, unsigned flags, sockaddr_un* a, socklen_t* length) noexcept {
  return len == 0 ? errc::invalid : name_address(name, len, flags, a, length);
}

}  // namespace

int pipe::bind2(const char* name, std::size_t len, unsigned flags) noexcept {
  // Linux picking an abstract name for an empty one came with 1.49.
  if (len == 0 && !loop_->behaves().abstract_name_exact) return errc::invalid;
  sockaddr_un a;
  socklen_t length;
  if (int r = name_address(name, len, flags, &a, &length); r != 0) return r;
  if (watcher_.fd >= 0 || is_closing()) return errc::invalid;
  char* path = nullptr;
  if (a.sun_path[0] != '\0') {
    path = strndup(a.sun_path, sizeof a.sun_path);
    if (path == nullptr) return errc::no_memory;
  }
  return bind_address_(&a, length, path);
}

int pipe::connect2(connect_req& r, const char* name, std::size_t len, unsigned flags, connect_cb cb) noexcept {
  sockaddr_un a;
  socklen_t length;
  if (int rc = connect_address(name, len, flags, &a, &length); rc != 0) return rc;
  connect_address_(r, &a, length, cb);
  return 0;
}

int pipe::listen_(int backlog, connection_cb cb) noexcept {
  if (watcher_.fd == -1 || ipc_) return errc::invalid;
  if (::listen(watcher_.fd, backlog) != 0) return -errno;
  return start_listening_(cb);
}

void pipe::connect(connect_req& r, const char* path, connect_cb cb) noexcept {
  if (loop_->behaves().pipe_connect_checks) {
    // libuv 1.48 connects through connect2's checks: a bad name (an empty
    // one) fails in the callback, without a socket.
    sockaddr_un a;
    socklen_t length;
    if (int err = connect_address(path, std::strlen(path), 0, &a, &length); err != 0) connect_begin_(r, err, cb);
    else connect_address_(r, &a, length, cb);
    return;
  }
  const sockaddr_un a = unix_address(path);
  connect_address_(r, &a, sizeof a, cb);
}

// Makes `r` the handle's connection request; one that failed already
// (`err`) completes with it from the pending phase.
void pipe::connect_begin_(connect_req& r, int err, connect_cb cb) noexcept {
  delayed_error_ = err;
  connect_req_ = &r;
  r.type_ = req_type::connect;
  r.handle_ = this;
  r.cb_ = cb;
  detail::loop_seam::req_register(*loop_);
  detail::loop_seam::started(*loop_, r, this);
  if (err != 0) feed_();
}

void pipe::connect_address_(connect_req& r, const void* address, unsigned length, connect_cb cb) noexcept {
  const bool new_sock = watcher_.fd == -1;
  int err = 0;
  if (new_sock) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) err = -errno;
    else watcher_.fd = fd;
  }
  if (err == 0) {
    int rc;
    do rc = ::connect(watcher_.fd, static_cast<const sockaddr*>(address), length);
    while (rc == -1 && errno == EINTR);
    if (rc == -1 && errno != EINPROGRESS) err = -errno;
  }
  if (err == 0) {
    if (new_sock) err = open_(watcher_.fd, readable_flag | writable_flag);
    if (err == 0) watch_(detail::io_writable);
  }
  connect_begin_(r, err, cb);
}

int pipe::open(int fd) noexcept {
  if (detail::loop_seam::poller(*loop_).watcher(fd) != nullptr) return -EEXIST;
  int mode;
  do mode = fcntl(fd, F_GETFL);
  while (mode == -1 && errno == EINTR);
  if (mode == -1) return -errno;
  int on = 1;
  if (ioctl(fd, FIONBIO, &on) != 0) return -errno;
  std::uint32_t f = 0;
  mode &= O_ACCMODE;
  if (mode != O_WRONLY) f |= readable_flag;
  if (mode != O_RDONLY) f |= writable_flag;
  return open_(fd, f);
}

int pipe::name_(bool peer, char* buffer, std::size_t* size) const noexcept {
  // Nowhere to write is refused (libuv 1.50 also refuses a size of 0;
  // before, that asked for the size needed).
  if (buffer == nullptr || size == nullptr) return errc::invalid;
  if (*size == 0 && loop_->behaves().pipe_name_size_zero_invalid) return errc::invalid;
  if (is_closing() || watcher_.fd == -1) {
    *size = 0;
    return -EBADF;
  }
  sockaddr_un a{};
  socklen_t len = sizeof a;
  const int r = peer ? getpeername(watcher_.fd, reinterpret_cast<sockaddr*>(&a), &len)
                     : getsockname(watcher_.fd, reinterpret_cast<sockaddr*>(&a), &len);
  if (r != 0) {
    *size = 0;
    return -errno;
  }
  std::size_t n;
  // An abstract name (or none) has no terminating NUL; from libuv 1.49 it
  // needs no room for one either.
  const bool abstract = a.sun_path[0] == 0;
  if (abstract) n = len - offsetof(sockaddr_un, sun_path);
  else n = strnlen(a.sun_path, sizeof a.sun_path);
  const std::size_t room = abstract && loop_->behaves().abstract_name_exact ? n : n + 1;
  if (room > *size) {
    *size = room;
    return -ENOBUFS;
  }
  std::memcpy(buffer, a.sun_path, n);
  if (buffer[0] != '\0') buffer[n] = '\0';
  *size = n;
  return 0;
}

int pipe::sockname(char* buffer, std::size_t* size) const noexcept { return name_(false, buffer, size); }
int pipe::peername(char* buffer, std::size_t* size) const noexcept { return name_(true, buffer, size); }

int pipe::chmod(int mode) noexcept {
  if (watcher_.fd == -1) return -EBADF;
  if (mode != readable_mode && mode != writable_mode && mode != (readable_mode | writable_mode))
    return errc::invalid;
  char name[sizeof(sockaddr_un{}.sun_path) + 1];
  std::size_t len = sizeof name;
  if (int r = sockname(name, &len); r != 0) return r;
  struct stat st;
  if (::stat(name, &st) == -1) return -errno;
  mode_t want = 0;
  if (mode & readable_mode) want |= S_IRUSR | S_IRGRP | S_IROTH;
  if (mode & writable_mode) want |= S_IWUSR | S_IWGRP | S_IWOTH;
  if ((st.st_mode & want) == want) return 0;
  return ::chmod(name, st.st_mode | want) == 0 ? 0 : -errno;
}

int pipe::pending_count() const noexcept {
  if (!ipc_ || accepted_fd_ == -1) return 0;
  return 1 + (queued_fds_ != nullptr ? static_cast<int>(queued_fds_->size()) : 0);
}

handle_type pipe::pending_type() const noexcept {
  if (!ipc_ || accepted_fd_ == -1) return handle_type::unknown;
  return guess_handle(accepted_fd_);
}

void pipe::close_() noexcept {
  if (path_ != nullptr) {
    ::unlink(path_);
    std::free(path_);
    path_ = nullptr;
  }
  stream::close_();
}

}  // namespace phaseloop
