#!/bin/sh
# SPDX-License-Identifier: MIT
# An installed phaseloop is usable as Debian libraries are: `make install`
# into a scratch DESTDIR, then, with only pkg-config's answers,
#   - a libuv program (C, #include <uv.h>) builds against phaseloop-uv.pc
#     and runs on libphaseloop,
#   - a C++ program (#include <phaseloop/phaseloop.hpp>) builds against
#     phaseloop.pc and runs,
# and the drop-in, the headers and (with the runner) the man page are where
# the layout says: $libdir/phaseloop/libuv.so.1, $includedir/phaseloop/,
# $includedir/phaseloop/uv/, $mandir/man1/phaseloop.1. The libuv-shaped
# prefix $libdir/phaseloop/libuv: `pkg-config libuv` and a CMake project's
# find_package(libuv), uv_a and pkg_check_modules(libuv) build a libuv
# program that runs on phaseloop and reports the emulated version (77
# without cmake).
#
# Environment (from make check): MAKE, abs_top_builddir, srcdir, CC, CXX,
# SAN_FLAGS, STDCXX_STATIC
# (a sanitizer build's library needs its programs built with them too).
set -u
build=${abs_top_builddir:?}
src=$(cd "${srcdir:-.}" && pwd)/test/install
tmp=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
# The library behaves as configure's version unless told otherwise.
unset PHASELOOP_PROFILE
fail() { echo "FAIL: $*"; exit 1; }

${MAKE:-make} -s -C "$build" install DESTDIR="$dest" > "$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "make install DESTDIR=... failed"; }
# The configured directories, as the Makefile has them.
dirs=$(${MAKE:-make} -s -C "$build" --no-print-directory print-install-dirs) ||
  fail "make print-install-dirs failed"
eval "$dirs"
for f in "$libdir/phaseloop/libuv.so.1" "$libdir/libphaseloop.so" "$libdir/libphaseloop-uv.so" \
         "$includedir/phaseloop/loop.hpp" "$includedir/phaseloop/detail/ilist.hpp" \
         "$includedir/phaseloop/uv/uv.h" "$includedir/phaseloop/uv/uv/unix.h" \
         "$libdir/pkgconfig/phaseloop.pc" "$libdir/pkgconfig/phaseloop-uv.pc"; do
  [ -e "$dest$f" ] || fail "not installed: $f"
done
[ ! -e "$dest$includedir/include" ] || fail "headers installed under $includedir/include"
if [ -x "$build/phaseloop" ]; then
  [ -e "$dest$mandir/man1/phaseloop.1" ] || fail "not installed: $mandir/man1/phaseloop.1"
fi

PKG_CONFIG_PATH=$dest$libdir/pkgconfig
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
unset PKG_CONFIG_LIBDIR

# shellcheck disable=SC2046
${CC:-cc} ${SAN_FLAGS:-} -o "$tmp/prog_c" "$src/prog.c" $(pkg-config --cflags --libs phaseloop-uv) 2> "$tmp/cc.log" ||
  { cat "$tmp/cc.log"; fail "the C program does not build with pkg-config phaseloop-uv"; }
# shellcheck disable=SC2046
${CXX:-c++} -std=c++20 ${SAN_FLAGS:-} -o "$tmp/prog_cxx" "$src/prog.cpp" $(pkg-config --cflags --libs phaseloop) 2> "$tmp/cxx.log" ||
  { cat "$tmp/cxx.log"; fail "the C++ program does not build with pkg-config phaseloop"; }
out=$(LD_LIBRARY_PATH=$dest$libdir "$tmp/prog_c") || fail "the C program failed: $out"
echo "C (phaseloop-uv.pc): $out"
case $out in *" fired=1 close=0") ;; *) fail "unexpected output of the C program" ;; esac
# Without PHASELOOP_PROFILE the library behaves as configure's version, and
# the installed uv.h was built for it (make install writes uv/version.h).
case $out in "$uv_version-phaseloop hex=same "*) ;; *) fail "the C program built against the installed uv.h should report libuv $uv_version with UV_VERSION_HEX agreeing (configure's --with-profile): $out" ;; esac
ldd_out=$(LD_LIBRARY_PATH=$dest$libdir ldd "$tmp/prog_c")
printf '%s\n' "$ldd_out" | grep -q "$dest$libdir/libphaseloop-uv.so" || fail "the C program is not linked with the installed libphaseloop-uv: $ldd_out"
# A C program does not load the C++ runtime (libphaseloop-uv has it
# inside, unless configure was given --disable-static-libstdcxx; a
# sanitizer build keeps it shared, as the sanitizer runtimes need it
# anyway).
if [ -n "${STDCXX_STATIC:-}" ]; then
  ! printf '%s\n' "$ldd_out" | grep -q "libstdc++" || fail "the C program maps libstdc++.so: $ldd_out"
fi
out=$(LD_LIBRARY_PATH=$dest$libdir "$tmp/prog_cxx") || fail "the C++ program failed: $out"
echo "C++ (phaseloop.pc): $out"
[ "$out" = "fired=1 close=0" ] || fail "unexpected output of the C++ program"

# The libuv-shaped prefix: an unmodified libuv project finds phaseloop by
# one variable, PKG_CONFIG_PATH for `pkg-config libuv`, CMAKE_PREFIX_PATH
# for find_package(libuv) (and CMake's pkg_check_modules).
shaped=$dest$libdir/phaseloop/libuv
for f in lib/pkgconfig/libuv.pc lib/cmake/libuv/libuvConfig.cmake lib/cmake/libuv/libuvConfigVersion.cmake \
         include/uv.h lib/libuv.so; do
  [ -e "$shaped/$f" ] || fail "not installed (or a dangling link): $libdir/phaseloop/libuv/$f"
done
unset PKG_CONFIG_SYSROOT_DIR
PKG_CONFIG_PATH=$shaped/lib/pkgconfig
v=$(pkg-config --modversion libuv) || fail "pkg-config libuv finds nothing in $PKG_CONFIG_PATH"
[ "$v" = "$uv_version" ] || fail "pkg-config libuv says $v, not the emulated $uv_version"
# shellcheck disable=SC2046
${CC:-cc} ${SAN_FLAGS:-} -o "$tmp/prog_uvpc" "$src/prog.c" $(pkg-config --cflags --libs libuv) 2> "$tmp/cc.log" ||
  { cat "$tmp/cc.log"; fail "the C program does not build with pkg-config libuv"; }
out=$(LD_LIBRARY_PATH=$dest$libdir "$tmp/prog_uvpc") || fail "the C program (libuv.pc) failed: $out"
echo "C (libuv.pc): $out"
case $out in "$uv_version-phaseloop hex=same fired=1 close=0") ;; *) fail "unexpected output of the C program built with libuv.pc" ;; esac
LD_LIBRARY_PATH=$dest$libdir ldd "$tmp/prog_uvpc" | grep -q "$dest$libdir/libphaseloop-uv.so.0" ||
  fail "the program built with libuv.pc is not linked with libphaseloop-uv"

if ! command -v cmake > /dev/null 2>&1; then
  echo "SKIP: no cmake, so find_package(libuv) is not checked (tools/setup installs cmake)"
  exit 77
fi
mkdir -p "$tmp/cm"
cp "$src/prog.c" "$src/cm/CMakeLists.txt" "$tmp/cm/"
unset PKG_CONFIG_PATH
# shellcheck disable=SC2086
{ cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$shaped" -DCMAKE_C_FLAGS="${SAN_FLAGS:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${SAN_FLAGS:-}" && cmake --build "$tmp/cm/build"; } > "$tmp/cmake.log" 2>&1 ||
  { tail -30 "$tmp/cmake.log"; fail "a CMake project with find_package(libuv) and pkg_check_modules(libuv) does not build"; }
[ "$(cat "$tmp/cm/build/found.txt")" = "$uv_version $uv_version" ] ||
  fail "CMake found libuv $(cat "$tmp/cm/build/found.txt"), not $uv_version twice"
for p in with_uv with_uv_a with_pkg; do
  out=$(LD_LIBRARY_PATH=$dest$libdir "$tmp/cm/build/$p") || fail "the CMake-built $p failed: $out"
  case $out in "$uv_version-phaseloop hex=same fired=1 close=0") ;; *) fail "unexpected output of the CMake-built $p: $out" ;; esac
done
echo "CMake (find_package(libuv), uv_a, pkg_check_modules): $uv_version, 3 programs ran on phaseloop"
echo "ok: installed under $dest (prefix $prefix)"
