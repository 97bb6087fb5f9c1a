#!/bin/sh
# SPDX-License-Identifier: MIT
# echo_server under load: 500 connections open at once, each echoing a
# stream of its own (2 MiB) byte-exact.
. "${srcdir:-.}/test/servers/lib.sh"

conns=500
bytes=2097152
echo "load: $conns connections x $bytes bytes"
for impl in $impls; do
  start_server echo_server $impl
  client echo --conns $conns --bytes $bytes --pid "$server_pid"
  stop_server
  echo "ok $server_name"
done
