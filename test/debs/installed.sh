#!/bin/sh
# SPDX-License-Identifier: MIT
# installed.sh -- the Debian packages of debian/, as a user gets them:
# run as root in a clean Debian tree where only the built .debs (and what
# apt pulled in for them) are installed (tools/test-on RELEASE debs).
#
#   test/debs/installed.sh demo    the README's demo, from the package
#   test/debs/installed.sh build   builds and the drop-in (installs the
#                                  compiler, cmake and libuv1-dev first)
#
# "demo" runs before anything else is installed, so that the packages'
# own dependencies are shown to be enough. "build": a C program through
# pkg-config phaseloop-uv, a C++ program through pkg-config phaseloop,
# the libuv-shaped prefix through pkg-config libuv and CMake's
# find_package(libuv); a program built against Debian's libuv on the
# drop-in, for one program (LD_LIBRARY_PATH, phaseloop trace) and for the
# whole system (/etc/ld.so.conf.d, as README.Debian says), then back.
# Prints "ok: ..." or "FAIL: ..." per check and "N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/test/install
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"; rm -f /etc/ld.so.conf.d/0-phaseloop-uv-dropin.conf' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
end() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?; }

demo() {
  # The README's demo and the output it shows.
  mkdir -p "$tmp/examples/js"
  ex=/usr/share/doc/phaseloop/examples/timers-and-promises.js
  if [ -e "$ex" ]; then cp "$ex" "$tmp/examples/js/"; else zcat "$ex.gz" > "$tmp/examples/js/timers-and-promises.js"; fi
  sed -n '/^<!-- phaseloop compare examples\/js\/timers-and-promises.js -->$/,/^```$/p' "$top/README.md" |
    sed '1,2d;$d' > "$tmp/expected"
  [ -s "$tmp/expected" ] || { bad "no demo output found in README.md"; return; }
  # compare exits 1 when the modes differ, as diff does; the demo's do.
  (cd "$tmp" && phaseloop compare examples/js/timers-and-promises.js) > "$tmp/got" 2>&1
  if cmp -s "$tmp/expected" "$tmp/got"; then
    ok "phaseloop compare examples/js/timers-and-promises.js prints the README's demo"
  else
    bad "the demo differs from the README's (< README, > installed):"
    diff "$tmp/expected" "$tmp/got" | head -20
  fi
  phaseloop --version > "$tmp/v" 2>&1 && ok "phaseloop --version: $(cat "$tmp/v")" || bad "phaseloop --version: $(cat "$tmp/v")"
  man -w phaseloop > /dev/null 2>&1 || [ -e /usr/share/man/man1/phaseloop.1.gz ] &&
    ok "man page phaseloop(1) installed" || bad "no man page phaseloop(1)"
}

# run_on_phaseloop NAME CMD...: CMD prints prog.c's line, the phaseloop one.
expect_line() {
  name=$1
  shift
  out=$("$@" 2>&1)
  case $out in
    "$uv_version-phaseloop hex=same fired=1 close=0") ok "$name: $out" ;;
    *) bad "$name printed: $out" ;;
  esac
}

build() {
  ma=$(gcc -print-multiarch)
  libdir=/usr/lib/$ma
  dropin=$libdir/phaseloop
  # The libuv version the packages behave as: that of the libuv1 they
  # were built with, which is this release's.
  uv_version=$(dpkg-query -W -f '${Version}' libuv1 | sed 's/-.*//')
  echo "libuv1 of this release: $uv_version; multiarch: $ma"

  # shellcheck disable=SC2046
  if cc -o "$tmp/prog_c" "$src/prog.c" $(pkg-config --cflags --libs phaseloop-uv) 2> "$tmp/log"; then
    expect_line "C program, pkg-config phaseloop-uv" "$tmp/prog_c"
    # (/lib is /usr/lib on a merged-/usr system; ldd may say either.)
    ldd "$tmp/prog_c" | grep -Eq "libphaseloop-uv\.so\.0 => (/usr)?/lib/$ma/libphaseloop-uv\.so\.0" ||
      bad "prog_c does not load $libdir/libphaseloop-uv.so.0: $(ldd "$tmp/prog_c" | grep phaseloop)"
  else
    bad "cc ... \$(pkg-config --cflags --libs phaseloop-uv): $(cat "$tmp/log")"
  fi
  # shellcheck disable=SC2046
  if c++ -std=c++20 -o "$tmp/prog_cxx" "$src/prog.cpp" $(pkg-config --cflags --libs phaseloop) 2> "$tmp/log"; then
    out=$("$tmp/prog_cxx" 2>&1)
    [ "$out" = "fired=1 close=0" ] && ok "C++ program, pkg-config phaseloop: $out" || bad "C++ program printed: $out"
  else
    bad "c++ ... \$(pkg-config --cflags --libs phaseloop): $(cat "$tmp/log")"
  fi

  # The libuv-shaped prefix.
  shaped=$libdir/phaseloop/libuv
  v=$(PKG_CONFIG_PATH=$shaped/lib/pkgconfig pkg-config --modversion libuv)
  [ "$v" = "$uv_version" ] && ok "pkg-config libuv (PKG_CONFIG_PATH=$shaped/lib/pkgconfig): $v" ||
    bad "pkg-config libuv in $shaped says '$v', not $uv_version"
  # shellcheck disable=SC2046
  if cc -o "$tmp/prog_uvpc" "$src/prog.c" $(PKG_CONFIG_PATH=$shaped/lib/pkgconfig pkg-config --cflags --libs libuv) 2> "$tmp/log"; then
    expect_line "C program, pkg-config libuv (libuv-shaped prefix)" "$tmp/prog_uvpc"
  else
    bad "cc ... \$(pkg-config --cflags --libs libuv): $(cat "$tmp/log")"
  fi
  mkdir -p "$tmp/cm"
  cp "$src/prog.c" "$src/cm/CMakeLists.txt" "$tmp/cm/"
  if { cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$shaped" && cmake --build "$tmp/cm/build"; } > "$tmp/log" 2>&1; then
    for p in with_uv with_uv_a with_pkg; do
      expect_line "CMake (-DCMAKE_PREFIX_PATH=$shaped) target $p" "$tmp/cm/build/$p"
    done
  else
    bad "CMake project with find_package(libuv): $(tail -20 "$tmp/log")"
  fi

  # A program built against Debian's libuv, on Debian's libuv and on the
  # drop-in: the same output, the drop-in's statistics when asked.
  # shellcheck disable=SC2046
  cc -o "$tmp/prog_libuv" "$src/prog.c" $(pkg-config --cflags --libs libuv) 2> "$tmp/log" ||
    { bad "a program against Debian's libuv1-dev does not build: $(cat "$tmp/log")"; return; }
  real=$("$tmp/prog_libuv")
  [ "$real" = "$uv_version hex=same fired=1 close=0" ] && ok "on Debian's libuv: $real" || bad "on Debian's libuv: $real"
  expect_line "the same binary, LD_LIBRARY_PATH=$dropin" env LD_LIBRARY_PATH="$dropin" "$tmp/prog_libuv"
  PHASELOOP_STATS=1 LD_LIBRARY_PATH=$dropin "$tmp/prog_libuv" > /dev/null 2> "$tmp/stats"
  grep -q "iterations" "$tmp/stats" && ok "PHASELOOP_STATS=1 on the drop-in prints the loop's statistics" ||
    bad "PHASELOOP_STATS=1 printed no statistics: $(head -5 "$tmp/stats")"
  if (cd "$tmp" && phaseloop trace -o "$tmp/trace.json" -- "$tmp/prog_libuv") > "$tmp/log" 2>&1 && [ -s "$tmp/trace.json" ]; then
    ok "phaseloop trace -- PROGRAM writes a timeline ($(wc -c < "$tmp/trace.json") bytes)"
  else
    bad "phaseloop trace: $(tail -5 "$tmp/log")"
  fi

  # For the whole system, as README.Debian says, and back.
  echo "$dropin" > /etc/ld.so.conf.d/0-phaseloop-uv-dropin.conf
  ldconfig
  ldd "$tmp/prog_libuv" | grep -q "$dropin/libuv.so.1" &&
    ok "with $dropin in /etc/ld.so.conf.d, a program loads the drop-in: $(ldd "$tmp/prog_libuv" | grep libuv)" ||
    bad "with /etc/ld.so.conf.d/0-phaseloop-uv-dropin.conf: $(ldd "$tmp/prog_libuv" | grep libuv)"
  expect_line "the same binary, system-wide drop-in" "$tmp/prog_libuv"
  rm -f /etc/ld.so.conf.d/0-phaseloop-uv-dropin.conf
  ldconfig
  [ "$("$tmp/prog_libuv")" = "$real" ] && ok "without the file, Debian's libuv again" ||
    bad "after removing the file: $("$tmp/prog_libuv")"
}

case ${1:-} in
  demo) demo ;;
  build) build ;;
  *) echo "usage: test/debs/installed.sh demo|build" >&2; exit 2 ;;
esac
end
