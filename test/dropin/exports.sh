#!/bin/sh
# SPDX-License-Identifier: MIT
# The drop-in libuv.so.1 exports exactly the functions include/phaseloop/uv/uv.h declares
# (UV_EXTERN) -- no C++ internals, no phaseloop extensions: every function
# of Debian's libuv when it is installed, and every uv_* function of the
# newest reference libuv (1.53, tools/install-libuv-refs) when that is. When
# configure links libstdc++ in (STDCXX_STATIC set: the default outside the
# sanitizer build) it needs no libstdc++.so. It holds no iostreams.
#
# Environment (from make check): DIFF_DROPIN_DIR, STDCXX_STATIC, srcdir.
set -u
top=$(cd "${srcdir:-.}" && pwd)
lib=${DIFF_DROPIN_DIR:?}/libuv.so.1
[ -e "$lib" ] || { echo "FAIL: no $lib"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/exports.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk '{ print $NF }' | LC_ALL=C sort > "$tmp/dropin"
sed -n 's/^UV_EXTERN[^(]*[ *]\([A-Za-z_0-9]*\)(.*/\1/p' "$top/include/phaseloop/uv/uv.h" | LC_ALL=C sort > "$tmp/header"
status=0
[ -s "$tmp/header" ] || { echo "FAIL: no UV_EXTERN declaration found in include/phaseloop/uv/uv.h"; exit 1; }
if ! cmp -s "$tmp/dropin" "$tmp/header"; then
  echo "FAIL: $lib exports differ from include/phaseloop/uv/uv.h's UV_EXTERN functions (< header only, > exported only):"
  diff "$tmp/header" "$tmp/dropin" | grep '^[<>]' | head -40
  status=1
else
  echo "ok: $lib exports the $(wc -l < "$tmp/dropin") functions include/phaseloop/uv/uv.h declares, nothing else"
fi
# covers LIST NAME: every function in LIST (sorted) is exported.
covers() {
  missing=$(LC_ALL=C comm -23 "$1" "$tmp/dropin")
  if [ -n "$missing" ]; then
    echo "FAIL: functions of $2 the drop-in lacks:" $missing
    status=1
  else
    echo "ok: every one of the $(wc -l < "$1") functions of $2"
  fi
}
if real=$(pkg-config --variable=libdir libuv 2> /dev/null) && [ -e "$real/libuv.so.1" ]; then
  nm -D --defined-only "$real/libuv.so.1" | awk '{ print $NF }' | LC_ALL=C sort > "$tmp/real"
  covers "$tmp/real" "$real/libuv.so.1"
fi
newest=${PHASELOOP_ORACLE_DIR:-$top/.oracle}/libuv-1.53/lib/libuv.a
if [ -e "$newest" ]; then
  nm "$newest" 2> /dev/null | awk '$2 == "T" && $3 ~ /^uv_[^_]/ { print $3 }' | LC_ALL=C sort -u > "$tmp/newest"
  covers "$tmp/newest" "libuv 1.53 ($newest)"
fi
if [ -n "${STDCXX_STATIC:-}" ]; then
  if readelf -d "$lib" | grep -q 'NEEDED.*libstdc++'; then
    echo "FAIL: $lib needs libstdc++.so (it should link it statically):"
    readelf -d "$lib" | grep NEEDED
    status=1
  else
    echo "ok: no libstdc++.so needed: $(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  fi
else
  echo "ok: libstdc++ linked shared (--disable-static-libstdcxx, or the sanitizer build)"
fi
# iostreams would bring libstdc++'s locale machinery (about 300 KiB of
# text and its start-up work) into every program that loads the drop-in.
if nm "$lib" 2> /dev/null | grep -q '_ZNSt6locale'; then
  echo "FAIL: $lib uses std::locale (iostreams?); use stdio in the code it holds"
  status=1
fi
exit $status
