#!/bin/sh
# SPDX-License-Identifier: MIT
# echo_server out of descriptors: it runs with `ulimit -n 64` while 400
# clients connect at once. accept() fails with EMFILE; libuv (and
# phaseloop) then accept and drop what waits, using a spare descriptor.
# The server must survive, and once the storm has ended serve 20 new
# connections byte-exact.
. "${srcdir:-.}/test/servers/lib.sh"

storm=400
conns=20
bytes=262144
echo "emfile: server limited to 64 descriptors, $storm connections at once, then $conns x $bytes bytes"
for impl in $impls; do
  SERVER_NOFILE=64 start_server echo_server $impl
  client storm --storm $storm --hold-ms 1000 --conns $conns --bytes $bytes --pid "$server_pid"
  stop_server
  sed -n 's/^echo_server: /server: /p' "$work/server.err"
  echo "ok $server_name"
done
