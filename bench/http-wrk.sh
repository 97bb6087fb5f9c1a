#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# wrk against the example HTTP server, built against libuv and against
# phaseloop.
#
# usage: bench/http-wrk.sh BUILDDIR [options]
#
# BUILDDIR is a configured phaseloop build tree in which
#   examples/servers/http_server-libuv   (the server on Debian's libuv)
#   examples/servers/http_server         (the same source on phaseloop)
# have been built.  Each measurement starts a fresh server on a free port
# (`--port 0`; the server prints "listening on 127.0.0.1:PORT"), checks that
# `GET /` answers "hello", runs `wrk -t1 -cC -dDs` against it, and stops it
# with SIGTERM, requiring a clean exit.  The two servers alternate (libuv,
# phaseloop, libuv, ...) and each figure is the median over the rounds
# (--best: the best round); the ratio is phaseloop/libuv, so above 1 means
# phaseloop served more requests per second.  A run with socket errors or
# non-2xx answers fails.
#
# wrk gets one thread (-t) and the server one loop thread: on a 2-core
# machine each has a core. With -l 1,2 each measurement is made with the
# server on one loop and on two (--loops 2: two loops on two threads, each
# accepting from its own SO_REUSEPORT socket); on a 2-core machine the two
# loops then share the cores with wrk.  One wrk thread often cannot keep the server busy, and
# then requests/s measures wrk as much as the server; so the server's CPU
# time (user + system, from /proc) per request is reported as well, with
# its ratio libuv/phaseloop (above 1: phaseloop spends less per request).

set -u

usage() {
  cat <<'EOF'
usage: bench/http-wrk.sh BUILDDIR [options]

  -r, --repeat N       rounds (default 3)
  -c, --connections L  comma-separated connection counts (default 50,200)
  -d, --duration S     seconds per wrk run (default 5)
  -l, --loops L        comma-separated loop counts for the server's --loops
                       (default 1)
  -t, --threads N      wrk's threads (default 1)
      --best           report the best round (highest requests/s, lowest
                       CPU per request) instead of the median
      --markdown       print the table as markdown
      --quick          1 round, 50 connections, 1 second (smoke test)
  -h, --help           this text
EOF
}

. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
  -h|--help) usage; exit 0 ;;
  -*) usage >&2; exit 2 ;;
esac
builddir=$1
shift

repeat=3
conns=50,200
loops=1
wrk_threads=1
duration=5
markdown=0
pick=median

while [ $# -gt 0 ]; do
  case "$1" in
    -r|--repeat) bench_need "$1" $#; repeat=$2; shift 2 ;;
    --repeat=*) repeat=${1#*=}; shift ;;
    -r[0-9]*) repeat=${1#-r}; shift ;;
    -c|--connections) bench_need "$1" $#; conns=$2; shift 2 ;;
    --connections=*) conns=${1#*=}; shift ;;
    -d|--duration) bench_need "$1" $#; duration=$2; shift 2 ;;
    -l|--loops) bench_need "$1" $#; loops=$2; shift 2 ;;
    --loops=*) loops=${1#*=}; shift ;;
    -t|--threads) bench_need "$1" $#; wrk_threads=$2; shift 2 ;;
    --threads=*) wrk_threads=${1#*=}; shift ;;
    --duration=*) duration=${1#*=}; shift ;;
    --markdown) markdown=1; shift ;;
    --best) pick=best; shift ;;
    --quick) repeat=1; conns=50; duration=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "http-wrk.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done

bench_positive --repeat "$repeat"
bench_positive --duration "$duration"
bench_positive --threads "$wrk_threads"
IFS=, read -r -a loop_list <<<"$loops"
[ ${#loop_list[@]} -gt 0 ] || { echo "http-wrk.sh: no loop counts" >&2; exit 2; }
for l in "${loop_list[@]}"; do
  bench_positive "each count of --loops" "$l"
done
IFS=, read -r -a conn_list <<<"$conns"
[ ${#conn_list[@]} -gt 0 ] || { echo "http-wrk.sh: no connection counts" >&2; exit 2; }
for c in "${conn_list[@]}"; do
  bench_positive "each count of --connections" "$c"
done

command -v wrk >/dev/null 2>&1 ||
  { echo "http-wrk.sh: wrk is not installed (apt-get install wrk)" >&2; exit 1; }

declare -A server
server[libuv]=$builddir/examples/servers/http_server-libuv
server[phaseloop]=$builddir/examples/servers/http_server
impls=(libuv phaseloop)
for impl in "${impls[@]}"; do
  [ -x "${server[$impl]}" ] ||
    { echo "http-wrk.sh: ${server[$impl]} is missing; build it first" >&2; exit 1; }
done

logdir=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-wrk.XXXXXX") || exit 1
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -KILL "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
  fi
  rm -rf "$logdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
results=$logdir/results   # lines: <impl> <connections>:<loops> <requests/s> <CPU us/request>
: >"$results"

# Starts the server on $2 loops and sets server_pid and port; fails unless
# it says it is listening within 5 seconds.
start_server() { # impl loops
  local log=$logdir/server.log tries=50 line
  "${server[$1]}" --port 0 --loops "$2" >"$log" 2>&1 &
  server_pid=$!
  port=
  while [ $tries -gt 0 ] && kill -0 "$server_pid" 2>/dev/null; do
    line=$(grep -m1 '^listening on 127\.0\.0\.1:[0-9][0-9]*' "$log" 2>/dev/null)
    if [ -n "$line" ]; then
      port=${line##*:}
      port=${port%%[!0-9]*}
      return 0
    fi
    sleep 0.1
    tries=$((tries - 1))
  done
  echo "http-wrk.sh: $1 server did not start listening" >&2
  sed 's/^/  | /' "$log" >&2
  return 1
}

# One request over bash's /dev/tcp: the answer must be a 200 with "hello".
check_hello() { # impl
  local got
  got=$(
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' >&3
    # The connection stays open (keep-alive): read until the body shows.
    while IFS= read -r -t 2 line <&3; do
      printf '%s\n' "$line"
      [ "$line" = hello ] && break
    done
  )
  if ! printf '%s\n' "$got" | head -n1 | grep -q '^HTTP/1\.[01] 200' ||
     ! printf '%s\n' "$got" | grep -qx hello; then
    echo "http-wrk.sh: $1 server did not answer GET / with 200 hello" >&2
    printf '%s\n' "$got" | sed 's/^/  | /' >&2
    return 1
  fi
}

stop_server() { # impl
  local rc tries=50
  kill -TERM "$server_pid" 2>/dev/null
  # Give it 5 seconds to close its handles and its loop.
  while [ $tries -gt 0 ] && kill -0 "$server_pid" 2>/dev/null; do
    sleep 0.1
    tries=$((tries - 1))
  done
  if kill -0 "$server_pid" 2>/dev/null; then
    echo "http-wrk.sh: $1 server ignored SIGTERM" >&2
    return 1
  fi
  wait "$server_pid"
  rc=$?
  server_pid=
  if [ $rc -ne 0 ]; then
    echo "http-wrk.sh: $1 server exited with status $rc after SIGTERM" >&2
    sed 's/^/  | /' "$logdir/server.log" >&2
    return 1
  fi
}

# CPU time (user + system, in clock ticks) the process has used so far.
cpu_ticks() { # pid
  # Fields 14 and 15 of /proc/PID/stat; the command name in field 2 may
  # hold spaces, so count from the closing parenthesis.
  sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# The CPU time of every thread counts: with --loops the process's stat
# has them all.
run_one() { # impl connections loops round
  local impl=$1 c=$2 l=$3 round=$4 out=$logdir/wrk.out rps reqs cpu0 cpu1 us
  start_server "$impl" "$l" || return 1
  check_hello "$impl" || return 1
  cpu0=$(cpu_ticks "$server_pid")
  if ! wrk -t"$wrk_threads" -c"$c" -d"${duration}s" "http://127.0.0.1:$port/" >"$out" 2>&1; then
    echo "http-wrk.sh: wrk failed against the $impl server" >&2
    sed 's/^/  | /' "$out" >&2
    return 1
  fi
  cpu1=$(cpu_ticks "$server_pid")
  stop_server "$impl" || return 1
  if grep -qE '^ *(Socket errors|Non-2xx or 3xx responses):' "$out"; then
    echo "http-wrk.sh: errors against the $impl server (-c$c):" >&2
    sed 's/^/  | /' "$out" >&2
    return 1
  fi
  rps=$(awk '$1 == "Requests/sec:" { print $2 }' "$out")
  reqs=$(awk '$2 == "requests" && $3 == "in" { print $1; exit }' "$out")
  if [ -z "$rps" ] || [ -z "$reqs" ] || [ "$reqs" -eq 0 ]; then
    echo "http-wrk.sh: no request count in wrk's output" >&2
    sed 's/^/  | /' "$out" >&2
    return 1
  fi
  # The server's CPU microseconds per request: unlike requests/s, it does
  # not count the time the server spent waiting for wrk or for a core.
  us=$(awk -v t0="${cpu0:-0}" -v t1="${cpu1:-0}" -v hz="$clk_tck" -v n="$reqs" \
         'BEGIN { printf "%.3f", (t1 - t0) * 1e6 / hz / n }')
  echo "$impl $c:$l $rps $us" >>"$results"
  echo "  [$round/$repeat] $impl -c$c, $l loop(s): $rps requests/s, $us CPU us/request" >&2
}

clk_tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
uv_version=$(pkg-config --modversion libuv 2>/dev/null || echo '?')
wrk_version=$(wrk -v 2>&1 | awk 'NR == 1 { print $2 }')
start=$(date +%s)
echo "http-wrk: $repeat round(s), wrk $wrk_version -t$wrk_threads -d${duration}s," \
     "connections $conns, server loops $loops, libuv $uv_version" >&2
for round in $(seq 1 "$repeat"); do
  for c in "${conn_list[@]}"; do
    for l in "${loop_list[@]}"; do
      for impl in "${impls[@]}"; do
        run_one "$impl" "$c" "$l" "$round" || exit 1
      done
    done
  done
done
elapsed=$(( $(date +%s) - start ))

awk -v md="$markdown" -v rounds="$repeat" -v secs="$elapsed" -v wt="$wrk_threads" \
    -v uvver="$uv_version" -v dur="$duration" -v pick="$pick" '
# The median of a series, or with --best its best value: the highest rate
# (high = 1) or the lowest cost (high = 0).
function reduce(key, high,   n, i, j, t, v) {
  n = cnt[key]
  for (i = 1; i <= n; i++) v[i] = val[key, i] + 0
  for (i = 2; i <= n; i++) {
    t = v[i]
    for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
    v[j + 1] = t
  }
  if (pick == "best") return high ? v[n] : v[1]
  if (n % 2) return v[(n + 1) / 2]
  return (v[n / 2] + v[n / 2 + 1]) / 2
}
function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
{
  if (!($2 in seen)) { seen[$2] = 1; order[++nc] = $2 }
  key = $1 SUBSEP $2
  n = ++cnt[key]
  val[key, n] = $3
  val["cpu" SUBSEP key, n] = $4
  cnt["cpu" SUBSEP key] = n
}
END {
  if (md) {
    printf "| wrk -t%s -d%ss | libuv %s req/s | phaseloop req/s | ratio | libuv CPU us/req | phaseloop CPU us/req | CPU ratio |\n", wt, dur, uvver
    printf "|---|---:|---:|---:|---:|---:|---:|\n"
  } else {
    printf "%-16s  %12s  %12s  %6s  %11s  %11s  %6s\n", "wrk", "libuv req/s", "phaseloop", "ratio",
           "libuv us/rq", "phaseloop", "ratio"
    printf "%-16s  %12s  %12s  %6s  %11s  %11s  %6s\n", "----------------", "------------", "------------",
           "------", "-----------", "-----------", "------"
  }
  for (i = 1; i <= nc; i++) {
    c = order[i]
    split(c, cl, ":")
    label = "-c" cl[1] ", " cl[2] (cl[2] == 1 ? " loop" : " loops")
    u = reduce("libuv" SUBSEP c, 1); p = reduce("phaseloop" SUBSEP c, 1)
    cu = reduce("cpu" SUBSEP "libuv" SUBSEP c, 0); cp = reduce("cpu" SUBSEP "phaseloop" SUBSEP c, 0)
    if (md)
      printf "| %s | %.0f | %.0f | %s | %.2f | %.2f | %s |\n", label, u, p, ratio(p, u), cu, cp, ratio(cu, cp)
    else
      printf "%-16s  %12.0f  %12.0f  %6s  %11.2f  %11.2f  %6s\n", label, u, p, ratio(p, u), cu, cp, ratio(cu, cp)
  }
  if (md) printf "\n"
  printf "%s of %d round(s), %ds wall; ratio = phaseloop/libuv requests/s," \
         " CPU ratio = libuv/phaseloop server CPU per request (above 1: phaseloop better)\n", pick, rounds, secs
}' "$results"
