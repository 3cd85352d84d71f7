#!/usr/bin/env bash
# One input source: `query` answers the same from a file, a pipe on stdin and a process
# substitution, on a fixed-seed random graph and pairs. Usage: pipe_vs_file.sh BIN DIR
set -eu
bin=$1 dir=$2
mkdir -p "$dir"
awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) print int(rand() * 900), int(rand() * 900) }' > "$dir/r.txt"
awk 'BEGIN { srand(8); for (i = 0; i < 2000; i++) print int(rand() * 900), int(rand() * 900) }' > "$dir/rq.txt"
"$bin" query -q "$dir/r.txt" --pairs "$dir/rq.txt" > "$dir/file.txt" || true
cat "$dir/r.txt" | "$bin" query -q - --pairs "$dir/rq.txt" > "$dir/pipe.txt" || true
"$bin" query -q <(cat "$dir/r.txt") --pairs "$dir/rq.txt" > "$dir/procsub.txt" || true
"$bin" index -q "$dir/r.txt" -o "$dir/r.idx"
cat "$dir/r.idx" | "$bin" query -q - --pairs "$dir/rq.txt" > "$dir/index-pipe.txt" || true
grep -q ' yes$' "$dir/file.txt" && grep -q ' no$' "$dir/file.txt"
cmp "$dir/file.txt" "$dir/pipe.txt"
cmp "$dir/file.txt" "$dir/procsub.txt"
cmp "$dir/file.txt" "$dir/index-pipe.txt"
echo same
