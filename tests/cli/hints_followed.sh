#!/usr/bin/env bash
# Every way on the CLI prints, followed as printed: the refusal names a flag, and the same
# command with that flag gives the right closure (the index/query way is followed by
# memory_hint.sh). Usage: hints_followed.sh BIN DATA DIR
set -u
bin=$1 data=$2 dir=$3
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"

# refused CMD... : runs the command, which must fail, leaving its stderr in $dir/err.
refused() {
  "$@" > "$dir/out" 2> "$dir/err" && fail "accepted: $*"
  grep -q '^closure: ' "$dir/err" || fail "no message: $*"
}
# advice PATTERN: the flag the message gives (grep -o of PATTERN), or fail.
advice() {
  local a
  a=$(grep -o -- "$1" "$dir/err" | head -1)
  [ -n "$a" ] || fail "no advice matching $1 in: $(cat "$dir/err")"
  echo "$a"
}
# same_pairs FILE LINES...: the closure file holds exactly these pairs (comment lines aside:
# a first edge that reads as a header row is written below kEdgeListMarker's comment).
same_pairs() {
  local f=$1; shift
  diff <(grep -v '^#' "$f" | sort) <(printf '%s\n' "$@" | sort) > /dev/null || fail "$f holds $(tr '\n' ',' < "$f")"
}

# A header row in an edge list: --header skips it, --no-header keeps it as an edge.
printf '# exported by a script\nfrom to\n1 2\n2 3\n' > "$dir/h.txt"
refused "$bin" "$dir/h.txt" -q -o "$dir/h.out"
[ "$(advice 'pass --header')" = "pass --header" ] || fail header
grep -q -- '--no-header to read it as an edge' "$dir/err" || fail "no --no-header: $(cat "$dir/err")"
"$bin" "$dir/h.txt" -q --header -o "$dir/h.out" || fail "--header refused"
same_pairs "$dir/h.out" "1 2" "1 3" "2 3"
"$bin" "$dir/h.txt" -q --no-header -o "$dir/h2.out" || fail "--no-header refused"
same_pairs "$dir/h2.out" "from to" "1 2" "1 3" "2 3"

# networkx's write_edgelist(G, p, delimiter=";") with weights: --delimiter ';'.
printf "0;7;{'weight': 0.9}\n7;3;{'weight': 0.1, 'c': 'x;y'}\n" > "$dir/nx.txt"
refused "$bin" "$dir/nx.txt" -q -o "$dir/nx.out"
flag=$(advice "--delimiter '.'")
eval "\"$bin\" \"$dir/nx.txt\" -q $flag -o \"$dir/nx.out\"" || fail "$flag refused"
same_pairs "$dir/nx.out" "0 7" "0 3" "7 3"

# networkx's write_adjlist: --input-format adjlist.
printf '#/usr/bin/python\n# GMT\n0 1 2\n1 2\n2\n' > "$dir/adj.txt"
refused "$bin" "$dir/adj.txt" -q -o "$dir/adj.out"
flag=$(advice '--input-format adjlist')
# shellcheck disable=SC2086
"$bin" "$dir/adj.txt" -q $flag -o "$dir/adj.out" || fail "$flag refused"
same_pairs "$dir/adj.out" "0 1" "0 2" "1 2"

# An output over --max-output that fits on the disk: --force writes it.
refused "$bin" "$data/diamond.txt" -q -o "$dir/d.out" --max-output 10
flag=$(advice '--force')
"$bin" "$data/diamond.txt" -q -o "$dir/d.out" --max-output 10 $flag || fail "$flag refused"
cmp -s <(sort "$dir/d.out") <(sort "$data/diamond.closure.txt") || fail "--force wrote another closure"

# verify's inconclusive verdict (too few pairs sampled): the flag it names, in verify itself
# (a path: sources at its end reach little).
awk 'BEGIN { for (i = 0; i < 2000; i++) print i, i + 1 }' > "$dir/path.txt"
"$bin" verify "$dir/path.txt" --verify-memory 1 --sources 1 --seed 27 > "$dir/out" 2> "$dir/err"
[ $? -eq 5 ] || fail "one source of a path was not inconclusive: $(cat "$dir/out")"
flag=$(advice '--verify-sources')
[ "$("$bin" verify "$dir/path.txt" --verify-memory 1 "$flag" 64 --seed 27 2> "$dir/err")" = MATCH ] ||
  fail "verify $flag 64: $(cat "$dir/err")"
# A dense method that does not fit the memory limit: --method sparse, under the same limit
# (ulimit -v: not under AddressSanitizer, whose shadow memory it forbids; HINTS_UNDER_ULIMIT=0).
if [ "${HINTS_UNDER_ULIMIT:-1}" = 0 ]; then echo "hints followed"; exit 0; fi
awk 'BEGIN { for (i = 0; i < 60000; i++) print i, i + 1 }' > "$dir/chain.txt"
(ulimit -v $((400 * 1024)); exec "$bin" "$dir/chain.txt" -q --method square --device host) \
  > "$dir/out" 2> "$dir/err" && fail "a 60001-vertex square product fit in 400 MB"
flag=$(advice '--method sparse')
# shellcheck disable=SC2086
count=$( (ulimit -v $((400 * 1024)); exec "$bin" "$dir/chain.txt" --device host $flag --json) |
  grep -o '"pairs": *[0-9]*' | grep -o '[0-9]*$')
[ "$count" = "1800030000" ] || fail "--method sparse counted $count pairs"
echo "hints followed"
