#!/bin/sh
# SPDX-License-Identifier: MIT
# require('fs'): results and Node's error objects (fs/fs-ops.expected is
# what Node 10, 11 and 20 print for fs/fs-ops.js), and Node 20's round trips:
# readFile is open, fstat, read(s), close, each completion one native
# callback.
. "${srcdir:-.}/test/runner/lib.sh"
set -e
dir=$src/test/runner/fs
for mode in node10 node11 node; do
  rm -rf "$tmp/scratch"
  mkdir "$tmp/scratch"
  run_js "$mode" "$dir/fs-ops.js" "$tmp/scratch"
  expect_status "fs-ops ($mode)" 0
  if ! cmp -s "$dir/fs-ops.expected" "$tmp/out"; then
    fail "fs-ops ($mode) differs from Node"
    diff -u "$dir/fs-ops.expected" "$tmp/out" | head -30
  fi
done

# Native callbacks per operation, from the annotation records.
natives() {  # natives LABEL: how many native callbacks had that label
  grep -c "^N	[0-9]*	$1\$" "$tmp/ann" || true
}
head -c 1000 /dev/zero > "$tmp/small"
head -c 1200000 /dev/zero > "$tmp/big"
: > "$tmp/empty"
for f in small:4 big:6 empty:4; do
  name=${f%%:*}
  want=${f#*:}
  printf 'require("fs").readFile(process.argv[2], (e, d) => console.log(e, d.length));\n' > "$tmp/rf.js"
  checks=$((checks + 1))
  "$pl" run --annotate=3 "$tmp/rf.js" "$tmp/$name" > "$tmp/out" 3> "$tmp/ann"
  got=$(natives fs.readFile)
  [ "$got" = "$want" ] || fail "readFile of $name: $got native callbacks, expected $want"
done
printf 'require("fs").writeFile(process.argv[2], "data", (e) => console.log(e));\n' > "$tmp/wf.js"
checks=$((checks + 1))
"$pl" run --annotate=3 "$tmp/wf.js" "$tmp/written" > "$tmp/out" 3> "$tmp/ann"
[ "$(natives fs.writeFile)" = 3 ] || fail "writeFile: $(natives fs.writeFile) native callbacks, expected 3"
[ "$(cat "$tmp/written")" = data ] || fail "writeFile wrote '$(cat "$tmp/written")'"
done_testing
