#!/bin/bash
# SPDX-License-Identifier: MIT
# The soak: servers on phaseloop's drop-in libuv.so.1 under wrk for a long
# while, their resident memory and descriptors sampled; fails when either
# grows (docs/faults.md, "Soak").
#
#   test/soak/run.sh [--minutes M] [--servers http,node] [--conns C] [--keep DIR]
#
# Run from the top of a build tree of a git checkout (`make soak`;
# SOAK_ARGS passes options). Servers (--servers, default both, run at
# the same time):
#   http  examples/servers/http_server-libuv (built against Debian's libuv)
#         on the drop-in, GET / (keep-alive)
#   node  the Debian release's Node (test/clients/node's kit, fetched into the
#         build tree) on the drop-in: an http hello-world
# Each gets its own wrk (C connections, default 16, one thread) in 30 s
# runs until M minutes (default 10) are up. Every 5 s: VmRSS and the count
# of open descriptors. After a warm-up (the first fifth), the least-squares
# slope of each over the rest, times that span, is the growth; the server
# passes when RSS grows by less than max(2 MiB, 5 % of its mean) and the
# descriptors by less than 2, wrk saw no socket error and no non-2xx
# answer, and the server exits on SIGTERM.
set -u

minutes=10
servers=http,node
conns=16
keep=
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --servers) servers=$2; shift 2 ;;
    --conns) conns=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "soak: unknown argument $1 (see the top of test/soak/run.sh)" >&2; exit 2 ;;
  esac
done
case "$minutes$conns" in *[!0-9]*|'') echo "soak: --minutes and --conns take whole numbers" >&2; exit 2 ;; esac
[ "$minutes" -ge 1 ] || { echo "soak: --minutes must be at least 1" >&2; exit 2; }

src=${srcdir:-.}
src=$(cd "$src" && pwd)
build=$(pwd)
command -v wrk > /dev/null || { echo "soak: wrk not found (Debian's wrk; tools/setup installs it)"; exit 1; }
dropin=$build/dropin/.libs
[ -e "$dropin/libuv.so.1" ] || { echo "soak: no $dropin/libuv.so.1: run from a build tree" >&2; exit 2; }
work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX")} || exit 1
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
pids=

cleanup() {
  for p in $pids; do kill -KILL "$p" 2> /dev/null; done
}
trap 'cleanup; [ -n "$keep" ] || rm -rf "$work"' EXIT

# start_http: the example server on the drop-in; sets $pid and $port.
start_http() {
  printf 'hello\n' > "$work/hello"
  LD_LIBRARY_PATH=$dropin ./examples/servers/http_server-libuv --port 0 > "$work/http.out" 2> "$work/http.err" &
  pid=$!
}

# start_node: the release's Node (18 or 20) from the kit, on the drop-in, in its namespace.
start_node() {
  kit=$src/test/clients/node
  [ -x "$kit/fetch" ] || { echo "soak: node needs test/clients/node (a git checkout)" >&2; return 1; }
  PHASELOOP_BUILD=$build "$kit/fetch" > "$work/node-fetch.log" 2>&1 ||
    { echo "soak: fetching Node failed ($work/node-fetch.log)" >&2; return 1; }
  root=$build/clients/node/root
  cat > "$work/server.js" <<'JS'
const http = require('http');
const server = http.createServer((req, res) => res.end('hello\n'));
server.listen(0, '127.0.0.1', () => console.log('listening on 127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)) && server.closeAllConnections());
JS
  NODE_KIT_ROOT=$root NODE_KIT_OUT=$work/node-ns NODE_KIT_LDPATH=$dropin:$root/usr/lib/x86_64-linux-gnu \
  NODE_KIT_EXPECT_UV=$(readlink -f "$dropin/libuv.so.1") \
    unshare --mount --propagation private "$kit/lib/with-node" dropin "$root/usr/bin/node" "$work/server.js" \
    > "$work/node.out" 2> "$work/node.err" &
  pid=$!
}

# wait_listening NAME: the port from NAME.out's first line.
wait_listening() {
  for _ in $(seq 400); do
    port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$work/$1.out")
    [ -n "$port" ] && return 0
    sleep 0.05
  done
  echo "soak: $1 printed no 'listening on' line in 20 s:" >&2
  tail -5 "$work/$1.err" >&2
  return 1
}

# The process that serves: for node, the node under unshare and with-node.
server_pid() {
  if [ -r "/proc/$1/exe" ] && [ "$(basename "$(readlink "/proc/$1/exe")")" = unshare ]; then
    c=$(pgrep -P "$1" | head -1)
    echo "${c:-$1}"
  else
    echo "$1"
  fi
}

declare -A spid sport
for s in $(echo "$servers" | tr ',' ' '); do
  case $s in
    http) start_http ;;
    node) start_node || exit 1 ;;
    *) echo "soak: unknown server $s" >&2; exit 2 ;;
  esac
  pids="$pids $pid"
  wait_listening "$s" || exit 1
  spid[$s]=$(server_pid "$pid")
  sport[$s]=$port
  uvmap=$(awk '$6 ~ /libuv\.so/ {print $6}' "/proc/${spid[$s]}/maps" | sort -u)
  echo "soak: $s (pid ${spid[$s]}, port $port) maps $uvmap"
  case $uvmap in "$(readlink -f "$dropin/libuv.so.1")") ;; *) echo "soak: $s does not run on the drop-in" >&2; exit 1 ;; esac
done

# wrk in 30 s runs until the end, per server; its summaries appended.
end=$(($(date +%s) + minutes * 60))
for s in "${!spid[@]}"; do
  (
    while [ "$(date +%s)" -lt "$end" ]; do
      left=$((end - $(date +%s)))
      [ "$left" -gt 30 ] && left=30
      [ "$left" -ge 1 ] || break
      wrk -t1 -c"$conns" -d"${left}s" "http://127.0.0.1:${sport[$s]}/" >> "$work/$s.wrk" 2>&1
    done
  ) &
  pids="$pids $!"
done

# Samples: seconds RSS_KIB FDS, every 5 s.
start=$(date +%s)
while [ "$(date +%s)" -lt "$end" ]; do
  t=$(($(date +%s) - start))
  for s in "${!spid[@]}"; do
    p=${spid[$s]}
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2> /dev/null)
    fds=$(ls "/proc/$p/fd" 2> /dev/null | wc -l)
    [ -n "$rss" ] || { echo "soak: $s (pid $p) is gone after $t s" >&2; tail -5 "$work/$s.err" >&2; exit 1; }
    echo "$t $rss $fds" >> "$work/$s.samples"
  done
  sleep 5
done
wait_wrk=0
sleep 2

status=0
echo "| server | minutes | requests | errors | RSS first, last (KiB) | RSS growth (KiB) | descriptors first, last | descriptor growth | verdict |"
echo "|---|---:|---:|---:|---|---:|---|---:|---|"
for s in "${!spid[@]}"; do
  reqs=$(awk '/requests in/ {n += $1} END {print n + 0}' "$work/$s.wrk")
  errs=$(awk '/Socket errors:/ {gsub(",", ""); n += $4 + $6 + $8 + $10} /Non-2xx/ {n += $NF} END {print n + 0}' "$work/$s.wrk")
  # growth = slope * span over the samples after the first fifth.
  read -r rfirst rlast rgrow rmean ffirst flast fgrow < <(awk -v skip="$((minutes * 60 / 5))" '
    $1 >= skip {n++; x[n] = $1; r[n] = $2; f[n] = $3}
    END {
      if (n < 3) {print 0, 0, 0, 0, 0, 0, 0; exit}
      for (i = 1; i <= n; i++) {sx += x[i]; sr += r[i]; sf += f[i]}
      mx = sx / n; mr = sr / n; mf = sf / n
      for (i = 1; i <= n; i++) {d = x[i] - mx; sxx += d * d; sxr += d * (r[i] - mr); sxf += d * (f[i] - mf)}
      span = x[n] - x[1]
      printf "%d %d %.0f %.0f %d %d %.2f\n", r[1], r[n], sxr / sxx * span, mr, f[1], f[n], sxf / sxx * span
    }' "$work/$s.samples")
  limit=$((rmean / 20))
  [ "$limit" -ge 2048 ] || limit=2048
  verdict=flat
  awk -v g="$rgrow" -v l="$limit" 'BEGIN {exit !(g >= l)}' && verdict="RSS grows"
  awk -v g="$fgrow" 'BEGIN {exit !(g >= 2)}' && verdict="descriptors grow"
  [ "$errs" -eq 0 ] || verdict="$errs errors"
  [ "$reqs" -gt 0 ] || verdict="no requests"
  p=${spid[$s]}
  kill -TERM "$p" 2> /dev/null
  for _ in $(seq 200); do kill -0 "$p" 2> /dev/null || break; sleep 0.05; done
  if kill -0 "$p" 2> /dev/null; then verdict="$verdict; no exit on SIGTERM"; fi
  echo "| $s | $minutes | $reqs | $errs | $rfirst, $rlast | $rgrow | $ffirst, $flast | $fgrow | $verdict |"
  [ "$verdict" = flat ] || status=1
done
echo "soak: samples and wrk's reports in $work${keep:+ (kept)}"
exit $status
