#!/usr/bin/env bash
# batch: which files of a folder are read (--include/--exclude,
# default the graph extensions), a failed row shows no made-up facts, one boolean spelling
# in the CSV and the JSON, no per-file lines on a stderr that is not a terminal, and a
# deleted input's record removed. Usage: batch_rows.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir/in/sub"
printf '1 2\n2 3\n' > "$dir/in/a.txt"
printf '1 2\n2 1\n' > "$dir/in/sub/b.edges"
printf 'x\n' > "$dir/in/bad.txt"                    # a graph file that fails
printf '# notes\nsome words here\n' > "$dir/in/notes.md"  # not a graph: not read
printf 'a b\n' > "$dir/in/README"
printf '1 2\n' | gzip > "$dir/in/c.TXT.gz"          # extensions case aside, through .gz

# 1. Default include: the graph extensions; notes.md and README are not inputs.
"$bin" batch "$dir/in" --out "$dir/out" > "$dir/log1" 2> "$dir/err1"
[ $? -eq 4 ] || fail "bad.txt should fail the batch (exit 4)"
grep -q "4 files: 3 ok, 1 failed" "$dir/log1" || fail "default include: $(cat "$dir/log1")"
grep -q "notes.md\|README" "$dir/out/summary.csv" && fail "notes.md or README was read"
# 2. A failed row: empty facts in the CSV, null in the JSON, blank in the table.
row=$(grep "bad.txt" "$dir/out/summary.csv")
case "$row" in "$dir/in/bad.txt,,,,,,,,"*) ;; *) fail "failed CSV row shows facts: $row" ;; esac
python3 - "$dir/out/summary.json" <<'PY' || fail "failed JSON row shows facts"
import json, sys
rows = json.load(open(sys.argv[1]))
bad = [r for r in rows if r["file"].endswith("bad.txt")][0]
assert all(bad[k] is None for k in ("vertices", "edges", "components", "dag", "pairs", "method", "device")), bad
assert bad["error"], bad
good = [r for r in rows if r["file"].endswith("a.txt")][0]
assert good["dag"] is True and good["vertices"] == 3, good
PY
grep "bad.txt" "$dir/log1" | grep -q " 0 .* no " && fail "failed table row shows 0 / no: $(grep bad.txt "$dir/log1")"
# 3. One boolean spelling: true/false in the CSV as in the JSON.
grep "a.txt," "$dir/out/summary.csv" | grep -q ",true," || fail "CSV dag is not true: $(cat "$dir/out/summary.csv")"
grep "b.edges," "$dir/out/summary.csv" | grep -q ",false," || fail "CSV dag is not false"
grep -q ",yes,\|,no," "$dir/out/summary.csv" && fail "CSV still says yes/no"
# 4. stderr is not a terminal here: no progress line per file (a short batch writes none);
# stderr has only the failed file's error, once.
grep -q "closure batch: [0-9]*/[0-9]* files" "$dir/err1" && fail "per-file progress lines without a terminal: $(cat "$dir/err1")"
[ "$(grep -c "^closure batch: .*bad.txt:1: expected two columns" "$dir/err1")" = 1 ] || fail "the failed file's error is not on stderr once: $(cat "$dir/err1")"
[ "$(wc -l < "$dir/err1")" = 1 ] || fail "stderr has more than the failed file's error: $(cat "$dir/err1")"
# ... while on a terminal (script(1) gives it one) the progress bar is drawn.
if command -v script > /dev/null; then
  script -qec "$bin batch $dir/in/a.txt --out $dir/out-tty" /dev/null > "$dir/tty" 2>&1
  tr '\r' '\n' < "$dir/tty" | grep -q "1/1 .*ETA" || fail "no progress bar on a terminal: $(cat "$dir/tty")"
fi

# 5. --include / --exclude, repeatable; a pattern does not eat the path after it.
"$bin" batch -q --include '*.md' --include 'README' "$dir/in" --out "$dir/out-md" > "$dir/log2"
grep -q "2 files" "$dir/log2" || fail "--include *.md --include README: $(cat "$dir/log2")"
"$bin" batch -q --exclude 'bad*' --exclude '*.gz' "$dir/in" --out "$dir/out-ex" > "$dir/log3" ||
  fail "--exclude bad* should leave only good files: $(cat "$dir/log3")"
grep -q "2 files: 2 ok" "$dir/log3" || fail "--exclude: $(cat "$dir/log3")"
# A file named as an argument is read whatever its name.
"$bin" batch -q "$dir/in/README" --out "$dir/out-named" > "$dir/log4" || fail "a named file: $(cat "$dir/log4")"
grep -q "1 file: 1 ok" "$dir/log4" || fail "a named file was not read"

# 6. --resume after an input was deleted: its record and closure are removed and said so;
# the others resume.
rm "$dir/in/sub/b.edges"
[ -f "$dir/out/sub/b.edges.summary.json" ] || fail "no record to go stale"
"$bin" batch -q --resume "$dir/in" --out "$dir/out" > "$dir/log5"
grep -q "removed the record of $dir/in/sub/b.edges: the input no longer exists" "$dir/log5" ||
  fail "the stale record is not reported: $(cat "$dir/log5")"
[ -e "$dir/out/sub/b.edges.summary.json" ] && fail "the stale record is still there"
[ -e "$dir/out/sub/b.edges.closure.txt" ] && fail "the stale closure is still there"
grep -q "2 resumed" "$dir/log5" || fail "the others did not resume: $(cat "$dir/log5")"
[ -f "$dir/out/a.txt.summary.json" ] || fail "a live record was removed"

# 7. Two inputs of one name, then only the second: the first's record and closure stay (its
# input still exists), and the second keeps the name its own record has.
mkdir -p "$dir/one" "$dir/two"
printf 'a b\n' > "$dir/one/g.txt"
printf 'x y\n' > "$dir/two/g.txt"
"$bin" batch -q "$dir/one/g.txt" "$dir/two/g.txt" --out "$dir/out-same" > /dev/null ||
  fail "two inputs of one name"
"$bin" batch -q "$dir/two/g.txt" --out "$dir/out-same" > "$dir/log6" || fail "the second alone"
[ "$(cat "$dir/out-same/g.txt.closure.txt")" = "a b" ] ||
  fail "the first input's closure was overwritten: $(cat "$dir/out-same/g.txt.closure.txt")"
grep -q '"file":"'"$dir"'/one/g.txt"' "$dir/out-same/g.txt.summary.json" ||
  fail "the first input's record was overwritten: $(cat "$dir/out-same/g.txt.summary.json")"
[ "$(cat "$dir/out-same/2_g.txt.closure.txt")" = "x y" ] || fail "the second's closure is not under its name"
# An input with no record yet takes the first free prefix.
mkdir -p "$dir/three" && printf 'p q\n' > "$dir/three/g.txt"
"$bin" batch -q "$dir/three/g.txt" --out "$dir/out-same" > /dev/null || fail "a third input"
[ "$(cat "$dir/out-same/3_g.txt.closure.txt")" = "p q" ] || fail "the third is not under 3_g.txt"
[ "$(cat "$dir/out-same/g.txt.closure.txt")" = "a b" ] || fail "the third overwrote the first"

# 8. The same file spelt another way (absolute, through a linked folder) takes its own name
# back: one set of outputs, not one a spelling.
mkdir -p "$dir/spelt" && printf '1 2\n' > "$dir/spelt/a.txt" && ln -sfn "$dir/spelt" "$dir/spelt-link"
(cd "$dir" && "$bin" batch -q spelt --out out-spelt > /dev/null) || fail "spelt: first run"
"$bin" batch -q --resume "$dir/spelt" --out "$dir/out-spelt" > /dev/null || fail "spelt: absolute"
"$bin" batch -q --resume "$dir/spelt-link" --out "$dir/out-spelt" > /dev/null || fail "spelt: linked"
[ "$(ls "$dir/out-spelt" | grep -c 'closure.txt$')" = 1 ] ||
  fail "a closure a spelling: $(ls "$dir/out-spelt")"
# 9. A folder given as ../X from another working folder removes only records below it: a
# record of d1/keep.txt, written from w/, is not "below ../dx" (the .. once cancelled dx).
mkdir -p "$dir/up/w/d1" "$dir/up/dx" "$dir/up/w2"
printf '1 2\n' > "$dir/up/w/d1/keep.txt" && printf '7 8\n' > "$dir/up/dx/other.txt"
(cd "$dir/up/w" && "$bin" batch -q d1 --out ../o > /dev/null) || fail "up: first run"
(cd "$dir/up/w2" && "$bin" batch -q ../dx --out ../o > /dev/null) || fail "up: second run"
[ -f "$dir/up/o/keep.txt.closure.txt" ] && [ -f "$dir/up/o/keep.txt.summary.json" ] ||
  fail "the record of an input outside ../dx was removed: $(ls "$dir/up/o")"

# 10. An input with an N_ name, read later spelt another way, takes that name back (by the
# file, not the spelling): one set of outputs for it.
mkdir -p "$dir/renum/d1" "$dir/renum/d2" "$dir/renum/d3"
for k in 1 2 3; do printf '%s x\n' $k > "$dir/renum/d$k/a.txt"; done
for k in 1 3 2; do (cd "$dir/renum" && "$bin" batch -q d$k --out o > /dev/null) || fail "renum d$k"; done
rm -r "$dir/renum/d3"
"$bin" batch -q "$dir/renum/d2" --out "$dir/renum/o" > /dev/null || fail "renum: absolute"
[ "$(grep -l '"file":"[^"]*d2/a.txt"' "$dir/renum/o"/*.summary.json | wc -l)" = 1 ] ||
  fail "two records of d2/a.txt: $(grep -l 'd2/a.txt' "$dir/renum/o"/*.summary.json)"
[ "$(cat "$dir/renum/o/3_a.txt.closure.txt")" = "2 x" ] || fail "d2/a.txt is not under 3_a.txt"
# 11. A hard link is another input: left out by --exclude, its record stays (the file it
# shares with an input read now had made it look read now under another name).
mkdir -p "$dir/hard/d" && printf 'a b\n' > "$dir/hard/d/x.txt" && ln "$dir/hard/d/x.txt" "$dir/hard/d/y.txt"
"$bin" batch -q "$dir/hard/d" --out "$dir/hard/o" > /dev/null || fail "hard: first run"
"$bin" batch -q "$dir/hard/d" --exclude y.txt --out "$dir/hard/o" > /dev/null || fail "hard: excluded"
[ -f "$dir/hard/o/y.txt.summary.json" ] && [ -f "$dir/hard/o/y.txt.closure.txt" ] ||
  fail "the excluded hard link's record went: $(ls "$dir/hard/o")"

# 12. A record without "path" (written before records kept it) names its input as spelt in
# a working folder it does not say: a batch run elsewhere never takes it for gone.
mkdir -p "$dir/old/A/d" "$dir/old/B/d" && printf 'a b\n' > "$dir/old/A/d/a.txt" && printf 'x y\n' > "$dir/old/B/d/b.txt"
(cd "$dir/old/A" && "$bin" batch -q d --out ../o > /dev/null) || fail "old: first run"
sed -i 's/"path":"[^"]*",//' "$dir/old/o/a.txt.summary.json"
grep -q '"path"' "$dir/old/o/a.txt.summary.json" && fail "old: the record still has a path"
(cd "$dir/old/B" && "$bin" batch -q "$PWD/d" --out ../o > /dev/null) || fail "old: second run"
(cd "$dir/old/B" && "$bin" batch -q d --out ../o > /dev/null) || fail "old: third run"
[ -f "$dir/old/o/a.txt.summary.json" ] || fail "a pathless record of a live input was removed"
printf 'p q\n' > "$dir/old/B/d/a.txt"  # an input of that name in B: its own N_ name
(cd "$dir/old/B" && "$bin" batch -q d --out ../o > /dev/null) || fail "old: fourth run"
[ "$(cat "$dir/old/o/a.txt.closure.txt")" = "a b" ] && [ "$(cat "$dir/old/o/2_a.txt.closure.txt")" = "p q" ] ||
  fail "a pathless record's outputs were overwritten: $(ls "$dir/old/o")"

# 13. A folder spelt through a link and .. (s/../d, s a link to real/sub) is real/d, as the
# kernel reads it: its record's path says so, and d (another folder) does not remove it.
mkdir -p "$dir/dots/real/sub" "$dir/dots/real/d" "$dir/dots/d" && ln -s real/sub "$dir/dots/s"
printf 'a b\n' > "$dir/dots/real/d/a.txt"
(cd "$dir/dots" && "$bin" batch -q s/../d --out o > /dev/null) || fail "dots: first run"
grep -q '"path":"[^"]*/real/d/a.txt"' "$dir/dots/o/a.txt.summary.json" || fail "dots: the record's path"
(cd "$dir/dots" && "$bin" batch -q d --out o > /dev/null) || fail "dots: second run"
[ -f "$dir/dots/o/a.txt.summary.json" ] || fail "dots: a live input's record was removed"
echo "batch rows ok"
