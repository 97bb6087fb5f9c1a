// SPDX-License-Identifier: MIT
// Terminal handles and the process-wide saved terminal settings that
// reset_mode() restores.

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "core/internal.hpp"
#include "phaseloop/tty.hpp"

namespace phaseloop {

namespace {

// The settings of the first terminal put out of normal mode, guarded by a
// spin lock that reset_mode() only tries (it may run in a signal handler).
std::atomic_flag saved_lock = ATOMIC_FLAG_INIT;
termios saved_termios;
int saved_fd = -1;

// Holds the spin lock for a scope (set_mode and close: they may wait).
struct saved_guard {
  saved_guard() noexcept {
    while (saved_lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~saved_guard() { saved_lock.clear(std::memory_order_release); }
  saved_guard(const saved_guard&) = delete;
  saved_guard& operator=(const saved_guard&) = delete;
};

int set_attr(int fd, int when, const termios& t) noexcept {
  int r;
  do r = tcsetattr(fd, when, &t);
  while (r == -1 && errno == EINTR);
  return r == 0 ? 0 : -errno;
}

// A slave end answers "which pty number" with an error; a master does not.
bool is_slave(int fd) noexcept {
  int n;
  return ioctl(fd, TIOCGPTN, &n) != 0;
}

}  // namespace

handle_type guess_handle(int fd) noexcept {
  if (fd < 0) return handle_type::unknown;
  if (isatty(fd)) return handle_type::tty;
  struct stat st;
  if (fstat(fd, &st) != 0) return handle_type::unknown;
  if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)) return handle_type::file;
  if (S_ISFIFO(st.st_mode)) return handle_type::named_pipe;
  if (!S_ISSOCK(st.st_mode)) return handle_type::unknown;
  int type = 0;
  socklen_t len = sizeof type;
  sockaddr_storage ss{};
  socklen_t slen = sizeof ss;
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &slen) != 0)
    return handle_type::unknown;
  const bool ip = ss.ss_family == AF_INET || ss.ss_family == AF_INET6;
  if (type == SOCK_DGRAM && ip) return handle_type::udp;
  if (type == SOCK_STREAM && ip) return handle_type::tcp;
  if (type == SOCK_STREAM && ss.ss_family == AF_UNIX) return handle_type::named_pipe;
  return handle_type::unknown;
}

int tty::check_fd(int fd) noexcept {
  const handle_type k = guess_handle(fd);
  if (k == handle_type::file || k == handle_type::unknown) return errc::invalid;
  int fl;
  do fl = fcntl(fd, F_GETFL);
  while (fl == -1 && errno == EINTR);
  return fl == -1 ? -errno : 0;
}

tty::tty(phaseloop::loop& l, int fd) noexcept : stream(l, handle_type::tty) {
  int fl;
  do fl = fcntl(fd, F_GETFL);
  while (fl == -1 && errno == EINTR);
  const int access = fl & O_ACCMODE;
  std::uint32_t f = 0;
  if (isatty(fd)) {
    char path[256];
    int reopened = -1;
    if (is_slave(fd) && ttyname_r(fd, path, sizeof path) == 0)
      reopened = ::open(path, access | O_NOCTTY | O_CLOEXEC);
    if (reopened < 0) {
      if (access != O_RDONLY) f |= blocking_writes_flag;
    } else {
      // The caller's fd now names the fresh open file too; the handle
      // owns the new fd.
      if (dup3(reopened, fd, O_CLOEXEC) < 0 && errno != EINVAL) {
        ::close(reopened);
      } else {
        fd = reopened;
      }
    }
  }
  if (!(f & blocking_writes_flag)) {
    int on = 1;
    ioctl(fd, FIONBIO, &on);
  }
  if (access != O_WRONLY) f |= readable_flag;
  if (access != O_RDONLY) f |= writable_flag;
  open_(fd, f);
}

int tty::set_mode(mode m) noexcept {
  const behaviour& b = loop_->behaves();
  if (m == mode::raw_vt && b.tty_raw_vt) m = mode::raw;
  if (b.tty_mode_checked && m != mode::normal && m != mode::raw && m != mode::io) return errc::invalid;
  if (mode_ == m) return 0;
  const int fd = watcher_.fd;
  if (mode_ == mode::normal && m != mode::normal) {
    int r;
    do r = tcgetattr(fd, &orig_);
    while (r == -1 && errno == EINTR);
    if (r == -1) return -errno;
    const saved_guard hold;
    if (saved_fd == -1) {
      saved_termios = orig_;
      saved_fd = fd;
    }
  }
  termios t = orig_;
  switch (m) {
    // Raw VT here only before 1.51, a mode not known then, as is any other
    // value before 1.53: the terminal as in normal mode.
    case mode::raw_vt:
    case mode::normal: break;
    case mode::raw:
      t.c_iflag &= ~static_cast<tcflag_t>(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
      t.c_oflag |= ONLCR;
      t.c_cflag |= CS8;
      t.c_lflag &= ~static_cast<tcflag_t>(ECHO | ICANON | IEXTEN | ISIG);
      t.c_cc[VMIN] = 1;
      t.c_cc[VTIME] = 0;
      break;
    case mode::io: cfmakeraw(&t); break;
  }
  const int r = set_attr(fd, TCSADRAIN, t);
  if (r == 0) mode_ = m;
  return r;
}

int tty::winsize(int* width, int* height) const noexcept {
  struct winsize ws;
  int r;
  do r = ioctl(watcher_.fd, TIOCGWINSZ, &ws);
  while (r == -1 && errno == EINTR);
  if (r == -1) return -errno;
  *width = ws.ws_col;
  *height = ws.ws_row;
  return 0;
}

// From libuv 1.49 (PR #4399) closing the terminal whose settings were
// saved puts them back, and forgets them.
void tty::close_() noexcept {
  const int fd = watcher_.fd;
  if (fd != -1 && loop_->behaves().tty_close_restores) {
    const saved_guard hold;
    if (fd == saved_fd) {
      set_attr(fd, TCSANOW, saved_termios);
      saved_fd = -1;
    }
  }
  stream::close_();
}

int tty::reset_mode() noexcept {
  const int saved_errno = errno;
  if (saved_lock.test_and_set(std::memory_order_acquire)) return -EBUSY;
  int err = 0;
  if (saved_fd != -1) err = set_attr(saved_fd, TCSANOW, saved_termios);
  saved_lock.clear(std::memory_order_release);
  errno = saved_errno;
  return err;
}

}  // namespace phaseloop
