#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What seeing the loop costs: the same phaseloop builds run plain, with
# PHASELOOP_STATS (a loop_stats hook on every loop) and with PHASELOOP_TRACE
# (a trace_recorder on every loop, the file written at exit), interleaved
# round by round, each figure the median; the ratio is the rate with the
# tool over the rate without (1.00: free).
#
#   ping_pongs  bench/ping_pongs.c on phaseloop's uv.h: TCP round trips of a
#               5-byte message over loopback, 1 and 8 clients
#   http        the example HTTP server (examples/servers/http_server) under
#               `wrk -t1 -c50`, requests/s
#
# usage: bench/trace-cost.sh BUILDDIR [-r ROUNDS] [-d WRK_SECONDS] [--quick]
# BUILDDIR: a configured phaseloop build tree (the library, the drop-in and
# examples/servers/http_server built). Needs wrk for the HTTP half.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"
[ $# -ge 1 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
shift
rounds=5 duration=5 size=
while [ $# -gt 0 ]; do
  case $1 in
    -r) bench_need -r $#; rounds=$2; shift 2 ;;
    -d) bench_need -d $#; duration=$2; shift 2 ;;
    --quick) rounds=1 duration=1 size=2000; shift ;;
    *) echo "trace-cost.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
bench_positive -r "$rounds"
bench_positive -d "$duration"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trace-cost.XXXXXX") || exit 1
server=
trap '[ -z "$server" ] || kill -KILL "$server" 2> /dev/null; rm -rf "$tmp"' EXIT

${CC:-cc} -O2 -I"$top/include/phaseloop/uv" "$here/ping_pongs.c" -o "$tmp/ping_pongs" \
  -L"$build/.libs" -lphaseloop-uv -Wl,-rpath,"$build/.libs" -lpthread || exit 1

# The three settings; each run gets fresh files.
setting_env() { # NAME ROUND
  case $1 in
    plain) ;;
    stats) echo "PHASELOOP_STATS=$tmp/stats.$2" ;;
    trace) echo "PHASELOOP_TRACE=$tmp/trace.$2.json" ;;
  esac
}
settings="plain stats trace"
results=$tmp/results  # lines: setting measurement value
: > "$results"

for r in $(seq 1 "$rounds"); do
  for s in $settings; do
    env $(setting_env $s "$r") "$tmp/ping_pongs" $size > "$tmp/out" 2> "$tmp/err" ||
      { echo "trace-cost.sh: ping_pongs ($s) failed:"; cat "$tmp/err"; exit 1; }
    awk -v s=$s '$1 == "RESULT" { print s, $2, $3 }' "$tmp/out" >> "$results"
    rm -f "$tmp"/stats.* "$tmp"/trace.*
  done
done

if command -v wrk > /dev/null && [ -x "$build/examples/servers/http_server" ]; then
  for r in $(seq 1 "$rounds"); do
    for s in $settings; do
      env $(setting_env $s "$r") "$build/examples/servers/http_server" --port 0 > "$tmp/server.log" 2>&1 &
      server=$!
      port=
      for _ in $(seq 50); do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/server.log")
        [ -n "$port" ] && break
        sleep 0.1
      done
      [ -n "$port" ] || { echo "trace-cost.sh: the HTTP server did not start ($s)"; cat "$tmp/server.log"; exit 1; }
      wrk -t1 -c50 -d"${duration}s" "http://127.0.0.1:$port/" > "$tmp/wrk" 2>&1 ||
        { echo "trace-cost.sh: wrk failed"; cat "$tmp/wrk"; exit 1; }
      kill -TERM "$server"
      wait "$server" 2> /dev/null
      server=
      rps=$(awk '/^Requests\/sec:/ { print $2 }' "$tmp/wrk")
      [ -n "$rps" ] || { echo "trace-cost.sh: no Requests/sec from wrk"; cat "$tmp/wrk"; exit 1; }
      echo "$s http_c50 $rps" >> "$results"
      rm -f "$tmp"/stats.* "$tmp"/trace.*
    done
  done
else
  echo "(no wrk or no $build/examples/servers/http_server: the HTTP half did not run)"
fi

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-16s %14s %14s %7s %14s %7s\n' measurement plain stats ratio trace ratio
for m in $(awk '{ print $2 }' "$results" | sort -u); do
  p=$(awk -v m=$m '$1 == "plain" && $2 == m { print $3 }' "$results" | median)
  st=$(awk -v m=$m '$1 == "stats" && $2 == m { print $3 }' "$results" | median)
  tr=$(awk -v m=$m '$1 == "trace" && $2 == m { print $3 }' "$results" | median)
  awk -v m=$m -v p=$p -v s=$st -v t=$tr 'BEGIN { printf "%-16s %14.0f %14.0f %7.2f %14.0f %7.2f\n", m, p, s, s / p, t, t / p }'
done
echo "($rounds rounds, medians; rates, higher is better; ratio = with the tool / plain)"
