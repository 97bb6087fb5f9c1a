#!/bin/sh
# The fault suite: workloads run under injected system-call failures, the
# same `-luv` binaries on the system's real libuv and on phaseloop's
# drop-in libuv.so.1, seeded and reproducible; prints one line per run and
# a table of outcomes per library (docs/faults.md).
#
#   test/faults/run.sh [--seeds N | --seeds A-B] [--sets LIST] [--workloads LIST]
#                      [--libs LIST] [--timeout S] [--keep DIR] [--table FILE]
#
# Run from the top of a build tree (as `make check` runs tests; srcdir
# names the source tree). Sets (--sets, comma-separated; default all):
#   io-0.1 io-1 io-5  libfiu's posix/io/* at 0.1 %, 1 %, 5 % (read, write,
#                     close, the socket calls, ... -- short reads and
#                     writes too: posix/io/rw/*/reduce)
#   mm-0.1 mm-1       libfiu's libc/mm/* (malloc, calloc, realloc)
#   write-20          libfiu's posix/io/rw/write at 20 % (with "wake": the
#                     two hangs this suite first found; not in the default)
#   sys-1             test/faults/inject.c at 1 %: accept4, epoll_ctl,
#                     epoll_wait, eventfd, pipe2, socketpair, with errnos
#                     the kernel may return for each
# Workloads (--workloads; default all): echo (examples/servers/echo_server
# with clients that check every byte), http (http_server, GETs and POSTs
# checked byte for byte), fs (test/faults/fs_work.c), mix
# (test/faults/mix_work.c: TCP ping-pong, uv_queue_work, uv_async_send
# from a thread, a timer), wake (test/faults/wake_work.c: signal handles
# started and stopped on three threads while signals come, and pool
# completions one after another -- the two hangs this suite first found).
# Libraries (--libs; default "libuv dropin"): libuv is the system's
# libuv.so.1, dropin the build's dropin/.libs/libuv.so.1.
#
# Each run ends as one of: clean; error (a failure reported: an error
# message and exit status, or connections refused or reset); crash (killed
# by a signal; "crash+msg" when the cause was printed first: phaseloop
# named the call that failed, or the workload ran out of memory); hang (no
# progress within the time limit, or no exit on SIGTERM); corrupt (bytes or
# results wrong, or work lost without an error). Exits 1 when the drop-in
# hung, lost or corrupted data, or crashed without naming the call.
set -u

seeds=1-10
sets="io-0.1,io-1,io-5,mm-0.1,mm-1,sys-1"
workloads="echo,http,fs,mix,wake"
libs="libuv dropin"
limit=20
keep=
table=
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) seeds=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --libs) libs=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    *) echo "run.sh: unknown argument $1 (see the comment at the top of test/faults/run.sh)" >&2; exit 2 ;;
  esac
done
case $seeds in
  *-*) first=${seeds%-*}; last=${seeds#*-} ;;
  *) first=1; last=$seeds ;;
esac
case "$first$last$limit" in *[!0-9]*|'') echo "run.sh: --seeds and --timeout take numbers" >&2; exit 2 ;; esac

src=${srcdir:-.}
command -v fiu-run > /dev/null || { echo "run.sh: fiu-run not found (Debian's fiu-utils; tools/setup installs it)"; exit 77; }
cc=${CC:-cc}
work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/faults.XXXXXX")} || exit 1
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
dropin=$(cd dropin/.libs 2>/dev/null && pwd) || { echo "run.sh: no dropin/.libs here: run from a build tree" >&2; exit 2; }
loadclient=./test/servers/loadclient
servers=./examples/servers

# The workloads' own programs and the preload, built against the system's
# uv.h and libuv.so.1 (the same binaries then run on the drop-in).
flags="-O1 -g -Wall ${SAN_FLAGS:-} $(pkg-config --cflags libuv 2> /dev/null)"
uvlibs="$(pkg-config --libs libuv 2> /dev/null || echo -luv) -lpthread ${SAN_FLAGS:-}"
# shellcheck disable=SC2086
$cc $flags -o "$work/fs_work" "$src/test/faults/fs_work.c" $uvlibs &&
  $cc $flags -o "$work/mix_work" "$src/test/faults/mix_work.c" $uvlibs &&
  $cc $flags -o "$work/wake_work" "$src/test/faults/wake_work.c" $uvlibs &&
  $cc -O2 -Wall -shared -fPIC -o "$work/inject.so" "$src/test/faults/inject.c" -ldl ||
  { echo "run.sh: building the workloads failed"; exit 1; }

# Data for the HTTP workload.
mkdir -p "$work/root"
head -c 300007 /dev/urandom > "$work/root/big.bin"
printf 'hello\n' > "$work/hello"

# faulted SET SEED CMD...: CMD under the fault set, in the background; sets
# $pid. The library is chosen by $libdir (empty: the system's).
faulted() {
  set_=$1 seed_=$2
  shift 2
  case $set_ in
    io-*|mm-*|write-*)
      case $set_ in io-*) point='posix/io/*' ;; mm-*) point='libc/mm/*' ;; *) point='posix/io/rw/write' ;; esac
      p=$(echo "${set_#*-}" | awk '{printf "%g", $1 / 100}')
      FIU_PRNG_SEED=$seed_ LD_LIBRARY_PATH=$libdir \
        fiu-run -x -f "" -c "enable_random name=$point,probability=$p" "$@" &
      ;;
    sys-*)
      p=$(echo "${set_#*-}" | awk '{printf "%g", $1 / 100}')
      PHASELOOP_FAULTS=$p PHASELOOP_FAULTS_SEED=$seed_ LD_PRELOAD=$work/inject.so LD_LIBRARY_PATH=$libdir "$@" &
      ;;
    *) echo "run.sh: unknown fault set $set_" >&2; exit 2 ;;
  esac
  pid=$!
}

# wait_for PID SECONDS: waits; sets $st to the exit status, or to "hang"
# (the process is then killed).
wait_for() {
  n=0
  while kill -0 "$1" 2> /dev/null; do
    n=$((n + 1))
    if [ $n -gt $(($2 * 20)) ]; then
      kill -KILL "$1" 2> /dev/null
      wait "$1" 2> /dev/null
      st=hang
      return
    fi
    sleep 0.05
  done
  wait "$1"
  st=$?
}

# status_outcome STATUS ERRFILE: the outcome of a program's exit status.
status_outcome() {
  case $1 in
    hang) echo hang ;;
    0) echo clean ;;
    2) echo corrupt ;;
    *)
      if [ "$1" -gt 128 ]; then
        # A crash whose cause was printed: the library named the call that
        # failed, or the workload said it had no memory (the example
        # servers abort then, on either library).
        if grep -q -E '^phaseloop: .* failed: |: out of memory$' "$2" 2> /dev/null; then echo crash+msg; else echo crash; fi
      else
        echo error
      fi
      ;;
  esac
}

# A program's own workload: fs, mix or wake.
run_program() {  # run_program NAME SET SEED -> outcome
  out=$work/run.err
  : > "$work/client.err"
  mkdir -p "$work/scratch"
  if [ "$1" = fs ]; then
    faulted "$2" "$3" "$work/fs_work" "$work/scratch" > /dev/null 2> "$out"
  else
    faulted "$2" "$3" "$work/${1}_work" > /dev/null 2> "$out"
  fi
  wait_for "$pid" "$limit"
  status_outcome "$st" "$out"
}

# A server's workload: the server runs under the faults, the client
# (loadclient: plain sockets, no faults) checks every byte, then SIGTERM.
run_server() {  # run_server NAME SET SEED -> outcome
  out=$work/run.err
  : > "$work/server.out"
  if [ "$1" = echo ]; then
    faulted "$2" "$3" "$servers/echo_server-libuv" --port 0 > "$work/server.out" 2> "$out"
  else
    faulted "$2" "$3" "$servers/http_server-libuv" --port 0 --root "$work/root" > "$work/server.out" 2> "$out"
  fi
  spid=$pid
  n=0
  until grep -q '^listening on ' "$work/server.out"; do
    if ! kill -0 "$spid" 2> /dev/null; then
      wait "$spid"
      status_outcome $? "$out"
      return
    fi
    n=$((n + 1))
    if [ $n -gt $((limit * 20)) ]; then
      kill -KILL "$spid" 2> /dev/null
      wait "$spid" 2> /dev/null
      echo hang
      return
    fi
    sleep 0.05
  done
  port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$work/server.out")
  if [ "$1" = echo ]; then
    timeout $((limit + 5)) "$loadclient" echo --conns 20 --bytes 65536 --timeout "$limit" --port "$port" \
      > /dev/null 2> "$work/client.err"
  else
    timeout $((limit + 5)) "$loadclient" http --conns 8 --requests 12 --timeout "$limit" --port "$port" \
      --get "/file/big.bin=$work/root/big.bin" --get "/=$work/hello" --post 50000 \
      > /dev/null 2> "$work/client.err"
  fi
  cst=$?
  client=clean
  if [ $cst -ne 0 ]; then
    if grep -q -E 'wrong byte|never sent|wrong body|bytes after the last' "$work/client.err"; then
      client=corrupt
    elif [ $cst -eq 124 ] || grep -q 'timed out' "$work/client.err"; then
      client=hang
    else
      client=error
    fi
  fi
  if kill -0 "$spid" 2> /dev/null; then
    kill -TERM "$spid" 2> /dev/null
    wait_for "$spid" "$limit"
  else
    wait "$spid"
    st=$?
  fi
  server=$(status_outcome "$st" "$out")
  # A server that ended with status 2 (its own usage error) is an error.
  [ "$server" = corrupt ] && server=error
  # The worst of the two.
  for o in corrupt hang crash crash+msg error clean; do
    if [ "$client" = $o ] || [ "$server" = $o ]; then
      echo $o
      return
    fi
  done
}

results=$work/results
: > "$results"
for set in $(echo "$sets" | tr ',' ' '); do
  for w in $(echo "$workloads" | tr ',' ' '); do
    seed=$first
    while [ "$seed" -le "$last" ]; do
      for lib in $libs; do
        case $lib in
          libuv) libdir= ;;
          dropin) libdir=$dropin ;;
          *) echo "run.sh: unknown library $lib" >&2; exit 2 ;;
        esac
        case $w in
          fs|mix|wake) o=$(run_program "$w" "$set" "$seed") ;;
          echo|http) o=$(run_server "$w" "$set" "$seed") ;;
          *) echo "run.sh: unknown workload $w" >&2; exit 2 ;;
        esac
        echo "$lib $set $w $seed $o" >> "$results"
        msg=
        case $o in clean|error) ;; *) msg=" -- $(grep -v '^inject:' "$work/run.err" "$work/client.err" 2> /dev/null | tail -n 2 | tr '\n' ' ')" ;; esac
        echo "faults: $lib $set $w seed $seed: $o$msg"
      done
      seed=$((seed + 1))
    done
  done
done

# The table: one row per library.
{
  echo "| | runs | clean | error reported | crash, cause printed | crash | hang or stall | data corrupted or lost |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for lib in $libs; do
    awk -v lib="$lib" '$1 == lib {n++; c[$5]++}
      END {printf "| %s | %d | %d | %d | %d | %d | %d | %d |\n", lib, n, c["clean"], c["error"], c["crash+msg"],
           c["crash"], c["hang"], c["corrupt"]}' "$results"
  done
} > "$work/table"
cat "$work/table"
[ -z "$table" ] || cp "$work/table" "$table"

bad=$(awk '$1 == "dropin" && ($5 == "hang" || $5 == "corrupt" || $5 == "crash")' "$results" | wc -l)
total=$(wc -l < "$results")
echo "faults: $total runs; drop-in runs that hung, lost data or crashed without naming the call: $bad"
[ "$bad" -eq 0 ]
