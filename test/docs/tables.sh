#!/bin/sh
# SPDX-License-Identifier: MIT
# Every markdown table in README.md and docs/ renders: its delimiter row
# (|---|---:|...) has as many cells as the header row above it. A
# renderer shows a table whose two rows disagree as plain text.
set -eu
top=${srcdir:-.}
status=0
for f in "$top"/README.md "$top"/docs/*.md "$top"/docs/*/*.md; do
  [ -f "$f" ] || continue
  # Cells of a row: the pipes that are not escaped (\|), minus one.
  # Fenced code blocks are not tables.
  awk -v file="${f#"$top"/}" '
    function cells(line) { gsub(/\\\|/, "", line); return gsub(/\|/, "", line) - 1 }
    /^```/ { fence = !fence; prev = ""; next }
    fence { next }
    /^\|[-:| ]+\|[ \t]*$/ && prev ~ /^\|/ {
      if (cells($0) != cells(prev)) {
        printf "%s:%d: the header has %d cells, the delimiter row %d\n", file, NR, cells(prev), cells($0)
        bad = 1
      }
    }
    { prev = $0 }
    END { exit bad }' "$f" || status=1
done
exit $status
