#!/bin/sh
# SPDX-License-Identifier: MIT
# echo_server and resets: 200 connections send without reading and close
# with SO_LINGER {1, 0} (a reset), half at once, half while the server is
# blocked writing to them. The server must close each of them (its
# descriptor count comes back) and then serve 50 new connections
# byte-exact.
. "${srcdir:-.}/test/servers/lib.sh"

resets=200
reset_bytes=33554432
conns=50
bytes=1048576
echo "reset: $resets resets, then $conns connections x $bytes bytes"
for impl in $impls; do
  start_server echo_server $impl
  client reset --resets $resets --reset-bytes $reset_bytes --conns $conns --bytes $bytes --pid "$server_pid"
  stop_server
  echo "ok $server_name"
done
