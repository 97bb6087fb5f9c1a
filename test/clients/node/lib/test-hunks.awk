# SPDX-License-Identifier: MIT
# test-hunks.awk -- keep only the parts of a unified diff that patch files
# under test/ (used by ../fetch to apply Debian's patches to the extracted
# test/ tree only; the rest of Node's source is never extracted).
#
# Input: one quilt patch from debian/patches.  Output: a diff with the same
# file headers and hunks, minus every file outside test/ and minus the
# patch's description text.  Hunk lengths are counted so that a hunk line
# that starts with "--- " is never taken for a file header.

function strip(p) { sub(/\t.*/, "", p); sub(/^[^\/]*\//, "", p); return p }

inhunk > 0 {
  c = substr($0, 1, 1)
  if (c == "-") old--
  else if (c == "+") new--
  else if (c != "\\") { old--; new-- }
  if (keep) print
  if (old <= 0 && new <= 0) inhunk = 0
  next
}

/^--- / {
  hdr = $0
  if ((getline nxt) > 0 && nxt ~ /^\+\+\+ /) {
    a = strip(substr(hdr, 5)); b = strip(substr(nxt, 5))
    keep = (a ~ /^test\// || b ~ /^test\//)
    if (keep) { print hdr; print nxt }
    next
  }
  $0 = nxt
}

/^@@ / {
  # "@@ -start[,len] +start[,len] @@"
  split($2, o, ","); split($3, n, ",")
  old = (o[2] == "" ? 1 : o[2]) + 0
  new = (n[2] == "" ? 1 : n[2]) + 0
  inhunk = (old > 0 || new > 0)
  if (keep) print
  next
}

/^\\/ { if (keep) print; next }
