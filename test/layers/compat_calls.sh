#!/bin/sh
# SPDX-License-Identifier: MIT
# compat/ only translates: its objects call the C++ library and nothing of
# the system -- no system-call wrapper, no /proc reading, no thread or
# socket function of the C library. What a compat object may still take
# from outside the library is listed below: memory, strings, and the C++
# runtime. Anything else it imports (nm -u) fails the test, by name.
set -u
objs=$(ls compat/.libs/*.o 2> /dev/null)
if [ -z "$objs" ]; then
  echo "FAIL: no compat object in $(pwd)/compat/.libs (run from the build directory after make)"
  exit 1
fi

allowed='^(_ZN9phaseloop|_ZNK9phaseloop|_ZTVN9phaseloop|_ZTIN9phaseloop|_ZTSN9phaseloop|uv_|_GLOBAL_OFFSET_TABLE_$|__stack_chk_fail$'
allowed="$allowed|_Znwm|_Znam|_ZdlPv|_ZdaPv|_ZSt7nothrow$|_ZTVN10__cxxabiv1|__cxa_|__gxx_personality_v0$|_Unwind_Resume$"
allowed="$allowed|malloc$|calloc$|realloc$|free$|strdup$|strlen$|strchr$|strcmp$|memcpy$|memset$|memcmp$|snprintf$"
allowed="$allowed|stdout$|stderr$"
# The same, checked, when built with _FORTIFY_SOURCE (as distributions do).
allowed="$allowed|__snprintf_chk$|__memcpy_chk$|__memset_chk$"
# The sanitizer build's instrumentation.
allowed="$allowed|__asan_|__ubsan_|__sanitizer_|__lsan_)"

status=0
n=0
for o in $objs; do
  n=$((n + 1))
  bad=$(nm -u "$o" | awk '{print $2}' | grep -Ev "$allowed")
  if [ -n "$bad" ]; then
    echo "FAIL: $(basename "$o") calls outside the library:" $bad
    status=1
  fi
done
[ $status = 0 ] && echo "ok: the $n compat objects call only the library (and memory, string and C++ runtime functions)"
exit $status
