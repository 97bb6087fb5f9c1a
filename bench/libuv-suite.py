#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/libuv-suite.py -- libuv's own benchmark programs (test/benchmark-*.c
of libuv 1.44.2, from Debian 12's libuv1 source package, fetched and checked
by test/clients/libuv/fetch at bench time, never kept in this repository),
built and run four ways, interleaved round by round (each round starting
with the next configuration):

  1.44    against Debian's libuv 1.44.2 (libuv1-dev: /usr/include, -luv)
  1.53    against libuv 1.53.0 (Debian sid's libuv1-dev, the newest
          release; tools/install-libuv-refs puts it in .oracle/libuv-1.53)
  dropin  the 1.44 binary on phaseloop's drop-in libuv.so.1
          (LD_LIBRARY_PATH=BUILD/dropin/.libs; checked with ldd)
  compat  built against phaseloop's uv.h (include/phaseloop/uv) and
          linked with BUILD/.libs/libphaseloop-uv.so

Every benchmark's output line is turned into one rate (higher is better;
e.g. "loop_count: 2000000 ticks in 0.11s (18181818/s)" gives 18181818);
the table shows the median of the rounds for each and the ratios
phaseloop / libuv (> 1: phaseloop ahead).

With --callgrind, each benchmark instead runs once per configuration
under callgrind (valgrind --trace-children=yes: the runner forks the
benchmark and its helpers) and the table has the instructions executed
by all those processes, and the ratios libuv / phaseloop (> 1: phaseloop
executes fewer); for the benchmarks that run for a fixed time, the
instructions per operation they made. Not tcp_multi_accept2 (250,000
connections take most of an hour under valgrind).

With --perf, every run goes under `perf stat` (the runner and all its
processes: system calls, context switches, CPU time), and after the
rounds each configuration runs once more under `perf record -a` (the
whole machine's CPU time, sampled): a second table gives, per operation,
the system calls, context switches and CPU microseconds each library
spent (medians of the rounds), and where the machine's time went --
the kernel, libuv or phaseloop, the rest of user space, idle; a third
lists every run, and the correlation between rate and context switches
over all of them says whether a benchmark measures the scheduler more
than the library. For the benchmarks whose time is the kernel's (the
network ones), this says where a difference comes from when the
instructions (--callgrind) do not. Needs perf (Debian: linux-perf) and
root, or kernel.perf_event_paranoid <= -1.

With --against OTHER (another phaseloop build tree, e.g. a worktree of
an earlier commit), two configurations instead of four: the compat
runner on OTHER's libphaseloop-uv.so (LD_LIBRARY_PATH) and on BUILD's,
the same binary, interleaved, and the ratio BUILD / OTHER -- what a
change to the library did, from one command. Both builds must share the
C API (uv.h) the runner was built against.

usage: bench/libuv-suite.py BUILD [-r N] [--markdown] [--callgrind | --perf] [--against OTHER] [--list] [--list-countable] [--list-network] [NAME...]
  BUILD       a phaseloop build tree (configured with --with-reference-libuv
              or not; the drop-in and libphaseloop.so must be built)
  -r N        rounds (default 3)
  --markdown  a markdown table (docs/benchmarks.md)
  --list      the default benchmarks, then exit
  --list-countable  the benchmarks --callgrind can count, then exit
  --list-network    the benchmarks whose time is the kernel's network
              path (sockets and pipes between the runner's processes:
              what --perf explains), then exit
  NAME...     benchmarks to run (default: the list below; any name from
              libuv's test/benchmark-list.h works if its output parses)
A run that fails (exits non-zero, times out, prints no result) is run
once more, its log kept as LOG.failed; a note under the table names each
run that passed the second time, and a second failure fails the suite
(exit 1, the tables printed all the same).

Environment: CC (default cc), BENCH_TIMEOUT (seconds per run, default
120), LIBUV_153 (default $PHASELOOP_ORACLE_DIR/libuv-1.53, else
.oracle/libuv-1.53, as tools/install-libuv-refs installs it; absent: that column is left
out with a note), ASYNC_PINGS (the round trips of each thread ping-pong
benchmark, default 100000: see Suite.prepare).

Argument errors exit 2 with a message that names the script (the checks
of bench/lib.sh, which the shell scripts of bench/ source, made here the
same way: test/bench/args.sh checks both); a benchmark that fails or
whose output gives no rate is reported and the tables are printed
without it, then the exit status is 1. Logs: BUILD/bench/libuv-suite/results.
Written in Python (it was a shell script, bench/libuv-suite.sh, until its
awk programs outgrew it); the command line, the environment and every
table are the same.
"""

import glob
import math
import os
import re
import resource
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)
prog = os.path.basename(sys.argv[0])
USAGE = ("usage: bench/libuv-suite.py BUILD [-r N] [--markdown] [--callgrind | --perf] [--against OTHER] "
         "[--list] [--list-countable] [--list-network] [NAME...]")

# The benchmarks whose work is fixed (a count, not a duration).
# Not async_pummel_*: its thread sends without pause until the loop has
# run the callbacks, and under valgrind, which runs one thread at a time,
# the loop waits for a switch of threads each time (a single run of
# async_pummel_1 on libuv 1.44 had not ended after five minutes).
CALLGRIND_NAMES = """loop_count million_timers async1 async2 async4 async8 queue_work thread_create
  getaddrinfo fs_stat spawn tcp_write_batch""".split()
# The benchmarks that run for a fixed time: counted per operation. Not
# million_async: its threads send as fast as they can, and under
# valgrind its count per event measures how long each sender ran before
# the loop got a turn.
CALLGRIND_TIMED = """loop_count_timed ping_pongs ping_udp1 tcp_pump1_client pipe_pump1_client
  tcp4_pound_100 pipe_pound_100 udp_pummel_1v1""".split()
# The benchmarks that move bytes or connections through the kernel.
NETWORK_NAMES = """ping_pongs ping_udp1 tcp_write_batch tcp_pump1_client pipe_pump1_client
  tcp4_pound_100 pipe_pound_100 tcp_multi_accept2 udp_pummel_1v1""".split()
DEFAULT_NAMES = """loop_count loop_count_timed million_timers async1 async2 async4 async8
  async_pummel_1 async_pummel_2 async_pummel_4 async_pummel_8 queue_work million_async
  thread_create getaddrinfo fs_stat spawn ping_pongs ping_udp1 tcp_write_batch
  tcp_pump1_client pipe_pump1_client tcp4_pound_100 pipe_pound_100 tcp_multi_accept2
  udp_pummel_1v1""".split()
COUNTABLE = CALLGRIND_NAMES + CALLGRIND_TIMED

# libuv's own flags for its benchmark runner on Linux (CMakeLists.txt's
# uv_defines and C standard), optimized as a release build.
DEFS = "-D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE -D_GNU_SOURCE -D_POSIX_C_SOURCE=200112".split()
CFLAGS = "-std=gnu90 -O2 -g -fno-strict-aliasing -pthread -w".split()
PERF_EVENTS = "raw_syscalls:sys_enter,context-switches,task-clock"


# --- messages and argument checks ----------------------------------------------
# usage_error and need/positive say what bench/lib.sh's bench_need and
# bench_positive say, in the same words, with the script's name first.

def usage_error(msg):
    print("%s: %s" % (prog, msg), file=sys.stderr)
    sys.exit(2)


def need(option, args, i):
    """The value after args[i] (the option); exits 2 when there is none."""
    if i + 1 >= len(args):
        usage_error("%s needs a value" % option)
    return args[i + 1]


def positive(what, value):
    if not re.fullmatch(r"[0-9]+", value) or value.strip("0") == "":
        usage_error("%s must be a positive integer, not '%s'" % (what, value))
    return int(value)


def say(msg):
    print("libuv-suite: " + msg, file=sys.stderr, flush=True)


def die(msg):
    say(msg)
    sys.exit(1)


# --- numbers as awk reads and writes them -----------------------------------------
# The rates are kept as the text the parsers made of them (what the
# tables print), so reading and writing numbers follows the rules of the
# awk the shell version ran (Debian's mawk): a string's number is what
# strtod reads at its start (0 when nothing), and a number becomes text
# as an integer when it is one within 32 bits, else with six significant
# digits (%.6g: 2.14748e+09 for 2^31).

STRTOD = re.compile(r"[ \t\n\v\f\r]*([+-]?)(?:(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
                    r"|(inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)"
                    r"|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))", re.I)


def strtod(s):
    """The number at the start of s and where it ends (0, 0: none)."""
    m = STRTOD.match(s)
    if not m:
        return 0.0, 0
    if m.group(2):
        v = float.fromhex(m.group(2))
    elif m.group(3):
        v = float(m.group(3).split("(")[0])
    else:
        v = float(m.group(4))
    return math.copysign(v, -1.0 if m.group(1) == "-" else 1.0), m.end()


def num(s):
    return strtod(s)[0]


def looks_numeric(s):
    """Whether awk takes an input field as a number (all of it is one)."""
    end = strtod(s)[1]
    return end > 0 and s[end:].strip(" \t\n\v\f\r") == ""


def fixed(fmt, v):
    """printf's fmt (%.Nf, %.6g) as C writes it, a NaN with its sign."""
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    return fmt % v


def text(v):
    if math.isfinite(v) and v == int(v) and -2147483647 <= v <= 2147483647:
        return "%d" % v
    return fixed("%.6g", v)


def quotient(a, b):
    """a / b as awk divides: by 0, an infinity (or a NaN for 0 / 0)."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return float("-nan")
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def positive_field(s):
    """awk's `FIELD > 0`: numeric when the field looks like a number, else
    a comparison of strings."""
    if looks_numeric(s):
        return num(s) > 0
    return s > "0"


def fields(line):
    return [f for f in re.split(r"[ \t\n]+", line) if f]


def field(line, k):
    """awk's $k (0: the whole line); None for a negative k (awk stops)."""
    if k < 0:
        return None
    if k == 0:
        return line
    f = fields(line)
    return f[k - 1] if k <= len(f) else ""


def lines_of(data):
    """The lines of a text as awk reads them (the last one need not end)."""
    parts = data.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def capture(cmd, stderr=subprocess.DEVNULL):
    """What cmd prints ("" when it cannot be started)."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=stderr).stdout.decode("latin-1")
    except OSError:
        return ""


def status(cmd, **kw):
    """cmd's exit status (127 when it cannot be started)."""
    try:
        return subprocess.run(cmd, **kw).returncode
    except OSError:
        return 127


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("latin-1")


def numeric_order(s):
    """sort -g's order: NaNs first, then the numbers, equal ones by their text."""
    v = num(s)
    return (0, 0.0, s) if math.isnan(v) else (1, v, s)


def median_of(values):
    """The median of number strings (the lower middle one of an even
    count), as the string it was; None for none."""
    if not values:
        return None
    v = sorted(values, key=numeric_order)
    return v[(len(v) + 1) // 2 - 1]


def ratio(a, b):
    """a / b with two decimals, "-" when either is missing or b is 0."""
    if a is None or b is None or a == "" or b == "" or num(b) == 0:
        return "-"
    return fixed("%.2f", num(a) / num(b))


def squeeze(row):
    """A table row of the text output: every "|" a blank, blanks squeezed."""
    return re.sub(r" +", " ", row.replace("|", " "))


# --- parsing the benchmarks' output ------------------------------------------------

def after(line, post):
    """The number just before the first `post` in line, commas dropped;
    None when there is none."""
    i = line.find(post)
    if i < 0:
        return None
    m = re.search(r"[0-9.,]+\Z", line[:i])
    if not m:
        return None
    return num(m.group(0).replace(",", ""))


def extract(name, log, num_timers):
    """The measurements in a run's output: a list of (LABEL, VALUE, UNIT),
    one per measurement the benchmark prints (fs_stat prints several)."""
    got = []

    def out(label, v, unit):
        if v is not None:
            got.append((label, v if isinstance(v, str) else text(v), unit))

    for line in lines_of(log):
        # the runner prefixes the output of a benchmark with "# "
        if line.startswith("# "):
            line = line[2:]
        f = fields(line)
        f1 = f[0] if f else ""
        # million_timers: its timers fall due over 10 s, so its wall time is
        # the same on any library; what it took to start them, and the CPU
        # time of the whole run, tell them apart.
        if name == "million_timers" and line.endswith(" seconds init") and positive_field(f1):
            out(name + "_start", fixed("%.0f", quotient(num_timers, num(f1))), "timers/s")
        if name == "million_timers" and line.startswith("cpu_seconds "):
            cpu = num(field(line, 2)) + num(field(line, 3))
            if cpu > 0:
                out(name + "_cpu", fixed("%.0f", num_timers / cpu), "timers/cpu-s")
        if name == "fs_stat" and "stats (sync)" in line:
            out("fs_stat_sync", after(line, "/s)"), "stats/s")
        if name == "fs_stat" and "stats (1 concurrent)" in line:
            out("fs_stat_1", after(line, "/s)"), "stats/s")
        if name == "fs_stat" and "stats (16 concurrent)" in line:
            out("fs_stat_16", after(line, "/s)"), "stats/s")
        if name.startswith("loop_count") and "ticks/s)" in line:
            out(name, after(line, " ticks/s)"), "ticks/s")
        if name == "loop_count" and "ticks in" in line:
            out(name, after(line, "/s)"), "ticks/s")
        if re.match(r"async[0-9]", name) and "/sec)" in line:
            out(name, after(line, "/sec)"), "pings/s")
        if name.startswith("async_pummel") and "/sec)" in line:
            out(name, after(line, "/sec)"), "callbacks/s")
        if name == "queue_work" and "async jobs in" in line:
            out(name, after(line, "/s)"), "jobs/s")
        if name == "million_async" and "async events in" in line:
            out(name, after(line, "/s,"), "events/s")
        if name == "thread_create" and "threads created" in line:
            out(name, after(line, "/s)"), "threads/s")
        if name == "getaddrinfo" and line.endswith(" req/s"):
            out(name, after(line, " req/s"), "req/s")
        if name == "spawn" and line.endswith(" spawns/s"):
            out(name, after(line, " spawns/s"), "spawns/s")
        if name.startswith("ping_") and line.endswith(" roundtrips/s"):
            out(name, after(line, " roundtrips/s"), "trips/s")
        if name == "tcp_write_batch" and " write requests in " in line:
            out(name, fixed("%.0f", quotient(num(f1), num(field(line, 5).replace(",", "")))), "writes/s")
        if re.search(r"_pump.*_client$", name) and f1 == name + ":":
            out(name, after(line, " gbit/s"), "Gbit/s")
        if "_pound_" in name and " accepts/s " in line:
            out(name, after(line, " accepts/s"), "conns/s")
        if "_multi_accept" in name and re.match(r"accept[0-9]+:", line):
            out(name, after(line, " accepts/sec"), "accepts/s")
        if re.search(r"udp_.*pummel", name) and "/s received" in line:
            out(name, after(line, "/s received"), "datagrams/s")
    return got


def operations(name, log):
    """How many operations a benchmark made (its printed count, or its
    rate times its window: 5 s for the ping-pongs and pumps, 10 s for the
    pounds), and their unit, as the text "COUNT UNIT"; None for a
    benchmark whose output does not say."""

    def count(s):
        return num(re.sub(r"[^0-9.]", "", s))

    for line in lines_of(log):
        if line.startswith("# "):
            line = line[2:]
        f = fields(line)
        f1 = f[0] if f else ""
        f2 = f[1] if len(f) > 1 else ""
        if name == "loop_count_timed" and " ticks (" in line:
            return "%s tick" % text(count(f2))
        if name.startswith("udp_pummel") and " received, " in line:
            v = field(line, len(f) - 6)
            return None if v is None else "%s datagram" % text(count(v))
        if name.startswith("ping_") and line.endswith(" roundtrips/s"):
            v = field(line, len(f) - 1)
            return None if v is None else "%s trip" % text(count(v) * 5)
        if re.search(r"_pump.*_client$", name) and f1 == name + ":":
            return "%s Gbit" % text(count(f2) * 5)
        if "_pound_" in name and " accepts/s " in line:
            return "%s conn" % text(count(f2) * 10)
        if name == "tcp_write_batch" and " write requests in " in line:
            return "%s write" % text(count(f1))
    return None


class Suite:
    def __init__(self, build, against, names, rounds, markdown, callgrind, perf):
        self.build, self.against, self.names, self.rounds = build, against, names, rounds
        self.markdown, self.callgrind, self.perf = markdown, callgrind, perf
        self.timeout_s = os.environ.get("BENCH_TIMEOUT") or "120"
        self.cc = (os.environ.get("CC") or "cc").split()
        self.out = build + "/bench/libuv-suite"
        self.bsrc = self.out + "/src"
        self.res = self.out + "/results"
        self.failed = False
        # "NAME on CFG" of each run that failed once and passed when run again
        self.retried = []
        # per configuration: the measurements of every run (LABEL, VALUE,
        # UNIT) and, with --perf, a row of perf stat's counts per run
        self.results = {}
        self.perf_rows = {}
        self.shares = []

    # --- the sources -------------------------------------------------------------
    def prepare(self):
        build = self.build
        if not os.path.isfile(build + "/.libs/libphaseloop.so"):
            die("no %s/.libs/libphaseloop.so: build phaseloop first (make -C %s)" % (build, build))
        if not os.path.isfile(build + "/dropin/.libs/libuv.so.1"):
            die("no %s/dropin/.libs/libuv.so.1: build the drop-in first (make -C %s)" % (build, build))
        try:
            fetched = subprocess.run([top + "/test/clients/libuv/fetch"], stdout=subprocess.PIPE,
                                     env=dict(os.environ, PHASELOOP_BUILD=build))
        except OSError:
            fetched = None
        if fetched is None or fetched.returncode != 0:
            die("could not fetch libuv 1.44.2's source")
        self.src = src = fetched.stdout.decode("latin-1").rstrip("\n")
        self.sources = self.runner_sources(src + "/CMakeLists.txt")

        # A copy of test/ to build from, with one change: the thread ping-pong
        # benchmarks (async1-8, async_pummel_1-8) make ASYNC_PINGS round trips
        # (default 100,000) instead of 1,000,000. A round trip (two wake-ups of
        # another thread) takes about 50 us on this project's virtual machines,
        # and 1,000,000 of them outlast the runner's 60 s limit on every library.
        async_pings = os.environ.get("ASYNC_PINGS") or "100000"
        if not re.fullmatch(r"[0-9]+", async_pings):
            die("ASYNC_PINGS must be a number")
        shutil.rmtree(self.bsrc, ignore_errors=True)
        os.makedirs(self.bsrc, exist_ok=True)
        shutil.copytree(src + "/test", self.bsrc + "/test", symlinks=True, copy_function=shutil.copy)
        pings = re.compile(r"^#define NUM_PINGS +\(1000 \* 1000\)$", re.M)
        for f in ("benchmark-async.c", "benchmark-async-pummel.c"):
            path = "%s/test/%s" % (self.bsrc, f)
            body = read_text(path)
            if not pings.search(body):
                die("%s has no '#define NUM_PINGS (1000 * 1000)' to scale" % f)
            with open(path, "wb") as w:
                w.write(pings.sub("#define NUM_PINGS (%s)" % async_pings, body).encode("latin-1"))

        env153 = os.environ.get("LIBUV_153") or ""
        # Where tools/install-libuv-refs puts it.
        self.ref153 = env153 or (os.environ.get("PHASELOOP_ORACLE_DIR") or top + "/.oracle") + "/libuv-1.53"
        if not os.path.isfile(self.ref153 + "/cflags") and not env153 and not self.against:
            sys.stdout.flush()
            if status([top + "/tools/install-libuv-refs"], stdout=sys.stderr.fileno()) != 0:
                say("tools/install-libuv-refs failed: no libuv 1.53 column")
        self.have153 = os.path.isfile(self.ref153 + "/cflags") and not self.against

    @staticmethod
    def runner_sources(cmakelists):
        """The sources of libuv's benchmark runner, from the
        add_executable of uv_run_benchmarks_a in CMakeLists.txt, and the
        runner's Unix part."""
        sources = []
        inexe = False
        for line in lines_of(read_text(cmakelists)):
            if "add_executable(" in line:
                inexe = False
            if line.endswith("uv_run_benchmarks_a"):
                inexe = True
                continue
            if inexe:
                for f in fields(line):
                    if re.fullmatch(r"test/.*\.c\)?", f):
                        sources.append(f[:-1] if f.endswith(")") else f)
                if ")" in line:
                    inexe = False
        joined = " ".join(sources)
        if not re.search(r"test/benchmark-async\.c.*test/run-benchmarks\.c", joined):
            die("could not read the benchmark runner's sources from %s" % cmakelists)
        return sources + ["test/runner-unix.c"]

    # --- building ----------------------------------------------------------------
    def compile(self, cfg, inc, libs):
        """One binary, OUT/CFG/run-benchmarks (the compiler's complaints in
        OUT/CFG/build.log)."""
        d = "%s/%s" % (self.out, cfg)
        os.makedirs(d, exist_ok=True)
        objs = []
        with open(d + "/build.log", "ab") as log:
            for s in self.sources:
                o = "%s/%s.o" % (d, os.path.basename(s)[:-2] if s.endswith(".c") else os.path.basename(s))
                objs.append(o)
                cmd = self.cc + DEFS + CFLAGS + inc + ["-I%s/test" % self.bsrc, "-c", "%s/%s" % (self.bsrc, s), "-o", o]
                if status(cmd, stderr=log) != 0:
                    die("compiling %s for %s failed (log: %s/build.log)" % (s, cfg, d))
            cmd = self.cc + ["-o", d + "/run-benchmarks"] + objs + libs + ["-pthread", "-ldl", "-lrt", "-lm"]
            if status(cmd, stderr=log) != 0:
                die("linking %s failed (log: %s/build.log)" % (cfg, d))

    def build_all(self):
        build = self.build
        say("building libuv 1.44.2's benchmark runner (%d sources) for each configuration in %s"
            % (len(self.sources), self.out))
        sys.stdout.flush()
        self.compile("uv144", [], ["-luv"])
        self.compile("compat", ["-I%s/include/phaseloop/uv" % top],
                     ["-L%s/.libs" % build, "-lphaseloop-uv", "-Wl,-rpath,%s/.libs" % build])
        if self.have153:
            self.compile("uv153", read_text(self.ref153 + "/cflags").split(), read_text(self.ref153 + "/libs").split())

        # Each configuration must run on the library it names.
        system = ""
        for line in lines_of(capture(["ldconfig", "-p"], stderr=None)):
            if re.search(r"libuv\.so\.1 .*x86-64", line):
                system = fields(line)[-1]
                break
        self.check_lib("1.44", self.out + "/uv144/run-benchmarks",
                       os.path.dirname(os.path.realpath(system)) if system else ".")
        self.check_lib("dropin", self.out + "/uv144/run-benchmarks", build + "/dropin/.libs",
                       ["LD_LIBRARY_PATH=%s/dropin/.libs" % build])
        self.check_lib("compat", self.out + "/compat/run-benchmarks", build + "/.libs")
        if self.against:
            self.check_lib("against", self.out + "/compat/run-benchmarks", self.against + "/.libs",
                           ["LD_LIBRARY_PATH=%s/.libs" % self.against])
        if self.have153:
            v = capture([self.ref153 + "/smoke"]).rstrip("\n")
            if v != "1.53.0":
                die("%s does not run as libuv 1.53.0 (its smoke program printed '%s')" % (self.ref153, v))

    @staticmethod
    def check_lib(cfg, binary, expected, envs=()):
        got = []
        for line in lines_of(capture(["env"] + list(envs) + ["ldd", binary], stderr=None)):
            f = fields(line)
            if f and re.match(r"lib(uv|phaseloop|phaseloop-uv)\.so", f[0]):
                got.append(f[2] if len(f) > 2 else "")
        got = "\n".join(got)
        if not got or os.path.dirname(os.path.realpath(got)) != os.path.realpath(expected):
            die("%s: %s maps '%s', not a library in %s" % (cfg, binary, got, expected))

    # --- running -----------------------------------------------------------------
    def configs(self):
        if self.against:
            return ["against", "compat"]
        return ["uv144", "uv153", "dropin", "compat"] if self.have153 else ["uv144", "dropin", "compat"]

    def config(self, cfg):
        """The runner of CFG and the environment it runs in (env's VAR=VALUE words)."""
        return {
            "uv144": (self.out + "/uv144/run-benchmarks", []),
            "uv153": (self.out + "/uv153/run-benchmarks", []),
            "compat": (self.out + "/compat/run-benchmarks", []),
            "dropin": (self.out + "/uv144/run-benchmarks", ["LD_LIBRARY_PATH=%s/dropin/.libs" % self.build]),
            "against": (self.out + "/compat/run-benchmarks", ["LD_LIBRARY_PATH=%s/.libs" % self.against]),
        }[cfg]

    @staticmethod
    def spawn(cmd, cwd, log):
        """Runs cmd in cwd, its output (both streams) in the file log;
        its exit status (127 when it cannot be started)."""
        with open(log, "wb") as f:
            try:
                return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT).returncode
            except OSError as e:
                f.write(("%s: %s\n" % (cmd[0], e.strerror)).encode())
                return 127

    def run(self, cfg, name):
        """One run; its measurements go to RESULTS/CFG. A run that fails
        (a benchmark of libuv's that hangs past BENCH_TIMEOUT once in a
        while, real libuv's as well) is run once more, its log kept as
        LOG.failed, and the tables say so; a second failure is a failure."""
        if self.run_once(cfg, name, quiet=True):
            return
        log = "%s/%s.%s.log" % (self.res, cfg, name)
        os.replace(log, log + ".failed")
        say("%s on %s failed (log: %s.failed); running it once more" % (name, cfg, log))
        if self.run_once(cfg, name, quiet=False):
            self.retried.append("%s on %s" % (name, cfg))

    def run_once(self, cfg, name, quiet):
        """One attempt; False if it failed (and, unless quiet, says why
        and marks the suite failed)."""
        binary, envs = self.config(cfg)
        log = "%s/%s.%s.log" % (self.res, cfg, name)
        # The runner finds its helpers by re-running itself from its directory.
        # The runner's CPU time and its children's (the benchmark, its helpers)
        # goes at the end of the log as "cpu_seconds USER SYSTEM": million_timers
        # waits for its timers' due times, so only its CPU time says how fast it ran.
        stat = ["perf", "stat", "-x", ",", "-o", log + ".perf", "-e", PERF_EVENTS, "--"] if self.perf else []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        rc = self.spawn(stat + ["env"] + envs + ["timeout", self.timeout_s, binary, name], os.path.dirname(binary), log)
        spent = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(log, "a") as f:
            f.write("cpu_seconds %.3f %.3f\n" % (spent.ru_utime - before.ru_utime, spent.ru_stime - before.ru_stime))
        if rc != 0:
            if quiet:
                return False
            say("%s on %s failed (log: %s)" % (name, cfg, log))
            tail = read_text(log).split("\n")[:-1][-5:]
            sys.stderr.write("".join(t + "\n" for t in tail))
            sys.stderr.flush()
            self.failed = True
            return False
        output = read_text(log)
        got = extract(name, output, self.num_timers)
        if not got:
            if quiet:
                return False
            say("%s on %s: no result in its output (log: %s)" % (name, cfg, log))
            self.failed = True
            return False
        self.results.setdefault(cfg, []).extend(got)
        with open("%s/%s" % (self.res, cfg), "a") as f:
            f.write("".join("%s %s %s\n" % g for g in got))
        if self.perf:
            self.perf_row(cfg, name, log, output, got[0][1])  # the first measurement's value
        return True

    def perf_row(self, cfg, name, log, output, rate):
        """A row of RESULTS/CFG.perf, "NAME RATE OPS UNIT SYSCALLS SWITCHES
        CPU_MS", from the run's output and its perf stat (CSV:
        value,unit,event,...). OPS is 0 (UNIT "run") when the output does
        not say how many operations were made."""
        ops = operations(name, output) or "0 run"
        sc = cs = ms = None
        try:
            for line in lines_of(read_text(log + ".perf")):
                f = line.split(",")
                event = f[2] if len(f) > 2 else ""
                if "raw_syscalls:sys_enter" in event:
                    sc = f[0]
                if "context-switches" in event:
                    cs = f[0]
                if "task-clock" in event:
                    ms = f[0]
        except OSError:
            pass
        if not sc or not cs or not ms:
            say("%s on %s: perf stat counted nothing (log: %s.perf)" % (name, cfg, log))
            self.failed = True
            return
        row = " ".join([name, rate, ops, sc, cs, ms])
        self.perf_rows.setdefault(cfg, []).append(row.split())
        with open("%s/%s.perf" % (self.res, cfg), "a") as f:
            f.write(row + "\n")

    def start_results(self):
        # The number of timers million_timers starts (a product, as its
        # #define writes it).
        nums = ""
        for line in lines_of(read_text(self.src + "/test/benchmark-million-timers.c")):
            if line.startswith("#define NUM_TIMERS"):
                nums += re.sub(r"[^0-9*]", "", line)
        self.num_timers = math.prod(int(x) for x in nums.split("*")) if nums else 0
        shutil.rmtree(self.res, ignore_errors=True)
        os.makedirs(self.res, exist_ok=True)

    # --- --callgrind: instructions instead of rates -------------------------------
    def instructions(self, cfg, name):
        """The Ir of every process of one run, summed (spawn: the runner and
        the benchmark, not its 1,000 children, which would take valgrind's
        start-up each); "" when the run failed. The runner's own limits are
        stretched 30 times (UV_TEST_TIMEOUT_MULTIPLIER, read by libuv's runner)."""
        binary, envs = self.config(cfg)
        d = "%s/cg.%s.%s" % (self.res, cfg, name)
        os.makedirs(d, exist_ok=True)
        skip = ["--trace-children-skip-by-arg=spawn_helper"] if name == "spawn" else []
        log = "%s/%s.%s.cg.log" % (self.res, cfg, name)
        cmd = (["env"] + envs + ["UV_TEST_TIMEOUT_MULTIPLIER=30", "timeout", text(num(self.timeout_s) * 30),
                                 "valgrind", "--tool=callgrind", "--trace-children=yes"] + skip +
               ["--callgrind-out-file=%s/out.%%p" % d, binary, name])
        if self.spawn(cmd, os.path.dirname(binary), log) != 0:
            say("%s on %s failed under callgrind (log: %s)" % (name, cfg, log))
            return ""
        files = sorted(glob.glob(d + "/out.*"))
        if not files:
            return ""
        total = 0.0
        for path in files:
            for line in lines_of(read_text(path)):
                if re.match(r"(summary|totals):", line):
                    total += num(field(line, 2))
                    break
        return "%.0f" % total

    def callgrind_table(self):
        if not shutil.which("valgrind"):
            die("--callgrind needs valgrind (Debian: valgrind)")
        names = self.names or COUNTABLE
        for name in names:
            if name not in COUNTABLE:
                die("%s cannot be counted (it would outlast the runner's limit under valgrind, or its output "
                    "gives no count); these can: %s" % (name, " ".join(COUNTABLE)))
        configs = self.configs()
        if self.against:
            cg_ratios = ["against/compat"]
        else:
            cg_ratios = ["1.44/drop-in", "1.53/drop-in", "1.44/compat", "1.53/compat"]
        if self.markdown:
            print("| benchmark | Ir per | %s | %s |" % (" | ".join(configs), " | ".join(cg_ratios)))
            print("|---|---|%s|" % "|".join("---:" for _ in configs + cg_ratios))
        for name in names:
            say("callgrind: " + name)
            ir = {}
            per = "run"
            for cfg in configs:
                ir[cfg] = self.instructions(cfg, name)
                if name in CALLGRIND_TIMED:
                    # Instructions per operation: the counts of a fixed-time run
                    # differ between libraries.
                    ops = (operations(name, read_text("%s/%s.%s.cg.log" % (self.res, cfg, name))) or "").split()
                    per = ops[1] if len(ops) > 1 else "op"
                    n = num(ops[0]) if ops else 0
                    ir[cfg] = fixed("%.0f", num(ir[cfg]) / n) if ir[cfg] != "" and n > 0 else ""
            row = [name, per] + [ir[c] for c in configs]
            if self.against:
                row.append(ratio(ir["against"], ir["compat"]))
            else:
                row += [ratio(ir["uv144"], ir["dropin"]), ratio(ir.get("uv153", ""), ir["dropin"]),
                        ratio(ir["uv144"], ir["compat"]), ratio(ir.get("uv153", ""), ir["compat"])]
            row = " | ".join(row)
            print("| %s |" % row if self.markdown else squeeze(row))
        print()
        if self.against:
            print("(callgrind Ir, every process of one run summed -- the runner, the benchmark, its helpers; Ir "
                  "per operation for the benchmarks that run for a fixed time; against: the compat runner on "
                  "%s's library, compat: on %s's; ratio against / compat, > 1: %s's library executes fewer)"
                  % (self.against, self.build, self.build))
        else:
            print("(callgrind Ir, every process of one run summed -- the runner, the benchmark, its helpers; for "
                  "the benchmarks that run for a fixed time, Ir per operation they made under callgrind; ratios "
                  "libuv / phaseloop, > 1: phaseloop executes fewer)")

    # --- the tables ----------------------------------------------------------------
    def values(self, cfg, label):
        return [v for lab, v, _ in self.results.get(cfg, []) if lab == label]

    def median(self, cfg, label):
        if cfg not in self.results:
            return ""
        m = median_of(self.values(cfg, label))
        return "" if m is None else m

    def labels(self):
        """The labels of the first configuration's results, in order, with their units."""
        seen = {}
        for label, _, unit in self.results.get(self.configs()[0], []):
            seen.setdefault(label, unit)
        return list(seen.items())

    def ab_table(self):
        """The A/B table of --against (the same runner on two builds' libraries)."""
        row = "%-20s %-12s %12s %12s %8s"
        if self.markdown:
            print("| benchmark | unit | against | compat | compat/against |")
            print("|---|---|---:|---:|---:|")
        else:
            print(row % ("benchmark", "unit", "against", "compat", "c/a"))
        for label, unit in self.labels():
            o, c = self.median("against", label), self.median("compat", label)
            if self.markdown:
                print("| %s | %s | %s | %s | %s |" % (label, unit, o, c, ratio(c, o)))
            else:
                print(row % (label, unit, o, c, ratio(c, o)))
        print()
        print("(%d interleaved rounds, medians; the compat runner of libuv 1.44.2's test/benchmark-*.c on %s's "
              "library (against) and on %s's (compat); ratio compat / against, > 1: %s's library ahead)"
              % (self.rounds, self.against, self.build, self.build))

    def suite_table(self):
        """libuv 1.44.2, 1.53.0, the drop-in and compat."""
        if self.have153:
            row = "%-20s %-12s %12s %12s %12s %12s %7s %7s %7s %7s"
            head = ["benchmark", "unit", "libuv 1.44.2", "libuv 1.53.0", "drop-in", "compat",
                    "drop-in/1.44", "drop-in/1.53", "compat/1.44", "compat/1.53"]
            short = ["benchmark", "unit", "1.44.2", "1.53.0", "drop-in", "compat",
                     "d/1.44", "d/1.53", "c/1.44", "c/1.53"]
        else:
            row = "%-20s %-12s %12s %12s %12s %7s %7s"
            head = ["benchmark", "unit", "libuv 1.44.2", "drop-in", "compat", "drop-in/1.44", "compat/1.44"]
            short = ["benchmark", "unit", "1.44.2", "drop-in", "compat", "d/1.44", "c/1.44"]
        if self.markdown:
            print("| %s |" % " | ".join(head))
            print("|---|---|%s|" % "|".join("---:" for _ in head[2:]))
        else:
            print(row % tuple(short))
        for label, unit in self.labels():
            a, d, c = self.median("uv144", label), self.median("dropin", label), self.median("compat", label)
            if self.have153:
                n = self.median("uv153", label)
                cells = [label, unit, a, n, d, c, ratio(d, a), ratio(d, n), ratio(c, a), ratio(c, n)]
            else:
                cells = [label, unit, a, d, c, ratio(d, a), ratio(c, a)]
            print("| %s |" % " | ".join(cells) if self.markdown else row % tuple(cells))
        print()
        print("(%d interleaved rounds, medians; libuv 1.44.2's test/benchmark-*.c; ratios phaseloop / libuv, "
              "> 1: phaseloop ahead%s)" % (self.rounds, "" if self.have153 else
                                           "; no libuv 1.53 column: %s missing" % self.ref153))

    def spread(self, cfg, label):
        """How far apart the rounds of a configuration were: (highest -
        lowest) / median, in per cent ("-" for one round). A ratio that
        differs from 1 by less than this is not a difference this run can tell."""
        if cfg not in self.results:
            return ""
        v = sorted(self.values(cfg, label), key=numeric_order)
        mid = num(v[(len(v) + 1) // 2 - 1]) if v else 0
        if len(v) > 1 and mid > 0:
            return fixed("%.0f", (num(v[-1]) - num(v[0])) / mid * 100)
        return "-"

    def spread_table(self):
        configs = self.configs()
        print()
        if self.markdown:
            print("| spread of the rounds (%%) | %s |" % " | ".join(configs))
            print("|---|%s|" % "|".join("---:" for _ in configs))
        else:
            print("spread of the rounds (%%): %s" % " ".join(configs))
        for label, _ in self.labels():
            row = " | ".join([label] + [self.spread(cfg, label) for cfg in configs])
            print("| %s |" % row if self.markdown else squeeze(row))
        print()
        print("(spread: (highest - lowest) / median of a configuration's %d rounds)" % self.rounds)

    # --- --perf: where the time went -------------------------------------------
    def record(self):
        """One more run of each configuration under perf record -a: the share of
        the machine's CPU samples in the kernel (any process but the idle
        task), in libuv or phaseloop (the libuv.so.1 it loads, the drop-in,
        libphaseloop-uv.so; libuv 1.53's runner has libuv linked in, so its
        library's share counts as the rest of user space), in the rest of user
        space, and idle."""
        for name in self.names:
            for cfg in self.configs():
                binary, envs = self.config(cfg)
                data = "%s/%s.%s.perf.data" % (self.res, cfg, name)
                log = "%s/%s.%s.record.log" % (self.res, cfg, name)
                cmd = (["perf", "record", "-q", "-a", "-e", "cpu-clock", "-F", "499", "-o", data, "--", "env"] +
                       envs + ["timeout", self.timeout_s, binary, name])
                if self.spawn(cmd, os.path.dirname(binary), log) != 0:
                    say("%s on %s failed under perf record (log: %s)" % (name, cfg, log))
                    self.failed = True
                    continue
                report = capture(["perf", "report", "-i", data, "--no-children", "--sort", "comm,dso",
                                  "-t", ";", "-q", "--stdio"])
                kern = lib = other = idle = 0.0
                n = 0
                for line in lines_of(report):
                    f = line.split(";")
                    if len(f) < 3:
                        continue
                    p = num(re.sub(r"[% ]", "", f[-3]))
                    comm, dso = f[-2].strip(" "), f[-1].strip(" ")
                    if comm == "swapper":
                        idle += p
                    elif "kernel" in dso:
                        kern += p
                    elif re.match(r"lib(uv|phaseloop)", dso):
                        lib += p
                    else:
                        other += p
                    n += 1
                if n:
                    share = " ".join([name, cfg] + [fixed("%.1f", x) for x in (kern, lib, other, idle)])
                    self.shares.append(share.split())
                    with open(self.res + "/shares", "a") as f:
                        f.write(share + "\n")

    def per_op(self, cfg, name, k):
        """The median over the rounds of field k (1-based: 5 system calls, 6
        switches, 7 CPU ms, given in us) of CFG's perf rows of NAME, per
        operation (or per run)."""
        if cfg not in self.perf_rows:
            return ""
        vals = []
        for r in self.perf_rows[cfg]:
            if r[0] == name:
                ops = num(r[2]) if positive_field(r[2]) else 1
                v = num(r[k - 1] if k <= len(r) else "") / ops
                vals.append(text(v * 1000 if k == 7 else v))
        m = median_of(vals)
        if m is None:
            return ""
        x = num(m)
        return fixed("%.2f" if x < 10 else "%.1f" if x < 1000 else "%.0f", x)

    def perf_tables(self):
        configs = self.configs()
        self.record()
        # The medians of the rounds, per operation (or per run).
        row = "%-20s %-8s %-8s %12s %12s %10s %8s %8s %8s %8s"
        print()
        if self.markdown:
            print("| benchmark | per | configuration | system calls | context switches | CPU us | kernel % | "
                  "library % | other user % | idle % |")
            print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
        else:
            print(row % ("benchmark", "per", "config", "syscalls", "switches", "cpu_us", "kernel%", "lib%",
                         "other%", "idle%"))
        for name in self.names:
            for cfg in configs:
                if cfg not in self.perf_rows:
                    continue
                units = [r[3] for r in self.perf_rows[cfg] if r[0] == name]
                if not units:
                    continue
                shares = [x for s in self.shares if s[0] == name and s[1] == cfg for x in s[2:6]]
                shares = (shares + ["-"] * 4)[:4]
                cells = [name, units[0], cfg, self.per_op(cfg, name, 5), self.per_op(cfg, name, 6),
                         self.per_op(cfg, name, 7)] + shares
                print("| %s |" % " | ".join(cells) if self.markdown else row % tuple(cells))
        print()
        print("(perf stat over the runner and all its processes, medians of the %d rounds, per operation; the "
              "shares: one more run of each under perf record -a, the whole machine's CPU samples over the whole "
              "run, the runner's start and its helpers' included; libuv 1.53's runner has its libuv linked in, "
              "so its library share is in other user)" % self.rounds)
        # Every run, and how its rate follows its context switches.
        print()
        print("runs (benchmark configuration rate switches-per-op), and per benchmark the correlation of rate "
              "with switches per op over all its runs:")
        print()
        if self.markdown:
            print("```text")
        runs = []
        for name in self.names:
            for cfg in configs:
                for r in self.perf_rows.get(cfg, []):
                    if r[0] == name:
                        ops = num(r[2]) if positive_field(r[2]) else 1
                        runs.append([name, cfg, r[1], fixed("%.3f", num(r[5] if len(r) > 5 else "") / ops)])
        with open(self.res + "/runs", "w") as f:
            f.write("".join(" ".join(r) + "\n" for r in runs))
        for r in runs:
            print("%-20s %-8s %12s %10s" % tuple(r))
        sums = {}
        for r in runs:
            x, y = num(r[2]), num(r[3])
            s = sums.setdefault(r[0], [0, 0.0, 0.0, 0.0, 0.0, 0.0])
            s[0] += 1
            s[1] += x
            s[2] += y
            s[3] += x * x
            s[4] += y * y
            s[5] += x * y
        for b, (m, x, y, xx, yy, xy) in sums.items():
            d2 = (m * xx - x ** 2) * (m * yy - y ** 2)
            if m > 2 and d2 > 0 and math.sqrt(d2) > 0:
                print("%-20s correlation %s over %d runs" % (b, fixed("%.2f", (m * xy - x * y) / math.sqrt(d2)), m))
        if self.markdown:
            print("```")

    def main(self):
        self.prepare()
        self.build_all()
        self.start_results()
        if self.callgrind:
            self.callgrind_table()
            return 0
        self.names = self.names or DEFAULT_NAMES
        configs = self.configs()
        for r in range(1, self.rounds + 1):
            # Each round starts with the next configuration, so that none
            # always runs right after the same other one.
            shift = (r - 1) % len(configs)
            for name in self.names:
                say("round %d/%d: %s" % (r, self.rounds, name))
                for cfg in configs[shift:] + configs[:shift]:
                    self.run(cfg, name)
        if self.against:
            self.ab_table()
        else:
            self.suite_table()
        if self.retried:
            print("")
            print("(failed once and passed when run again, the failed run left out: %s)" % ", ".join(self.retried))
        if self.rounds > 1:
            self.spread_table()
        if self.perf:
            self.perf_tables()
        if self.failed:
            say("some runs failed (logs in %s)" % self.res)
            return 1
        return 0


def main(args):
    sys.stdout.reconfigure(line_buffering=True)
    rounds = "3"
    markdown = callgrind = perf = False
    build = against = ""
    names = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-r":
            rounds = need(a, args, i)
            i += 2
            continue
        if a == "--against":
            against = need(a, args, i)
            i += 2
            continue
        if a == "--markdown":
            markdown = True
        elif a == "--callgrind":
            callgrind = True
        elif a == "--perf":
            perf = True
        elif a == "--list":
            print(" ".join(DEFAULT_NAMES))
            return 0
        elif a == "--list-countable":
            print(" ".join(COUNTABLE))
            return 0
        elif a == "--list-network":
            print(" ".join(NETWORK_NAMES))
            return 0
        elif a in ("-h", "--help"):
            print(USAGE)
            return 0
        elif a.startswith("-"):
            print("%s: unknown option %s" % (prog, a), file=sys.stderr)
            print(USAGE, file=sys.stderr)
            return 2
        elif not build:
            build = a
        else:
            names += a.split()
        i += 1
    if not build:
        print(USAGE, file=sys.stderr)
        return 2
    if callgrind and perf:
        usage_error("--callgrind and --perf do not go together")
    if perf and not shutil.which("perf"):
        usage_error("--perf needs perf (Debian: linux-perf)")
    rounds = positive("-r", rounds)
    if not os.path.isdir(build):
        die("%s: no such directory" % build)
    build = os.path.abspath(build)
    if against:
        if not os.path.isdir(against):
            usage_error("--against %s: no such directory" % against)
        against = os.path.abspath(against)
        if not os.path.isfile(against + "/.libs/libphaseloop-uv.so"):
            usage_error("no %s/.libs/libphaseloop-uv.so: build that tree first (make -C %s)" % (against, against))
        if against == build:
            usage_error("--against names BUILD itself")
    return Suite(build, against, names, rounds, markdown, callgrind, perf).main()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
