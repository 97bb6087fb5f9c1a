# SPDX-License-Identifier: MIT
# common.sh -- helpers shared by the client test kits in test/clients/*/.
#
# Source it from bash (`. "$here/../common.sh"`); it defines functions and
# a few variables and runs nothing else. Every kit fetches the *source* of a
# Debian 12 package that uses libuv at test time (never copied into this
# repository), builds from it under the build tree and runs its tests on the
# system's libuv and on phaseloop.
#
# Variables it sets (each may be preset in the environment):
#   CLIENTS_REPO        the phaseloop checkout (found from this file's place)
#   PHASELOOP_BUILD     phaseloop's build tree            (default $CLIENTS_REPO/build)
#   CLIENTS_BUILD       where the kits build and keep logs (default $PHASELOOP_BUILD/clients)
#   CLIENTS_TEST_USER   the unprivileged user tests run as (default phaseloop-test)

CLIENTS_REPO=${CLIENTS_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
PHASELOOP_BUILD=${PHASELOOP_BUILD:-$CLIENTS_REPO/build}
CLIENTS_BUILD=${CLIENTS_BUILD:-$PHASELOOP_BUILD/clients}
CLIENTS_TEST_USER=${CLIENTS_TEST_USER:-phaseloop-test}
# Absolute paths: the kits change directory.
case $PHASELOOP_BUILD in /*) ;; *) PHASELOOP_BUILD=$PWD/$PHASELOOP_BUILD ;; esac
case $CLIENTS_BUILD in /*) ;; *) CLIENTS_BUILD=$PWD/$CLIENTS_BUILD ;; esac

# --- messages ---------------------------------------------------------------

# The kit's name prefixes every message (set CLIENTS_KIT before using these).
say() { printf '%s: %s\n' "${CLIENTS_KIT:-clients}" "$*"; }
warn() { printf '%s: warning: %s\n' "${CLIENTS_KIT:-clients}" "$*" >&2; }
die() {
  printf '%s: error: %s\n' "${CLIENTS_KIT:-clients}" "$*" >&2
  exit 1
}

# now_s: seconds since the epoch, with milliseconds (for phase timings).
now_s() { date +%s.%3N; }
# elapsed START: seconds since START (from now_s), one decimal.
elapsed() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.1f", b - a }'; }

need_root() {
  [ "$(id -u)" = 0 ] || die "$1 needs root (it creates a test user and network/mount namespaces); run it as root"
}

need_cmd() {
  local c
  for c in "$@"; do
    command -v "$c" > /dev/null 2>&1 || die "'$c' not found; install it (e.g. tools/setup, or apt-get install the package that has it)"
  done
}

# --- the phaseloop build ----------------------------------------------------

# phaseloop_libs: checks that the build tree has both libraries and sets
#   PL_LIBDIR     directory of libphaseloop-uv.so (link target of compat
#                 builds) and libphaseloop.so
#   PL_DROPIN_DIR directory of the drop-in libuv.so.1
phaseloop_libs() {
  PL_LIBDIR=$PHASELOOP_BUILD/.libs
  PL_DROPIN_DIR=$PHASELOOP_BUILD/dropin/.libs
  [ -e "$PL_LIBDIR/libphaseloop-uv.so" ] ||
    die "no $PL_LIBDIR/libphaseloop-uv.so: build phaseloop first (tools/setup, or make -C $PHASELOOP_BUILD), or point PHASELOOP_BUILD at its build tree"
  [ -e "$PL_DROPIN_DIR/libuv.so.1" ] ||
    die "no drop-in $PL_DROPIN_DIR/libuv.so.1: build phaseloop first (make -C $PHASELOOP_BUILD)"
  # Physical paths: /proc/PID/maps shows them so.
  PL_LIBDIR=$(cd "$PL_LIBDIR" && pwd -P)
  PL_DROPIN_DIR=$(cd "$PL_DROPIN_DIR" && pwd -P)
}

# sanitizer_preload LIB: prints the sanitizer runtimes (space separated) a
# phaseloop library built with --enable-sanitizers needs preloaded into an
# uninstrumented program (AddressSanitizer's first); nothing otherwise.
sanitizer_preload() {
  local undefined rt lib out=
  undefined=$(nm -D --undefined-only "$1" 2> /dev/null) || true
  for rt in asan ubsan; do
    case $undefined in
      *__${rt}_*)
        lib=$(${CC:-cc} -print-file-name="lib$rt.so" 2> /dev/null)
        case $lib in /*) ;; *) die "$1 needs lib$rt.so, which ${CC:-cc} does not know" ;; esac
        out="${out:+$out }$lib"
        ;;
    esac
  done
  printf '%s' "$out"
}

# --- Debian sources, through a private apt configuration ---------------------

# debian_archive: prints "URI KEYRING" of the Debian archive this machine's
# apt uses for its release (deb822 .sources files, then one-line lists),
# falling back to deb.debian.org and Debian's archive keyring.
debian_archive() {
  local codename uri= keyring=
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [ -n "$codename" ] || die "cannot tell the Debian release from /etc/os-release"
  if ls /etc/apt/sources.list.d/*.sources > /dev/null 2>&1; then
    # One stanza at a time: the URI of the first stanza whose Suites has
    # the release itself (not -security or -updates).
    set -- $(awk -v rel="$codename" '
      function flush() {
        if (!found && uri != "" && suites ~ ("(^| )" rel "( |$)")) { print uri, key; found = 1 }
        uri = ""; suites = ""; key = ""
      }
      /^[ \t]*$/ { flush(); next }
      tolower($1) == "uris:" { uri = $2 }
      tolower($1) == "suites:" { $1 = ""; suites = $0 " " }
      tolower($1) == "signed-by:" { key = $2 }
      END { flush() }
    ' /etc/apt/sources.list.d/*.sources)
    uri=${1:-}
    keyring=${2:-}
  fi
  if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
    uri=$(awk -v rel="$codename" '$1 == "deb" { for (i = 2; i < NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\// && $(i + 1) == rel) { print $i; exit } }' /etc/apt/sources.list)
  fi
  [ -n "$uri" ] || uri=http://deb.debian.org/debian
  case $keyring in /*) [ -r "$keyring" ] || keyring= ;; *) keyring= ;; esac
  [ -n "$keyring" ] || keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -r "$keyring" ] || die "no Debian archive keyring at $keyring (apt-get install debian-archive-keyring)"
  printf '%s %s %s\n' "$uri" "$keyring" "$codename"
}

# private_apt DIR [SUITE [TYPES]]: makes DIR a private apt configuration
# with one line per type in TYPES (default "deb-src") for SUITE (default:
# this machine's release), main component, on the machine's archive, signed
# by its keyring, with its own lists, caches and lock files; /etc/apt and
# the system's lists are not touched. Sets APT_OPTS (an array) for apt-get.
private_apt() {
  local dir=$1 suite=${2:-} types=${3:-deb-src} uri keyring codename t
  read -r uri keyring codename <<EOF
$(debian_archive)
EOF
  [ -n "$suite" ] || suite=$codename
  mkdir -p "$dir/etc/sources.list.d" "$dir/etc/preferences.d" "$dir/state/lists/partial" "$dir/cache/archives/partial"
  for t in $types; do printf '%s [signed-by=%s] %s %s main\n' "$t" "$keyring" "$uri" "$suite"; done > "$dir/etc/sources.list"
  APT_OPTS=(
    -o "Dir::Etc::SourceList=$dir/etc/sources.list"
    -o "Dir::Etc::SourceParts=$dir/etc/sources.list.d"
    -o "Dir::Etc::Preferences=$dir/etc/preferences"
    -o "Dir::Etc::PreferencesParts=$dir/etc/preferences.d"
    -o "Dir::State=$dir/state"
    -o "Dir::State::Lists=$dir/state/lists"
    -o "Dir::Cache=$dir/cache"
    # The files go to a root-owned directory of the build tree: download
    # as root instead of warning that the _apt sandbox user cannot write it.
    -o "APT::Sandbox::User=root"
    # A mirror may serve a snapshot whose Release file's Valid-Until has
    # passed (sid's, a week after it was taken): apt still checks its
    # signature, and every file fetched is pinned by version and checked
    # against the index's hashes.
    -o "Acquire::Check-Valid-Until=false"
    -q
  )
}

# debian_source_download APTDIR DLDIR PKG[=VERSION] [SUITE]: refreshes the
# private index (apt checks the Release file's signature and the Sources
# index's hash) and downloads the source package of SUITE (default: this
# machine's release) into DLDIR; apt checks the .dsc and every tarball
# against the checksums of the signed index (files already there are
# checked, not fetched again).
debian_source_download() {
  local aptdir=$1 dl=$2 spec=$3 suite=${4:-}
  private_apt "$aptdir" "$suite"
  mkdir -p "$dl"
  say "apt-get update (private configuration in $aptdir: $(cat "$aptdir/etc/sources.list"))"
  apt-get "${APT_OPTS[@]}" update > "$aptdir/update.log" 2>&1 ||
    { cat "$aptdir/update.log" >&2; die "apt-get update failed (log above, also in $aptdir/update.log)"; }
  say "apt-get source --download-only $spec"
  (cd "$dl" && apt-get "${APT_OPTS[@]}" source --download-only "$spec") > "$aptdir/source.log" 2>&1 ||
    { cat "$aptdir/source.log" >&2; return 1; }
}

# debian_binary_download APTDIR DLDIR PKG=VERSION SUITE: the same for a
# binary package (apt-get download checks the .deb against the signed
# Packages index).
debian_binary_download() {
  local aptdir=$1 dl=$2 spec=$3 suite=$4
  private_apt "$aptdir" "$suite" deb
  mkdir -p "$dl"
  say "apt-get update (private configuration in $aptdir: $(cat "$aptdir/etc/sources.list"))"
  apt-get "${APT_OPTS[@]}" update > "$aptdir/update.log" 2>&1 ||
    { cat "$aptdir/update.log" >&2; die "apt-get update failed (log above, also in $aptdir/update.log)"; }
  say "apt-get download $spec"
  (cd "$dl" && apt-get "${APT_OPTS[@]}" download "$spec") > "$aptdir/download.log" 2>&1 ||
    { cat "$aptdir/download.log" >&2; return 1; }
}

# --- the unprivileged test user and the namespaces ---------------------------

# ensure_test_user: creates $CLIENTS_TEST_USER (a system user, no login
# shell, no home) unless it exists.
ensure_test_user() {
  id -u "$CLIENTS_TEST_USER" > /dev/null 2>&1 && return 0
  need_cmd useradd
  say "creating the unprivileged user $CLIENTS_TEST_USER (tests refuse to run as root)"
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$CLIENTS_TEST_USER" ||
    die "useradd $CLIENTS_TEST_USER failed"
}

# in_sandbox CMD...: runs CMD (as root) in new network, mount and PID
# namespaces: only a loopback interface (up), so fixed TCP ports such as
# 9123 cannot collide with other runs or services; a private tmpfs on /tmp,
# so fixed socket paths (/tmp/uv-test-sock) and tmpfile()s cannot either;
# its own /proc, and every process left behind dies with the namespace.
#
# The IPv4 default route goes into the loopback device, where packets to
# other addresses are dropped: a connection to an outside address waits
# unanswered (as behind a firewall) instead of failing at once with
# ENETUNREACH, which tests of connect timeouts need (libuv's
# tcp_connect_timeout and tcp_close_while_connecting skip without a route).
# DNS: by default the sandbox's /etc/resolv.conf names 127.0.0.1, where no
# server listens, so a lookup that is not in /etc/hosts fails at once
# (connection refused), whatever the resolver. CLIENTS_SANDBOX_DNS=host
# keeps the machine's resolv.conf instead, whose server the sandbox cannot
# reach: lookups then go unanswered until the resolver gives up.
in_sandbox() {
  local resolv=/etc/resolv.conf
  if [ "${CLIENTS_SANDBOX_DNS:-local}" != host ]; then
    resolv=$CLIENTS_BUILD/sandbox-resolv.conf
    [ -f "$resolv" ] || { mkdir -p "$CLIENTS_BUILD" && printf 'nameserver 127.0.0.1\n' > "$resolv"; }
  fi
  unshare --net --mount --pid --fork --mount-proc --propagation private \
    /bin/sh -c '
      ip link set lo up && ip route add default dev lo &&
      mount -t tmpfs -o mode=1777 tmpfs /tmp &&
      { [ "$1" = /etc/resolv.conf ] || mount --bind "$1" /etc/resolv.conf; } &&
      shift && exec "$@"' sandbox "$resolv" "$@"
}

# check_sandbox: fails clearly when namespaces are not available.
check_sandbox() {
  need_cmd unshare ip
  in_sandbox /bin/true 2> /dev/null ||
    die "cannot create network/mount/PID namespaces (unshare --net --mount --pid failed); these tests need them to run configurations side by side"
}
