#!/bin/sh
# SPDX-License-Identifier: MIT
# Which loops use io_uring (docs/io_uring.md): a program built against
# phaseloop's uv.h, and one built against Debian's libuv running on the
# drop-in libuv.so.1, watch two pipes (two registrations in one poll: a
# batch) and make a few file requests, then count the io_uring instances
# they hold (links to anon_inode:[io_uring] in /proc/self/fd), told apart
# by their size in /proc/self/fdinfo: the file ring (64 entries) and the
# epoll_ctl ring (256), libuv's sizes, so that the same probe counts real
# libuv's rings too. Under each profile, with and without
# uv_loop_configure(UV_LOOP_USE_IO_URING_SQPOLL), $UV_USE_IO_URING and
# $PHASELOOP_IO_URING. The requests' results must be right either way.
#
# Environment (from make check): CC, DIFF_PL_CFLAGS, DIFF_PL_LIBS,
# DIFF_REF_CFLAGS, DIFF_REF_LIBS, DIFF_DROPIN_DIR.
set -u
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fs-ring.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/probe.c" <<'C'
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

static char text[] = "ring or pool";
static char back[32];
static int fd = -1, done;

static void on_read(uv_fs_t* r) {
  if (r->result == (ssize_t) strlen(text) && memcmp(back, text, strlen(text)) == 0) done++;
  uv_fs_req_cleanup(r);
}
static void on_write(uv_fs_t* r) {
  static uv_fs_t rd;
  uv_buf_t b = uv_buf_init(back, sizeof back);
  if (r->result == (ssize_t) strlen(text)) done++;
  uv_fs_req_cleanup(r);
  uv_fs_read(r->loop, &rd, fd, &b, 1, 0, on_read);
}
static void on_stat(uv_fs_t* r) {
  /* (The write runs at the same time: the size may be either.) */
  if (r->result == 0 && S_ISREG(r->statbuf.st_mode)) done++;
  uv_fs_req_cleanup(r);
}

/* The io_uring instances this process holds whose submission queue has
 * `entries` entries. */
static int rings(unsigned entries) {
  DIR* d = opendir("/proc/self/fd");
  struct dirent* e;
  char path[300], target[64], line[128];
  int n = 0;
  while (d != NULL && (e = readdir(d)) != NULL) {
    ssize_t len;
    FILE* info;
    unsigned mask = 0;
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    len = readlink(path, target, sizeof target - 1);
    if (len <= 0) continue;
    target[len] = '\0';
    if (strcmp(target, "anon_inode:[io_uring]") != 0) continue;
    snprintf(path, sizeof path, "/proc/self/fdinfo/%s", e->d_name);
    info = fopen(path, "r");
    while (info != NULL && fgets(line, sizeof line, info) != NULL)
      if (sscanf(line, "SqMask: %x", &mask) == 1) break;
    if (info != NULL) fclose(info);
    if (mask + 1 == entries) n++;
  }
  if (d != NULL) closedir(d);
  return n;
}

static void on_poll(uv_poll_t* h, int status, int events) {
  (void) h, (void) status, (void) events;
}

int main(int argc, char** argv) {
  uv_loop_t loop;
  uv_fs_t st, wr;
  uv_poll_t polls[2];
  int pipes[2][2], i;
  uv_buf_t b = uv_buf_init(text, strlen(text));
  if (uv_loop_init(&loop) != 0) return 2;
  if (argc > 2 && strcmp(argv[2], "ask") == 0) {
#ifdef UV_LOOP_USE_IO_URING_SQPOLL
    if (uv_loop_configure(&loop, UV_LOOP_USE_IO_URING_SQPOLL) != 0) return 3;
#else
    return 3;
#endif
  }
  /* Two fds to register in one poll phase: a batch, where batching is on. */
  for (i = 0; i < 2; i++) {
    if (pipe(pipes[i]) != 0 || uv_poll_init(&loop, &polls[i], pipes[i][0]) != 0) return 4;
    if (uv_poll_start(&polls[i], UV_READABLE, on_poll) != 0) return 4;
  }
  uv_run(&loop, UV_RUN_NOWAIT);
  for (i = 0; i < 2; i++) uv_close((uv_handle_t*) &polls[i], NULL);
  uv_run(&loop, UV_RUN_NOWAIT);
  fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return 4;
  uv_fs_stat(&loop, &st, argv[1], on_stat);
  uv_fs_write(&loop, &wr, fd, &b, 1, 0, on_write);
  uv_run(&loop, UV_RUN_DEFAULT);
  printf("fs %d ctl %d done %d\n", rings(64), rings(256), done);
  close(fd);
  return uv_loop_close(&loop) == 0 && done == 3 ? 0 : 5;
}
C
status=0
${CC:-cc} $DIFF_PL_CFLAGS -UPHASELOOP_UV_VERSION_MINOR -DPHASELOOP_UV_VERSION_MINOR=53 \
  -UPHASELOOP_UV_VERSION_PATCH -DPHASELOOP_UV_VERSION_PATCH=0 "$tmp/probe.c" -o "$tmp/pl" $DIFF_PL_LIBS ||
  { echo "FAIL: the probe does not build against phaseloop"; exit 1; }

# expect FS CTL PROGRAM ASK ENV...: the program, run with ENV (and the
# loop configured when ASK is "ask"), holds FS file rings and CTL epoll_ctl
# rings.
expect() {
  want="fs $1 ctl $2" prog=$3 ask=$4
  shift 4
  out=$(env -u UV_USE_IO_URING -u PHASELOOP_IO_URING "$@" "$prog" "$tmp/file" "$ask" 2> "$tmp/err")
  rc=$?
  if [ $rc -ne 0 ] || [ "$out" != "$want done 3" ]; then
    echo "FAIL: $* $(basename "$prog") $ask: exit $rc, '$out' (want '$want done 3')"
    cat "$tmp/err"
    status=1
    return
  fi
  echo "ok: $* $(basename "$prog") $ask: $out"
}

# The profiles, as each libuv version does it: the epoll_ctl ring from
# 1.45 unless UV_USE_IO_URING is 0, from 1.50 always; the file ring from
# 1.45 to 1.48 unless UV_USE_IO_URING is 0, from 1.49 when asked for.
expect 0 0 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.44.2
expect 0 0 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.44.2 UV_USE_IO_URING=1
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.45.0
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.48.0
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.48.0 UV_USE_IO_URING=1
expect 0 0 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.48.0 UV_USE_IO_URING=0
expect 0 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.49.0
expect 1 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.49.0
expect 0 0 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.49.0 UV_USE_IO_URING=0
expect 0 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.50.0
expect 1 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.50.0 UV_USE_IO_URING=1
expect 1 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.50.0 UV_USE_IO_URING=2
expect 0 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.50.0 UV_USE_IO_URING=-1
expect 0 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.50.0 UV_USE_IO_URING=0
expect 0 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.50.0 UV_USE_IO_URING=1
expect 0 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.53.0 UV_USE_IO_URING=1
expect 1 1 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.53.0 UV_USE_IO_URING=1
# phaseloop's own switch, over any profile.
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.44.2 PHASELOOP_IO_URING=on
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.53.0 PHASELOOP_IO_URING=1
expect 0 0 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.48.0 PHASELOOP_IO_URING=off
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.44.2 PHASELOOP_IO_URING=sqpoll
expect 0 0 "$tmp/pl" ask PHASELOOP_PROFILE=libuv-1.53.0 UV_USE_IO_URING=1 PHASELOOP_IO_URING=0
# A value that is neither is reported and ignored.
expect 1 1 "$tmp/pl" no PHASELOOP_PROFILE=libuv-1.48.0 PHASELOOP_IO_URING=maybe
if ! grep -q "PHASELOOP_IO_URING=maybe is not on, off, sqpoll, 1 or 0; ignored" "$tmp/err"; then
  echo "FAIL: PHASELOOP_IO_URING=maybe was not reported"; status=1
fi

# An unmodified program built against the system's libuv, on the drop-in
# (which behaves by default as the version it was configured for) and on
# that libuv itself: what each version does untold (no UV_USE_IO_URING, no
# asking), by the rules above.
untold() {  # untold MINOR -> "FS CTL"
  if [ "$1" -le 44 ]; then echo "0 0"; elif [ "$1" -le 48 ]; then echo "1 1"; else echo "0 1"; fi
}
minor_of() { sed -n 's/^1\.\([0-9][0-9]*\)\..*/\1/p'; }
if [ -n "${DIFF_REF_CFLAGS+set}" ] && [ -f "${DIFF_DROPIN_DIR:-/nonexistent}/libuv.so.1" ]; then
  # shellcheck disable=SC2086
  ${CC:-cc} $DIFF_REF_CFLAGS "$tmp/probe.c" -o "$tmp/ref" $DIFF_REF_LIBS ||
    { echo "FAIL: the probe does not build against libuv"; exit 1; }
  printf '#include <stdio.h>\n#include <uv.h>\nint main(void) { puts(uv_version_string()); return 0; }\n' > "$tmp/version.c"
  # shellcheck disable=SC2086
  ${CC:-cc} $DIFF_REF_CFLAGS "$tmp/version.c" -o "$tmp/version" $DIFF_REF_LIBS ||
    { echo "FAIL: the version probe does not build against libuv"; exit 1; }
  real=$("$tmp/version" | minor_of)
  dropin=$(env -u PHASELOOP_PROFILE LD_LIBRARY_PATH="$DIFF_DROPIN_DIR" "$tmp/version" | minor_of)
  # shellcheck disable=SC2046
  expect $(untold "$dropin") "$tmp/ref" no LD_LIBRARY_PATH="$DIFF_DROPIN_DIR"
  expect 1 1 "$tmp/ref" no LD_LIBRARY_PATH="$DIFF_DROPIN_DIR" PHASELOOP_IO_URING=on
  expect 1 1 "$tmp/ref" no LD_LIBRARY_PATH="$DIFF_DROPIN_DIR" PHASELOOP_PROFILE=libuv-1.48.0
  # The system's libuv itself (phaseloop's switch means nothing to it).
  # shellcheck disable=SC2046
  expect $(untold "$real") "$tmp/ref" no PHASELOOP_IO_URING=on
else
  echo "FAIL: no reference libuv or drop-in to run the unmodified program on"
  status=1
fi
exit $status
