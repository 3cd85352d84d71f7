#!/usr/bin/env bash
# reduce writes through the closure's writers: every format -o names (case aside, .gz on top)
# reads back as the same reduction, and labels that begin with '#', '%' or '\' survive the
# round trip (they are escaped as in `closure run -o`). Usage: reduce_writers.sh BIN DIR
set -u
bin=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAILED: $*"; exit 1; }
# 5 vertices, 4 edges, nothing reducible; labels a comment reader would eat.
printf '\\#a b\nb \\%%c\n\\%%c d\n\\\\#e d\n' > "$dir/g.txt"
"$bin" -q "$dir/g.txt" --json > "$dir/g.json" || fail "the input does not read"
grep -q '"vertices": 5' "$dir/g.json" || fail "the input is not 5 vertices: $(cat "$dir/g.json")"
# Each reduction read back: 5 vertices, 4 edges, and the closure of the input (sorted pairs).
"$bin" -q "$dir/g.txt" -o "$dir/g.closure.txt" || fail "closing the input"
# (DOT reads "\\" as Graphviz does, so a '\' in a label is not kept there: counts only.)
for name in r.txt r.TXT.gz r.mtx r.MTX r.csv r.tsv.gz r.dot; do
  "$bin" reduce -q "$dir/g.txt" -o "$dir/$name" || fail "reduce -o $name"
  "$bin" -q "$dir/$name" --json > "$dir/$name.json" 2>&1 || fail "$name does not read back: $(cat "$dir/$name.json")"
  grep -q '"vertices": 5' "$dir/$name.json" || fail "$name: not 5 vertices: $(cat "$dir/$name.json")"
  grep -q '"edges": 4' "$dir/$name.json" || fail "$name: not 4 edges: $(cat "$dir/$name.json")"
  [ "$name" = r.dot ] && continue
  "$bin" -q "$dir/$name" -o "$dir/$name.closure.txt" || fail "closing $name"
  cmp -s <(sort "$dir/g.closure.txt") <(sort "$dir/$name.closure.txt") ||
    fail "$name: its closure differs from the input's"
done
# The format is what the name says, as for run: the same bytes as run writes for that format.
head -1 "$dir/r.mtx" | grep -q '^%%MatrixMarket' || fail "r.mtx is not Matrix Market"
head -1 "$dir/r.csv" | grep -q '^source,target$' || fail "r.csv has no header"
gzip -t "$dir/r.TXT.gz" || fail "r.TXT.gz is not gzip"
head -1 "$dir/r.dot" | grep -q '^digraph reduction {$' || fail "r.dot is not a drawing"
"$bin" reduce -q "$dir/g.txt" -o "$dir/r.json" && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['pairs']==4 and d['successors']['#a']==['b'], d" "$dir/r.json" ||
  fail "r.json is not the JSON run writes"
"$bin" reduce -q "$dir/g.txt" -o "$dir/r.graphml" 2> "$dir/graphml.err"
[ $? -eq 2 ] || fail "reduce -o r.graphml should be refused (exit 2)"
[ ! -e "$dir/r.graphml" ] || fail "a refused output was written"
"$bin" reduce -q "$dir/g.txt" -o "$dir/x.txt" --output-format csv || fail "--output-format csv"
head -1 "$dir/x.txt" | grep -q '^source,target$' || fail "--output-format csv wrote no CSV"
echo "reduce writers ok"
