#!/usr/bin/env bash
# batch resolves its outputs through the output guard: a symbolic link placed at a name it
# owns, or a folder of --out that links elsewhere, is never written through; and records of
# inputs whose names are not UTF-8 are matched by their bytes (resumed, never removed as
# stale while the input is there). Usage: batch_ownership.sh BIN DIR
set -u
bin=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir/in/sub" "$dir/elsewhere"
fail() { echo "FAILED: $*"; exit 1; }
printf '1 2\n2 3\n' > "$dir/in/a.txt"
printf '1 3\n' > "$dir/in/sub/b.txt"
"$bin" batch -q "$dir/in" --out "$dir/out" > "$dir/log1" 2>&1 || fail "first batch: $(cat "$dir/log1")"
# 1. A link at an owned name (the closure file, the record) pointing outside --out.
echo secret > "$dir/victim"
rm "$dir/out/a.txt.closure.txt" && ln -s ../victim "$dir/out/a.txt.closure.txt"
echo secret > "$dir/victim2"
rm "$dir/out/a.txt.summary.json" && ln -s ../victim2 "$dir/out/a.txt.summary.json"
"$bin" batch -q "$dir/in" --out "$dir/out" > "$dir/log2" 2>&1
[ $? -eq 4 ] || fail "a link at an owned name should fail that file (exit 4): $(cat "$dir/log2")"
[ "$(cat "$dir/victim")" = secret ] || fail "batch wrote through a link at its closure file"
[ "$(cat "$dir/victim2")" = secret ] || fail "batch wrote through a link at its record"
[ -L "$dir/out/a.txt.closure.txt" ] || fail "the link was replaced"
grep -q "^1 3$" "$dir/out/sub/b.txt.closure.txt" || fail "the other file was not closed"
# 2. A folder of --out that is a link leading out of it.
rm -rf "$dir/out2" && mkdir -p "$dir/out2" && ln -s ../elsewhere "$dir/out2/sub"
"$bin" batch -q "$dir/in" --out "$dir/out2" > "$dir/log3" 2>&1
[ $? -eq 4 ] || fail "a folder leading out of --out should fail that file (exit 4)"
[ -z "$(ls -A "$dir/elsewhere")" ] || fail "batch wrote outside --out: $(ls "$dir/elsewhere")"
grep -q "leads out of" "$dir/out2/summary.csv" || fail "the row does not say why: $(cat "$dir/out2/summary.csv")"
# 3. A name that is not UTF-8: resumed by its bytes, kept while it exists (and while excluded).
mkdir -p "$dir/raw"
printf '1 2\n' > "$dir/raw/"$'\xff'"x.txt"
"$bin" batch -q "$dir/raw" --out "$dir/out3" > "$dir/log4" 2>&1 || fail "non-UTF-8 name: $(cat "$dir/log4")"
"$bin" batch -q "$dir/raw" --out "$dir/out3" --resume > "$dir/log5" 2>&1 || fail "resume: $(cat "$dir/log5")"
grep -q "1 resumed" "$dir/log5" || fail "the record of a non-UTF-8 name was not resumed: $(cat "$dir/log5")"
"$bin" batch -q "$dir/raw" --out "$dir/out3" --exclude '*.txt' > "$dir/log6" 2>&1
grep -q "no longer exists" "$dir/log6" && fail "a record of an existing input was removed: $(cat "$dir/log6")"
[ -e "$dir/out3/"$'\xff'"x.txt.summary.json" ] || fail "the record is gone"
rm "$dir/raw/"$'\xff'"x.txt"
"$bin" batch -q "$dir/raw" --out "$dir/out3" > "$dir/log7" 2>&1
grep -q "no longer exists" "$dir/log7" || fail "the record of a deleted input stayed: $(cat "$dir/log7")"
# 4. A pattern with a '/' reaches a subfolder: --exclude 'sub/*' leaves in/sub out.
"$bin" batch -q "$dir/in" --out "$dir/out4" --exclude 'sub/*' > "$dir/log8" 2>&1 || fail "--exclude sub/*: $(cat "$dir/log8")"
grep -q "^1 file: 1 ok" "$dir/log8" || fail "--exclude 'sub/*' did not leave the subfolder out: $(cat "$dir/log8")"
echo "batch ownership ok"
