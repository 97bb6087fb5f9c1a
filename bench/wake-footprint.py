#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wake-footprint.py -- the memory the example HTTP server touches per wake-up.

Usage: bench/wake-footprint.py BUILD [--wakes N] [--modes request,idle]

A server that sleeps between requests pays, on every wake-up, for the
memory it touches: each distinct page needs a TLB entry and each line a
cache fill, and while it slept other processes evicted them. The counts
here do not depend on the machine's load: valgrind's lackey tool traces
every instruction fetch, load and store of examples/servers/http_server
(on Debian's libuv, `http_server-libuv`, and on phaseloop's
libphaseloop.so, `http_server`), the trace is cut at each call of the C
library's epoll_wait, and each piece -- one wake-up -- is counted as its
distinct 4 KiB pages and 64-byte lines, code and data apart, and its pages
by the object they belong to (the program, the C library, the loop
library, the heap and other anonymous memory, the stack).

Modes:
  request  one keep-alive connection, one request at a time, 20 ms apart:
           each wake-up reads one request and writes its answer
  idle     no connection, a repeating 20 ms timer (--tick 20)

The first 10 wake-ups (start-up, the connection) are left out. Output: a
markdown table per mode, libuv and phaseloop side by side.
"""

import collections
import os
import re
import socket
import subprocess
import sys
import threading
import time

NAME = "wake-footprint.py"
SKIP = 10  # first wake-ups left out


def die(msg, status=1):
    print(f"{NAME}: {msg}", file=sys.stderr)
    sys.exit(status)


def parse_args(argv):
    o = {"wakes": 60, "modes": ["request", "idle"], "build": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        if a in ("--wakes", "--modes"):
            if i + 1 == len(argv):
                die(f"{a} needs a value", 2)
            v = argv[i + 1]
            if a == "--wakes":
                if not re.fullmatch(r"[1-9][0-9]*", v):
                    die(f"--wakes takes a positive number, not '{v}'", 2)
                o["wakes"] = int(v)
            else:
                o["modes"] = v.split(",")
                bad = [m for m in o["modes"] if m not in ("request", "idle")]
                if bad:
                    die(f"--modes: unknown mode {bad[0]} (request, idle)", 2)
            i += 2
            continue
        if a.startswith("-") or o["build"] is not None:
            die(f"unexpected argument '{a}' (usage: {NAME} BUILD [--wakes N] [--modes request,idle])", 2)
        o["build"] = a
        i += 1
    if o["build"] is None:
        die(f"usage: {NAME} BUILD [--wakes N] [--modes request,idle]", 2)
    return o


def read_maps(pid):
    """[(lo, hi, offset, path)] of a process."""
    out = []
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            path = parts[5].strip() if len(parts) > 5 else ""
            out.append((lo, hi, int(parts[2], 16), path))
    return out


def entry_points(maps):
    """Addresses of the C library's epoll_wait and epoll_pwait as mapped."""
    libc = [m for m in maps if os.path.basename(m[3]).startswith("libc.so")]
    if not libc:
        die("the server maps no libc.so")
    path = libc[0][3]
    base = min(lo - off for lo, hi, off, p in libc)
    nm = subprocess.run(["nm", "-D", "--defined-only", path], stdout=subprocess.PIPE, text=True, check=True)
    found = set()
    for line in nm.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2].split("@")[0] in ("epoll_wait", "epoll_pwait"):
            found.add(base + int(parts[0], 16))
    if not found:
        die(f"{path}: no epoll_wait")
    return found


def stack_mapping(maps, kept):
    """The client's stack under valgrind: an anonymous mapping, which the
    stack grows down from into memory the maps do not list yet; the
    mapping just above the touched addresses no mapping holds."""
    unlisted = [pg << 12 for w in kept for pg in w[1]
                if not any(lo <= pg << 12 < hi for lo, hi, off, path in maps)]
    if not unlisted:
        return None
    top = max(unlisted)
    above = [m for m in maps if m[0] > top]
    return min(above) if above else None


def owner(maps, addr, stack):
    if stack is not None and stack[0] <= addr < stack[1]:
        return "stack"
    for lo, hi, off, path in maps:
        if lo <= addr < hi:
            if path == "[stack]":
                return "stack"
            if path == "" or path.startswith("["):
                return "anonymous"
            return os.path.basename(path)
    return "stack"  # below the stack's mapping: the stack grown further


def trace(build, config, mode, wakes):
    """Per wake-up (code pages, data pages, code lines, data lines) sets, and the maps."""
    ex = os.path.join(build, "examples", "servers")
    env = dict(os.environ)
    if config == "libuv":
        prog = os.path.join(ex, "http_server-libuv")
    else:
        prog = os.path.join(ex, ".libs", "http_server")
        env["LD_LIBRARY_PATH"] = os.path.join(build, ".libs")
    if not os.access(prog, os.X_OK):
        die(f"{prog} is not built (make -C {build} examples/servers/http_server examples/servers/http_server-libuv)")
    argv = ["valgrind", "--tool=lackey", "--trace-mem=yes", prog, "--port", "0"]
    if mode == "idle":
        argv += ["--tick", "20"]
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         bufsize=1 << 20, start_new_session=True)
    port = []
    ready = threading.Event()

    def read_stdout():
        for line in p.stdout:
            m = re.search(r"^listening on 127\.0\.0\.1:(\d+)$", line)
            if m:
                port.append(int(m.group(1)))
                ready.set()
        ready.set()

    def drive():
        # Ends the server (SIGKILL: the trace is all that is wanted), so
        # that the reader below sees the end of the trace.
        try:
            if not ready.wait(120) or not port:
                return
            if mode == "request":
                with socket.create_connection(("127.0.0.1", port[0]), timeout=60) as s:
                    for _ in range(wakes + SKIP + 2):
                        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        got = b""
                        while not got.rstrip().endswith(b"hello"):
                            chunk = s.recv(4096)
                            if not chunk:
                                return
                            got += chunk
                        time.sleep(0.02)
            else:
                # Under valgrind a 20 ms tick comes less often; wait until
                # the reader has counted enough.
                deadline = time.monotonic() + 600
                while len(windows) < wakes + SKIP + 2 and time.monotonic() < deadline:
                    time.sleep(0.1)
        finally:
            time.sleep(0.2)
            p.kill()

    windows = []
    threading.Thread(target=read_stdout, daemon=True).start()
    threading.Thread(target=drive, daemon=True).start()
    maps = None
    entries = set()
    cur = None
    for line in p.stderr:
        if maps is None:
            if not port:
                continue
            maps = read_maps(p.pid)
            entries = entry_points(maps)
        if line.startswith("=="):
            continue
        kind = line[:2].strip()
        try:
            addr = int(line[3:].split(",", 1)[0], 16)
        except ValueError:
            continue
        if kind == "I":
            if addr in entries:
                if cur is not None:
                    windows.append(cur)
                cur = (set(), set(), set(), set())
                continue
            if cur is not None:
                cur[0].add(addr >> 12)
                cur[2].add(addr >> 6)
        elif cur is not None:
            cur[1].add(addr >> 12)
            cur[3].add(addr >> 6)
    p.wait()
    if maps is None:
        die(f"{config}: the server did not start under valgrind")
    # A wake-up that found nothing (a signal, a spurious return) runs
    # almost no code: left out.
    kept = [w for w in windows[SKIP:] if len(w[2]) > 20][:wakes]
    if len(kept) < wakes // 2:
        die(f"{config} {mode}: only {len(kept)} wake-ups traced")
    return kept, maps


def summarize(kept, maps):
    n = len(kept)
    s = {"n": n}
    for i, key in enumerate(["code pages", "data pages", "code lines", "data lines"]):
        s[key] = sum(len(w[i]) for w in kept) / n
    by = collections.Counter()
    stack = stack_mapping(maps, kept)
    for w in kept:
        for pg in w[0]:
            by[("code", owner(maps, pg << 12, stack))] += 1
        for pg in w[1]:
            by[("data", owner(maps, pg << 12, stack))] += 1
    # The loop library under one name in both configurations.
    s["by"] = collections.Counter()
    for (what, obj), c in by.items():
        if obj.startswith(("libuv.so", "libphaseloop")):
            obj = "loop library"
        elif obj.startswith("http_server"):
            obj = "program"
        elif obj.startswith("libc.so"):
            obj = "C library"
        elif obj.startswith("ld-linux"):
            obj = "dynamic linker"
        elif obj.startswith("vgpreload"):
            continue  # valgrind's own
        s["by"][(what, obj)] += c / n
    return s


def main():
    o = parse_args(sys.argv[1:])
    for tool in ("valgrind", "nm"):
        if subprocess.run(["sh", "-c", f"command -v {tool}"], stdout=subprocess.DEVNULL).returncode:
            die(f"{tool} is not installed (tools/setup --bench)")
    start = time.monotonic()
    results = {}
    for mode in o["modes"]:
        for config in ("libuv", "phaseloop"):
            kept, maps = trace(o["build"], config, mode, o["wakes"])
            results[(mode, config)] = summarize(kept, maps)
    print(f"`bench/wake-footprint.py {o['build']} --wakes {o['wakes']} --modes {','.join(o['modes'])}` "
          f"({time.monotonic() - start:.0f} s):")
    for mode in o["modes"]:
        a, b = results[(mode, "libuv")], results[(mode, "phaseloop")]
        what = ("one request read and answered" if mode == "request" else "a 20 ms timer")
        print()
        print(f"Per wake-up, {what} (mean of {a['n']} / {b['n']} wake-ups, libuv / phaseloop):")
        print()
        print("| | libuv | phaseloop |")
        print("| --- | ---: | ---: |")
        for key in ("code pages", "data pages", "code lines", "data lines"):
            print(f"| {key} | {a[key]:.1f} | {b[key]:.1f} |")
        keys = sorted(set(a["by"]) | set(b["by"]))
        for what, obj in keys:
            print(f"| {what} pages: {obj} | {a['by'].get((what, obj), 0):.1f} | {b['by'].get((what, obj), 0):.1f} |")


if __name__ == "__main__":
    main()
