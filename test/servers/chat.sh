#!/bin/sh
# SPDX-License-Identifier: MIT
# chat_server: three clients with nicknames, two senders at once (each
# one's lines in order), a client that never reads (dropped, while the
# others get every line), leave notices.
. "${srcdir:-.}/test/servers/lib.sh"

for impl in $impls; do
  start_server chat_server $impl
  client chat
  stop_server
  echo "ok $server_name"
done
