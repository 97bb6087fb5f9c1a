#!/bin/sh
# SPDX-License-Identifier: MIT
# The source folders depend on each other in one direction only: each may
# include (with #include "...") the folders listed for it and nothing else,
# so no folder includes one above it and there is no cycle:
#
#   include/phaseloop   public API          <- everything
#   src/core            the loop            <- src/io, src/os
#   src/os, src/io      OS facts, handles   (src/io may use src/core's seam)
#   compat              libuv's C API       over the public API only (and its
#                                           own headers, include/phaseloop/uv)
#   src/observe         stats, tracing      over the public API only
#   src/node, src/browser  the layers       over the public API only
#   src/js              the runner's hosts  over the public API and itself
#                       (src/js/node, src/js/window: each host over src/js)
#   src/cli             the command         over the public API and src/js
#
# (At link time src/core also calls src/io's poller backend and each handle
# type's close step, through declarations in include/phaseloop, as libuv's
# uv_close and uv_run call into linux.c and tcp.c.)
set -u
top=$(cd "${srcdir:-.}" && pwd)
status=0

# allowed DIR PREFIX...: every quoted include in DIR starts with one of the
# prefixes (a bare file name is the folder's own header).
allowed() {
  dir=$1
  shift
  [ -d "$top/$dir" ] || return 0
  for f in "$top/$dir"/*.cpp "$top/$dir"/*.hpp "$top/$dir"/*.h "$top/$dir"/*.c; do
    [ -e "$f" ] || continue
    sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
      ok=0
      case $inc in */*) ;; *) ok=1 ;; esac
      for p in "$@"; do
        case $inc in "$p"*) ok=1 ;; esac
      done
      if [ $ok = 0 ]; then
        echo "FAIL: ${f#"$top"/} includes \"$inc\" (allowed for $dir: $*)"
        echo x >> "$tmp"
      fi
    done
  done
}
tmp=$(mktemp "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
allowed include/phaseloop phaseloop/
allowed include/phaseloop/detail phaseloop/
allowed src/core phaseloop/ core/
allowed src/os phaseloop/ os/
allowed src/io phaseloop/ core/ io/
allowed compat phaseloop/ uv/
allowed src/observe phaseloop/ observe/
allowed src/node phaseloop/ node/
allowed src/browser phaseloop/ browser/
allowed src/js phaseloop/ js/
allowed src/js/node phaseloop/ js/
allowed src/js/window phaseloop/ js/
allowed src/cli phaseloop/ js/

if [ -s "$tmp" ]; then status=1; else echo "ok: every folder includes only the folders below it"; fi
exit $status
