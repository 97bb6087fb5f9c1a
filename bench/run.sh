#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# phaseloop benchmark runner.
#
# Builds every bench/*.c twice -- once against the system libuv (pkg-config)
# and once against phaseloop's libuv-compatible library -- runs the two
# builds interleaved, and prints one table row per measurement.
#
# phaseloop side (skipped when PL_CFLAGS is unset):
#   PL_CFLAGS  compiler flags that make <uv.h> resolve to include/phaseloop/uv/uv.h,
#              e.g. -I/path/to/phaseloop/include/phaseloop/uv
#   PL_LIBS    linker flags for the library, e.g.
#              -L/path/to/build/.libs -lphaseloop-uv -Wl,-rpath,/path/to/build/.libs
#
# Other environment:
#   CC             compiler (default cc)
#   BENCH_BUILD    where binaries go (default bench/build)
#   BENCH_TIMEOUT  seconds allowed per program run (default 120)
#
# Every program prints lines of the form
#   RESULT <name> <value> <unit>
# where value is a rate (higher is better).  The ratio column is
# phaseloop/libuv, so a ratio above 1 means phaseloop is faster.

set -u

# What it builds and runs (callgrind.sh reads the list from --help).
all_benches=(loop_count many_handles timers async queue_work ping_pongs pump pound getaddrinfo)

usage() {
  cat <<EOF
usage: bench/run.sh [options] [bench ...]

  -r, --repeat N   run each libuv/phaseloop pair N times (default 3)
      --best       report the best run instead of the median
      --markdown   print the table as markdown
      --quick      much smaller workloads (smoke test, numbers not meaningful)
      --load       keep every core busy with a spinning process while measuring
  -h, --help       this text

bench names: ${all_benches[*]}
(default: all)
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repeat=3
pick=median
markdown=0
quick=0
load=0
selected=()

while [ $# -gt 0 ]; do
  case "$1" in
    -r|--repeat) bench_need "$1" $#; repeat=$2; shift 2 ;;
    --repeat=*) repeat=${1#*=}; shift ;;
    -r[0-9]*) repeat=${1#-r}; shift ;;
    --best) pick=best; shift ;;
    --markdown) markdown=1; shift ;;
    --quick) quick=1; shift ;;
    --load) load=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) selected+=("$1"); shift ;;
  esac
done

bench_positive --repeat "$repeat"

if [ ${#selected[@]} -eq 0 ]; then
  selected=("${all_benches[@]}")
fi
for b in "${selected[@]}"; do
  [ -f "$here/$b.c" ] || { echo "run.sh: no such benchmark: $b" >&2; exit 2; }
done

# Arguments handed to each program.  Empty means the program's defaults.
bench_args() {
  if [ "$quick" = 1 ]; then
    case "$1" in
      loop_count) echo 100000 ;;
      many_handles) echo "50 1000" ;;
      timers)     echo 50000 ;;
      async)      echo 5000 ;;
      queue_work) echo "5000 50000" ;;
      ping_pongs) echo 2000 ;;
      pump)       echo 16 ;;
      pound)      echo 1000 ;;
      getaddrinfo) echo 1000 ;;
    esac
  fi
}

cc=${CC:-cc}
builddir=${BENCH_BUILD:-$here/build}
run_timeout=${BENCH_TIMEOUT:-120}
cflags_common="-O2 -Wall -Wextra"

with_phaseloop=0
if [ -n "${PL_CFLAGS:-}" ]; then
  with_phaseloop=1
fi

if ! uv_flags=$(pkg-config --cflags --libs libuv 2>/dev/null); then
  echo "run.sh: pkg-config cannot find libuv" >&2
  exit 1
fi
uv_version=$(pkg-config --modversion libuv)

mkdir -p "$builddir" || exit 1
logdir=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-bench.XXXXXX") || exit 1
trap 'rm -rf "$logdir"' EXIT
results=$logdir/results   # lines: <impl> <name> <value> <unit>
: >"$results"

# ---- build ---------------------------------------------------------------

impls=(libuv)
[ "$with_phaseloop" = 1 ] && impls+=(phaseloop)

for b in "${selected[@]}"; do
  # shellcheck disable=SC2086  # flag strings are meant to be split
  if ! $cc $cflags_common "$here/$b.c" -o "$builddir/bench_$b.libuv" \
        $uv_flags; then
    echo "run.sh: build of $b against libuv failed" >&2
    exit 1
  fi
  if [ "$with_phaseloop" = 1 ]; then
    # shellcheck disable=SC2086
    if ! $cc $cflags_common ${PL_CFLAGS} "$here/$b.c" \
          -o "$builddir/bench_$b.phaseloop" ${PL_LIBS:-} -lpthread; then
      echo "run.sh: build of $b against phaseloop failed" >&2
      exit 1
    fi
    # A phaseloop binary that still pulls in the real libuv would quietly
    # turn the comparison into libuv vs libuv.
    if command -v ldd >/dev/null 2>&1 &&
       ldd "$builddir/bench_$b.phaseloop" 2>/dev/null | grep -q 'libuv\.so'; then
      echo "run.sh: bench_$b.phaseloop is linked against libuv.so;" \
           "check PL_LIBS" >&2
      exit 1
    fi
  fi
done

# ---- run -----------------------------------------------------------------

timeout_cmd=()
if command -v timeout >/dev/null 2>&1; then
  timeout_cmd=(timeout "$run_timeout")
fi

run_one() { # impl bench round
  local impl=$1 b=$2 round=$3 out=$logdir/out err=$logdir/err rc
  local args
  args=$(bench_args "$b")
  # shellcheck disable=SC2086
  "${timeout_cmd[@]}" "$builddir/bench_$b.$impl" $args >"$out" 2>"$err"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "run.sh: bench_$b.$impl failed (exit $rc) in round $round" >&2
    sed 's/^/  | /' "$err" "$out" >&2
    return 1
  fi
  if ! grep -q '^RESULT ' "$out"; then
    echo "run.sh: bench_$b.$impl printed no RESULT line" >&2
    return 1
  fi
  awk -v impl="$impl" '$1 == "RESULT" && NF >= 4 { print impl, $2, $3, $4 }' \
      "$out" >>"$results"
  echo "  [$round/$repeat] $impl $b: $(grep '^RESULT ' "$out" |
        awk '{ printf "%s%s=%s", sep, $2, $3; sep=" " }')" >&2
}

# --load: one spinning process per core, for the whole measurement.
spinners=()
stop_spinners() { [ ${#spinners[@]} -eq 0 ] || kill "${spinners[@]}" 2>/dev/null; }
if [ "$load" = 1 ]; then
  for _ in $(seq 1 "$(nproc)"); do
    sh -c 'while :; do :; done' &
    spinners+=($!)
  done
  trap 'stop_spinners; rm -rf "$logdir"' EXIT
  echo "phaseloop bench: ${#spinners[@]} spinning process(es) keep the cores busy" >&2
fi

start=$(date +%s)
echo "phaseloop bench: $repeat round(s), libuv $uv_version," \
     "phaseloop $([ "$with_phaseloop" = 1 ] && echo on || echo 'off (PL_CFLAGS unset)')" >&2
for round in $(seq 1 "$repeat"); do
  for b in "${selected[@]}"; do
    for impl in "${impls[@]}"; do
      run_one "$impl" "$b" "$round" || exit 1
    done
  done
done
elapsed=$(( $(date +%s) - start ))
stop_spinners

# ---- report --------------------------------------------------------------

# Reduce every (impl, name) series to one figure, then lay out the table in
# order of first appearance.
awk -v pick="$pick" -v md="$markdown" -v pl="$with_phaseloop" \
    -v rounds="$repeat" -v secs="$elapsed" -v uvver="$uv_version" '
function sortnum(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) {
    t = a[i]
    for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
    a[j + 1] = t
  }
}
function reduce(key,   n, i, v) {
  n = cnt[key]
  if (n == 0) return ""
  for (i = 1; i <= n; i++) v[i] = val[key, i] + 0
  sortnum(v, n)
  if (pick == "best") return v[n]
  if (n % 2) return v[(n + 1) / 2]
  return (v[n / 2] + v[n / 2 + 1]) / 2
}
function fmt(x) { return x == "" ? "-" : sprintf("%.0f", x) }
{
  key = $1 SUBSEP $2
  if (!($2 in seen)) { seen[$2] = 1; order[++nnames] = $2; unit[$2] = $4 }
  val[key, ++cnt[key]] = $3
}
END {
  logsum = 0; nratio = 0
  for (i = 1; i <= nnames; i++) {
    name = order[i]
    u[i] = reduce("libuv" SUBSEP name)
    p[i] = pl ? reduce("phaseloop" SUBSEP name) : ""
    if (u[i] != "" && p[i] != "" && u[i] > 0 && p[i] > 0) {
      r[i] = sprintf("%.2f", p[i] / u[i])
      logsum += log(p[i] / u[i]); nratio++
    } else {
      r[i] = "-"
    }
  }
  what = (pick == "best") ? "best" : "median"
  if (md) {
    printf "| benchmark | unit | libuv %s | phaseloop | ratio |\n", uvver
    printf "|---|---|---:|---:|---:|\n"
    for (i = 1; i <= nnames; i++)
      printf "| %s | %s | %s | %s | %s |\n", order[i], unit[order[i]],
             fmt(u[i]), fmt(p[i]), r[i]
    printf "\n"
  } else {
    w = 9
    for (i = 1; i <= nnames; i++) if (length(order[i]) > w) w = length(order[i])
    hdr = sprintf("%-" w "s  %-9s  %12s  %12s  %6s", "benchmark", "unit",
                  "libuv", "phaseloop", "ratio")
    print hdr
    line = hdr; gsub(/./, "-", line); print line
    for (i = 1; i <= nnames; i++)
      printf "%-" w "s  %-9s  %12s  %12s  %6s\n", order[i], unit[order[i]],
             fmt(u[i]), fmt(p[i]), r[i]
  }
  if (nratio > 0)
    tail = sprintf("geometric mean ratio (phaseloop/libuv): %.2f over %d measurements",
                   exp(logsum / nratio), nratio)
  else
    tail = "phaseloop column empty: set PL_CFLAGS and PL_LIBS to build it"
  tail = tail sprintf("; %s of %d round(s), higher is better, %ds wall", what, rounds, secs)
  print tail
}' "$results"
