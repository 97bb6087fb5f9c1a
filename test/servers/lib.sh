# Shared by the test/servers/*.sh scripts (sourced; run from the top of the
# build tree, as automake does). Each test runs once per build of the
# server: for impl in $impls; do start_server NAME $impl ...; done.

set -u

servers=./examples/servers
loadclient=./test/servers/loadclient
# The builds of each server: NAME on phaseloop, NAME-libuv on Debian's libuv.
impls=${SERVER_IMPLS:-"phaseloop libuv"}
work=$(mktemp -d "${TMPDIR:-/tmp}/servers.XXXXXX") || exit 1
server_pid=
server_name=
port=

fail() {
  echo "FAIL: $*"
  if [ -s "$work/server.err" ]; then
    echo "--- $server_name stderr:"
    tail -n 40 "$work/server.err"
  fi
  exit 1
}

# Built with AddressSanitizer (configure --enable-sanitizers)?
sanitized=false
if ldd "$loadclient" 2>/dev/null | grep -q libasan; then sanitized=true; fi

# start_server NAME IMPL [ARGS...]: starts the IMPL build of
# examples/servers/NAME on a free port and waits for its "listening on"
# line; sets server_pid and port. With SERVER_NOFILE set, the server runs
# with that descriptor limit.
start_server() {
  server_name=$1
  [ "$2" = libuv ] && server_name=$1-libuv
  shift 2
  : > "$work/server.out"
  : > "$work/server.err"
  (
    if [ -n "${SERVER_NOFILE:-}" ]; then ulimit -n "$SERVER_NOFILE" || exit 1; fi
    exec "$servers/$server_name" --port 0 "$@"
  ) > "$work/server.out" 2> "$work/server.err" &
  server_pid=$!
  tries=0
  until grep -q '^listening on ' "$work/server.out"; do
    kill -0 "$server_pid" 2> /dev/null || { server_pid=; fail "$server_name did not start"; }
    tries=$((tries + 1))
    [ "$tries" -le 400 ] || fail "$server_name printed no 'listening on' line in 20 s"
    sleep 0.05
  done
  port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$work/server.out")
  [ -n "$port" ] || fail "$server_name: unexpected first line: $(head -n 1 "$work/server.out")"
}

# stop_server: SIGTERM; the server must close everything and exit 0 (under
# AddressSanitizer that includes the leak check) within 20 s.
stop_server() {
  [ -n "$server_pid" ] || return 0
  pid=$server_pid
  server_pid=
  kill -0 "$pid" 2> /dev/null || fail "$server_name died during the test"
  kill -TERM "$pid"
  tries=0
  while kill -0 "$pid" 2> /dev/null; do
    tries=$((tries + 1))
    if [ "$tries" -gt 400 ]; then
      kill -KILL "$pid" 2> /dev/null
      fail "$server_name did not exit on SIGTERM"
    fi
    sleep 0.05
  done
  wait "$pid"
  status=$?
  [ "$status" -eq 0 ] || fail "$server_name exited with status $status on SIGTERM"
}

# client ARGS...: runs loadclient against the server, bounded in time.
client() {
  timeout 300 "$loadclient" "$@" --port "$port" || fail "$server_name: loadclient $1 failed"
}

cleanup() {
  if [ -n "$server_pid" ]; then kill -KILL "$server_pid" 2> /dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
