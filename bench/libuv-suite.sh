#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libuv's own benchmark programs (test/benchmark-*.c of libuv 1.44.2, from
# Debian 12's libuv1 source package, fetched and checked by
# test/clients/libuv/fetch at bench time, never kept in this repository),
# built and run four ways, interleaved round by round:
#
#   1.44    against Debian's libuv 1.44.2 (libuv1-dev: /usr/include, -luv)
#   1.53    against libuv 1.53.0 (Debian sid's libuv1-dev, the newest
#           release; tools/install-libuv-refs puts it in .oracle/libuv-1.53)
#   dropin  the 1.44 binary on phaseloop's drop-in libuv.so.1
#           (LD_LIBRARY_PATH=BUILD/dropin/.libs; checked with ldd)
#   compat  built against phaseloop's uv.h (include/phaseloop/uv) and
#           linked with BUILD/.libs/libphaseloop-uv.so
#
# Every benchmark's output line is turned into one rate (higher is better;
# e.g. "loop_count: 2000000 ticks in 0.11s (18181818/s)" gives 18181818);
# the table shows the median of the rounds for each and the ratios
# phaseloop / libuv (> 1: phaseloop ahead).
#
# With --callgrind, each benchmark instead runs once per configuration
# under callgrind (valgrind --trace-children=yes: the runner forks the
# benchmark and its helpers) and the table has the instructions executed
# by all those processes, and the ratios libuv / phaseloop (> 1: phaseloop
# executes fewer); for the benchmarks that run for a fixed time, the
# instructions per operation they made. Not tcp_multi_accept2 (250,000
# connections take most of an hour under valgrind).
#
# With --perf, every run goes under `perf stat` (the runner and all its
# processes: system calls, context switches, CPU time), and after the
# rounds each configuration runs once more under `perf record -a` (the
# whole machine's CPU time, sampled): a second table gives, per operation,
# the system calls, context switches and CPU microseconds each library
# spent (medians of the rounds), and where the machine's time went --
# the kernel, libuv or phaseloop, the rest of user space, idle; a third
# lists every run, and the correlation between rate and context switches
# over all of them says whether a benchmark measures the scheduler more
# than the library. For the benchmarks whose time is the kernel's (the
# network ones), this says where a difference comes from when the
# instructions (--callgrind) do not. Needs perf (Debian: linux-perf) and
# root, or kernel.perf_event_paranoid <= -1.
#
# With --against OTHER (another phaseloop build tree, e.g. a worktree of
# an earlier commit), two configurations instead of four: the compat
# runner on OTHER's libphaseloop-uv.so (LD_LIBRARY_PATH) and on BUILD's,
# the same binary, interleaved, and the ratio BUILD / OTHER -- what a
# change to the library did, from one command. Both builds must share the
# C API (uv.h) the runner was built against.
#
# usage: bench/libuv-suite.sh BUILD [-r N] [--markdown] [--callgrind | --perf] [--against OTHER] [--list] [--list-countable] [--list-network] [NAME...]
#   BUILD       a phaseloop build tree (configured with --with-reference-libuv
#               or not; the drop-in and libphaseloop.so must be built)
#   -r N        rounds (default 3)
#   --markdown  a markdown table (docs/benchmarks.md)
#   --list      the default benchmarks, then exit
#   --list-countable  the benchmarks --callgrind can count, then exit
#   --list-network    the benchmarks whose time is the kernel's network
#               path (sockets and pipes between the runner's processes:
#               what --perf explains), then exit
#   NAME...     benchmarks to run (default: the list below; any name from
#               libuv's test/benchmark-list.h works if its output parses)
# Environment: CC (default cc), BENCH_TIMEOUT (seconds per run, default
# 120), LIBUV_153 (default .oracle/libuv-1.53; absent: that column is left
# out with a note).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"
usage="usage: bench/libuv-suite.sh BUILD [-r N] [--markdown] [--callgrind | --perf] [--against OTHER] [--list] [--list-countable] [--list-network] [NAME...]"
# The benchmarks whose work is fixed (a count, not a duration).
# Not async_pummel_*: its thread sends without pause until the loop has
# run the callbacks, and under valgrind, which runs one thread at a time,
# the loop waits for a switch of threads each time (a single run of
# async_pummel_1 on libuv 1.44 had not ended after five minutes).
callgrind_names="loop_count million_timers async1 async2 async4 async8 queue_work thread_create
  getaddrinfo fs_stat spawn tcp_write_batch"
# The benchmarks that run for a fixed time: counted per operation. Not
# million_async: its threads send as fast as they can, and under
# valgrind its count per event measures how long each sender ran before
# the loop got a turn.
callgrind_timed="loop_count_timed ping_pongs ping_udp1 tcp_pump1_client pipe_pump1_client
  tcp4_pound_100 pipe_pound_100 udp_pummel_1v1"
# The benchmarks that move bytes or connections through the kernel.
network_names="ping_pongs ping_udp1 tcp_write_batch tcp_pump1_client pipe_pump1_client
  tcp4_pound_100 pipe_pound_100 tcp_multi_accept2 udp_pummel_1v1"
callgrind=0
perf=0
default_names="loop_count loop_count_timed million_timers async1 async2 async4 async8
  async_pummel_1 async_pummel_2 async_pummel_4 async_pummel_8 queue_work million_async
  thread_create getaddrinfo fs_stat spawn ping_pongs ping_udp1 tcp_write_batch
  tcp_pump1_client pipe_pump1_client tcp4_pound_100 pipe_pound_100 tcp_multi_accept2
  udp_pummel_1v1"

rounds=3
markdown=0
build=""
against=""
names=""
while [ $# -gt 0 ]; do
  case "$1" in
    -r) bench_need -r $#; rounds=$2; shift 2 ;;
    --markdown) markdown=1; shift ;;
    --callgrind) callgrind=1; shift ;;
    --perf) perf=1; shift ;;
    --against) bench_need --against $#; against=$2; shift 2 ;;
    --list) echo $default_names; exit 0 ;;
    --list-countable) echo $callgrind_names $callgrind_timed; exit 0 ;;
    --list-network) echo $network_names; exit 0 ;;
    -h | --help) echo "$usage"; exit 0 ;;
    -*) echo "libuv-suite.sh: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
    *) if [ -z "$build" ]; then build=$1; else names="$names $1"; fi; shift ;;
  esac
done
[ -n "$build" ] || { echo "$usage" >&2; exit 2; }
[ "$callgrind" = 0 ] || [ "$perf" = 0 ] || { echo "libuv-suite.sh: --callgrind and --perf do not go together" >&2; exit 2; }
if [ "$perf" = 1 ] && ! command -v perf > /dev/null; then
  echo "libuv-suite.sh: --perf needs perf (Debian: linux-perf)" >&2
  exit 2
fi
bench_positive -r "$rounds"
build=$(cd "$build" && pwd)
if [ -n "$against" ]; then
  [ -d "$against" ] || { echo "libuv-suite.sh: --against $against: no such directory" >&2; exit 2; }
  against=$(cd "$against" && pwd)
  [ -f "$against/.libs/libphaseloop-uv.so" ] ||
    { echo "libuv-suite.sh: no $against/.libs/libphaseloop-uv.so: build that tree first (make -C $against)" >&2; exit 2; }
  [ "$against" != "$build" ] || { echo "libuv-suite.sh: --against names BUILD itself" >&2; exit 2; }
fi
names=${names:-$default_names}
timeout_s=${BENCH_TIMEOUT:-120}
cc=${CC:-cc}

say() { echo "libuv-suite: $*" >&2; }
die() { say "$*"; exit 1; }

[ -f "$build/.libs/libphaseloop.so" ] || die "no $build/.libs/libphaseloop.so: build phaseloop first (make -C $build)"
[ -f "$build/dropin/.libs/libuv.so.1" ] || die "no $build/dropin/.libs/libuv.so.1: build the drop-in first (make -C $build)"

# --- the sources ---------------------------------------------------------------
src=$(PHASELOOP_BUILD=$build "$top/test/clients/libuv/fetch") || die "could not fetch libuv 1.44.2's source"
sources=$(awk '
  /add_executable\(/ { inexe = 0 }
  /uv_run_benchmarks_a$/ { inexe = 1; next }
  inexe {
    for (i = 1; i <= NF; i++) if ($i ~ /^test\/.*\.c\)?$/) { t = $i; sub(/\)$/, "", t); print t }
    if ($0 ~ /\)/) inexe = 0
  }' "$src/CMakeLists.txt")
case $sources in
  *test/benchmark-async.c*test/run-benchmarks.c*) ;;
  *) die "could not read the benchmark runner's sources from $src/CMakeLists.txt" ;;
esac
sources="$sources test/runner-unix.c"

# A copy of test/ to build from, with one change: the thread ping-pong
# benchmarks (async1-8, async_pummel_1-8) make ASYNC_PINGS round trips
# (default 100,000) instead of 1,000,000. A round trip (two wake-ups of
# another thread) takes about 50 us on this project's virtual machines,
# and 1,000,000 of them outlast the runner's 60 s limit on every library.
async_pings=${ASYNC_PINGS:-100000}
case $async_pings in '' | *[!0-9]*) die "ASYNC_PINGS must be a number" ;; esac
out=$build/bench/libuv-suite
bsrc=$out/src
rm -rf "$bsrc"
mkdir -p "$bsrc"
cp -r "$src/test" "$bsrc/test"
for f in benchmark-async.c benchmark-async-pummel.c; do
  grep -q '^#define NUM_PINGS  *(1000 \* 1000)$' "$bsrc/test/$f" ||
    die "$f has no '#define NUM_PINGS (1000 * 1000)' to scale"
  sed -i "s/^#define NUM_PINGS  *(1000 \* 1000)$/#define NUM_PINGS ($async_pings)/" "$bsrc/test/$f"
done

ref153=${LIBUV_153:-$top/.oracle/libuv-1.53}
if [ ! -f "$ref153/cflags" ] && [ -z "${LIBUV_153:-}" ] && [ -z "$against" ]; then
  "$top/tools/install-libuv-refs" >&2 || say "tools/install-libuv-refs failed: no libuv 1.53 column"
fi
have153=0
[ -f "$ref153/cflags" ] && [ -z "$against" ] && have153=1

# --- building ------------------------------------------------------------------
# libuv's own flags for its benchmark runner on Linux (CMakeLists.txt's
# uv_defines and C standard), optimized as a release build.
defs="-D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE -D_GNU_SOURCE -D_POSIX_C_SOURCE=200112"
cflags="-std=gnu90 -O2 -g -fno-strict-aliasing -pthread -w"

# compile CFG "CFLAGS" "LIBS": one binary, $out/CFG/run-benchmarks.
compile() {
  local cfg=$1 inc=$2 libs=$3 objs="" s o
  mkdir -p "$out/$cfg"
  for s in $sources; do
    o=$out/$cfg/$(basename "$s" .c).o
    objs="$objs $o"
    # shellcheck disable=SC2086  # flags split on purpose
    $cc $defs $cflags $inc -I"$bsrc/test" -c "$bsrc/$s" -o "$o" 2>> "$out/$cfg/build.log" ||
      die "compiling $s for $cfg failed (log: $out/$cfg/build.log)"
  done
  # shellcheck disable=SC2086
  $cc -o "$out/$cfg/run-benchmarks" $objs $libs -pthread -ldl -lrt -lm 2>> "$out/$cfg/build.log" ||
    die "linking $cfg failed (log: $out/$cfg/build.log)"
}
say "building libuv 1.44.2's benchmark runner ($(echo "$sources" | wc -w) sources) for each configuration in $out"
compile uv144 "" "-luv"
compile compat "-I$top/include/phaseloop/uv" "-L$build/.libs -lphaseloop-uv -Wl,-rpath,$build/.libs"
[ "$have153" = 1 ] && compile uv153 "$(cat "$ref153/cflags")" "$(cat "$ref153/libs")"

# Each configuration must run on the library it names.
check_lib() {  # CFG BINARY EXPECTED-DIR [env]
  local got
  got=$(env ${4:-} ldd "$2" | awk '$1 ~ /^lib(uv|phaseloop|phaseloop-uv)\.so/ { print $3 }')
  [ -n "$got" ] && [ "$(dirname "$(readlink -f "$got")")" = "$(readlink -f "$3")" ] ||
    die "$1: $2 maps '$got', not a library in $3"
}
check_lib 1.44 "$out/uv144/run-benchmarks" "$(dirname "$(readlink -f "$(ldconfig -p | awk '/libuv\.so\.1 .*x86-64/ { print $NF; exit }')")")"
check_lib dropin "$out/uv144/run-benchmarks" "$build/dropin/.libs" "LD_LIBRARY_PATH=$build/dropin/.libs"
check_lib compat "$out/compat/run-benchmarks" "$build/.libs"
[ -z "$against" ] || check_lib against "$out/compat/run-benchmarks" "$against/.libs" "LD_LIBRARY_PATH=$against/.libs"
if [ "$have153" = 1 ]; then
  v=$("$ref153/smoke" 2> /dev/null || true)
  [ "$v" = 1.53.0 ] || die "$ref153 does not run as libuv 1.53.0 (its smoke program printed '$v')"
fi

# --- running -------------------------------------------------------------------
# extract NAME < OUTPUT: "LABEL VALUE UNIT" lines, one per measurement the
# benchmark prints (fs_stat prints several).
nums=$(grep -h '^#define NUM_TIMERS' "$src/test/benchmark-million-timers.c" | tr -dc '0-9*')
num_timers=$((nums))
extract() {
  awk -v name="$1" -v ntimers="$num_timers" '
    function num(s) { gsub(/,/, "", s); return s + 0 }
    # the number before a suffix, e.g. rate("(", "/s)")
    function after(pre, post,   s, i) {
      s = $0; i = index(s, post); if (i == 0) return ""
      s = substr(s, 1, i - 1); i = match(s, /[0-9.,]+$/); if (i == 0) return ""
      return num(substr(s, RSTART))
    }
    # the runner prefixes the output of a benchmark with "# "
    { sub(/^# /, "") }
    function out(label, v, unit) { if (v != "") { printf "%s %s %s\n", label, v, unit; found = 1 } }
    # million_timers: its timers fall due over 10 s, so its wall time is
    # the same on any library; what it took to start them, and the CPU
    # time of the whole run, tell them apart.
    name == "million_timers" && / seconds init$/ && $1 > 0 { out(name "_start", sprintf("%.0f", ntimers / $1), "timers/s") }
    name == "million_timers" && /^cpu_seconds / && $2 + $3 > 0 { out(name "_cpu", sprintf("%.0f", ntimers / ($2 + $3)), "timers/cpu-s") }
    name == "fs_stat" && /stats \(sync\)/ { out("fs_stat_sync", after("(", "/s)"), "stats/s") }
    name == "fs_stat" && /stats \(1 concurrent\)/ { out("fs_stat_1", after("(", "/s)"), "stats/s") }
    name == "fs_stat" && /stats \(16 concurrent\)/ { out("fs_stat_16", after("(", "/s)"), "stats/s") }
    name ~ /^loop_count/ && /ticks\/s\)/ { out(name, after("(", " ticks/s)"), "ticks/s") }
    name == "loop_count" && /ticks in/ { out(name, after("(", "/s)"), "ticks/s") }
    name ~ /^async[0-9]/ && /\/sec\)/ { out(name, after("(", "/sec)"), "pings/s") }
    name ~ /^async_pummel/ && /\/sec\)/ { out(name, after("(", "/sec)"), "callbacks/s") }
    name == "queue_work" && /async jobs in/ { out(name, after("(", "/s)"), "jobs/s") }
    name == "million_async" && /async events in/ { out(name, after("(", "/s,"), "events/s") }
    name == "thread_create" && /threads created/ { out(name, after("(", "/s)"), "threads/s") }
    name == "getaddrinfo" && / req\/s$/ { out(name, after("", " req/s"), "req/s") }
    name == "spawn" && / spawns\/s$/ { out(name, after("", " spawns/s"), "spawns/s") }
    name ~ /^ping_/ && / roundtrips\/s$/ { out(name, after("", " roundtrips/s"), "trips/s") }
    name == "tcp_write_batch" && / write requests in / { out(name, sprintf("%.0f", $1 / num($5)), "writes/s") }
    name ~ /_pump.*_client$/ && $1 == name ":" { out(name, after("", " gbit/s"), "Gbit/s") }
    name ~ /_pound_/ && / accepts\/s / { out(name, after("", " accepts/s"), "conns/s") }
    name ~ /_multi_accept/ && /^accept[0-9]+:/ { out(name, after("", " accepts/sec"), "accepts/s") }
    name ~ /udp_.*pummel/ && /\/s received/ { out(name, after("", "/s received"), "datagrams/s") }
    END { if (!found) exit 1 }'
}

configs="uv144 dropin compat"
[ "$have153" = 1 ] && configs="uv144 uv153 dropin compat"
[ -z "$against" ] || configs="against compat"
first=${configs%% *}
res=$out/results
rm -rf "$res"
mkdir -p "$res"
failed=0
# config CFG: sets bin and envs, the runner of CFG and its environment.
config() {
  envs=""
  case $1 in
    uv144) bin=$out/uv144/run-benchmarks ;;
    uv153) bin=$out/uv153/run-benchmarks ;;
    compat) bin=$out/compat/run-benchmarks ;;
    dropin) bin=$out/uv144/run-benchmarks; envs="LD_LIBRARY_PATH=$build/dropin/.libs" ;;
    against) bin=$out/compat/run-benchmarks; envs="LD_LIBRARY_PATH=$against/.libs" ;;
  esac
}
# run CFG NAME: one run; appends "LABEL VALUE UNIT" to $res/CFG.
run() {
  local cfg=$1 name=$2 bin envs log
  config "$cfg"
  log=$res/$cfg.$name.log
  # The runner finds its helpers by re-running itself from its directory.
  # The runner's CPU time and its children's (the benchmark, its helpers)
  # goes at the end of the log as "cpu_seconds S": million_timers waits
  # for its timers' due times, so only its CPU time says how fast it ran.
  local stat=""
  [ "$perf" = 1 ] && stat="perf stat -x , -o $log.perf -e raw_syscalls:sys_enter,context-switches,task-clock --"
  # shellcheck disable=SC2086  # the perf command split on purpose
  if ! (cd "$(dirname "$bin")" && TIMEFORMAT='cpu_seconds %U %S' &&
    time $stat env $envs timeout "$timeout_s" "$bin" "$name") > "$log" 2>&1; then
    say "$name on $cfg failed (log: $log)"
    tail -5 "$log" >&2
    failed=1
    return 0
  fi
  local got rate
  got=$(extract "$name" < "$log") || { say "$name on $cfg: no result in its output (log: $log)"; failed=1; return 0; }
  echo "$got" >> "$res/$cfg"
  read -r _ rate _ <<< "$got"  # the first measurement's value
  [ "$perf" = 1 ] && perf_row "$cfg" "$name" "$log" "$rate"
  return 0
}
# perf_row CFG NAME LOG RATE: appends "NAME RATE OPS UNIT SYSCALLS SWITCHES
# CPU_MS" to $res/CFG.perf, from the run's output and its perf stat (CSV:
# value,unit,event,...). OPS is 0 (UNIT "run") when the output does not
# say how many operations were made.
perf_row() {
  local ops
  ops=$(operations "$2" < "$3")
  awk -F, -v name="$2" -v rate="$4" -v ops="${ops:-0 run}" '
    $3 ~ /raw_syscalls:sys_enter/ { sc = $1 }
    $3 ~ /context-switches/ { cs = $1 }
    $3 ~ /task-clock/ { ms = $1 }
    END {
      if (sc == "" || cs == "" || ms == "") exit 1
      print name, rate, ops, sc, cs, ms
    }' "$3.perf" >> "$res/$1.perf" || { say "$2 on $1: perf stat counted nothing (log: $3.perf)"; failed=1; }
}

# operations NAME < LOG: how many operations a benchmark made (its
# printed count, or its rate times its window: 5 s for the ping-pongs and
# pumps, 10 s for the pounds), and their unit; nothing for a benchmark
# whose output does not say.
operations() {
  awk -v name="$1" '
    function num(s) { gsub(/[^0-9.]/, "", s); return s + 0 }
    { sub(/^# /, "") }
    name == "loop_count_timed" && / ticks \(/ { print num($2), "tick"; exit }
    name ~ /^udp_pummel/ && / received, / { print num($(NF - 6)), "datagram"; exit }
    name ~ /^ping_/ && / roundtrips\/s$/ { print num($(NF - 1)) * 5, "trip"; exit }
    name ~ /_pump.*_client$/ && $1 == name ":" { print num($2) * 5, "Gbit"; exit }
    name ~ /_pound_/ && / accepts\/s / { print num($2) * 10, "conn"; exit }
    name == "tcp_write_batch" && / write requests in / { print num($1), "write"; exit }'
}

# --callgrind: instructions instead of rates.
if [ "$callgrind" = 1 ]; then
  command -v valgrind > /dev/null || die "--callgrind needs valgrind (Debian: valgrind)"
  [ "$names" = "$default_names" ] && names="$callgrind_names $callgrind_timed"
  for name in $names; do
    case " $(echo $callgrind_names $callgrind_timed) " in
      *" $name "*) ;;
      *) die "$name cannot be counted (it would outlast the runner's limit under valgrind, or its output gives no count); these can: $(echo $callgrind_names $callgrind_timed)" ;;
    esac
  done
  # instructions CFG NAME: the Ir of every process of one run, summed
  # (spawn: the runner and the benchmark, not its 1,000 children, which
  # would take valgrind's start-up each). The runner's own limits are
  # stretched 30 times (UV_TEST_TIMEOUT_MULTIPLIER, read by libuv's runner).
  instructions() {
    local cfg=$1 name=$2 bin envs dir=$res/cg.$1.$2 skip=""
    config "$cfg"
    mkdir -p "$dir"
    [ "$name" = spawn ] && skip=--trace-children-skip-by-arg=spawn_helper
    if ! (cd "$(dirname "$bin")" && env $envs UV_TEST_TIMEOUT_MULTIPLIER=30 timeout $((timeout_s * 30)) \
      valgrind --tool=callgrind --trace-children=yes $skip --callgrind-out-file="$dir/out.%p" \
      "$bin" "$name") > "$res/$cfg.$name.cg.log" 2>&1; then
      say "$name on $cfg failed under callgrind (log: $res/$cfg.$name.cg.log)"
      return 0
    fi
    awk '/^(summary|totals):/ && !seen[FILENAME]++ { s += $2 } END { printf "%.0f\n", s }' "$dir"/out.*
  }
  if [ -n "$against" ]; then
    cg_ratios="against/compat"
  else
    cg_ratios="1.44/drop-in | 1.53/drop-in | 1.44/compat | 1.53/compat"
  fi
  if [ "$markdown" = 1 ]; then
    echo "| benchmark | Ir per | $(echo $configs | sed 's/ / | /g') | $cg_ratios |"
    echo "|---|---|$(echo $configs ${cg_ratios//|/} | sed 's/[^ ][^ ]*/---:/g; s/ /|/g')|"
  fi
  for name in $names; do
    say "callgrind: $name"
    declare -A ir=()
    per=run
    for cfg in $configs; do
      ir[$cfg]=$(instructions "$cfg" "$name")
      case " $(echo $callgrind_timed) " in
        *" $name "*)
          # Instructions per operation: the counts of a fixed-time run
          # differ between libraries.
          # shellcheck disable=SC2046  # count and unit, split on purpose
          set -- $(operations "$name" < "$res/$cfg.$name.cg.log")
          per=${2:-op}
          ir[$cfg]=$(awk -v i="${ir[$cfg]}" -v n="${1:-0}" 'BEGIN { if (i != "" && n > 0) printf "%.0f", i / n }') ;;
      esac
    done
    row="$name | $per"
    for cfg in $configs; do row="$row | ${ir[$cfg]:-}"; done
    if [ -n "$against" ]; then
      row="$row | $(ratio "${ir[against]:-}" "${ir[compat]:-}")"
    else
      row="$row | $(ratio "${ir[uv144]:-}" "${ir[dropin]:-}") | $(ratio "${ir[uv153]:-}" "${ir[dropin]:-}")"
      row="$row | $(ratio "${ir[uv144]:-}" "${ir[compat]:-}") | $(ratio "${ir[uv153]:-}" "${ir[compat]:-}")"
    fi
    if [ "$markdown" = 1 ]; then echo "| $row |"; else echo "$row" | tr -s ' |' ' '; fi
    unset ir
  done
  echo
  if [ -n "$against" ]; then
    echo "(callgrind Ir, every process of one run summed -- the runner, the benchmark, its helpers; Ir per operation for the benchmarks that run for a fixed time; against: the compat runner on $against's library, compat: on $build's; ratio against / compat, > 1: $build's library executes fewer)"
  else
    echo "(callgrind Ir, every process of one run summed -- the runner, the benchmark, its helpers; for the benchmarks that run for a fixed time, Ir per operation they made under callgrind; ratios libuv / phaseloop, > 1: phaseloop executes fewer)"
  fi
  exit 0
fi

for ((r = 1; r <= rounds; r++)); do
  for name in $names; do
    say "round $r/$rounds: $name"
    for cfg in $configs; do run "$cfg" "$name"; done
  done
done

# --- the table -------------------------------------------------------------------
median() {  # CFG LABEL
  [ -f "$res/$1" ] || return 0
  awk -v l="$2" '$1 == l { print $2 }' "$res/$1" | median_of
}
labels=$(cat "$res/$first" 2> /dev/null | awk '!seen[$1]++ { print $1 " " $3 }')
# ab_table: the A/B table of --against (the same runner on two builds' libraries).
ab_table() {
  if [ "$markdown" = 1 ]; then
    echo "| benchmark | unit | against | compat | compat/against |"
    echo "|---|---|---:|---:|---:|"
  else
    printf '%-20s %-12s %12s %12s %8s\n' benchmark unit against compat c/a
  fi
  echo "$labels" | while read -r label unit; do
    [ -n "$label" ] || continue
    o=$(median against "$label"); c=$(median compat "$label")
    if [ "$markdown" = 1 ]; then
      echo "| $label | $unit | $o | $c | $(ratio "$c" "$o") |"
    else
      printf '%-20s %-12s %12s %12s %8s\n' "$label" "$unit" "$o" "$c" "$(ratio "$c" "$o")"
    fi
  done
  echo
  echo "($rounds interleaved rounds, medians; the compat runner of libuv 1.44.2's test/benchmark-*.c on $against's library (against) and on $build's (compat); ratio compat / against, > 1: $build's library ahead)"
}
# suite_table: libuv 1.44.2, 1.53.0, the drop-in and compat.
suite_table() {
  if [ "$markdown" = 1 ]; then
    if [ "$have153" = 1 ]; then
      echo "| benchmark | unit | libuv 1.44.2 | libuv 1.53.0 | drop-in | compat | drop-in/1.44 | drop-in/1.53 | compat/1.44 | compat/1.53 |"
      echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    else
      echo "| benchmark | unit | libuv 1.44.2 | drop-in | compat | drop-in/1.44 | compat/1.44 |"
      echo "|---|---|---:|---:|---:|---:|---:|"
    fi
  else
    if [ "$have153" = 1 ]; then
      printf '%-20s %-12s %12s %12s %12s %12s %7s %7s %7s %7s\n' benchmark unit 1.44.2 1.53.0 drop-in compat d/1.44 d/1.53 c/1.44 c/1.53
    else
      printf '%-20s %-12s %12s %12s %12s %7s %7s\n' benchmark unit 1.44.2 drop-in compat d/1.44 c/1.44
    fi
  fi
  echo "$labels" | while read -r label unit; do
    [ -n "$label" ] || continue
    a=$(median uv144 "$label"); d=$(median dropin "$label"); c=$(median compat "$label")
    if [ "$have153" = 1 ]; then
      n=$(median uv153 "$label")
      if [ "$markdown" = 1 ]; then
        echo "| $label | $unit | $a | $n | $d | $c | $(ratio "$d" "$a") | $(ratio "$d" "$n") | $(ratio "$c" "$a") | $(ratio "$c" "$n") |"
      else
        printf '%-20s %-12s %12s %12s %12s %12s %7s %7s %7s %7s\n' "$label" "$unit" "$a" "$n" "$d" "$c" \
          "$(ratio "$d" "$a")" "$(ratio "$d" "$n")" "$(ratio "$c" "$a")" "$(ratio "$c" "$n")"
      fi
    else
      if [ "$markdown" = 1 ]; then
        echo "| $label | $unit | $a | $d | $c | $(ratio "$d" "$a") | $(ratio "$c" "$a") |"
      else
        printf '%-20s %-12s %12s %12s %12s %7s %7s\n' "$label" "$unit" "$a" "$d" "$c" "$(ratio "$d" "$a")" "$(ratio "$c" "$a")"
      fi
    fi
  done
  echo
  echo "($rounds interleaved rounds, medians; libuv 1.44.2's test/benchmark-*.c; ratios phaseloop / libuv, > 1: phaseloop ahead$([ "$have153" = 1 ] || echo "; no libuv 1.53 column: $ref153 missing"))"
}
if [ -n "$against" ]; then ab_table; else suite_table; fi

# How far apart the rounds of each configuration were: (highest - lowest)
# / median, in per cent. A ratio that differs from 1 by less than this
# is not a difference this run can tell.
spread() {  # CFG LABEL
  [ -f "$res/$1" ] || return 0
  awk -v l="$2" '$1 == l { print $2 }' "$res/$1" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR > 1 && v[int((NR + 1) / 2)] > 0) printf "%.0f", (v[NR] - v[1]) / v[int((NR + 1) / 2)] * 100; else print "-" }'
}
if [ "$rounds" -gt 1 ]; then
  echo
  if [ "$markdown" = 1 ]; then
    echo "| spread of the rounds (%) | $(echo $configs | sed 's/ / | /g') |"
    echo "|---|$(echo $configs | sed 's/[^ ]*/---:/g; s/ /|/g')|"
  else
    echo "spread of the rounds (%): $configs"
  fi
  echo "$labels" | while read -r label unit; do
    [ -n "$label" ] || continue
    row=$label
    for cfg in $configs; do row="$row | $(spread "$cfg" "$label")"; done
    if [ "$markdown" = 1 ]; then echo "| $row |"; else echo "$row" | tr -s ' |' ' '; fi
  done
  echo
  echo "(spread: (highest - lowest) / median of a configuration's $rounds rounds)"
fi

# --- --perf: where the time went ---------------------------------------------
if [ "$perf" = 1 ]; then
  # One more run of each configuration under perf record -a: the share of
  # the machine's CPU samples in the kernel (any process but the idle
  # task), in libuv or phaseloop (the libuv.so.1 it loads, the drop-in,
  # libphaseloop-uv.so; libuv 1.53's runner has libuv linked in, so its
  # library's share counts as the rest of user space), in the rest of user
  # space, and idle.
  for name in $names; do
    for cfg in $configs; do
      config "$cfg"
      data=$res/$cfg.$name.perf.data
      # shellcheck disable=SC2086
      if ! (cd "$(dirname "$bin")" && perf record -q -a -e cpu-clock -F 499 -o "$data" -- \
        env $envs timeout "$timeout_s" "$bin" "$name") > "$res/$cfg.$name.record.log" 2>&1; then
        say "$name on $cfg failed under perf record (log: $res/$cfg.$name.record.log)"
        failed=1
        continue
      fi
      perf report -i "$data" --no-children --sort comm,dso -t ';' -q --stdio 2> /dev/null |
        awk -F';' -v name="$name" -v cfg="$cfg" '
          function trim(x) { gsub(/^ +| +$/, "", x); return x }
          NF >= 3 {
            p = $(NF - 2); gsub(/[% ]/, "", p); comm = trim($(NF - 1)); dso = trim($NF)
            if (comm == "swapper") idle += p
            else if (dso ~ /kernel/) kern += p
            else if (dso ~ /^lib(uv|phaseloop)/) lib += p
            else other += p
            n++
          }
          END { if (n) printf "%s %s %.1f %.1f %.1f %.1f\n", name, cfg, kern, lib, other, idle }' >> "$res/shares"
    done
  done
  # The medians of the rounds, per operation (or per run).
  per_op() {  # CFG NAME FIELD: the median of FIELD / OPS (x 1000 for CPU ms -> us)
    [ -f "$res/$1.perf" ] || return 0
    awk -v n="$2" -v f="$3" '$1 == n { ops = $3 > 0 ? $3 : 1; v = $f / ops; if (f == 7) v *= 1000; print v }' "$res/$1.perf" |
      median_of | awk '{ printf($1 < 10 ? "%.2f" : $1 < 1000 ? "%.1f" : "%.0f", $1) }'
  }
  echo
  if [ "$markdown" = 1 ]; then
    echo "| benchmark | per | configuration | system calls | context switches | CPU us | kernel % | library % | other user % | idle % |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
  else
    printf '%-20s %-8s %-8s %12s %12s %10s %8s %8s %8s %8s\n' benchmark per config syscalls switches cpu_us kernel% lib% other% idle%
  fi
  for name in $names; do
    for cfg in $configs; do
      [ -f "$res/$cfg.perf" ] || continue
      unit=$(awk -v n="$name" '$1 == n { print $4; exit }' "$res/$cfg.perf")
      [ -n "$unit" ] || continue
      # shellcheck disable=SC2046  # four shares, split on purpose
      set -- $(awk -v n="$name" -v c="$cfg" '$1 == n && $2 == c { print $3, $4, $5, $6 }' "$res/shares" 2> /dev/null) - - - -
      sc=$(per_op "$cfg" "$name" 5); cs=$(per_op "$cfg" "$name" 6); us=$(per_op "$cfg" "$name" 7)
      if [ "$markdown" = 1 ]; then
        echo "| $name | $unit | $cfg | $sc | $cs | $us | $1 | $2 | $3 | $4 |"
      else
        printf '%-20s %-8s %-8s %12s %12s %10s %8s %8s %8s %8s\n' "$name" "$unit" "$cfg" "$sc" "$cs" "$us" "$1" "$2" "$3" "$4"
      fi
    done
  done
  echo
  echo "(perf stat over the runner and all its processes, medians of the $rounds rounds, per operation; the shares: one more run of each under perf record -a, the whole machine's CPU samples over the whole run, the runner's start and its helpers' included; libuv 1.53's runner has its libuv linked in, so its library share is in other user)"
  # Every run, and how its rate follows its context switches.
  echo
  echo "runs (benchmark configuration rate switches-per-op), and per benchmark the correlation of rate with switches per op over all its runs:"
  echo
  [ "$markdown" = 1 ] && echo '```text'
  for name in $names; do
    for cfg in $configs; do
      [ -f "$res/$cfg.perf" ] || continue
      awk -v n="$name" -v c="$cfg" '$1 == n { ops = $3 > 0 ? $3 : 1; printf "%s %s %s %.3f\n", n, c, $2, $6 / ops }' "$res/$cfg.perf"
    done
  done | tee "$res/runs" | awk '{ printf "%-20s %-8s %12s %10s\n", $1, $2, $3, $4 }'
  awk '{ n[$1]++; x[$1] += $3; y[$1] += $4; xx[$1] += $3 * $3; yy[$1] += $4 * $4; xy[$1] += $3 * $4; if (!seen[$1]++) order[++k] = $1 }
    END {
      for (i = 1; i <= k; i++) {
        b = order[i]; m = n[b]
        d = sqrt((m * xx[b] - x[b] ^ 2) * (m * yy[b] - y[b] ^ 2))
        if (m > 2 && d > 0) printf "%-20s correlation %.2f over %d runs\n", b, (m * xy[b] - x[b] * y[b]) / d, m
      }
    }' "$res/runs"
  [ "$markdown" = 1 ] && echo '```'
fi
[ "$failed" = 0 ] || { say "some runs failed (logs in $res)"; exit 1; }
