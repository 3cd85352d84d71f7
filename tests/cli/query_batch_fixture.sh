#!/usr/bin/env bash
# Writes DIR/bigg.txt (3,000 named vertices: cycles of 10 joined by forward edges) and DIR/bigq.txt (10,000 query lines:
# known and unknown names, malformed lines, comments, trailing comments; a fixed seed), for
# the CLI tests of batched `query --pairs` answers.
set -euo pipefail
dir=$1
seq 0 2999 | awk '{
  t = ($1 * 7 + 3) % 3000; if (t > $1) print "v" $1, "v" t
  if ($1 % 10 != 9) print "v" $1, "v" ($1 + 1); else print "v" $1, "v" ($1 - 9)
}' > "$dir/bigg.txt"
awk 'BEGIN {
  srand(5)
  for (i = 0; i < 10000; i++) {
    r = int(rand() * 20); a = int(rand() * 3100); b = int(rand() * 3100)
    if (r == 0) print "junk"
    else if (r == 1) print "# c"
    else if (r == 2) print "v" a, "v" b, "# why"
    else print "v" a "\t" "v" b
  }
}' > "$dir/bigq.txt"
