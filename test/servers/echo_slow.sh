#!/bin/sh
# SPDX-License-Identifier: MIT
# echo_server with readers that stall: 100 connections send 8 MiB each
# but read nothing, while 20 normal ones (1 MiB each) must be served to
# the end; then the stalled ones read and must get everything back.
#
# The server's memory must stay bounded meanwhile. Per stalled connection
# echo_server holds at most HIGH_WATER (256 KiB) of unsent bytes, plus the
# one 64 KiB read that crosses it, plus its 64 KiB read buffer: 384 KiB,
# so 120 connections need 45 MiB. The budget is 64 MiB of VmRSS growth,
# the rest being slack for the allocator. Without back-pressure the server
# would hold what the kernel cannot (8 MiB a connection, minus the few MiB
# in socket buffers): the same run then grows it by about 370 MiB.
# AddressSanitizer adds a shadow byte per 8 bytes and keeps freed blocks
# in a quarantine, limited here to 8 MiB: its budget is 16 MiB larger.
. "${srcdir:-.}/test/servers/lib.sh"

slow=100
slow_bytes=8388608   # more than loopback's socket buffers take
conns=20
bytes=1048576
budget_kib=65536
if $sanitized; then
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8
  export ASAN_OPTIONS
  budget_kib=81920
fi
echo "slow: $slow stalled x $slow_bytes bytes, $conns normal x $bytes bytes, VmRSS budget $budget_kib KiB"
for impl in $impls; do
  start_server echo_server $impl
  client slow --slow $slow --slow-bytes $slow_bytes --conns $conns --bytes $bytes --hold-ms 1000 \
    --rss-budget $budget_kib --pid "$server_pid"
  stop_server
  echo "ok $server_name"
done
