#!/usr/bin/env bash
# Generates the reader benchmark's inputs (docs/benchmarks.md, "Reading"), fixed seeds:
#   ints.txt   a random directed graph, "u<TAB>v" over 2,000,000 integer ids (SNAP style)
#   paths.txt  an #include-like graph: header paths as labels, 300,000 of them, local fan-out
#              and a few popular headers, so labels repeat as in a real include graph
# Usage: tools/make-read-inputs.sh OUTDIR [LINES_INTS] [LINES_PATHS]  (default 220 MB each)
set -euo pipefail
out=$1
ints=${2:-14500000}
paths=${3:-2600000}
mkdir -p "$out"
awk -v lines="$ints" 'BEGIN {
  srand(1); n = 2000000
  print "# random graph: 2,000,000 vertices, uniform edges"
  for (i = 0; i < lines; i++) printf "%d\t%d\n", int(rand() * n), int(rand() * n)
}' >"$out/ints.txt"
awk -v lines="$paths" 'BEGIN {
  srand(2); n = 300000
  split("/usr/include /usr/include/x86_64-linux-gnu/bits /usr/include/c++/12/bits " \
        "/usr/include/linux /usr/include/boost/graph/detail /usr/src/project/include/core " \
        "/usr/include/c++/12/ext/pb_ds/detail /usr/lib/gcc/x86_64-linux-gnu/12/include", dirs, " ")
  print "# includer included"
  for (i = 0; i < lines; i++) {
    a = int(rand() * n)
    b = rand() < 0.3 ? int(rand() * 200) : (a + 1 + int(rand() * 499)) % n
    printf "%s/module_%d_%d.h %s/module_%d_%d.h\n", dirs[a % 8 + 1], int(a / 8), a % 97,
           dirs[b % 8 + 1], int(b / 8), b % 97
  }
}' >"$out/paths.txt"
ls -l "$out"/ints.txt "$out"/paths.txt
