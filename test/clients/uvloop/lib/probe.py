# SPDX-License-Identifier: MIT
"""pytest plugin of phaseloop's uvloop kit (test/clients/uvloop/run).

Loaded with ``-p probe`` (its directory on PYTHONPATH).  It writes two
files named by the environment:

PL_PROBE_MAPS     the lines of /proc/self/maps that name a libuv library or
                  uvloop's extension module, read once collection has
                  imported uvloop: the proof of which libuv.so.1 this run
                  used.
PL_PROBE_RESULTS  one line per test: node id, PASS / FAIL / SKIP / ERROR,
                  and the first line of the reason (tab separated),
                  written again after every test; and, while a test
                  runs, its node id in PL_PROBE_RESULTS.running (removed
                  when it ends).  A run stopped from outside (pytest-
                  timeout's thread method ends the process) thus keeps
                  what finished and names the test it stopped in.
PL_PROBE_SKIP     (optional) a file of node ids, one a line, to leave out:
                  the tests an earlier, stopped run already reported.  A test
                  module that cannot be imported is one ERROR line under
                  the module's path.
"""

import os

_results = {}
_reasons = {}


def _first_line(report):
    text = getattr(report, "longreprtext", "") or ""
    if report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2])
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("E "):
            return line[1:].strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def _set(nodeid, status, report):
    # A test fails if any of its phases fails; a skip in setup is a skip.
    order = {"PASS": 0, "SKIP": 1, "FAIL": 2, "ERROR": 2}
    if order[status] >= order.get(_results.get(nodeid), -1):
        _results[nodeid] = status
        if status != "PASS":
            _reasons[nodeid] = _first_line(report)


def pytest_collection_finish(session):
    path = os.environ.get("PL_PROBE_MAPS")
    if not path:
        return
    with open("/proc/self/maps") as maps, open(path, "w") as out:
        seen = set()
        for line in maps:
            fields = line.split()
            if len(fields) < 6:
                continue
            lib = fields[-1]
            name = os.path.basename(lib)
            if ("libuv" in name or "libphaseloop" in name or
                    (name.startswith("loop.") and "uvloop" in lib)):
                if lib not in seen:
                    seen.add(lib)
                    out.write("%d %s\n" % (os.getpid(), lib))


def pytest_collection_modifyitems(session, config, items):
    path = os.environ.get("PL_PROBE_SKIP")
    if not path or not os.path.exists(path):
        return
    with open(path) as f:
        done = set(line.strip() for line in f if line.strip())
    keep = [item for item in items if item.nodeid not in done]
    dropped = [item for item in items if item.nodeid in done]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_collectreport(report):
    if report.failed:
        _set(report.nodeid, "ERROR", report)


def pytest_runtest_logreport(report):
    if report.failed:
        _set(report.nodeid, "FAIL", report)
    elif report.skipped:
        _set(report.nodeid, "SKIP", report)
    elif report.when == "call":
        _set(report.nodeid, "PASS", report)


def _write():
    path = os.environ.get("PL_PROBE_RESULTS")
    if not path:
        return
    with open(path + ".new", "w") as out:
        for nodeid in sorted(_results):
            reason = _reasons.get(nodeid, "").replace("\t", " ")
            out.write("%s\t%s\t%s\n" % (nodeid, _results[nodeid], reason[:200]))
    os.replace(path + ".new", path)


def pytest_runtest_logstart(nodeid, location):
    path = os.environ.get("PL_PROBE_RESULTS")
    if path:
        with open(path + ".running", "w") as out:
            out.write(nodeid + "\n")


def pytest_runtest_logfinish(nodeid, location):
    _write()
    path = os.environ.get("PL_PROBE_RESULTS")
    if path and os.path.exists(path + ".running"):
        os.remove(path + ".running")


def pytest_sessionfinish(session, exitstatus):
    _write()
