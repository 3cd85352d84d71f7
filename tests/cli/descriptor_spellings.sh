#!/usr/bin/env bash
# A descriptor's name however spelt is the descriptor (written at its offset, the shell's
# redirect kept): //dev/stdout, /dev/./stdout, a link to /dev/stdout, a linked /dev. A name
# of a descriptor not open is usage (exit 2), not "0 bytes free" nor "a link to nothing".
# Usage: descriptor_spellings.sh BIN GRAPH DIR
set -u
bin=$1 graph=$2 dir=$3
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir/linked" && cd "$dir" || exit 1
ln -s /dev/stdout to-stdout && ln -s /dev linked/dev
"$bin" "$graph" -q -o want.txt || fail "plain run"
lines=$(wc -l < want.txt)
for name in //dev/stdout /dev/./stdout to-stdout linked/dev/stdout /dev/fd/../fd/1; do
  { echo head; "$bin" "$graph" -q -o "$name"; echo foot; } > got.txt || fail "$name: exit $?"
  [ "$(head -1 got.txt) $(($(wc -l < got.txt) - 2)) $(tail -1 got.txt)" = "head $lines foot" ] ||
    fail "$name: $(tr '\n' '|' < got.txt)"
done
# A relative link inside a linked folder resolves from where the link really is: to
# /dev/stdout (the redirect kept), and to a file named dev/stdout elsewhere (that file
# written, not standard output).
up=$(printf '%s' "$PWD/real/R" | tr -cd / | sed 's#/#../#g')  # from real/R up to /
mkdir -p real/R deep/a/b/c/R deep/dev && ln -s "${up}dev/stdout" real/R/L && ln -s "$PWD/real/R" S1
echo ORIG > deep/dev/stdout && ln -s ../../../../dev/stdout deep/a/b/c/R/L && ln -s deep/a/b/c/R S2
{ echo head; "$bin" "$graph" -q -o "$PWD/S1/L"; echo foot; } > got.txt || fail "S1/L: exit $?"
[ "$(head -1 got.txt) $(($(wc -l < got.txt) - 2)) $(tail -1 got.txt)" = "head $lines foot" ] ||
  fail "a link to /dev/stdout in a linked folder: $(tr '\n' '|' < got.txt)"
"$bin" "$graph" -q -o "$PWD/S2/L" > got.txt || fail "S2/L: exit $?"
[ ! -s got.txt ] && cmp -s deep/dev/stdout want.txt ||
  fail "a link to a file deep/dev/stdout: $(head -2 deep/dev/stdout)"
"$bin" "$graph" -q -o /dev/fd/7 2> err.txt
[ $? = 2 ] && grep -q "descriptor 7, which this process does not hold open" err.txt ||
  fail "/dev/fd/7 not open: $(cat err.txt)"
"$bin" "$graph" -q -o /dev/stdout >&- 2> err.txt
[ $? = 2 ] && grep -q "descriptor 1, which" err.txt || fail "stdout closed: $(cat err.txt)"
# /dev/fd/01 is no descriptor's name (the kernel's are canonical): a file in /proc, which
# takes none. Its message is the write's own, not "0 bytes free" (procfs counts no blocks).
"$bin" "$graph" -q -o /dev/fd/01 2> err.txt
[ $? = 4 ] && grep -q "cannot create .* /dev/fd" err.txt && ! grep -q "free" err.txt ||
  fail "/dev/fd/01: $(cat err.txt)"
echo "descriptor spellings ok"
