#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 16's speed targets, checked against the tables of one run of
# tools/gen-benchmarks:
#   - loop_count, million_timers, async1/2/4/8, async_pummel_* and
#     queue_work at 1.2x or more of both libuv 1.44.2 and 1.53.0;
#   - every other benchmark of libuv's suite at 1.0x or more of both;
#   - file requests at 1.5x or more of the newest libuv as programs run
#     it (its threadpool), with phaseloop's io_uring ring.
# A target holds when the worst of its ratios does (the drop-in and the
# compat build, against each libuv); a miss says by how much, and the
# instruction ratio (callgrind, 1.53 / drop-in: > 1 phaseloop executes
# fewer) stands next to it when the suite-cg table has the benchmark. A
# miss no larger than the spread of the rounds of the two configurations
# it compares (the suite's second table) says so.
#
# usage: bench/targets.sh SUITE.md FS.md CALLGRIND.md   (markdown tables of
#        bench/libuv-suite.py --markdown, bench/fs-io.sh --markdown and
#        bench/libuv-suite.py --callgrind --markdown; /dev/null for none)
#        bench/targets.sh --to-count SUITE.md   (the benchmarks of the suite
#        whose instructions are worth counting: a ratio within 10 % of 1,
#        or a target missed; one per line)
#        bench/targets.sh --missed SUITE.md   (the benchmarks of the suite
#        that missed their target; one per line)
set -eu

lead="loop_count million_timers async1 async2 async4 async8 async_pummel_1 async_pummel_2 async_pummel_4 async_pummel_8 queue_work"
# list: empty for the targets table, "count" or "missed" for a list of names
list=""
case ${1:-} in
  --to-count | --missed)
    list=count
    [ "$1" = --missed ] && list=missed
    shift
    set -- "${1:?usage: bench/targets.sh --to-count|--missed SUITE.md}" /dev/null /dev/null ;;
esac
[ $# -eq 3 ] || { echo "usage: bench/targets.sh SUITE.md FS.md CALLGRIND.md" >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "targets.sh: cannot read $f" >&2; exit 2; }; done

awk -F'|' -v lead=" $lead " -v suite="$1" -v fs="$2" -v cg="$3" -v list="$list" '
  function trim(s) { gsub(/^ +| +$/, "", s); return s }
  # The benchmark a row of the suite belongs to (million_timers_start ->
  # million_timers, fs_stat_1 -> fs_stat).
  function bench_of(label) {
    if (label ~ /^million_timers_/) return "million_timers"
    if (label ~ /^fs_stat_/) return "fs_stat"
    return label
  }
  # verdict WORST TARGET
  function verdict(w, t) {
    if (w == "") return "no figure"
    if (w + 0 >= t) return "met"
    return sprintf("**missed by %.0f %%**", (t - w) / t * 100)
  }
  FILENAME == cg && $2 ~ /[a-z]/ && trim($2) != "benchmark" {
    # benchmark | Ir per | uv144 | uv153 | dropin | compat | 1.44/d | 1.53/d | 1.44/c | 1.53/c
    ir[trim($2)] = trim($9) " / " trim($11)
    next
  }
  # The spread table: | label | uv144 | uv153 | dropin | compat | (per cent)
  FILENAME == suite && NF == 7 && $2 ~ /[a-z]/ && $2 !~ /spread/ {
    l = trim($2)
    spr[l, "1.44"] = trim($3); spr[l, "1.53"] = trim($4); spr[l, "drop-in"] = trim($5); spr[l, "compat"] = trim($6)
    next
  }
  FILENAME == suite && NF >= 12 && $2 ~ /[a-z]/ && trim($2) != "benchmark" {
    label = trim($2); b = bench_of(label)
    t = index(lead, " " b " ") ? 1.2 : 1.0
    worst = ""; which = ""
    split("drop-in/1.44 drop-in/1.53 compat/1.44 compat/1.53", col, " ")
    for (i = 8; i <= 11; i++) {
      v = trim($i)
      if (v == "-" || v == "") continue
      if (worst == "" || v + 0 < worst + 0) { worst = v; which = col[i - 7] }
    }
    if (list != "") {
      pick = worst != "" && worst + 0 < t
      if (list == "count")
        for (i = 8; i <= 11; i++) if (trim($i) + 0 >= 0.9 && trim($i) + 0 <= 1.1) pick = 1
      if (pick && !listed[b]++) print b
      next
    }
    n++; lab[n] = label; tgt[n] = t; w[n] = worst; wh[n] = which
    row[n] = sprintf("| %s | %.1fx | %s | %s | %s | %s | %s (%s) |", label, t, trim($8), trim($9),
      trim($10), trim($11), worst, which)
    irs[n] = (b in ir) ? ir[b] : ""
    total++; if (worst != "" && worst + 0 >= t) met++
    next
  }
  FILENAME == fs && /^\| ops\/s / { infs = 1; next }
  FILENAME == fs && infs && !/^\|/ { infs = 0 }
  FILENAME == fs && infs && $2 ~ /[a-z]/ {
    # test | 1.44 | 1.53 | 1.53+ring | pl | pl+ring | pl+sqpoll | pl/1.53 | r/r | sq/r | pl+ring/1.53
    v = trim($12)
    m++
    frow[m] = sprintf("| %s | 1.5x | %s | %s | %s | %s |", trim($2), v, trim($9), trim($10), verdict(v, 1.5))
    total++; if (v + 0 >= 1.5) met++
  }
  END {
    if (list != "") exit 0
    print "libuv'"'"'s own benchmarks (the suite table below), target 1.2x for the loop, timer, async and"
    print "queue_work benchmarks and 1.0x for the others, against both libuv versions:"
    print ""
    print "| benchmark | target | drop-in/1.44 | drop-in/1.53 | compat/1.44 | compat/1.53 | worst | verdict | Ir 1.53/drop-in / 1.53/compat |"
    print "|---|---:|---:|---:|---:|---:|---:|---|---:|"
    for (i = 1; i <= n; i++) {
      v = verdict(w[i], tgt[i])
      # A miss smaller than the spread of the rounds of the two
      # configurations it compares is not one this run can tell.
      if (v ~ /missed/) {
        split(wh[i], pair, "/")
        a = spr[lab[i], pair[1]]; c = spr[lab[i], pair[2]]
        s = (a + 0 > c + 0) ? a : c
        if (s != "" && s != "-" && (tgt[i] - w[i]) / tgt[i] * 100 <= s + 0) v = v sprintf(" (rounds spread %s %%)", s)
      }
      print row[i] " " v " | " irs[i] " |"
    }
    print ""
    print "File requests (the fs table below), target 1.5x of libuv 1.53 as programs run it (its"
    print "threadpool), by phaseloop with its io_uring ring; the two ratios after it for comparison:"
    print ""
    print "| test | target | pl+ring/1.53 | pl/1.53 (both threadpool) | pl+ring/1.53+ring (both io_uring) | verdict |"
    print "|---|---:|---:|---:|---:|---|"
    for (i = 1; i <= m; i++) print frow[i]
    print ""
    printf "%d of %d targets met.\n", met, total
  }' "$3" "$1" "$2"
