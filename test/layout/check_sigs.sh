#!/bin/sh
# SPDX-License-Identifier: MIT
# Compare the declarations of include/phaseloop/uv/uv.h with the system libuv header,
# using clang's AST dump (types as the compiler sees them, with typedef
# names kept):
#   1. every uv_* function: same set of names, identical types;
#   2. every uv_* typedef (not uv__*): same set, identical types;
#   3. every member of ours whose name is not private storage
#      ("uv_..._private..._") exists in libuv's struct with the same type.
# check.sh covers sizes, offsets and constants; this covers types.
#
# Environment: CLANG (default clang), srcdir (automake).
# Exit: 0 identical (PASS), 1 differences, 77 no clang or no system libuv.

set -u

CLANG=${CLANG:-clang}

here=$(cd "$(dirname "$0")" && pwd)
top=
for cand in "$here/../.." "${srcdir:-.}" "${srcdir:-.}/../.."; do
  if [ -f "$cand/include/phaseloop/uv/uv.h" ]; then
    top=$(cd "$cand" && pwd)
    break
  fi
done
if [ -z "$top" ]; then
  echo "check_sigs.sh: cannot find include/phaseloop/uv/uv.h" >&2
  exit 1
fi

if ! command -v "$CLANG" > /dev/null 2>&1; then
  echo "SKIP: $CLANG not found"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-sigs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

printf '#include <uv.h>\n' > "$tmp/tu.c"
if ! "$CLANG" -fsyntax-only "$tmp/tu.c" 2> /dev/null; then
  echo "SKIP: no system libuv header to compare with"
  exit 77
fi

# dump <name> [clang flags...]: writes <name>.funcs, .typedefs, .fields
dump() {
  name=$1; shift
  "$CLANG" -std=gnu11 -fsyntax-only -Xclang -ast-dump -fno-color-diagnostics \
      "$@" "$tmp/tu.c" > "$tmp/$name.ast" 2> "$tmp/$name.err" || {
    cat "$tmp/$name.err" >&2; echo "FAIL: clang could not parse ($name)"; exit 1; }
  # Drop source locations from anonymous type names and the "referenced"
  # / "used" markers, which depend on the surrounding code.
  sed -e 's/(unnamed \(struct\|union\|enum\) at [^)]*)/(unnamed \1)/g' \
      -e 's/(anonymous at [^)]*)/(anonymous)/g' \
      -e 's/::(unnamed at [^)]*)/::(unnamed)/g' \
      -e 's/ referenced / /; s/ used / /' "$tmp/$name.ast" > "$tmp/$name.norm"
  awk -v out="$tmp/$name" '
    function decl_name_type(line,    q, head, n, parts) {
      q = index(line, "\047")
      head = substr(line, 1, q - 2)
      n = split(head, parts, " ")
      dn = parts[n]
      dt = substr(line, q)
    }
    /^[|`]-/ {
      # a top-level declaration ends any record being read
      if (pending != "" && $0 ~ /TypedefDecl/) {
        decl_name_type($0)
        n = split(pending, rows, "\n")
        if (dn ~ /^uv_/) for (i = 1; i <= n; i++) if (rows[i] != "") print dn "." rows[i] > (out ".fields")
      }
      pending = ""; rec = ""; inrec = 0
      if ($0 ~ /FunctionDecl/) {
        decl_name_type($0)
        sub(/ extern$/, "", dt); sub(/ inline$/, "", dt)
        if (dn ~ /^uv_/) print dn " " dt > (out ".funcs")
      } else if ($0 ~ /TypedefDecl/) {
        decl_name_type($0)
        if (dn ~ /^uv_/ && dn !~ /^uv__/) print dn " " dt > (out ".typedefs")
      } else if ($0 ~ /RecordDecl/ && $0 ~ / definition$/) {
        inrec = 1
        n = split($0, parts, " ")
        # "... struct NAME definition" or "... struct definition"
        if (parts[n - 1] == "struct" || parts[n - 1] == "union") rec = ""
        else rec = parts[n - 1]
      }
      next
    }
    inrec && /^[| ] [|`]-FieldDecl/ {
      decl_name_type($0)
      if (rec ~ /^uv_/) print rec "." dn " " dt > (out ".fields")
      else pending = pending dn " " dt "\n"
    }
  ' "$tmp/$name.norm"
  for f in funcs typedefs fields; do
    touch "$tmp/$name.$f"
    sort -o "$tmp/$name.$f" "$tmp/$name.$f"
  done
}

dump sys ${UV_SYSTEM_CFLAGS:-}
dump ours -I"$top/include/phaseloop/uv" ${UV_COMPAT_CFLAGS:-}

if grep -q 'phaseloop/uv/uv' "$tmp/sys.ast"; then
  echo "FAIL: the system dump read include/phaseloop/uv/uv.h"; exit 1
fi
if grep -q '/usr/include/uv' "$tmp/ours.ast"; then
  echo "FAIL: the compat dump read a system libuv header"; exit 1
fi

status=0
for f in funcs typedefs; do
  if diff -u "$tmp/sys.$f" "$tmp/ours.$f" > "$tmp/$f.diff"; then
    echo "$f: $(wc -l < "$tmp/ours.$f" | tr -d ' ') identical"
  else
    echo "$f: DIFFERENCES (--- libuv, +++ phaseloop):"
    cat "$tmp/$f.diff"
    status=1
  fi
done

grep -v '^[^ ]*\.uv_[a-z0-9_]*private[a-z0-9_]*_ ' "$tmp/ours.fields" > "$tmp/ours.public"
comm -23 "$tmp/ours.public" "$tmp/sys.fields" > "$tmp/fields.bad"
if [ -s "$tmp/fields.bad" ]; then
  echo "fields: public members of ours that libuv lacks or types differently:"
  cat "$tmp/fields.bad"
  status=1
else
  echo "fields: $(wc -l < "$tmp/ours.public" | tr -d ' ') public members match"
fi

if [ $status -eq 0 ]; then echo PASS; else echo FAIL; fi
exit $status
