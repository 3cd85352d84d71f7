#!/usr/bin/env bash
# A closure that cannot fit: exit 4 with a message that names memory and
# the way on for this very file, `closure index G -o G.idx` then `closure query G.idx U V`
# (or `closure reach G U`); and following the hint as written works under the same limit.
# Usage: memory_hint.sh BIN DIR
set -u
bin=$1 dir=$2
limit_mb=300
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
g=$dir/dag.txt
# A random DAG (u < v) on 80,000 vertices whose closure rows need some 400 MB: far more
# than the limit, while the graph and its index need a few MB.
awk 'BEGIN { srand(7); for (i = 0; i < 800000; i++) { a = int(rand() * 80000); b = int(rand() * 80000);
  if (a < b) print a, b; else if (b < a) print b, a } }' > "$g"
under_limit() { (ulimit -v $((limit_mb * 1024)); exec "$@"); }

# The closure written: its rows are needed (counting alone goes by columns, within the
# limit).
under_limit "$bin" "$g" -q --method sparse -o "$dir/closure.txt" > "$dir/out" 2> "$dir/err"
rc=$?
[ "$rc" -eq 4 ] || fail "expected exit 4 (out of memory), got $rc: $(cat "$dir/err")"
grep -q "memory" "$dir/err" || fail "the message does not name memory: $(cat "$dir/err")"
index_cmd=$(grep -o '`closure index [^`]*`' "$dir/err" | tr -d '`')
query_cmd=$(grep -o '`closure query [^`]*`' "$dir/err" | tr -d '`')
reach_cmd=$(grep -o '`closure reach [^`]*`' "$dir/err" | tr -d '`')
[ "$index_cmd" = "closure index $g -o $g.idx" ] || fail "no exact index command: $(cat "$dir/err")"
[ "$query_cmd" = "closure query $g.idx U V" ] || fail "no exact query command: $(cat "$dir/err")"
[ "$reach_cmd" = "closure reach $g U" ] || fail "no exact reach command: $(cat "$dir/err")"

# Told at once: without -q the first line on stderr, before any row is made, is a warning
# with the rows' estimated size and the same way on.
under_limit "$bin" "$g" --method sparse -o "$dir/closure.txt" > "$dir/out2" 2> "$dir/err2"
first=$(head -1 "$dir/err2")
case "$first" in
  "closure: warning: the closure's rows are estimated at "*"will likely stop for lack of memory"*) ;;
  *) fail "no early warning first: $(cat "$dir/err2")" ;;
esac
case "$first" in *"\`closure index $g -o $g.idx\`"*) ;; *) fail "the warning names no index command: $first" ;; esac

# Following the hint, word for word (U V: 0 and the last vertex), under the same limit.
# shellcheck disable=SC2086
under_limit "$bin" ${index_cmd#closure } -q || fail "the hinted index command failed"
q=${query_cmd#closure }
# shellcheck disable=SC2086
answer=$(under_limit "$bin" ${q% U V} 0 79999) || fail "the hinted query command failed"
[ "$answer" = "0 79999 yes" ] || fail "query answered: $answer"
r=${reach_cmd#closure }
# shellcheck disable=SC2086
count=$(under_limit "$bin" ${r% U} 0 --count) || fail "the hinted reach command failed"
[ "$count" -gt 0 ] 2>/dev/null || fail "reach counted: $count"
echo "memory hint ok"
