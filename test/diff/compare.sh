#!/bin/sh
# SPDX-License-Identifier: MIT
# compare.sh -- differential check of one scenario: reference libuv vs phaseloop.
#
# Usage: compare.sh [ignored args...] SCENARIO.c
#
# The scenario is compiled against the reference libuv
#   $CC $DIFF_REF_CFLAGS SCENARIO.c -o X.ref $DIFF_REF_LIBS
# (defaults: `pkg-config --cflags --libs libuv` plus -lpthread) and, when
# DIFF_PL_CFLAGS is set, against phaseloop
#   $CC $DIFF_PL_CFLAGS SCENARIO.c -o X.pl $DIFF_PL_LIBS
# Both binaries are run (20 s timeout each; the phaseloop one under
# `env $DIFF_EXTRA_ENV`) and their stdout must match byte for byte.
# Without DIFF_PL_CFLAGS only the reference is built; it must exit 0.
#
# Other knobs:
#   DIFF_REPEAT=N    run every binary N times; all outputs must agree (default 1)
#   DIFF_TIMEOUT=S   per-run timeout in seconds (default 20)
#   DIFF_KEEP=1      keep the work directory and print its path
#   DIFF_DROPIN_DIR  directory holding a drop-in libuv.so.1 (phaseloop built
#                    as a libuv replacement); if it exists there, the
#                    reference binary is also run with LD_LIBRARY_PATH
#                    pointing at it (plus DIFF_DROPIN_ENV when set, even
#                    empty, else DIFF_EXTRA_ENV) and must match too
#
# Exit status: 0 match, 1 mismatch / crash / timeout / build failure,
# 77 (automake "skip") when no reference libuv is available at all.

set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 SCENARIO.c" >&2
  exit 2
fi

# The scenario is the last argument (automake's LOG_COMPILER convention).
for scenario in "$@"; do :; done

if [ ! -f "$scenario" ]; then
  echo "compare.sh: no such scenario: $scenario" >&2
  exit 1
fi

name=$(basename "$scenario" .c)
scenario_dir=$(cd "$(dirname "$scenario")" && pwd)
script_dir=$(cd "$(dirname "$0")" && pwd)

# Locate diff.h: $srcdir (automake) first, then the script's own directory.
helper_dir=
if [ -n "${srcdir:-}" ]; then
  for d in "$srcdir" "$srcdir/diff" "$srcdir/test/diff"; do
    if [ -f "$d/diff.h" ]; then
      helper_dir=$(cd "$d" && pwd)
      break
    fi
  done
fi
if [ -z "$helper_dir" ]; then
  if [ -f "$script_dir/diff.h" ]; then
    helper_dir=$script_dir
  else
    helper_dir=$scenario_dir
  fi
fi

CC=${CC:-cc}
timeout_s=${DIFF_TIMEOUT:-20}
repeat=${DIFF_REPEAT:-1}

if [ -z "${DIFF_REF_CFLAGS+set}" ] && [ -z "${DIFF_REF_LIBS+set}" ] &&
   ! pkg-config --exists libuv 2>/dev/null; then
  echo "compare.sh: reference libuv not found by pkg-config; skipping $name"
  exit 77
fi
ref_cflags=${DIFF_REF_CFLAGS-$(pkg-config --cflags libuv 2>/dev/null)}
ref_libs=${DIFF_REF_LIBS-"$(pkg-config --libs libuv 2>/dev/null) -lpthread"}

work=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-diff.XXXXXX") || exit 1
cleanup() {
  if [ -n "${DIFF_KEEP:-}" ]; then
    echo "compare.sh: work directory kept: $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

common_cflags="-I$helper_dir -I$scenario_dir"

# build LABEL CFLAGS LIBS
build() {
  # Word splitting of the flag variables is intended.
  # shellcheck disable=SC2086
  if ! $CC $2 $common_cflags "$scenario" -o "$work/$name.$1" $3 \
        > "$work/build.$1.log" 2>&1; then
    echo "FAIL $name: $1 build failed:"
    cat "$work/build.$1.log"
    return 1
  fi
  return 0
}

# run LABEL ITER [env-assignments...]: run the binary, stdout to $work/out.LABEL.ITER
run() {
  label=$1
  iter=$2
  shift 2
  out="$work/out.$label.$iter"
  err="$work/err.$label.$iter"
  if command -v timeout > /dev/null 2>&1; then
    (cd "$work" && env "$@" timeout -k 5 "$timeout_s" "./$name.$label") \
      > "$out" 2> "$err" < /dev/null
  else
    (cd "$work" && env "$@" "./$name.$label") > "$out" 2> "$err" < /dev/null
  fi
  rc=$?
  if [ "$rc" -ne 0 ]; then
    if [ "$rc" -eq 124 ]; then
      echo "FAIL $name: $label binary timed out after ${timeout_s}s (run $iter)"
    else
      echo "FAIL $name: $label binary exited with status $rc (run $iter)"
    fi
    echo "--- stdout ($label) ---"
    cat "$out"
    echo "--- stderr ($label) ---"
    cat "$err"
    return 1
  fi
  return 0
}

status=0

build ref "$ref_cflags" "$ref_libs" || exit 1

if [ -n "${DIFF_PL_CFLAGS:-}" ]; then
  build pl "$DIFF_PL_CFLAGS" "${DIFF_PL_LIBS:-}" || exit 1
fi

i=1
while [ "$i" -le "$repeat" ]; do
  run ref "$i" || status=1
  if [ "$i" -gt 1 ] && [ "$status" -eq 0 ]; then
    if ! cmp -s "$work/out.ref.1" "$work/out.ref.$i"; then
      echo "FAIL $name: reference output is not deterministic (run 1 vs $i)"
      diff -u "$work/out.ref.1" "$work/out.ref.$i"
      status=1
    fi
  fi
  [ "$status" -eq 0 ] || exit 1
  i=$((i + 1))
done

checked=

if [ -n "${DIFF_PL_CFLAGS:-}" ]; then
  i=1
  while [ "$i" -le "$repeat" ]; do
    # DIFF_EXTRA_ENV is a list of VAR=value words; splitting is intended.
    # shellcheck disable=SC2086
    run pl "$i" ${DIFF_EXTRA_ENV:-} || status=1
    if [ "$status" -eq 0 ] && ! cmp -s "$work/out.ref.1" "$work/out.pl.$i"; then
      echo "FAIL $name: output differs (run $i)"
      diff -u --label "libuv/$name" --label "phaseloop/$name" \
        "$work/out.ref.1" "$work/out.pl.$i"
      status=1
    fi
    [ "$status" -eq 0 ] || exit 1
    i=$((i + 1))
  done
  checked="phaseloop"
fi

if [ -n "${DIFF_DROPIN_DIR:-}" ] && [ -e "$DIFF_DROPIN_DIR/libuv.so.1" ]; then
  dropin_dir=$(cd "$DIFF_DROPIN_DIR" && pwd)
  cp "$work/$name.ref" "$work/$name.dropin"
  i=1
  while [ "$i" -le "$repeat" ]; do
    # shellcheck disable=SC2086
    run dropin "$i" \
      "LD_LIBRARY_PATH=$dropin_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      ${DIFF_DROPIN_ENV-${DIFF_EXTRA_ENV:-}} || status=1
    if [ "$status" -eq 0 ] && ! cmp -s "$work/out.ref.1" "$work/out.dropin.$i"; then
      echo "FAIL $name: output differs on the drop-in libuv.so.1 (run $i)"
      diff -u --label "libuv/$name" --label "dropin/$name" \
        "$work/out.ref.1" "$work/out.dropin.$i"
      status=1
    fi
    [ "$status" -eq 0 ] || exit 1
    i=$((i + 1))
  done
  checked="${checked:+$checked + }drop-in"
fi

if [ -z "$checked" ]; then
  echo "PASS $name (reference only)"
else
  echo "PASS $name (reference vs $checked)"
fi
exit 0
