#!/usr/bin/env bash
# Byte-compares two builds' outputs: data/, 8 GRAIL graphs and three test inputs, x 5 methods x 6
# formats (output, stderr and exit status), plus `reduce` and `index`. Both refusing an input
# alike (same status, same message) counts as the same.
#   tools/compare-outputs.sh OLD/closure NEW/closure   (from the repository root)
OLD=$1 NEW=$2
d=$(mktemp -d); same=0; diff=0
graphs="$(ls data/*.txt data/*.gra data/*.dot data/*.dimacs data/*.mtx | grep -v closure) $(ls tests/data/grail/*.gra | head -8) tests/data/adjlist.txt tests/data/names_escaped.txt tests/data/diamond.txt.gz"
for g in $graphs; do
  for m in auto sparse square condense recursive; do
    for ext in txt mtx csv json bin dot; do
      $OLD "$g" -q --method $m --device host -o $d/o.$ext >/dev/null 2>$d/oe; a=$?
      $NEW "$g" -q --method $m --device host -o $d/n.$ext >/dev/null 2>$d/ne; b=$?
      if [ $a = $b ] && cmp -s $d/oe $d/ne && { [ $a != 0 ] || cmp -s $d/o.$ext $d/n.$ext; }; then same=$((same+1)); else diff=$((diff+1)); echo "DIFF $g $m $ext ($a vs $b)"; fi
      rm -f $d/o.$ext $d/n.$ext
    done
  done
  for cmd in "reduce" "index"; do
    $OLD $cmd "$g" -q -o $d/o.out >/dev/null 2>&1; $NEW $cmd "$g" -q -o $d/n.out >/dev/null 2>&1
    if cmp -s $d/o.out $d/n.out; then same=$((same+1)); else diff=$((diff+1)); echo "DIFF $cmd $g"; fi
  done
done
echo "identical: $same, differing: $diff"
rm -rf $d
