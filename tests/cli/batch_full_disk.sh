#!/usr/bin/env bash
# batch on a full disk (a 64 KiB tmpfs; skipped, exit 77, where this user cannot mount one):
# every file's outcome still on stdout and stderr when summary.csv cannot be written, and a
# closure file the batch wrote is always noted as its own, so that a rerun after space is
# freed finishes instead of refusing it as the user's. Usage: batch_full_disk.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
umount "$dir/fs" 2> /dev/null
rm -rf "$dir" && mkdir -p "$dir/fs" "$dir/in" || exit 1
mount -t tmpfs -o size=64k tmpfs "$dir/fs" 2> /dev/null || { echo "cannot mount a tmpfs: skipped"; exit 77; }
trap 'umount "$dir/fs"' EXIT
cd "$dir" || exit 1
printf '0 1\n1 2\n' > in/a.txt
printf 'x\n' > in/b.txt                                           # fails to read
printf 'graph_for_greach\n3\n0: #\n1: #\n2: #\n' > in/iso.gra     # an empty closure: 0 bytes
mkdir fs/out && head -c 65536 /dev/zero > fs/filler 2> /dev/null  # the disk is now full
"$bin" batch in --out fs/out > out1 2> err1
[ $? -eq 4 ] || fail "a full disk did not fail the batch"
for f in a.txt b.txt iso.gra; do grep -q "in/$f" out1 || fail "no row for $f: $(cat out1)"; done
grep -q "no summary written in fs/out" out1 || fail "the table says a summary was written"
grep -q "b.txt" err1 || fail "b.txt's own error was lost: $(cat err1)"
grep -q "summary.csv" err1 || fail "no word of the summary's failure: $(cat err1)"
rm fs/filler
"$bin" batch in --out fs/out --resume > out2 2> err2
[ $? -eq 4 ] || fail "the rerun: b.txt still fails, nothing else should"
grep -q "not written by closure batch" err2 && fail "the rerun refused the batch's own file: $(cat err2)"
[ "$(grep -c '^in/.* ok\|resumed' out2)" -ge 0 ] && grep -q "3 files: 2 ok, 1 failed" out2 ||
  fail "the rerun: $(cat out2)"
[ -s fs/out/summary.csv ] || fail "no summary after space was freed"
echo "batch on a full disk ok"
