#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/benchmarks.md is what one run of tools/gen-benchmarks wrote: a
# block for every section, none empty, each measured block headed by the
# command that made it, a stamp of a whole run (not of --only), and a
# targets table that follows from the suite, suite-cg and fs tables on
# the page (bench/targets.sh run again on them gives the same text).
set -eu
top=${srcdir:-.}
doc=$top/docs/benchmarks.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "benchmarks.sh: $*" >&2; exit 1; }

# block NAME: the text of NAME's block.
block() {
  awk -v open="<!-- bench $1 -->" '
    $0 == open { n++; inb = 1; next }
    inb && $0 == "<!-- end -->" { inb = 0; next }
    inb { print }
    END { if (n != 1) exit 1 }' "$doc"
}
for s in $("$top/tools/gen-benchmarks" --sections); do
  block "$s" > "$tmp/$s" || fail "docs/benchmarks.md has no block, or more than one, for section $s"
  [ -s "$tmp/$s" ] || fail "the $s block is empty: run tools/gen-benchmarks"
  case $s in
    run) grep -q '^Every table below was made by one run of `tools/gen-benchmarks' "$tmp/$s" ||
      fail "the stamp is not one of a whole run: $(head -1 "$tmp/$s")" ;;
    targets) ;;
    # (Or the page's run predates the section, and the block says so.)
    fixed) grep -q '^Not measured yet: the run stamped above predates' "$tmp/$s" ||
      head -1 "$tmp/$s" | grep -q '^`bench/fixed-load.py [^`]*` ([0-9]* s):$' ||
      fail "the fixed block neither starts with its command nor says the run predates it" ;;
    suite-perf) grep -q '^Every network benchmark of the suite met its target\|^Not measured yet: the run stamped above predates' "$tmp/$s" ||
      head -1 "$tmp/$s" | grep -q '^`bench/libuv-suite.py [^`]*--perf[^`]*` ([0-9]* s):$' ||
      fail "the suite-perf block neither starts with its --perf command nor says no network benchmark missed" ;;
    *) head -1 "$tmp/$s" | grep -q '^`[^`]*` ([0-9]* s):$' ||
      fail "the $s block does not start with the command that made it: $(head -1 "$tmp/$s")" ;;
  esac
done
for s in suite suite-cg fs; do tail -n +3 "$tmp/$s" > "$tmp/$s.md"; done
"$top/bench/targets.sh" "$tmp/suite.md" "$tmp/fs.md" "$tmp/suite-cg.md" > "$tmp/targets.again"
tail -n +3 "$tmp/targets" > "$tmp/targets.md"
diff -u "$tmp/targets.md" "$tmp/targets.again" > "$tmp/diff" ||
  fail "the targets table does not follow from the tables on the page: $(cat "$tmp/diff")"
grep -q '^[0-9]* of [0-9]* targets met\.$' "$tmp/targets.md" || fail "the targets block has no count of targets met"
echo "docs/benchmarks.md: $(grep -c . "$tmp/suite") suite lines, $(tail -1 "$tmp/targets.md")"
