// SPDX-License-Identifier: MIT
/*
 * 186: the process title and uv_setup_args.
 *
 * Without uv_setup_args both title functions are ENOBUFS.  uv_setup_args
 * returns a copy of argv and lends the original argv strings to the
 * title: a new title is written there (so /proc/self/cmdline shows it),
 * cut to the space argv[0] had, and the thread name (/proc/self/comm) is
 * its first 15 bytes.  The binary's name differs between the builds, so
 * lengths derived from it are printed as comparisons only.
 */
#include "diff.h"

#include <fcntl.h>
#include <unistd.h>

static size_t slurp(const char *path, char *buf, size_t size) {
  int fd = open(path, O_RDONLY);
  CHECK(fd >= 0);
  ssize_t n = read(fd, buf, size - 1);
  CHECK(n >= 0);
  close(fd);
  buf[n] = '\0';
  return (size_t) n;
}

static void show_title(const char *what) {
  char title[256];
  int r = uv_get_process_title(title, sizeof title);
  if (r == 0)
    say("%s: \"%s\"", what, title);
  else
    say("%s: %s", what, rc_name(r));
}

int main(int argc, char **argv) {
  char buf[256];
  char comm[64];
  int r;

  show_title("before setup_args");
  say("set before setup_args: %s", rc_name(uv_set_process_title("early")));
  say("setup_args(0) keeps argv: %d", uv_setup_args(0, argv) == argv);
  show_title("after setup_args(0)");

  char *orig0 = argv[0];
  size_t len0 = strlen(orig0);
  char **args = uv_setup_args(argc, argv);
  say("setup_args: copy=%d argc=%d same strings=%d copied=%d end=%d", args != argv,
      argc, strcmp(args[0], orig0) == 0, args[0] != orig0, args[argc] == NULL);

  r = uv_get_process_title(buf, sizeof buf);
  say("title is argv[0]: %s %d", rc_name(r), strcmp(buf, args[0]) == 0);
  say("size len: %s", rc_name(uv_get_process_title(buf, len0)));
  say("size len+1: %s", rc_name(uv_get_process_title(buf, len0 + 1)));
  say("size 0: %s", rc_name(uv_get_process_title(buf, 0)));

  say("set \"t1\": %s", rc_name(uv_set_process_title("t1")));
  show_title("get");
  slurp("/proc/self/comm", comm, sizeof comm);
  comm[strcspn(comm, "\n")] = '\0';
  say("comm: %s", comm);
  say("argv[0] memory: \"%s\", rest zero=%d", orig0,
      memcmp(orig0 + 2, "\0\0", 2) == 0 || len0 < 3);
  say("copy untouched: %d", strcmp(args[0], "t1") != 0);
  {
    char cmdline[256];
    size_t n = slurp("/proc/self/cmdline", cmdline, sizeof cmdline);
    say("cmdline starts with title: %d", n >= 3 && strcmp(cmdline, "t1") == 0);
  }

  /* Longer than argv[0] was: cut to its length. */
  {
    char longer[300];
    memset(longer, 'L', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    memcpy(longer, "a-long-title-0123456789", 23);
    say("set long: %s", rc_name(uv_set_process_title(longer)));
    r = uv_get_process_title(buf, sizeof buf);
    say("get long: %s cut to argv[0]'s length=%d prefix=%d", rc_name(r),
        strlen(buf) == len0, strncmp(buf, longer, len0) == 0);
    say("size len: %s", rc_name(uv_get_process_title(buf, len0)));
    slurp("/proc/self/comm", comm, sizeof comm);
    comm[strcspn(comm, "\n")] = '\0';
    say("comm: %s", comm);
  }

  say("set \"\": %s", rc_name(uv_set_process_title("")));
  show_title("get");
  say("size 1: %s", rc_name(uv_get_process_title(buf, 1)));

  finish(uv_default_loop());
  return 0;
}
