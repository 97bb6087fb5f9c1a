#!/bin/sh
# SPDX-License-Identifier: MIT
# The log compiler of every oracle scenario (automake allows one per file
# extension, and both suites' scenarios are .js files): a scenario under
# test/oracle/browser/ goes to browser/compare.sh (real Chromium), any other
# to node/compare.sh (real Node). The scenario is the last argument.
set -u
for scenario in "$@"; do :; done
here=$(cd "$(dirname "$0")" && pwd)
case $scenario in
  */oracle/browser/*) exec sh "$here/browser/compare.sh" "$@" ;;
  *) exec sh "$here/node/compare.sh" "$@" ;;
esac
