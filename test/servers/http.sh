#!/bin/sh
# SPDX-License-Identifier: MIT
# http_server: every route and error, keep-alive, HTTP/1.0, pipelining,
# half-close, a multi-MiB file byte-exact, and concurrent clients.
. "${srcdir:-.}/test/servers/lib.sh"

root=$work/root
mkdir -p "$root/sub"
printf 'small file\n' > "$root/small.txt"
printf 'inside\n' > "$root/sub/inner.txt"
printf 'secret\n' > "$work/secret"
printf 'hello\n' > "$work/hello"
# 6 MiB + 7 bytes of varied bytes (not a multiple of the server's chunk).
head -c $((6 * 1048576 + 7)) /dev/urandom > "$root/big.bin"

# raw NAME [--half-close]: sends $work/req on one connection, which must
# get exactly $work/want back before the server closes it.
raw() {
  name=$1
  shift
  timeout 60 "$loadclient" raw --port "$port" "$@" < "$work/req" > "$work/got" ||
    fail "$server_name: $name: loadclient raw failed"
  if ! cmp -s "$work/got" "$work/want"; then
    echo "--- expected:"; od -c "$work/want" | head -n 40
    echo "--- got:"; od -c "$work/got" | head -n 40
    fail "$server_name: $name: wrong response"
  fi
}

# resp STATUS REASON TYPE BODY [HEADER...]: one expected response.
resp() {
  printf 'HTTP/1.1 %s %s\r\nContent-Type: %s\r\nContent-Length: %s\r\n' "$1" "$2" "$3" "${#4}"
  body=$4
  shift 4
  for h in "$@"; do printf '%s\r\n' "$h"; done
  printf '\r\n%s' "$body"
}

nl='
'
text=text/plain
octets=application/octet-stream

for impl in $impls; do
  start_server http_server $impl --root "$root"

  # Routes, keep-alive and pipelining: nine requests at once on one
  # connection; the last asks to close.
  {
    printf 'GET / HTTP/1.1\r\nHost: a\r\n\r\n'
    printf 'GET /missing HTTP/1.1\r\n\r\n'
    printf 'DELETE / HTTP/1.1\r\n\r\n'
    printf 'GET /echo HTTP/1.1\r\n\r\n'
    printf 'POST /echo HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world'
    printf 'GET /file/small.txt HTTP/1.1\r\n\r\n'
    printf 'GET /file/none.txt HTTP/1.1\r\n\r\n'
    printf 'GET /file/sub/inner.txt HTTP/1.1\r\n\r\n'
    printf 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n'
  } > "$work/req"
  {
    resp 200 OK $text "hello$nl"
    resp 404 'Not Found' $text "not found$nl"
    resp 405 'Method Not Allowed' $text "method not allowed$nl" 'Allow: GET'
    resp 405 'Method Not Allowed' $text "method not allowed$nl" 'Allow: POST'
    resp 200 OK $octets 'hello world'
    resp 200 OK $octets "small file$nl"
    resp 404 'Not Found' $text "not found$nl"
    resp 200 OK $octets "inside$nl"
    resp 200 OK $text "hello$nl" 'Connection: close'
  } > "$work/want"
  raw routes

  # A body on a route that does not want it is skipped; empty lines
  # between requests are allowed.
  printf 'POST /missing HTTP/1.1\r\nContent-Length: 5\r\n\r\n12345\r\nGET / HTTP/1.1\r\nConnection: close\r\n\r\n' > "$work/req"
  { resp 404 'Not Found' $text "not found$nl"; resp 200 OK $text "hello$nl" 'Connection: close'; } > "$work/want"
  raw skip-body

  # HTTP/1.0 closes unless asked to keep the connection.
  printf 'GET / HTTP/1.0\r\n\r\n' > "$work/req"
  resp 200 OK $text "hello$nl" 'Connection: close' > "$work/want"
  raw http10
  printf 'GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.0\r\n\r\n' > "$work/req"
  { resp 200 OK $text "hello$nl" 'Connection: keep-alive'; resp 200 OK $text "hello$nl" 'Connection: close'; } > "$work/want"
  raw http10-keep-alive

  # The client shuts its side down after two requests: both are answered,
  # then the server closes.
  printf 'GET / HTTP/1.1\r\n\r\nPOST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc' > "$work/req"
  { resp 200 OK $text "hello$nl"; resp 200 OK $octets abc; } > "$work/want"
  raw half-close --half-close

  # Expect: 100-continue.
  printf 'POST /echo HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok' > "$work/req"
  { printf 'HTTP/1.1 100 Continue\r\n\r\n'; resp 200 OK $octets ok 'Connection: close'; } > "$work/want"
  raw expect-continue

  # Errors: each answered, then the connection is closed.
  printf 'GET /file/../secret HTTP/1.1\r\n\r\n' > "$work/req"
  resp 400 'Bad Request' $text "Bad Request$nl" 'Connection: close' > "$work/want"
  raw dot-dot
  printf 'HELLO\r\n\r\n' > "$work/req"
  raw garbage
  printf 'GET / HTTP/1.1\r\nBad Header\r\n\r\n' > "$work/req"
  raw no-colon
  printf 'POST /echo HTTP/1.1\r\nContent-Length: 1x\r\n\r\n' > "$work/req"
  raw bad-length
  printf 'POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' > "$work/req"
  resp 501 'Not Implemented' $text "Not Implemented$nl" 'Connection: close' > "$work/want"
  raw chunked
  printf 'GET / HTTP/2.0\r\n\r\n' > "$work/req"
  resp 505 'HTTP Version Not Supported' $text "HTTP Version Not Supported$nl" 'Connection: close' > "$work/want"
  raw version
  { printf 'GET / HTTP/1.1\r\nX-Long: '; head -c 9000 /dev/zero | tr '\0' a; printf '\r\n\r\n'; } > "$work/req"
  resp 431 'Request Header Fields Too Large' $text "Request Header Fields Too Large$nl" 'Connection: close' > "$work/want"
  raw header-too-long
  { printf 'GET /'; head -c 9000 /dev/zero | tr '\0' a; printf ' HTTP/1.1\r\n\r\n'; } > "$work/req"
  resp 400 'Bad Request' $text "Bad Request$nl" 'Connection: close' > "$work/want"
  raw line-too-long --half-close

  # Keep-alive one request after another, then pipelined, on concurrent
  # connections: a big file, a small one, "/" and POST /echo in turn.
  kinds="--get /file/big.bin=$root/big.bin --get /=$work/hello --get /file/small.txt=$root/small.txt --post 100000"
  client http --conns 50 --requests 8 $kinds
  client http --conns 50 --requests 8 --pipeline $kinds
  # Many connections asking for "/".
  client http --conns 200 --requests 20 --pipeline --get "/=$work/hello"

  stop_server
  echo "ok $server_name"
done
