#!/bin/sh
# SPDX-License-Identifier: MIT
# One loop per thread (--loops N): echo_server and http_server with two
# loops, each accepting from its own SO_REUSEPORT socket on the same port,
# answer every connection byte-exact; the kernel spreads the connections
# over both loops (echo_server reports how many each accepted); SIGTERM
# stops every loop and the process exits 0. Bad counts and servers
# without the option are usage errors (status 2).
. "${srcdir:-.}/test/servers/lib.sh"

printf 'hello\n' > "$work/hello"
head -c 300000 /dev/urandom > "$work/file.bin"

for impl in $impls; do
  start_server echo_server $impl --loops 2
  client echo --conns 200 --bytes 65536 --pid "$server_pid"
  stop_server
  line=$(grep 'connections per loop:' "$work/server.err") ||
    fail "$server_name: no per-loop count at exit"
  set -- $(echo "$line" | sed 's/.*connections per loop: *\([0-9]*\) \([0-9]*\)).*/\1 \2/')
  [ "$#" -eq 2 ] && [ "$(($1 + $2))" -eq 200 ] ||
    fail "$server_name: per-loop counts '$line' do not add up to 200"
  [ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "$server_name: one loop accepted nothing ($line)"
  echo "ok $server_name --loops 2 (per loop: $1 $2)"

  start_server http_server $impl --loops 2 --root "$work"
  client http --conns 100 --requests 10 --get "/=$work/hello" --get "/file/file.bin=$work/file.bin" --post 20000
  stop_server
  echo "ok $server_name --loops 2"

  for bad in 0 65 x -1; do
    name=echo_server
    [ "$impl" = libuv ] && name=echo_server-libuv
    status=0
    "$servers/$name" --port 0 --loops "$bad" > /dev/null 2> "$work/bad.err" || status=$?
    [ "$status" -eq 2 ] || fail "$name --loops $bad: status $status, not 2"
    grep -q -- '--loops takes 1 to 64' "$work/bad.err" || fail "$name --loops $bad: $(cat "$work/bad.err")"
  done
  name=chat_server
  [ "$impl" = libuv ] && name=chat_server-libuv
  status=0
  "$servers/$name" --port 0 --loops 2 > /dev/null 2> "$work/bad.err" || status=$?
  [ "$status" -eq 2 ] || fail "$name --loops 2: status $status, not 2 (chat keeps one loop)"
  echo "ok bad --loops ($impl)"
done
