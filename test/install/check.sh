#!/bin/sh
# An installed phaseloop is usable as Debian libraries are: `make install`
# into a scratch DESTDIR, then, with only pkg-config's answers,
#   - a libuv program (C, #include <uv.h>) builds against phaseloop-uv.pc
#     and runs on libphaseloop,
#   - a C++ program (#include <phaseloop/phaseloop.hpp>) builds against
#     phaseloop.pc and runs,
# and the drop-in, the headers and (with the runner) the man page are where
# the layout says: $libdir/phaseloop/libuv.so.1, $includedir/phaseloop/,
# $includedir/phaseloop/uv/, $mandir/man1/phaseloop.1.
#
# Environment (from make check): MAKE, abs_top_builddir, CC, CXX, SAN_FLAGS
# (a sanitizer build's library needs its programs built with them too).
set -u
build=${abs_top_builddir:?}
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

cat > "$tmp/prog.c" <<'C'
#include <stdio.h>
#include <uv.h>
static int fired;
static void on_timer(uv_timer_t* t) { fired++; uv_close((uv_handle_t*)t, NULL); }
int main(void) {
  uv_loop_t loop;
  uv_timer_t t;
  if (uv_loop_init(&loop) || uv_timer_init(&loop, &t) || uv_timer_start(&t, on_timer, 1, 0)) return 1;
  uv_run(&loop, UV_RUN_DEFAULT);
  printf("%s hex=%s fired=%d close=%d\n", uv_version_string(),
         uv_version() == UV_VERSION_HEX ? "same" : "different", fired, uv_loop_close(&loop));
  return 0;
}
C
cat > "$tmp/prog.cpp" <<'CXX'
#include <cstdio>
#include <phaseloop/phaseloop.hpp>
int main() {
  phaseloop::loop loop;
  phaseloop::timer t(loop);
  static int fired = 0;
  t.start([](phaseloop::timer* self) { ++fired; self->close(nullptr); }, 1, 0);
  loop.run();
  std::printf("fired=%d close=%d\n", fired, loop.close());
}
CXX
# shellcheck disable=SC2046
${CC:-cc} ${SAN_FLAGS:-} -o "$tmp/prog_c" "$tmp/prog.c" $(pkg-config --cflags --libs phaseloop-uv) 2> "$tmp/cc.log" ||
  { cat "$tmp/cc.log"; fail "the C program does not build with pkg-config phaseloop-uv"; }
# shellcheck disable=SC2046
${CXX:-c++} -std=c++20 ${SAN_FLAGS:-} -o "$tmp/prog_cxx" "$tmp/prog.cpp" $(pkg-config --cflags --libs phaseloop) 2> "$tmp/cxx.log" ||
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
# inside; a sanitizer build keeps it shared, as the sanitizer runtimes
# need it anyway).
if [ -z "${SAN_FLAGS:-}" ]; then
  ! printf '%s\n' "$ldd_out" | grep -q "libstdc++" || fail "the C program maps libstdc++.so: $ldd_out"
fi
out=$(LD_LIBRARY_PATH=$dest$libdir "$tmp/prog_cxx") || fail "the C++ program failed: $out"
echo "C++ (phaseloop.pc): $out"
[ "$out" = "fired=1 close=0" ] || fail "unexpected output of the C++ program"
echo "ok: installed under $dest (prefix $prefix)"
