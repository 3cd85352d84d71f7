#!/usr/bin/env bash
# `closure query` on a graph reads and closes it through the run pipeline, not a path of its
# own: under the same memory limit the same closure gets the same warning and the same
# refusal, word for word (the way on names the user's file), and the progress line shows
# the same reading phase. Usage: query_same_door.sh BIN DIR
set -u
bin=$1 dir=$2
limit_mb=300
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
g=$dir/dag.txt
# A random DAG (u < v) on 80,000 vertices whose closure rows need some 400 MB.
awk 'BEGIN { srand(7); for (i = 0; i < 800000; i++) { a = int(rand() * 80000); b = int(rand() * 80000);
  if (a < b) print a, b; else if (b < a) print b, a } }' > "$g"
under_limit() { (ulimit -v $((limit_mb * 1024)); exec "$@"); }
first=$(head -1 "$g" | cut -d' ' -f1)

# The closure written: counting alone goes by columns, within the limit.
under_limit "$bin" "$g" --method sparse -o "$dir/closure.txt" > /dev/null 2> "$dir/run.err"
rc=$?
[ "$rc" -eq 4 ] || fail "run: expected exit 4, got $rc: $(cat "$dir/run.err")"
under_limit "$bin" query "$g" "$first" "$first" --engine closure --method sparse \
  > /dev/null 2> "$dir/query.err"
rc=$?
[ "$rc" -eq 4 ] || fail "query: expected exit 4, got $rc: $(cat "$dir/query.err")"
grep -q "^closure: warning: " "$dir/run.err" || fail "run gave no warning: $(cat "$dir/run.err")"
grep -q "$g" "$dir/run.err" || fail "run's way on does not name $g: $(cat "$dir/run.err")"
# The sizes left to the process differ by what each command has mapped, and the early row
# estimate is bounded in time (a loaded machine samples fewer components, and may say "or
# more"): words only.
sizes() { sed -E 's/[0-9][0-9.]* (bytes|KB|MB|GB)/N \1/g; s/ or more//g; s/from [0-9]+ sampled/from N sampled/g' "$1"; }
diff <(sizes "$dir/run.err") <(sizes "$dir/query.err") > "$dir/diff" ||
  fail "query's warning and refusal differ from run's: $(cat "$dir/diff")"

# The reading phase on the progress line, as run shows it.
CLOSURE_PROGRESS_DELAY=0 "$bin" query --progress "$g" "$first" "$first" --engine index \
  > "$dir/answer" 2> "$dir/progress.err" || fail "query --progress failed: $(cat "$dir/progress.err")"
grep -q "reading $g" "$dir/progress.err" || fail "no reading phase: $(cat "$dir/progress.err")"
grep -q "^$first $first no$" "$dir/answer" || fail "wrong answer: $(cat "$dir/answer")"
echo "query same door ok"
