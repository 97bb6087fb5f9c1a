// SPDX-License-Identifier: MIT
/* Pseudo-terminals for the tty scenarios: include after diff.h. */
#ifndef PHASELOOP_TEST_DIFF_TTY_H
#define PHASELOOP_TEST_DIFF_TTY_H

#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

/* A new pseudo-terminal's master; *slave: its terminal end, opened for
 * reading and writing, not as the controlling terminal. */
static int pty_open(int *slave) DIFF_UNUSED;
static int pty_open(int *slave) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  CHECK(master >= 0);
  CHECK(grantpt(master) == 0 && unlockpt(master) == 0);
  *slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  CHECK(*slave >= 0);
  return master;
}

/* One more descriptor of the terminal end of `master`. */
static int pty_again(int master) DIFF_UNUSED;
static int pty_again(int master) {
  int fd = open(ptsname(master), O_RDWR | O_NOCTTY);
  CHECK(fd >= 0);
  return fd;
}

#endif /* PHASELOOP_TEST_DIFF_TTY_H */
