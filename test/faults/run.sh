#!/bin/sh
# SPDX-License-Identifier: MIT
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
#                     the socket calls, ... -- short reads and writes too:
#                     posix/io/rw/*/reduce); close at the same rate from
#                     test/faults/inject.c, which closes first, as Linux
#                     does (libfiu's close leaves the descriptor open)
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
# Two more workloads run many programs, each program a run, a slice of
# them per seed (seed S takes the items whose place in the list is S
# modulo the slice count, so consecutive seeds cover the whole list):
#   diff     the diff scenarios (test/diff/NNN_*.c, a tenth per seed), built
#            against the system's libuv; a run is clean when it exits 0
#            and prints what it printed without faults on real libuv, an
#            error when it exits non-zero or prints something else (the
#            scenarios print every status their callbacks get)
#   uvtests  libuv's own tests from its test runner (run-tests NAME NAME:
#            the test alone, in the runner's process), the list
#            $uvtests_list below, a fifth per seed; an error when the test
#            fails an assertion or returns non-zero. Needs the runner
#            test/clients/libuv/build made ($CLIENTS_BUILD/libuv/real/,
#            default build/clients/ of the source tree; set UVTESTS_DIR to
#            another kit directory); skipped without it. As root each test
#            runs as $CLIENTS_TEST_USER (libuv's runner refuses root) in
#            its own network namespace (its fixed ports cannot collide).
# Neither is in the default list of workloads.
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

# libfiu's preload libraries, as fiu-run would set them.
fiu_preload=$(fiu-run -x -f "" -n true | sed -n 's/^LD_PRELOAD="\(.*\)" \\$/\1/p')
[ -n "$fiu_preload" ] || { echo "run.sh: could not learn libfiu's preload libraries from fiu-run -n" >&2; exit 2; }

# Data for the HTTP workload.
mkdir -p "$work/root"
head -c 300007 /dev/urandom > "$work/root/big.bin"
printf 'hello\n' > "$work/hello"

# faulted SET SEED CMD...: CMD under the fault set, in the background; sets
# $pid. The library is chosen by $libdir (empty: the system's). $wrap, when
# set, is a program that starts what follows it (not under the faults).
faulted() {
  set_=$1 seed_=$2
  shift 2
  case $set_ in
    io-*|mm-*|write-*)
      case $set_ in io-*) point='posix/io/*' ;; mm-*) point='libc/mm/*' ;; *) point='posix/io/rw/write' ;; esac
      p=$(echo "${set_#*-}" | awk '{printf "%g", $1 / 100}')
      # fiu-run's environment, set here so that inject.so can follow
      # libfiu's preload: in the io sets close fails as Linux fails it,
      # after closing (inject.c), not as libfiu does, leaving it open.
      calls=none
      case $set_ in io-*) calls=close ;; esac
      LD_LIBRARY_PATH=$libdir ${wrap:-} env FIU_ENABLE="enable_random name=$point,probability=$p
enable_random name=posix/io/oc/close,probability=0" FIU_CTRL_FIFO= FIU_PRNG_SEED="$seed_" \
        PHASELOOP_FAULTS="$p" PHASELOOP_FAULTS_CALLS=$calls PHASELOOP_FAULTS_SEED="$seed_" \
        LD_PRELOAD="$fiu_preload $work/inject.so" "$@" &
      ;;
    sys-*)
      p=$(echo "${set_#*-}" | awk '{printf "%g", $1 / 100}')
      LD_LIBRARY_PATH=$libdir ${wrap:-} env PHASELOOP_FAULTS="$p" PHASELOOP_FAULTS_SEED="$seed_" \
        LD_PRELOAD="$work/inject.so" "$@" &
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
        # failed, the workload said it had no memory (the example servers
        # abort then, on either library), or an assertion failed (libuv's
        # own, or glibc's: getaddrinfo's without memory).
        if grep -q -E "^phaseloop: .* failed: |: out of memory\$|: Assertion \`.*' failed\.\$" "$2" 2> /dev/null; then
          echo crash+msg
        else
          echo crash
        fi
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

# slice SEED COUNT ITEM...: the items whose place in the list is SEED
# modulo COUNT.
slice() {
  s_=$(($1 % $2)) c_=$2 i_=0
  shift 2
  for x_; do
    [ $((i_ % c_)) -eq "$s_" ] && echo "$x_"
    i_=$((i_ + 1))
  done
}

# The diff scenarios: built once each (against the system's libuv) and run
# once without faults on it; what that printed is what a clean run prints.
# A scenario that does not build or pass there is left out, and said so.
diff_scenarios=$(cd "$src/test/diff" && ls [0-9][0-9][0-9]_*.c | sed 's/\.c$//')
diff_ready() {  # diff_ready NAME: true when $work/diff/NAME and NAME.expected exist
  [ -f "$work/diff/$1.expected" ] && return 0
  [ -f "$work/diff/$1.unusable" ] && return 1
  mkdir -p "$work/diff/scratch-$1"
  # shellcheck disable=SC2086
  if $cc $flags -I"$src/test/diff" -o "$work/diff/$1" "$src/test/diff/$1.c" $uvlibs > "$work/diff/$1.build" 2>&1 &&
    (cd "$work/diff/scratch-$1" && timeout -k 5 "$limit" "$work/diff/$1") > "$work/diff/$1.out" 2> /dev/null < /dev/null; then
    mv "$work/diff/$1.out" "$work/diff/$1.expected"
    return 0
  fi
  : > "$work/diff/$1.unusable"
  echo "faults: diff/$1 left out: it does not build against the system's libuv or fails there without faults" >&2
  return 1
}

run_diff() {  # run_diff NAME SET SEED -> outcome
  out=$work/run.err
  : > "$work/client.err"
  cd "$work/diff/scratch-$1" || exit 1
  faulted "$2" "$3" "$work/diff/$1" > "$work/diff/run.out" 2> "$out" < /dev/null
  wait_for "$pid" "$limit"
  if [ "$st" = 0 ] && ! cmp -s "$work/diff/run.out" "$work/diff/$1.expected"; then
    echo "printed something else than without faults" > "$work/client.err"
    echo error
    return
  fi
  status_outcome "$st" "$out"
}

# libuv's own tests: a sample of those that need no helper process from
# the runner, across the loop, TCP, UDP, pipes, polls, processes,
# signals, files and the threadpool. Left out: tests that, given an
# error, wait on either library for what it stopped -- a program's wait,
# not the loop's: tcp_close_reset_accepted ignores its writes' statuses and
# its server waits for all 16 bytes; in tcp_alloc_cb_fail, delayed_accept
# and multiple_listen an accept that fails with EMFILE makes the server
# close the waiting connection (as libuv does, to shed load), and the
# client, which never reads, waits for a connection callback that does
# not come.
uvtests_list="timer_again timer_order idle_starvation async loop_stop run_once
  tcp_write_queue_order tcp_try_write tcp_close tcp_read_stop_start
  tcp_write_to_half_open_connection tcp_unexpected_read connection_fail tcp_close_while_connecting ipc_send_recv_tcp_inprocess
  udp_send_and_recv udp_mmsg udp_try_send udp_connect pipe_getsockname pipe_pending_instances
  pipe_connect_multiple poll_duplex poll_unidirectional spawn_stdout spawn_and_kill
  spawn_and_ping spawn_exit_code we_get_signal we_get_signals signal_multiple_loops
  fs_file_async fs_async_dir fs_async_sendfile fs_write_alotof_bufs fs_copyfile
  fs_read_bufs fs_event_watch_file threadpool_queue_work_simple threadpool_cancel_fs
  threadpool_cancel_work random_async metrics_idle_time_thread getaddrinfo_basic
  fs_poll socket_buffer_size"
uvtests_dir=${UVTESTS_DIR:-${CLIENTS_BUILD:-$src/build/clients}/libuv}
uvtests_ready=
uvtests_ready() {
  [ -n "$uvtests_ready" ] && { [ "$uvtests_ready" = yes ]; return; }
  uvtests_ready=no
  if [ ! -x "$uvtests_dir/real/run-tests" ] || [ ! -d "$uvtests_dir/src/test/fixtures" ]; then
    echo "faults: uvtests skipped: no libuv test runner in $uvtests_dir (test/clients/libuv/build real makes it)" >&2
    return 1
  fi
  mkdir -p "$work/uvtests/test"
  ln -sf "$uvtests_dir/src/test/fixtures" "$work/uvtests/test/fixtures"
  uvwrap=
  if [ "$(id -u)" = 0 ]; then
    user=${CLIENTS_TEST_USER:-phaseloop-test}
    if ! id -u "$user" > /dev/null 2>&1; then
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user" ||
        { echo "faults: uvtests skipped: cannot create the user $user" >&2; return 1; }
    fi
    for c in setpriv unshare ip; do
      command -v $c > /dev/null || { echo "faults: uvtests skipped: $c not found (util-linux, iproute2)" >&2; return 1; }
    done
    # The runner refuses root: the test runs as $user, in a network
    # namespace of its own with only loopback up.
    cat > "$work/uvtests/wrap" <<WRAP
#!/bin/sh
exec unshare --net sh -c 'ip link set lo up && exec setpriv --reuid=$(id -u "$user") --regid=$(id -g "$user") --clear-groups "\$@"' sh "\$@"
WRAP
    chmod 755 "$work/uvtests/wrap"
    chmod 755 "$work" "$work/inject.so"
    chown -R "$user" "$work/uvtests"
    uvwrap=$work/uvtests/wrap
  fi
  uvtests_ready=yes
}

run_uvtest() {  # run_uvtest NAME SET SEED -> outcome
  out=$work/run.err
  : > "$work/client.err"
  cd "$work/uvtests" || exit 1
  wrap=$uvwrap
  faulted "$2" "$3" "$uvtests_dir/real/run-tests" "$1" "$1" > /dev/null 2> "$out" < /dev/null
  wait_for "$pid" "$limit"
  # The test's own assertion failing (libuv's ASSERT aborts) is a failure
  # the test saw and reported.
  case $st in
    hang) echo hang ;;
    *) if [ "$st" != 0 ] && grep -q 'Assertion failed in' "$out"; then echo error; else status_outcome "$st" "$out"; fi ;;
  esac
}

results=$work/results
: > "$results"
for set in $(echo "$sets" | tr ',' ' '); do
  for w in $(echo "$workloads" | tr ',' ' '); do
    seed=$first
    while [ "$seed" -le "$last" ]; do
      case $w in
        fs|mix|wake|echo|http) items=- ;;
        diff) items=$(slice "$seed" 10 $diff_scenarios) ;;
        uvtests) items=; uvtests_ready && items=$(slice "$seed" 5 $uvtests_list) ;;
        *) echo "run.sh: unknown workload $w" >&2; exit 2 ;;
      esac
      for item in $items; do
        [ "$w" != diff ] || diff_ready "$item" || continue
        for lib in $libs; do
          case $lib in
            libuv) libdir= ;;
            dropin) libdir=$dropin ;;
            *) echo "run.sh: unknown library $lib" >&2; exit 2 ;;
          esac
          name=$w
          case $w in
            fs|mix|wake) o=$(run_program "$w" "$set" "$seed") ;;
            echo|http) o=$(run_server "$w" "$set" "$seed") ;;
            diff) o=$(run_diff "$item" "$set" "$seed"); name=diff/$item ;;
            uvtests) o=$(run_uvtest "$item" "$set" "$seed"); name=uvtests/$item ;;
          esac
          echo "$lib $set $name $seed $o" >> "$results"
          msg=
          case $o in clean) ;; error) [ ! -s "$work/client.err" ] || msg=" -- $(tail -n 1 "$work/client.err")" ;;
            *) msg=" -- $(grep -v '^inject:' "$work/run.err" "$work/client.err" 2> /dev/null | tail -n 2 | tr '\n' ' ')" ;;
          esac
          echo "faults: $lib $set $name seed $seed: $o$msg"
        done
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
