# SPDX-License-Identifier: MIT
"""jsgen -- a seeded generator of JavaScript programs for Node and browsers.

A program is a tree of statements: the main script's, and in each callback
the statements it runs. Every callback prints a line naming it (its
statement's number), so a program's output is the trace of what ran in
which order; the process's exit status is part of the answer too.

Targets: "node10", "node11" and "node" (Node 20) -- each only with the API
that Node version has -- and "browser" (the HTML event loop: timers,
messages, animation frames, events; the program prints END when nothing
of it is pending, as the browser oracle wants).

Why the output depends on the runtime's rules alone, not on timing:
- A positive timeout is a power of 3 quanta (Q), each used once at most,
  and an interval fires twice at most, so no two timers come due at the
  same ideal moment and any two are Q apart or more.
- The main script, and every task (timer, immediate, I/O, message, frame)
  ends by waiting 3 ms (asleep in Atomics.wait in Node, so that the
  thread pool gets the processor; busy in the browser), as does every
  asynchronous file operation right after it starts: a 0 or 1 ms timer made before is then due at the
  next timers phase, and a file operation's result is back from the
  thread pool before the loop next polls. Without this, a 1 ms timer and
  an immediate, or a file callback and a timer, race.
- File operations work in the run's own scratch directory (the cwd).
- Output goes through console.log of strings only.

The same seed and target always give the same program (random.Random).
Any statement can be removed with what it contains and the program stays
valid (a clear or refresh of a timer that no longer exists does nothing),
which is what reduce() relies on.
"""

import random

TARGETS = ("node10", "node11", "node", "browser")
POWERS = (1, 3, 9)
# Quantum (ms): the task endings' 3 ms waits, and a file request's round
# trip, fit between two timers many times over, also on a loaded machine
# (where a 3 ms sleep can take 15).
QUANTUM = {"node10": 50, "node11": 50, "node": 50, "browser": 40}

# Operations that are one request to the thread pool each (fs.readFile and
# fs.writeFile are several, each started from the last one's callback, with
# no wait between: they would race with timers). Contents are written with
# the synchronous calls.
FS_OPS = ("stat", "readdir", "unlink", "mkdir", "rmdir", "rename", "copyFile", "access")
FS_SYNC = ("writeFileSync", "appendFileSync", "readFileSync", "unlinkSync", "existsSync")


class Stmt:
    __slots__ = ("id", "kind", "args", "body")

    def __init__(self, sid, kind, args=None):
        self.id, self.kind, self.args, self.body = sid, kind, args or {}, []


class Program:
    def __init__(self, seed, target):
        self.seed, self.target = seed, target
        self.main = []
        self.keep = set()      # ids reduction must not remove

    def walk(self):
        """Every statement, depth first."""
        stack = list(reversed(self.main))
        while stack:
            s = stack.pop()
            yield s
            stack.extend(reversed(s.body))

    def ids(self):
        """The ids reduction may remove."""
        return [s.id for s in self.walk() if s.id not in self.keep]

    def without(self, drop):
        """A copy without the statements whose id is in drop (and what
        they contain)."""
        p = Program(self.seed, self.target)
        p.keep = set(self.keep)

        def copy(stmts):
            out = []
            for s in stmts:
                if s.id in drop:
                    continue
                c = Stmt(s.id, s.kind, s.args)
                c.body = copy(s.body)
                out.append(c)
            return out
        p.main = copy(self.main)
        return p

    def size(self):
        return sum(1 for _ in self.walk())


# Statement kinds per target, with weights.
COMMON = {"log": 3, "then": 8, "chain": 4, "async": 5, "thenable": 3, "catch": 3,
          "timeout": 14, "interval": 3, "clear": 5}
NODE = {"tick": 10, "immediate": 12, "clear_immediate": 3, "refresh": 2, "unref": 2, "ref": 1,
        "on": 4, "emit": 5, "emit_error": 1, "throw": 2, "exit_code": 2, "exit": 1, "fs": 9,
        "fs_promise": 3, "fs_sync": 4, "reject": 2}
BROWSER = {"micro": 8, "message": 8, "raf": 6, "cancel_raf": 2, "listen": 4, "dispatch": 5,
           "throw": 2, "reject": 2}
MICRO_NODE = {"node11": {"micro": 6}, "node": {"micro": 6, "timers_promise": 4}}
# Node 10 and 11 (V8 before 7.2) resume an async function three microtask
# turns after `await v`, SpiderMonkey (every mode of the runner) one turn
# after: a known difference (docs/runner.md), so no `await` there.
NO_AWAIT = {"node10", "node11"}
# Process listeners: once each at most, in the main script.
LISTENERS = ("exit", "beforeExit", "uncaughtException", "unhandledRejection")
# The kinds whose callback is a task: it ends with the 3 ms wait.
TASKS = {"timeout", "interval", "immediate", "fs", "message", "raf", "timers_promise"}
# Statements after which nothing in the same block runs.
LAST = {"throw", "exit"}


class _Gen:
    def __init__(self, seed, target):
        if target not in TARGETS:
            raise ValueError("unknown target %r (one of %s)" % (target, ", ".join(TARGETS)))
        self.r = random.Random("%s/%d" % (target, seed))
        self.p = Program(seed, target)
        self.target = target
        self.browser = target == "browser"
        self.powers = list(POWERS)
        self.r.shuffle(self.powers)
        self.next_id = 1
        self.timers = []       # ids of timeout/interval statements so far
        self.immediates = []
        self.frames = []
        self.budget = self.r.randint(6, 28)
        kinds = dict(COMMON)
        kinds.update(BROWSER if self.browser else NODE)
        kinds.update(MICRO_NODE.get(target, {}))
        if target in NO_AWAIT:
            del kinds["async"]
        self.kinds = list(kinds)
        self.weights = [kinds[k] for k in self.kinds]

    def drop_kinds(self, *kinds):
        self.weights = [0 if k in kinds else w for k, w in zip(self.kinds, self.weights)]

    def new(self, kind, **args):
        s = Stmt(self.next_id, kind, args)
        self.next_id += 1
        self.budget -= 1
        return s

    def delay(self, micro, repeat=False):
        """0 (or 1, which Node treats alike), or a power of 3 quanta no other
        timer uses; None when neither may be used here. A 0 or 1 ms timer is
        made only where a task's closing 3 ms wait follows (not in a
        microtask or nextTick callback, which run after it), and never
        repeats."""
        r = self.r
        if self.powers and (micro or repeat or r.random() < 0.5):
            return self.powers.pop() * QUANTUM[self.target]
        if micro or repeat:
            return None
        return r.choice((0, 0, 1))

    def block(self, depth, micro):
        """A callback's statements; micro: the callback is not a task (a
        microtask, a nextTick callback, a listener)."""
        out = []
        for _ in range(self.r.choice((0, 1, 1, 2, 2, 3))):
            if self.budget <= 0:
                break
            s = self.statement(depth, micro)
            out.append(s)
            if s.kind in LAST:
                break
        return out

    def statement(self, depth, micro):
        r = self.r
        kind = r.choices(self.kinds, weights=self.weights)[0]
        # Nothing nests without end: deep down, only plain statements.
        if depth >= 5:
            kind = r.choice(("log", "then", "clear"))
        if kind in ("clear", "refresh", "unref", "ref") and not self.timers:
            kind = "log"
        # A refreshed timer starts again from now: as a new timer would.
        if kind == "refresh" and micro:
            kind = "log"
        if kind in ("timeout", "interval", "timers_promise"):
            delay = None
            if kind != "timers_promise" or r.random() < 0.5:
                delay = self.delay(micro, kind == "interval")
                if delay is None:
                    kind = "then"
        if kind == "clear_immediate" and not self.immediates:
            kind = "log"
        if kind == "cancel_raf" and not self.frames:
            kind = "log"
        s = self.new(kind)
        a = s.args
        if kind in ("timeout", "interval"):
            a["delay"] = delay
            if kind == "interval":
                a["times"] = r.choice((1, 2, 2))
            self.timers.append(s.id)
        elif kind == "timers_promise":
            a["how"] = "setImmediate" if delay is None else "setTimeout"
            a["delay"] = delay
        elif kind == "immediate":
            self.immediates.append(s.id)
        elif kind == "raf":
            self.frames.append(s.id)
        elif kind in ("clear", "refresh", "unref", "ref"):
            a["target"] = r.choice(self.timers)
        elif kind == "clear_immediate":
            a["target"] = r.choice(self.immediates)
        elif kind == "cancel_raf":
            a["target"] = r.choice(self.frames)
        elif kind in ("on", "listen"):
            a["event"] = r.choice(("a", "b", "error") if kind == "on" else ("a", "b"))
            a["once"] = r.random() < 0.3
        elif kind in ("emit", "dispatch"):
            a["event"] = r.choice(("a", "b"))
        elif kind == "exit_code":
            a["code"] = r.choice((0, 2, 3))
        elif kind == "exit":
            a["code"] = r.choice((0, 4))
        elif kind in ("fs", "fs_promise"):
            a["op"] = r.choice(FS_OPS)
            a["file"] = r.choice(("f0", "f1")) if a["op"] not in ("mkdir", "rmdir") else "d0"
        elif kind == "fs_sync":
            a["op"] = r.choice(FS_SYNC)
            a["file"] = r.choice(("f0", "f1"))
        if kind not in ("log", "clear", "clear_immediate", "cancel_raf", "refresh", "unref", "ref",
                        "emit", "emit_error", "dispatch", "throw", "exit_code", "exit", "reject", "fs_sync"):
            s.body = self.block(depth + 1, kind not in TASKS and (micro or kind not in ("on", "listen")))
        return s

    def make(self):
        r, p = self.r, self.p
        if not self.browser:
            for name in LISTENERS:
                if r.random() < 0.25:
                    s = self.new("listener", event=name)
                    # What runs in an 'exit' listener is synchronous, and the
                    # others run once: they may do anything.
                    s.body = self.block(2, True)
                    p.main.append(s)
        else:
            # An error the page does not handle stops the browser oracle:
            # exceptions and rejections only with both handlers set.
            if r.random() < 0.5:
                for kind in ("onerror", "onrejection"):
                    s = self.new(kind)
                    p.main.append(s)
                    p.keep.add(s.id)  # reduction keeps them
            else:
                self.drop_kinds("throw", "reject")
            # Animation frames come on the frame clock, whose phase against
            # the script is the browser's: a program has frames, or tasks
            # that race them (messages, 0 ms timers, timers a frame's
            # multiple away, the task that fires unhandledrejection, which
            # Chromium runs before or after the next frame), not both.
            if r.random() < 0.3:
                self.drop_kinds("message", "timeout", "interval", "clear", "throw", "reject")
            else:
                self.drop_kinds("raf", "cancel_raf")
        while self.budget > 0:
            s = self.statement(0, False)
            p.main.append(s)
            if s.kind in LAST:
                break
        return p


def generate(seed, target):
    """The program of this seed for this target."""
    return _Gen(seed, target).make()


# --- rendering ----------------------------------------------------------------

NODE_PRELUDE = """\
'use strict';
const L = (s) => console.log(s);
const W = new Int32Array(new SharedArrayBuffer(4));
const S = () => { Atomics.wait(W, 0, 0, WAIT); };
const H = {}, C = {}, F = {};
"""

BROWSER_PRELUDE = """\
'use strict';
const L = (s) => console.log(s);
const S = () => { const t = Date.now() + WAIT; while (Date.now() < t); };
const H = {}, C = {}, F = {};
// What is pending; END once nothing is.
const P = new Set();
let ending = false;
const D = () => {
  if (P.size !== 0 || ending) return;
  ending = true;
  setTimeout(() => { if (P.size === 0) L('END'); else ending = false; }, 0);
};
const ch = new MessageChannel();
ch.port1.onmessage = (e) => { P.delete('m' + e.data); M[e.data](); S(); D(); };
const M = {};
const T = new EventTarget();
"""


def _q(s):
    return "'" + s + "'"


class _Render:
    def __init__(self, p):
        self.p = p
        self.browser = p.target == "browser"
        self.lines = []
        self.needs = set()

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    def body(self, stmts, depth):
        for s in stmts:
            self.stmt(s, depth)

    def task_end(self, depth):
        self.emit(depth, "S();" + (" D();" if self.browser else ""))

    def fn(self, s, depth, head, label, tail, task=False, pending=None):
        """head + '{' label; body; '}' + tail."""
        self.emit(depth, head + " {")
        if pending:
            self.emit(depth + 1, "P.delete(%s);" % pending)
        self.emit(depth + 1, label)
        self.body(s.body, depth + 1)
        if task:
            self.task_end(depth + 1)
        self.emit(depth, "}" + tail)

    @staticmethod
    def fs_args(op, f):
        other = "f1" if f == "f0" else "f0"
        return {"rename": "'%s', '%s'" % (f, other), "copyFile": "'%s', '%s'" % (f, other)}.get(op, "'%s'" % f)

    def stmt(self, s, d):
        k, a, n = s.kind, s.args, s.id
        lab = "L('%s %d');" % (k, n)
        if k == "log":
            self.emit(d, lab)
        elif k == "tick":
            self.fn(s, d, "process.nextTick(() =>", lab, ");")
        elif k == "micro":
            self.fn(s, d, "queueMicrotask(() =>", lab, ");")
        elif k == "then":
            self.fn(s, d, "Promise.resolve().then(() =>", lab, ");")
        elif k == "chain":
            self.emit(d, "Promise.resolve().then(() => L('chain %d.1')).then(() => {" % n)
            self.emit(d + 1, "L('chain %d.2');" % n)
            self.body(s.body, d + 1)
            self.emit(d, "});")
        elif k == "async":
            self.emit(d, "(async () => {")
            self.emit(d + 1, "L('async %d.0');" % n)
            self.emit(d + 1, "await null;")
            self.emit(d + 1, "L('async %d.1');" % n)
            self.body(s.body, d + 1)
            self.emit(d, "})();")
        elif k == "thenable":
            self.emit(d, "Promise.resolve({ then(r) { L('thenable %d.0'); r(); } }).then(() => {" % n)
            self.emit(d + 1, "L('thenable %d.1');" % n)
            self.body(s.body, d + 1)
            self.emit(d, "});")
        elif k == "catch":
            self.fn(s, d, "Promise.reject(new Error('c%d')).catch((e) =>" % n,
                    "L('catch %d ' + e.message);" % n, ");")
        elif k == "reject":
            if self.browser:
                self.emit(d, "P.add('r%d');" % n)
            self.emit(d, "Promise.reject(new Error('r%d'));" % n)
        elif k in ("timeout", "interval"):
            pend = "'t%d'" % n if self.browser else None
            if pend:
                self.emit(d, "P.add(%s);" % pend)
            if k == "timeout":
                self.fn(s, d, "H[%d] = setTimeout(() =>" % n, lab, ", %d);" % a["delay"], task=True,
                        pending=pend)
            else:
                self.emit(d, "C[%d] = 0;" % n)
                self.emit(d, "H[%d] = setInterval(() => {" % n)
                self.emit(d + 1, "const k = ++C[%d];" % n)
                self.emit(d + 1, "L('interval %d #' + k);" % n)
                self.emit(d + 1, "if (k >= %d) { clearInterval(H[%d]);%s }" % (
                    a["times"], n, " P.delete(%s);" % pend if pend else ""))
                self.emit(d + 1, "if (k === 1) {")
                self.body(s.body, d + 2)
                self.emit(d + 1, "}")
                self.task_end(d + 1)
                self.emit(d, "}, %d);" % a["delay"])
        elif k == "clear":
            if self.browser:
                self.emit(d, "clearTimeout(H[%d]); P.delete('t%d'); D();" % (a["target"], a["target"]))
            else:
                self.emit(d, "clearTimeout(H[%d]);" % a["target"])
        elif k == "refresh":
            # Once: a timer that refreshes itself would run for good.
            self.emit(d, "if (H[%d] && !F[%d]) { F[%d] = 1; H[%d].refresh(); }" % (a["target"], n, n, a["target"]))
        elif k in ("unref", "ref"):
            self.emit(d, "if (H[%d]) H[%d].%s();" % (a["target"], a["target"], k))
        elif k == "immediate":
            self.fn(s, d, "H[%d] = setImmediate(() =>" % n, lab, ");", task=True)
        elif k == "clear_immediate":
            self.emit(d, "clearImmediate(H[%d]);" % a["target"])
        elif k == "timers_promise":
            arg = str(a["delay"]) if a["how"] == "setTimeout" else ""
            self.fn(s, d, "require('timers/promises').%s(%s).then(() =>" % (a["how"], arg), lab, ");",
                    task=True)
        elif k == "on":
            self.needs.add("emitter")
            # A listener's statements run the first time only: an emit in
            # a listener of its own event would not end.
            self.emit(d, "E.%s('%s', (e) => {" % ("once" if a["once"] else "on", a["event"]))
            self.emit(d + 1, "L('on %d%s');" % (n, "' + ' ' + e.message + '" if a["event"] == "error" else ""))
            self.emit(d + 1, "if (F[%d]) return;" % n)
            self.emit(d + 1, "F[%d] = 1;" % n)
            self.body(s.body, d + 1)
            self.emit(d, "});")
        elif k == "emit":
            self.needs.add("emitter")
            self.emit(d, "L('emit %d ' + E.emit('%s'));" % (n, a["event"]))
        elif k == "emit_error":
            self.needs.add("emitter")
            self.emit(d, "E.emit('error', new Error('ee%d'));" % n)
        elif k == "throw":
            if self.browser:
                # Reported once, by onerror or onunhandledrejection, in a
                # task of its own when it is a rejection: pending till then.
                self.emit(d, "P.add('x%d');" % n)
            self.emit(d, "throw new Error('x%d');" % n)
        elif k == "exit_code":
            self.emit(d, "process.exitCode = %d;" % a["code"])
        elif k == "exit":
            self.emit(d, "process.exit(%d);" % a["code"])
        elif k == "fs_sync":
            self.needs.add("fs")
            op, f = a["op"], a["file"]
            args = {"writeFileSync": "'%s', 'w%d'" % (f, n), "appendFileSync": "'%s', 'a%d'" % (f, n),
                    "readFileSync": "'%s', 'utf8'" % f}.get(op, "'%s'" % f)
            self.emit(d, "try { L('fs_sync %d %s ' + R(null, fs.%s(%s))); } catch (e) { L('fs_sync %d %s ' + e.code); }"
                      % (n, op, op, args, n, op))
        elif k == "fs":
            self.needs.add("fs")
            op, f = a["op"], a["file"]
            args = self.fs_args(op, f)
            self.fn(s, d, "fs.%s(%s, (e, r) =>" % (op, args),
                    "L('fs %d %s ' + R(e, r));" % (n, op), "); S();", task=True)
        elif k == "fs_promise":
            self.needs.add("fs")
            op, f = a["op"], a["file"]
            args = self.fs_args(op, f)
            self.emit(d, "fs.promises.%s(%s).then((r) => R(null, r), (e) => R(e)).then((v) => {" % (op, args))
            self.emit(d + 1, "L('fs_promise %d %s ' + v);" % (n, op))
            self.body(s.body, d + 1)
            self.emit(d, "}); S();")
        elif k == "listener":
            ev = a["event"]
            arg = {"exit": "c", "beforeExit": "c", "uncaughtException": "e", "unhandledRejection": "e"}[ev]
            show = {"c": "' + c", "e": "' + (e && e.message)"}[arg]
            self.emit(d, "process.on('%s', (%s) => {" % (ev, arg))
            self.emit(d + 1, "L('%s %d %s);" % (ev, n, show))
            if ev != "exit":
                # Once: work started here could bring it back for good.
                self.emit(d + 1, "if (F[%d]) return;" % n)
                self.emit(d + 1, "F[%d] = 1;" % n)
            self.body(s.body, d + 1)
            self.emit(d, "});")
        elif k == "onerror":
            self.emit(d, "window.onerror = (m, f, l, c, e) => { L('onerror %d ' + m); P.delete(e.message); D(); "
                      "return true; };" % n)
        elif k == "onrejection":
            self.emit(d, "window.onunhandledrejection = (e) => { L('onunhandledrejection %d ' + e.reason.message); "
                      "P.delete(e.reason.message); e.preventDefault(); D(); };" % n)
        elif k == "message":
            self.emit(d, "P.add('m%d');" % n)
            self.emit(d, "M[%d] = () => {" % n)
            self.emit(d + 1, lab)
            self.body(s.body, d + 1)
            self.emit(d, "};")
            self.emit(d, "ch.port2.postMessage(%d);" % n)
        elif k == "raf":
            self.emit(d, "P.add('f%d');" % n)
            self.fn(s, d, "H[%d] = requestAnimationFrame(() =>" % n, lab, ");", task=True, pending="'f%d'" % n)
        elif k == "cancel_raf":
            self.emit(d, "cancelAnimationFrame(H[%d]); P.delete('f%d'); D();" % (a["target"], a["target"]))
        elif k == "listen":
            self.emit(d, "T.addEventListener('%s', () => {" % a["event"])
            self.emit(d + 1, lab)
            self.emit(d + 1, "if (F[%d]) return;" % n)
            self.emit(d + 1, "F[%d] = 1;" % n)
            self.body(s.body, d + 1)
            self.emit(d, "}%s);" % (", { once: true }" if a["once"] else ""))
        elif k == "dispatch":
            self.emit(d, "L('dispatch %d ' + T.dispatchEvent(new Event('%s')));" % (n, a["event"]))
        else:
            raise AssertionError(k)


def js_program(p, wait=3):
    """The program's JavaScript text; `wait` is the task-ending wait in ms
    (3: the program as generated; other values serve to tell whether an
    answer depends on timing, see paced())."""
    r = _Render(p)
    r.body(p.main, 0)
    if r.browser:
        r.emit(0, "S(); D();")
    else:
        r.emit(0, "S();")
    head = ["// generated program: test/gen/jsgen.py, target %s, seed %d" % (p.target, p.seed)]
    if p.target == "browser":
        head.append("// oracle: browser")
        head.append(BROWSER_PRELUDE.replace("WAIT", str(wait)))
    else:
        head.append(NODE_PRELUDE.replace("WAIT", str(wait)))
        if "emitter" in r.needs:
            head.append("const E = new (require('events'))();")
        if "fs" in r.needs:
            head.append("const fs = require('fs');")
            head.append("const R = (e, r) => e ? e.code : r === undefined ? 'ok' : typeof r === 'string' ? "
                        "JSON.stringify(r) : Array.isArray(r) ? '[' + r.sort().join(',') + ']' : r.isFile ? "
                        "(r.isFile() ? 'file ' + r.size : 'dir') : String(r);")
    return "\n".join(head + r.lines) + "\n"


def with_wait(text, wait):
    """A program's text (js_program's) with the task-ending wait set to
    `wait` ms."""
    for prelude in (NODE_PRELUDE, BROWSER_PRELUDE):
        line = next(x for x in prelude.splitlines(True) if "WAIT" in x)
        text = text.replace(line.replace("WAIT", "3"), line.replace("WAIT", str(wait)))
    return text


def reduce(p, disagrees):
    """The smallest program found (ddmin over its statements, any depth) on
    which disagrees(program) still holds."""
    ids = p.ids()
    n = 2
    while len(ids) >= 2:
        chunk = max(1, len(ids) // n)
        parts = [ids[k:k + chunk] for k in range(0, len(ids), chunk)]
        reduced = False
        for part in parts:
            cand = p.without(set(part))
            if cand.size() and disagrees(cand):
                p, ids, n, reduced = cand, cand.ids(), max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(ids):
                break
            n = min(len(ids), n * 2)
    # Then each statement alone, once more (a removal can make another one
    # removable).
    changed = True
    while changed:
        changed = False
        for sid in p.ids():
            cand = p.without({sid})
            if cand.size() and disagrees(cand):
                p, changed = cand, True
                break
    return p
