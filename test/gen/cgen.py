# SPDX-License-Identifier: MIT
"""cgen -- a seeded generator of C programs against libuv's public API.

A program is a table of statements (test/gen/gen_rt.h gives one C function
per statement kind): some run in main before the loop runs, the others in
the callback of a handle or request at one of its invocations, each once.
Then main runs the loop in one to three modes, and gen_finish() runs it to
the end, closes every handle and closes the loop. Every statement and
callback prints a line, so the program's output is its trace.

The same seed always gives the same program (Python's random.Random). A
program's statements can be dropped one by one and it stays a valid
program (the runtime skips what would be undefined), which is what the
reducer (reduce()) relies on.

Why the output depends on libuv's rules alone: see gen_rt.h's header and
docs/generated.md.
"""

import random

TIMERS, IDLES, PREPARES, CHECKS, ASYNCS, SIGNALS, PROCS, WORKS = 4, 2, 2, 2, 2, 1, 1, 2
T0 = 0
I0 = T0 + TIMERS
P0 = I0 + IDLES
C0 = P0 + PREPARES
A0 = C0 + CHECKS
S0 = A0 + ASYNCS
X0 = S0 + SIGNALS
HANDLES = X0 + PROCS
W0 = HANDLES
F0 = W0 + WORKS
FS_STEPS = 24
EV_CB, EV_CLOSE = 0, 1

# Positive timeouts are powers of 3 quanta, each used by one statement at
# most: a sum of them, with each power counted at most twice (a repeating
# timer fires at most twice), is one number only (base 3), so no two
# timers started at different moments come due at the same ideal time.
POWERS = (1, 3, 9)

FS_OPS = ("MKDTEMP", "OPEN", "OPEN_MISSING", "WRITE", "READ", "FSTAT", "STAT",
          "RENAME", "SCANDIR", "CLOSE", "UNLINK", "RMDIR", "READ_CLOSED")
RUN_MODES = ("UV_RUN_DEFAULT", "UV_RUN_ONCE", "UV_RUN_NOWAIT")


def handle_name(i):
    for base, letter in ((F0, "F"), (W0, "W"), (X0, "X"), (S0, "S"), (A0, "A"),
                         (C0, "C"), (P0, "P"), (I0, "I"), (T0, "T")):
        if i >= base:
            return "%s%d" % (letter, i - base)
    raise ValueError(i)


class Program:
    """Statements keyed by where they run: "main", or (id, event, n)."""

    def __init__(self, seed):
        self.seed = seed
        self.main = []        # statements (C calls) before the runs
        self.blocks = {}      # (id, event, n) -> [statements]
        self.runs = []        # run modes, in order
        self.fs_chain = []    # names from FS_OPS

    def statements(self):
        """Every statement as (place, index), main's first."""
        out = [("main", k) for k in range(len(self.main))]
        for key in sorted(self.blocks):
            out += [(key, k) for k in range(len(self.blocks[key]))]
        return out

    def without(self, drop):
        """A copy without the statements in drop (a set of (place, index))."""
        p = Program(self.seed)
        p.main = [s for k, s in enumerate(self.main) if ("main", k) not in drop]
        for key, stmts in self.blocks.items():
            kept = [s for k, s in enumerate(stmts) if (key, k) not in drop]
            if kept:
                p.blocks[key] = kept
        p.runs = list(self.runs)
        p.fs_chain = list(self.fs_chain)
        return p

    def size(self):
        return len(self.main) + sum(len(v) for v in self.blocks.values())


class _Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.p = Program(seed)
        self.powers = list(POWERS)
        self.r.shuffle(self.powers)
        self.reach = []     # triggers the statements so far may fire
        self.fs_nexts = 0

    def reachable(self, *keys):
        self.reach += [k for k in keys if k not in self.reach]

    def timeout(self):
        """0, or a power of 3 quanta no other statement uses."""
        if self.powers and self.r.random() < 0.45:
            return self.powers.pop()
        return 0

    def handle(self, kinds=None):
        ids = []
        for base, n, kind in ((T0, TIMERS, "T"), (I0, IDLES, "I"), (P0, PREPARES, "P"),
                              (C0, CHECKS, "C"), (A0, ASYNCS, "A"), (S0, SIGNALS, "S"),
                              (X0, PROCS, "X")):
            if kinds is None or kind in kinds:
                ids += list(range(base, base + n))
        return self.r.choice(ids)

    def statement(self):
        r = self.r
        kind = r.choices(
            ["timer_start", "timer_stop", "timer_again", "timer_set_repeat", "watcher_start",
             "watcher_stop", "close", "ref", "unref", "is_active", "stop", "walk", "async_send",
             "async_send_thread", "work", "work_cancel", "fs_next", "signal_start", "signal_stop",
             "raise", "spawn"],
            weights=[14, 4, 3, 2, 14, 5, 7, 3, 4, 3, 3, 3, 4, 3, 3, 2, 8, 2, 1, 3, 2])[0]
        if kind == "timer_start":
            t = self.timeout()
            rep = t if t and r.random() < 0.3 else 0
            i = r.randrange(TIMERS)
            self.reachable((T0 + i, EV_CB, 1), *([(T0 + i, EV_CB, 2)] if rep else []))
            return "s_timer_start(%d, %d, %d, %d);" % (i, t, rep, r.randint(1, 2))
        if kind == "timer_stop":
            return "s_timer_stop(%d);" % r.randrange(TIMERS)
        if kind == "timer_again":
            return "s_timer_again(%d);" % r.randrange(TIMERS)
        if kind == "timer_set_repeat":
            return "s_timer_set_repeat(%d, %d);" % (r.randrange(TIMERS), 0 if r.random() < 0.5 else self.timeout())
        if kind in ("watcher_start", "watcher_stop"):
            w = r.choice(["idle", "prepare", "check"])
            i = r.randrange(2)
            if kind == "watcher_start":
                budget = r.randint(1, 4)
                base = {"idle": I0, "prepare": P0, "check": C0}[w]
                self.reachable(*[(base + i, EV_CB, n) for n in range(1, min(budget, 3) + 1)])
                return "s_%s_start(%d, %d);" % (w, i, budget)
            return "s_%s_stop(%d);" % (w, i)
        if kind == "close":
            h = self.handle()
            self.reachable((h, EV_CLOSE, 1))
            return "s_close(%d);" % h
        if kind in ("ref", "unref"):
            # Prepare, check, async and signal handles stay unreferenced:
            # a referenced one would keep the loop waiting for good.
            return "s_%s(%d);" % (kind, self.handle("TI" if kind == "ref" else "TIPC"))
        if kind == "is_active":
            return "s_is_active(%d);" % self.handle()
        if kind == "stop":
            return "s_stop();"
        if kind == "walk":
            return "s_walk();"
        if kind in ("async_send", "async_send_thread"):
            i = r.randrange(ASYNCS)
            self.reachable((A0 + i, EV_CB, 1), (A0 + i, EV_CB, 2))
            return "s_%s(%d);" % (kind, i)
        if kind in ("work", "work_cancel"):
            i = r.randrange(WORKS)
            self.reachable((W0 + i, EV_CB, 1), (W0 + i, EV_CB, 2))
            return "s_%s(%d);" % (kind, i)
        if kind == "fs_next":
            if self.fs_nexts < FS_STEPS:
                self.reachable((F0 + self.fs_nexts, EV_CB, 1))
            self.fs_nexts += 1
            return "s_fs_next();"
        if kind == "signal_start":
            return "s_signal_start(0, %d);" % (r.random() < 0.3)
        if kind == "signal_stop":
            return "s_signal_stop(0);"
        if kind == "raise":
            self.reachable((S0, EV_CB, 1), (S0, EV_CB, 2))
            return "s_raise(0);"
        if kind == "spawn":
            self.reachable((X0, EV_CB, 1), (X0, EV_CLOSE, 1))
            return "s_spawn(0, %d);" % r.choice([0, 0, 3])
        raise AssertionError(kind)

    def triggers(self):
        """Where a block may run: a handle's callback (its 1st to 3rd) or
        close callback, a work request's callback, a file step's."""
        out = []
        for i in range(HANDLES):
            out += [(i, EV_CB, n) for n in (1, 2, 3)] + [(i, EV_CLOSE, 1)]
        out += [(W0 + i, EV_CB, n) for i in range(WORKS) for n in (1, 2)]
        out += [(F0 + k, EV_CB, 1) for k in range(min(len(self.p.fs_chain), FS_STEPS))]
        return out

    def fs_chain(self):
        r = self.r
        chain = ["MKDTEMP", "OPEN"]
        for _ in range(r.randint(2, 8)):
            chain.append(r.choice(["WRITE", "READ", "FSTAT", "STAT", "RENAME", "SCANDIR",
                                   "OPEN_MISSING"]))
        chain.append("CLOSE")
        if r.random() < 0.3:
            chain.append("READ_CLOSED")
        chain += ["UNLINK", "RMDIR"] if r.random() < 0.8 else ["RMDIR", "UNLINK", "RMDIR"]
        return chain[:FS_STEPS]

    def make(self):
        r, p = self.r, self.p
        p.fs_chain = self.fs_chain()
        p.main = [self.statement() for _ in range(r.randint(2, 7))]
        triggers = self.triggers()
        for _ in range(r.randint(2, 12)):
            # Mostly where the statements so far lead; now and then anywhere.
            pool = self.reach if self.reach and r.random() < 0.85 else triggers
            key = r.choice(pool)
            block = p.blocks.setdefault(key, [])
            # A file step's callback mostly goes on with the chain.
            if F0 <= key[0] and not block and r.random() < 0.7:
                if self.fs_nexts < FS_STEPS:
                    self.reachable((F0 + self.fs_nexts, EV_CB, 1))
                self.fs_nexts += 1
                block.append("s_fs_next();")
            block.extend(self.statement() for _ in range(r.randint(1, 4)))
        p.runs = [r.choice(RUN_MODES) for _ in range(r.randint(1, 3))]
        return p


def generate(seed):
    """The program of this seed."""
    return _Gen(seed).make()


def c_program(p, name):
    """The C text of program p as functions NAME_on and NAME_main."""
    out = ["/* generated program, seed %d (test/gen/cgen.py) */" % p.seed]
    out.append("static const enum gen_fs_op %s_fs[] = {%s};" % (
        name, ", ".join("GEN_FS_" + op for op in p.fs_chain) or "GEN_FS_MKDTEMP"))
    out.append("static void %s_on(int id, int ev, int n) {" % name)
    out.append("  (void) id; (void) ev; (void) n;")
    for key in sorted(p.blocks):
        i, ev, n = key
        out.append("  if (id == %d && ev == %d && n == %d) { /* %s %s #%d */" % (
            i, ev, n, handle_name(i), "close" if ev == EV_CLOSE else "cb", n))
        out += ["    " + s for s in p.blocks[key]]
        out.append("  }")
    out.append("}")
    out.append("static int %s_main(void) {" % name)
    out.append("  gen_on = %s_on;" % name)
    out.append("  gen_fs_chain = %s_fs;" % name)
    out.append("  gen_fs_len = %d;" % len(p.fs_chain))
    out.append("  gen_init_all();")
    out += ["  " + s for s in p.main]
    out += ["  gen_run(%s);" % m for m in p.runs]
    out.append("  return gen_finish();")
    out.append("}")
    return "\n".join(out) + "\n"


PRELUDE = '#include "gen_rt.h"\n\n'


def c_batch(programs):
    """One C file holding every program; argv[1] picks one (its index)."""
    parts = [PRELUDE]
    for k, p in enumerate(programs):
        parts.append(c_program(p, "p%d" % k))
    parts.append("int main(int argc, char **argv) {\n")
    parts.append("  int k = argc > 1 ? atoi(argv[1]) : -1;\n")
    parts.append('  setenv("UV_THREADPOOL_SIZE", "1", 1);\n')
    parts.append("  switch (k) {\n")
    for k in range(len(programs)):
        parts.append("    case %d: return p%d_main();\n" % (k, k))
    parts.append("  }\n  return 2;\n}\n")
    return "".join(parts)


def c_single(p, header='"../gen/gen_rt.h"'):
    """A standalone program (a regression case): it finds the runtime from
    test/diff/, or from anywhere given -I test/gen."""
    return ("/* Generated by test/gen/cgen.py (seed %d), then reduced: a program\n"
            " * on which phaseloop once disagreed with real libuv. */\n"
            "#include %s\n\n%s\nint main(void) {\n"
            '  setenv("UV_THREADPOOL_SIZE", "1", 1);\n'
            "  return program_main();\n}\n") % (p.seed, header, c_program(p, "program"))


def reduce(p, disagrees):
    """The smallest program found (ddmin over its statements, then over its
    runs) on which disagrees(program) still holds."""
    stmts = p.statements()
    n = 2
    while len(stmts) >= 2:
        chunk = max(1, len(stmts) // n)
        parts = [stmts[k:k + chunk] for k in range(0, len(stmts), chunk)]
        reduced = False
        for part in parts:
            keep = [s for s in stmts if s not in part]
            drop = set(p.statements()) - set(keep)
            cand = p.without(drop)
            if disagrees(cand):
                p, stmts, n, reduced = cand, cand.statements(), max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(stmts):
                break
            n = min(len(stmts), n * 2)
    if len(stmts) == 1:
        cand = p.without(set(stmts))
        if disagrees(cand):
            p = cand
    # Fewer runs, and a shorter file chain, when the disagreement stays.
    while len(p.runs) > 1:
        cand = p.without(set())
        cand.runs = p.runs[:-1]
        if not disagrees(cand):
            break
        p = cand
    return p
