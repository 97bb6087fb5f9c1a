#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a server's owner pays: CPU per request at a fixed offered load,
latency, errors, and the CPU of an idle server, on real libuv and on
phaseloop, side by side in one interleaved run.

usage: bench/fixed-load.py BUILDDIR [options]

Servers (--servers, default c,node):
  c     examples/servers/http_server built twice from one source: against
        Debian's libuv (http_server-libuv) and against phaseloop
        (http_server); --loops L runs it with that many loops (threads,
        each with its own SO_REUSEPORT listener).
  c-dropin  the same source's http_server-libuv, one binary run on
        Debian's libuv and on phaseloop's drop-in libuv.so.1: what is
        left of a difference between the two c servers when both run
        the same program code (not in the default list).
  c-aa, node-aa  controls: the c or node server on libuv in both
        columns, two servers of one build measured exactly as the pairs
        above are (not in the default list). What their ratios stray
        from 1 is what this machine and this method make of two
        identical servers: a difference of a real pair within that
        is not one this run can show.
  node  bench/node/http_hello.js on the Node of the machine's Debian
        release from the clients kit (test/clients/node/fetch), on its real
        libuv.so.1 and on phaseloop's drop-in (test/clients/node/lib/
        with-node); L > 1 loops: --workers L (the cluster module).

For each server and loop count, the maximum rate is measured first: h2load
(package nghttp2-client) with --clients connections, each sending its next
request when the last was answered, for --duration seconds, against the
libuv configuration and then phaseloop's (--rounds times, the median).
Then each offered load (--loads, percent of libuv's maximum) is held with
h2load --rps for --duration seconds, the libuv and phaseloop servers taking
turns (the first of a round alternates), --rounds times. Per run: the
server's CPU time (user + system, every thread of every process of the
server: /proc/PID/task/TID/schedstat, in nanoseconds) per 1,000 answered
requests; the kernel's share of that time (the system clock ticks of
/proc/PID/task/TID/stat over user + system: whether a difference lies in
the program's code or in its system calls); its context switches per
1,000 (voluntary and involuntary, from /proc/PID/task/TID/status: a loop
that sleeps and wakes again switches once each time); the requests'
latency from h2load --log-file (p50, p99, max); the
errors (failed, errored, timed out, or not 2xx). The tables give medians
over the rounds; the CPU and p99 ratios are the median of each round's
libuv run over the phaseloop run beside it.

Idle (--idle SECONDS, default 60; 0: none): both servers of a kind run at
once, each with --tick 1000 (a repeating 1 s timer) and 4 keep-alive
connections that sent one request each and then wait; their CPU time and
context switches over SECONDS are compared.

Counts (--counts N, default 2000; 0: none): what one request costs, as
counts that the machine's load does not move. Each server is started
again under `strace -f -c` and under valgrind's callgrind, answers N and
then 5N requests (h2load -n, 4 connections) in two runs, and the
difference of the two runs' counts, divided by 4N, is the cost of one
request, without the start-up and the connections: system calls by name,
and instructions in all and in the loop's library (libuv.so.1, or
phaseloop's libphaseloop*.so). Node's total moves with what its JIT
compiles when; its loop library's part does not. The loop library's part
moves with the number of waits (epoll_wait calls, one an iteration) a
request took under callgrind, which is how many requests one wait found
ready there, and differs from run to run: the table gives it too.

Everything is loopback only and every process is stopped at the end (the
servers with SIGTERM, and must exit 0). The machine's load average is
printed before and after. Output: markdown tables on stdout; --json FILE
keeps every measurement.

options:
  --servers LIST   c, c-dropin, node, comma-separated (default c,node)
  --loops LIST     loop counts (default 1,2)
  --loads LIST     offered loads, percent of libuv's maximum (default 10,50,90)
  --clients N      h2load connections (default 16)
  --duration S     seconds per h2load run (default 10)
  -r, --rounds N   rounds (default 3)
  --idle S         seconds of the idle measurement (default 60; 0: none)
  --counts N       requests of the counts' first run (default 2000; 0: none)
  --json FILE      every measurement, as JSON
  --report FILE    print the tables of an earlier run's --json FILE (no
                   build directory, nothing run)
  --quick          1 round, 2 s runs, loads 50, loops 1, idle 3 s, counts
                   200 (a smoke test)
"""

import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "fixed-load.py"


def die(msg, status=1):
    print(f"{NAME}: {msg}", file=sys.stderr)
    sys.exit(status)


def positive(what, value):
    if not re.fullmatch(r"[0-9]+", value) or value.strip("0") == "":
        die(f"{what} must be a positive integer, not '{value}'", 2)
    return int(value)


def positive_list(what, text):
    return [positive(what, v) for v in text.split(",")]


def parse_args(argv):
    """The options, or exit 2 with a message that names what is wrong."""
    opts = {"servers": "c,node", "loops": "1,2", "loads": "10,50,90", "clients": "16", "duration": "10",
            "rounds": "3", "idle": "60", "counts": "2000", "json": None, "quick": False, "build": None,
            "report": None}
    names = {"--servers": "servers", "--loops": "loops", "--loads": "loads", "--clients": "clients",
             "--duration": "duration", "-r": "rounds", "--rounds": "rounds", "--idle": "idle", "--json": "json",
             "--counts": "counts", "--report": "report"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in names:
            if i + 1 >= len(argv):
                die(f"{a} needs a value", 2)
            opts[names[a]] = argv[i + 1]
            i += 2
        elif a == "--quick":
            opts["quick"] = True
            i += 1
        elif a.startswith("-"):
            die(f"unknown option {a} (--help lists them)", 2)
        elif opts["build"] is None:
            opts["build"] = a
            i += 1
        else:
            die(f"one build directory, not also '{a}'", 2)
    if opts["report"] is not None:
        if opts["build"] is not None:
            die("--report prints the tables of a --json file; it takes no build directory", 2)
    elif opts["build"] is None:
        die("usage: bench/fixed-load.py BUILDDIR [options] (--help lists them)", 2)
    return opts


# ---- processes ------------------------------------------------------------


def tree(pid):
    """pid and every process below it."""
    out = [pid]
    i = 0
    while i < len(out):
        try:
            with open(f"/proc/{out[i]}/task/{out[i]}/children") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
        i += 1
    return out


def thread_files(pid, name):
    """The text of /proc/P/task/T/NAME for every thread T of every process
    P of pid's tree (the ones that went away meanwhile left out)."""
    for p in tree(pid):
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{p}/task/{t}/{name}") as f:
                    yield f.read()
            except OSError:
                pass


def cpu_ns(pid):
    """On-CPU nanoseconds of every thread of pid's process tree."""
    return sum(int(text.split()[0]) for text in thread_files(pid, "schedstat") if text.split())


def user_sys_ticks(pid):
    """(user, system) clock ticks of every thread of pid's process tree
    (/proc/P/task/T/stat, the fields after the command's parenthesis)."""
    user = system = 0
    for text in thread_files(pid, "stat"):
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) > 12:
            user += int(fields[11])
            system += int(fields[12])
    return user, system


def switches(pid):
    """Context switches (voluntary + involuntary) of pid's threads."""
    total = 0
    for text in thread_files(pid, "status"):
        for line in text.splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(line.split()[1])
    return total


def maps_libuv(pid):
    libs = set()
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/maps") as f:
                for line in f:
                    fields = line.split()
                    if len(fields) >= 6 and "libuv.so" in fields[5]:
                        libs.add(os.path.realpath(fields[5]))
        except OSError:
            pass
    return libs


class Server:
    """One server process: started, its port read, its libuv checked,
    stopped with SIGTERM. `libuv` is the libuv.so.1 it must map, or None
    for phaseloop's own build, which must map none."""

    def __init__(self, label, argv, env, libuv, work):
        self.label = label
        self.out = open(os.path.join(work, label.replace(" ", "_") + ".out"), "w+")
        self.proc = subprocess.Popen(argv, env=env, stdout=self.out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.port = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.port is None:
            self.out.seek(0)
            m = re.search(r"^listening on 127\.0\.0\.1:(\d+)$", self.out.read(), re.M)
            if m:
                self.port = int(m.group(1))
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if self.port is None:
            self.kill()
            die(f"{label}: no 'listening on' line within 30 s:\n{self.output()}")
        libs = maps_libuv(self.proc.pid)
        if libs != ({libuv} if libuv else set()):
            self.kill()
            want = libuv or "no libuv.so (phaseloop's own build)"
            die(f"{label}: maps {sorted(libs) or 'no libuv.so'}, not {want}")

    def output(self):
        self.out.seek(0)
        return self.out.read()[-2000:]

    def cpu(self):
        return cpu_ns(self.proc.pid)

    def switches(self):
        return switches(self.proc.pid)

    def ticks(self):
        return user_sys_ticks(self.proc.pid)

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()

    def stop_servers(self):
        """SIGTERM to the processes of the tree that map a loop library
        (the servers, not a tracer above them, which then writes its counts
        and exits); exit statuses are not checked."""
        for p in tree(self.proc.pid):
            try:
                with open(f"/proc/{p}/maps") as f:
                    server = any("libuv.so" in line or "libphaseloop" in line for line in f)
                if server:
                    os.kill(p, signal.SIGTERM)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.kill()
            die(f"{self.label}: still running 120 s after SIGTERM")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()
            die(f"{self.label}: still running 20 s after SIGTERM")
        if status != 0:
            die(f"{self.label}: exit status {status} after SIGTERM:\n{self.output()}")


def server_kinds(servers, build, work):
    """kind -> {"libuv": start, "phaseloop": start}, start(loops, tick) -> Server."""
    kinds = {}
    real_uv = os.path.realpath("/usr/lib/x86_64-linux-gnu/libuv.so.1")
    dropin_dir = os.path.join(build, "dropin", ".libs")
    dropin_uv = os.path.realpath(os.path.join(dropin_dir, "libuv.so.1"))
    base_env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    if {"c", "c-dropin", "c-aa"} & set(servers):
        ex = os.path.join(build, "examples", "servers")

        def c_server(lib, label="c"):
            # http_server-libuv links Debian's libuv (lib "libuv"; run on
            # the drop-in, lib "dropin"); http_server is phaseloop's own
            # build of the same source (lib "phaseloop"). The label names
            # the server's output file, so two servers of one lib at once
            # (a control) need two.
            prog = os.path.join(ex, "http_server" if lib == "phaseloop" else "http_server-libuv")
            if not os.access(prog, os.X_OK):
                die(f"{prog} is not built (make -C {build} examples/servers/http_server "
                    "examples/servers/http_server-libuv)")

            # libtool's wrapper script of an uninstalled program: the
            # program itself, with the library's directory, so that a
            # tracer (--counts) sees the server and not a shell.
            real = os.path.join(ex, ".libs", os.path.basename(prog))
            env = dict(base_env)
            if os.access(real, os.X_OK):
                prog = real
                env["LD_LIBRARY_PATH"] = os.path.join(build, ".libs")
            if lib == "dropin":
                env["LD_LIBRARY_PATH"] = dropin_dir
            expect = {"libuv": real_uv, "phaseloop": None, "dropin": dropin_uv}[lib]
            config = "libuv" if lib == "libuv" else "phaseloop"

            def start(loops, tick, wrap=()):
                argv = list(wrap) + [prog, "--port", "0"] + (["--loops", str(loops)] if loops > 1 else [])
                argv += ["--tick", str(tick)] if tick else []
                return Server(f"{label} {config} {loops}", argv, dict(env), expect, work)
            return start
        if "c" in servers:
            kinds["c"] = {"libuv": c_server("libuv"), "phaseloop": c_server("phaseloop")}
        if "c-dropin" in servers:
            kinds["c-dropin"] = {"libuv": c_server("libuv"), "phaseloop": c_server("dropin", "c-dropin")}
        if "c-aa" in servers:
            kinds["c-aa"] = {"libuv": c_server("libuv"), "phaseloop": c_server("libuv", "c-aa")}
    if "node" in servers or "node-aa" in servers:
        clients = os.environ.get("CLIENTS_BUILD", os.path.join(build, "clients"))
        kit = os.path.join(ROOT, "test", "clients", "node")
        r = subprocess.run([os.path.join(kit, "fetch")], env=dict(os.environ, PHASELOOP_BUILD=build),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            die(f"test/clients/node/fetch failed:\n{r.stdout[-2000:]}")
        root = os.path.join(clients, "node", "root")
        node = os.path.join(root, "usr", "bin", "node")
        syslib = os.path.join(root, "usr", "lib", "x86_64-linux-gnu")
        script = os.path.join(ROOT, "bench", "node", "http_hello.js")

        def node_server(config, label="node"):
            uv = real_uv if config == "libuv" else dropin_uv

            def start(loops, tick, wrap=()):
                env = dict(base_env, NODE_KIT_ROOT=root, NODE_KIT_OUT=os.path.join(work, f"{label}-{config}"),
                           NODE_KIT_LDPATH=syslib if config == "libuv" else dropin_dir + ":" + syslib,
                           NODE_KIT_EXPECT_UV=uv)
                argv = ["unshare", "--mount", "--propagation", "private", os.path.join(kit, "lib", "with-node"),
                        "real" if config == "libuv" else "dropin"] + list(wrap) + [node, script]
                argv += ["--workers", str(loops)] if loops > 1 else []
                argv += ["--tick", str(tick)] if tick else []
                return Server(f"{label} {config} {loops}", argv, env, uv, work)
            return start
        if "node" in servers:
            kinds["node"] = {"libuv": node_server("libuv"), "phaseloop": node_server("phaseloop")}
        if "node-aa" in servers:
            kinds["node-aa"] = {"libuv": node_server("libuv"), "phaseloop": node_server("libuv", "node-aa")}
    return kinds


# ---- load -------------------------------------------------------------------


def h2load(port, clients, duration, rps, log):
    """One h2load run; returns (answered 2xx, errors, achieved req/s)."""
    argv = ["h2load", "--h1", "-c", str(clients), "-D", str(duration), "-T", "10", "-N", "10",
            f"--log-file={log}", f"http://127.0.0.1:{port}/"]
    if rps is not None:
        argv[1:1] = [f"--rps={rps:.3f}"]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=duration + 60)
    m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                  r"(\d+) errored, (\d+) timeout", r.stdout)
    codes = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", r.stdout)
    rate = re.search(r"finished in [0-9.]+m?s, ([0-9.]+) req/s", r.stdout)
    if r.returncode != 0 or not m or not codes or not rate:
        die(f"h2load failed (status {r.returncode}):\n{r.stdout[-2000:]}")
    ok = int(codes.group(1))
    errors = int(m.group(5)) + int(m.group(6)) + int(m.group(7)) + int(codes.group(2)) + \
        int(codes.group(3)) + int(codes.group(4))
    return ok, errors, float(rate.group(1))


def latencies(log):
    """The requests' times (microseconds) in h2load's --log-file."""
    out = []
    with open(log) as f:
        for line in f:
            fields = line.split("\t")
            if len(fields) >= 3:
                try:
                    out.append(int(fields[2]))
                except ValueError:
                    pass
    return sorted(out)


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    k = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def measure(server, clients, duration, rps, work):
    """The server under h2load: its CPU per 1,000 answered requests (ms),
    its context switches per 1,000 (a loop's sleep and wake-up is one; a
    thread preempted is another), latency p50/p99/max (us), errors,
    achieved req/s."""
    log = os.path.join(work, "h2load.log")
    if os.path.exists(log):
        os.remove(log)  # h2load appends to an existing --log-file
    before, switched, ticks = server.cpu(), server.switches(), server.ticks()
    ok, errors, rate = h2load(server.port, clients, duration, rps, log)
    spent = server.cpu() - before
    switched = server.switches() - switched
    user, system = (b - a for a, b in zip(ticks, server.ticks()))
    lat = latencies(log)
    return {
        "cpu_ms_per_1000": spent / 1e6 / ok * 1000 if ok else None,
        "cpu_s": spent / 1e9,
        "switches_per_1000": switched / ok * 1000 if ok else None,
        "kernel_pct": 100.0 * system / (user + system) if user + system else None,
        "answered": ok,
        "errors": errors,
        "rate": rate,
        "offered_rps": None if rps is None else rps,
        "p50_us": percentile(lat, 50),
        "p99_us": percentile(lat, 99),
        "max_us": lat[-1] if lat else None,
    }


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median_low(values) if values else None


# ---- idle -----------------------------------------------------------------


def hold_connections(port, count):
    """count keep-alive connections that each sent one request and read
    its answer, left open."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
        got = b""
        while b"\r\n\r\n" not in got or not got.rstrip().endswith(b"hello"):
            chunk = s.recv(4096)
            if not chunk:
                die(f"port {port}: the connection closed before the answer")
            got += chunk
        if not got.startswith(b"HTTP/1.1 200"):
            die(f"port {port}: answered {got[:40]!r}")
        socks.append(s)
    return socks


def idle(kind, starts, seconds, work):
    servers = {cfg: start(1, 1000) for cfg, start in starts.items()}
    try:
        conns = {cfg: hold_connections(s.port, 4) for cfg, s in servers.items()}
        time.sleep(1)  # past the connections' own work
        cpu0 = {cfg: s.cpu() for cfg, s in servers.items()}
        sw0 = {cfg: s.switches() for cfg, s in servers.items()}
        time.sleep(seconds)
        result = {cfg: {"cpu_ms": (s.cpu() - cpu0[cfg]) / 1e6, "switches": s.switches() - sw0[cfg]}
                  for cfg, s in servers.items()}
        for socks in conns.values():
            for c in socks:
                c.close()
    finally:
        for s in servers.values():
            s.stop()
    return result


# ---- counts -----------------------------------------------------------------


def h2load_n(port, n):
    r = subprocess.run(["h2load", "--h1", "-c", "4", "-n", str(n), "-T", "30", "-N", "30",
                        f"http://127.0.0.1:{port}/"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    codes = re.search(r"status codes: (\d+) 2xx", r.stdout)
    if r.returncode != 0 or not codes or int(codes.group(1)) != n:
        die(f"h2load -n {n} did not get {n} answers (status {r.returncode}):\n{r.stdout[-2000:]}")


def strace_calls(path):
    """syscall -> calls, from strace -c's table."""
    calls = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^\s*[0-9.]+\s+[0-9.]+\s+[0-9]+\s+([0-9]+)\s+(?:[0-9]+\s+)?([a-z_0-9]+)\s*$", line)
            if m and m.group(2) != "total":
                calls[m.group(2)] = int(m.group(1))
    if not calls:
        die(f"{path}: no strace -c table")
    return calls


def callgrind_split(path):
    """(all instructions, the loop library's), from a callgrind file."""
    r = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", "--auto=no", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    total = lib = 0
    obj = ""
    for line in r.stdout.splitlines():
        t = re.match(r"^\s*([0-9,]+) \(100\.0+%\)\s+PROGRAM TOTALS", line)
        if t:
            total = int(t.group(1).replace(",", ""))
            continue
        # A function's line names its object, unless it is the last one's.
        m = re.match(r"^\s*([0-9,]+) \(\s*[0-9.]+%\)\s+\S.*?(?: \[(.*)\])?\s*$", line)
        if not m:
            continue
        if m.group(2):
            obj = os.path.basename(m.group(2))
        if obj.startswith(("libuv.so", "libphaseloop")):
            lib += int(m.group(1).replace(",", ""))
    if total == 0:
        die(f"callgrind_annotate {path}: no program totals:\n{r.stdout[-1000:]}")
    return total, lib


def callgrind_waits(path):
    """Calls to epoll_wait and epoll_pwait in a callgrind file (its call
    lines: "cfn=" names the callee, by a number after its first use)."""
    names, callee, total = {}, None, 0
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3).strip()
                if m.group(1) == "cfn":
                    callee = names.get(m.group(2), "")
                continue
            m = re.match(r"^calls=(\d+)", line)
            if m and callee in ("epoll_wait", "epoll_pwait"):
                total += int(m.group(1))
    return total


def counts(kind, starts, n, work):
    """Per request, for each configuration: system calls by name and
    instructions (all, the loop library's), from the difference of an n-
    and a 5n-request run."""
    out = {}
    for cfg, start in starts.items():
        runs = []
        for requests in (n, 5 * n):
            trace = os.path.join(work, f"strace-{kind}-{cfg}-{requests}")
            server = start(1, 0, ["strace", "-f", "-c", "-o", trace])
            h2load_n(server.port, requests)
            server.stop_servers()
            run = {"calls": strace_calls(trace)}
            cg = os.path.join(work, f"callgrind-{kind}-{cfg}-{requests}")
            server = start(1, 0, ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}"])
            h2load_n(server.port, requests)
            server.stop_servers()
            run["instructions"], run["library"] = callgrind_split(cg)
            run["waits"] = callgrind_waits(cg)
            runs.append(run)
        per = 4.0 * n
        a, b = runs
        names = set(a["calls"]) | set(b["calls"])
        calls = {k: (b["calls"].get(k, 0) - a["calls"].get(k, 0)) / per for k in names}
        out[cfg] = {"calls": calls, "calls_total": sum(calls.values()),
                    "instructions": (b["instructions"] - a["instructions"]) / per,
                    "library": (b["library"] - a["library"]) / per,
                    "waits": (b["waits"] - a["waits"]) / per}
    return out


# ---- tables -----------------------------------------------------------------


def fmt(v, digits=2):
    if v is None:
        return "-"
    return f"{v:.{digits}f}"


def percent(v):
    return "-" if v is None else f"{v:.0f} %"


SERVER_NAMES = {"c": "example HTTP server", "c-dropin": "example HTTP server, libuv's build on the drop-in",
                "c-aa": "example HTTP server, libuv against libuv (control)",
                "node": "Node http hello", "node-aa": "Node http hello, libuv against libuv (control)"}


def spread_of(values):
    """' (lowest-highest)' of the rounds, or '' for one round."""
    values = [v for v in values if v is not None]
    return f" ({min(values):.2f}-{max(values):.2f})" if len(values) > 1 else ""


def paired_ratio(libuv_runs, phaseloop_runs, key):
    """The median over the rounds of libuv's value / phaseloop's in the same
    round: the two runs of a round are next to each other, so what the
    machine does from one round to the next cancels out of each ratio."""
    ratios = pooled(libuv_runs + phaseloop_runs, key)
    return f"{statistics.median(ratios):.2f}" if ratios else "-"


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__.strip())
        return 0
    o = parse_args(sys.argv[1:])
    if o["report"] is not None:
        return report(o["report"])
    servers = [s for s in o["servers"].split(",") if s]
    for s in servers:
        if s not in SERVER_NAMES:
            die(f"--servers takes {', '.join(SERVER_NAMES)}, not '{s}'", 2)
    rounds = positive("-r", o["rounds"])
    loops = positive_list("--loops", o["loops"])
    loads = positive_list("--loads", o["loads"])
    if any(v > 100 for v in loads):
        die("--loads are percents of the maximum, at most 100", 2)
    clients = positive("--clients", o["clients"])
    duration = positive("--duration", o["duration"])
    if not re.fullmatch(r"[0-9]+", o["idle"]):
        die(f"--idle takes seconds, not '{o['idle']}'", 2)
    idle_s = int(o["idle"])
    if not re.fullmatch(r"[0-9]+", o["counts"]):
        die(f"--counts takes a number of requests, not '{o['counts']}'", 2)
    count_n = int(o["counts"])
    if o["quick"]:
        rounds, duration, loads, loops, idle_s, count_n = 1, 2, [50], [1], 3, 200
    if not os.path.isdir(o["build"]):
        die(f"{o['build']} is not a build directory", 2)
    build = os.path.abspath(o["build"])
    for tool in ["h2load"] + (["strace", "valgrind", "callgrind_annotate"] if count_n else []):
        if subprocess.run(["sh", "-c", f"command -v {tool}"], stdout=subprocess.DEVNULL).returncode != 0:
            die(f"{tool} is missing (tools/setup --bench installs it" +
                ("; Debian package nghttp2-client)" if tool == "h2load" else "), or --counts 0"))

    work = tempfile.mkdtemp(prefix="fixed-load.")
    kinds = server_kinds(servers, build, work)
    record = {"machine_load_before": loadavg(), "clients": clients, "duration_s": duration, "idle_s": idle_s,
              "rounds": rounds, "runs": [], "max": [], "idle": {}, "counts": {}, "counts_n": count_n}
    print(f"{NAME}: load average {record['machine_load_before']} at the start; h2load -c {clients}, "
          f"{duration} s runs, {rounds} round(s)", file=sys.stderr)
    order = ["libuv", "phaseloop"]
    for kind, starts in kinds.items():
        for nl in loops:
            servers = {cfg: starts[cfg](nl, 0) for cfg in order}
            try:
                # The maximum: flat out, libuv then phaseloop, per round.
                maxima = {cfg: [] for cfg in order}
                for r in range(rounds):
                    for cfg in (order if r % 2 == 0 else order[::-1]):
                        m = measure(servers[cfg], clients, duration, None, work)
                        maxima[cfg].append(m["rate"])
                        record["max"].append(dict(kind=kind, loops=nl, config=cfg, round=r, **m))
                top = median(maxima["libuv"])
                print(f"{NAME}: {kind}, {nl} loop(s): maximum {top:.0f} req/s on libuv, "
                      f"{median(maxima['phaseloop']):.0f} on phaseloop", file=sys.stderr)
                for pct in loads:
                    rps = top * pct / 100.0
                    for r in range(rounds):
                        for cfg in (order if r % 2 == 0 else order[::-1]):
                            m = measure(servers[cfg], clients, duration, rps / clients, work)
                            record["runs"].append(dict(kind=kind, loops=nl, load=pct, offered=rps,
                                                       config=cfg, round=r, **m))
            finally:
                for s in servers.values():
                    s.stop()
        if idle_s > 0:
            record["idle"][kind] = idle(kind, starts, idle_s, work)
        if count_n > 0:
            record["counts"][kind] = counts(kind, starts, count_n, work)
    record["machine_load_after"] = loadavg()
    if o["json"]:
        with open(o["json"], "w") as f:
            json.dump(record, f, indent=1)
    print_tables(record, loads, loops, idle_s)
    return 0


def report(path):
    """The tables of an earlier run, from its --json file."""
    try:
        with open(path) as f:
            record = json.load(f)
        runs = record["runs"]
        loads = sorted({r["load"] for r in runs})
        loops = sorted({r["loops"] for r in runs})
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"--report {path}: not a --json file of this script ({e})")
    print_tables(record, loads, loops, record.get("idle_s"))
    return 0


def pooled(runs, key):
    """Every round of every cell of a server: each round's libuv / phaseloop
    ratio of `key`, sorted."""
    pairs = {}
    for r in runs:
        if r[key] is not None:
            pairs.setdefault((r["loops"], r["load"], r["round"]), {})[r["config"]] = r[key]
    return sorted(p["libuv"] / p["phaseloop"] for p in pairs.values()
                  if p.get("libuv") is not None and p.get("phaseloop"))


def print_pooled(runs):
    """Each server's paired ratios over all its cells and rounds: whether
    one side is ahead more often than two identical servers (the
    controls) are."""
    print()
    print("Every round of every load and loop count pooled, per server: each round's libuv / phaseloop "
          "ratio (> 1: phaseloop lower), their median and quartiles, and in how many rounds phaseloop "
          "was at or below libuv:")
    print()
    print("| server | rounds | CPU / request: median (quartiles) | phaseloop at or below | "
          "p99: median (quartiles) | phaseloop at or below |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind in sorted({r["kind"] for r in runs}, key=list(SERVER_NAMES).index):
        sel = [r for r in runs if r["kind"] == kind]
        cells = []
        for key in ("cpu_ms_per_1000", "p99_us"):
            v = pooled(sel, key)
            if not v:
                cells += ["-", "-"]
                continue
            q1, _, q3 = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else v * 3
            cells += [f"{statistics.median(v):.2f} ({q1:.2f}-{q3:.2f})",
                      f"{sum(1 for x in v if x >= 1)} of {len(v)}"]
        print(f"| {SERVER_NAMES[kind]} | {len(pooled(sel, 'cpu_ms_per_1000'))} | {' | '.join(cells)} |")


def print_tables(record, loads, loops, idle_s):
    runs = record["runs"]
    print(f"h2load --h1 -c {record['clients']} --rps, {record['duration_s']} s per run, median of "
          f"{record['rounds']} round(s) (CPU: the median, and the lowest and highest round; the two libuv / "
          f"phaseloop columns, of CPU and of p99: the median of each round's ratio of the two runs side "
          f"by side, > 1: phaseloop lower), "
          f"libuv and phaseloop taking turns; load average "
          f"{record['machine_load_before']} before, {record['machine_load_after']} after.")
    print()
    print("| server | loops | load | offered req/s | CPU ms / 1,000 req libuv | phaseloop | libuv / phaseloop "
          "| in the kernel libuv / phaseloop | switches / 1,000 req libuv / phaseloop "
          "| p50 us libuv / phaseloop | p99 us libuv / phaseloop | p99 libuv / phaseloop | max us libuv / phaseloop | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for kind in sorted({r["kind"] for r in runs}, key=list(SERVER_NAMES).index):
        for nl in loops:
            for pct in loads:
                sel = {cfg: [r for r in runs if r["kind"] == kind and r["loops"] == nl and r["load"] == pct
                             and r["config"] == cfg] for cfg in ("libuv", "phaseloop")}
                if not sel["libuv"]:
                    continue
                med = {cfg: {k: median([r[k] for r in rs]) for k in
                             ("cpu_ms_per_1000", "kernel_pct", "switches_per_1000", "p50_us", "p99_us",
                              "max_us")}
                       for cfg, rs in sel.items()}
                errors = {cfg: sum(r["errors"] for r in rs) for cfg, rs in sel.items()}
                offered = sel["libuv"][0]["offered"]
                name = SERVER_NAMES[kind]
                lu, pl = med["libuv"], med["phaseloop"]
                spread = {cfg: spread_of([r["cpu_ms_per_1000"] for r in rs]) for cfg, rs in sel.items()}
                print(f"| {name} | {nl} | {pct} % | {offered:.0f} | {fmt(lu['cpu_ms_per_1000'])}{spread['libuv']} | "
                      f"{fmt(pl['cpu_ms_per_1000'])}{spread['phaseloop']} | "
                      f"{paired_ratio(sel['libuv'], sel['phaseloop'], 'cpu_ms_per_1000')} | "
                      f"{percent(lu['kernel_pct'])} / {percent(pl['kernel_pct'])} | "
                      f"{fmt(lu['switches_per_1000'], 0)} / {fmt(pl['switches_per_1000'], 0)} | "
                      f"{fmt(lu['p50_us'], 0)} / {fmt(pl['p50_us'], 0)} | {fmt(lu['p99_us'], 0)} / "
                      f"{fmt(pl['p99_us'], 0)} | {paired_ratio(sel['libuv'], sel['phaseloop'], 'p99_us')} | "
                      f"{fmt(lu['max_us'], 0)} / {fmt(pl['max_us'], 0)} | "
                      f"{errors['libuv']} / {errors['phaseloop']} |")
    if runs:
        print_pooled(runs)
    if record["idle"]:
        print()
        print(f"Idle{f' for {idle_s} s' if idle_s is not None else ''} (one listener, 4 idle keep-alive connections, a repeating 1 s timer), "
              "both servers at once:")
        print()
        print("| server | CPU ms libuv | phaseloop | context switches libuv | phaseloop |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for kind, r in record["idle"].items():
            name = SERVER_NAMES[kind]
            print(f"| {name} | {fmt(r['libuv']['cpu_ms'])} | {fmt(r['phaseloop']['cpu_ms'])} | "
                  f"{r['libuv']['switches']} | {r['phaseloop']['switches']} |")
    if record["counts"]:
        n = record["counts_n"]
        print()
        print(f"One request's cost in counts (the difference of a {n}- and a {5 * n}-request run, "
              "h2load -n over 4 connections, divided by the difference): system calls (`strace -f -c`; "
              "each call made 0.05 times a request or more, by name) and instructions "
              "(callgrind) in all and in the loop's library; and the waits (`epoll_wait`) a request "
              "under callgrind, whose number moves the loop library's count: each wait is one "
              "iteration of the loop, and how many requests one wait collects under callgrind moves "
              "from run to run:")
        print()
        print("| server | system calls libuv | phaseloop | by name, libuv / phaseloop "
              "| instructions libuv | phaseloop | in the loop library libuv / phaseloop "
              "| waits under callgrind libuv / phaseloop |")
        print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
        for kind, r in record["counts"].items():
            name = SERVER_NAMES[kind]
            lu, pl = r["libuv"], r["phaseloop"]
            names = sorted(k for k in set(lu["calls"]) | set(pl["calls"])
                           if max(lu["calls"].get(k, 0), pl["calls"].get(k, 0)) >= 0.05)
            by = ", ".join(f"{k} {lu['calls'].get(k, 0):.2f} / {pl['calls'].get(k, 0):.2f}" for k in names)
            ins = (f"{fmt(lu['instructions'], 0)} | {fmt(pl['instructions'], 0)} | "
                   f"{fmt(lu['library'], 0)} / {fmt(pl['library'], 0)} | "
                   f"{fmt(lu.get('waits'), 3)} / {fmt(pl.get('waits'), 3)}")
            print(f"| {name} | {lu['calls_total']:.2f} | {pl['calls_total']:.2f} | {by} | {ins} |")


if __name__ == "__main__":
    sys.exit(main())
