#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The JavaScript generator's premises, checked on its programs: what makes
a generated program's answer a rule of the runtime and not of its timing
(docs/generated.md, "What the generators write").

For 2,000 seeds per target:
- a browser program with animation frames has no task that races them: no
  message, no timer of its own, no unhandled rejection (whose event is a
  task Chromium runs before or after the next frame) -- nothing thrown, and
  no Promise.reject without a catch;
- a browser program that throws or rejects sets window.onerror and
  window.onunhandledrejection (the oracle stops at an unhandled error);
- every program is the same text when generated twice.
Prints the first seed that breaks one and exits 1."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jsgen  # noqa: E402

SEEDS = range(1, 2001)
RACING = re.compile(r"postMessage\(|H\[\d+\] = setTimeout\(|setInterval\(|throw new Error\('x|"
                    r"Promise\.reject\(new Error\('r")


def text(seed, target):
    return jsgen.js_program(jsgen.generate(seed, target))


def main():
    bad = []
    frames = 0
    for seed in SEEDS:
        t = text(seed, "browser")
        if t != text(seed, "browser"):
            bad.append("browser seed %d: not the same text twice" % seed)
        if "requestAnimationFrame(" in t:
            frames += 1
            m = RACING.search(t)
            if m:
                bad.append("browser seed %d: animation frames and %s" % (seed, m.group(0)))
        if ("throw new Error" in t or "Promise.reject(new Error('r" in t) and not (
                "window.onerror" in t and "window.onunhandledrejection" in t):
            bad.append("browser seed %d: an error with no handler for it" % seed)
    for target in ("node10", "node11", "node"):
        for seed in SEEDS[:200]:
            if text(seed, target) != text(seed, target):
                bad.append("%s seed %d: not the same text twice" % (target, seed))
    # The check must see programs with frames at all.
    if frames < len(SEEDS) // 10:
        bad.append("only %d of %d browser programs have animation frames" % (frames, len(SEEDS)))
    for b in bad[:10]:
        print("premises.py: " + b)
    print("premises.py: %d browser programs (%d with frames), %d problems" % (len(SEEDS), frames, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
