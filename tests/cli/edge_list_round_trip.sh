#!/usr/bin/env bash
# Edge lists closure writes read back as written, whatever their first edge looks like (JSON,
# XML, Pajek, DOT, a header row, a CSV row: the marker line), and detection's refusals:
# a format named is read as named, a first line that is both a CSV row and an edge is
# refused with both readings, and blank lines past the sniffed 64 KiB are not an empty file.
# Usage: edge_list_round_trip.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
marker='# closure edge list: every line below is an edge'
# 1. First edges that detection alone would read as something else; each closure's edge
# list (with its marker) reads back to the same closure, byte for byte.
i=0
for rows in '{a},b' '[x,y' '<init>,foo' '*Vertices,x' 'graph,[' 'digraph,{' 'source,target' \
            'from,to' '"x,",y' 'p,q\n1,2\n2,3'; do
  i=$((i + 1))
  printf "source,target\n$rows\n" > in$i.csv
  "$bin" in$i.csv -q -o c$i.txt || fail "case $i ($rows): writing failed"
  [ "$(head -1 c$i.txt)" = "$marker" ] || fail "case $i ($rows): no marker: $(head -1 c$i.txt)"
  "$bin" c$i.txt -q -o r$i.txt 2> err$i || fail "case $i ($rows): reading back: $(cat err$i)"
  cmp -s c$i.txt r$i.txt || fail "case $i ($rows): read back differently"
  gzip -c c$i.txt | "$bin" - -q -o - | cmp -s - c$i.txt || fail "case $i ($rows): through gzip"
done
# ... and first edges that start a DOT header continued on the next line after a comment.
for rows in '//c x\ndigraph {' '/*a*/digraph g\n{ x' '/**/strict digraph\ng {' 'digraph// x\n{ a'; do
  i=$((i + 1))
  printf "$rows\n" > in$i.txt
  "$bin" in$i.txt -f edges -q -o c$i.txt || fail "case $i ($rows): writing failed"
  "$bin" c$i.txt -q -o r$i.txt 2> err$i || fail "case $i ($rows): reading back: $(cat err$i)"
  cmp -s c$i.txt r$i.txt || fail "case $i ($rows): read back differently"
done
# Names first, numbers below: the reader would guess a header row, whatever else the graph
# holds (a named vertex without pairs, which the file never shows) and whichever names look
# like numbers to the writer but not to the reader (01).
for dot in 'digraph { a -> b; 1 -> 2; z; }' 'digraph { "01" -> a; 1 -> 2; 3 -> 4 }'; do
  i=$((i + 1))
  printf '%s\n' "$dot" > in$i.dot
  "$bin" in$i.dot -q -o c$i.txt && "$bin" c$i.txt -q -o r$i.txt 2> err$i ||
    fail "case $i ($dot): reading back: $(cat err$i)"
  cmp -s c$i.txt r$i.txt || fail "case $i ($dot): read back differently"
  "$bin" reduce in$i.dot -q -o d$i.txt && "$bin" d$i.txt -q > /dev/null 2> err$i ||
    fail "case $i ($dot): the reduction read back: $(cat err$i)"
done
# A label with a byte the reader splits fields on (a vertical tab, a form feed) is refused
# before anything is written, as a blank is.
for b in '\013' '\014'; do
  printf "a${b}b,x\n" > blank.csv
  "$bin" blank.csv --no-header -q -o vt.txt 2> err.vt; [ $? -eq 2 ] || fail "label with $b written"
  [ -e vt.txt ] && fail "a partial file for the label with $b"
done
# 2. A first edge that reads as one: no marker, the output as before.
printf 'a b\nb c\n' > plain.txt
"$bin" plain.txt -q -o plain.out.txt && [ "$(head -1 plain.out.txt)" = "a b" ] ||
  fail "an ordinary first edge got a marker: $(head -1 plain.out.txt)"
# 3. A format named is read as named, even where detection would refuse the file.
printf '{a} b\n<x> y\n' > named.txt
"$bin" named.txt -q 2> err.named && fail "detection should refuse a first line of JSON"
grep -q "JSON is not a supported input format" err.named || fail "refusal: $(cat err.named)"
[ "$("$bin" named.txt -f edges -q -o - | tail -1)" = "<x> y" ] || fail "-f edges was not read as named"
# ... and so is a format the file's extension names: pandas' to_csv(header=False) of "{a},b".
printf '{a},b\nb,c\n' > brace.csv
[ "$("$bin" brace.csv -q -o - | sed -n 2p)" = "{a} b" ] || fail "a .csv whose first label is {a}"
# ... and a quoted first field's '{' is a label's, never networkx's dict glued to a delimiter.
printf '"x","{cur}"\n"c","d"\n' > quoted.csv
[ "$("$bin" quoted.csv -q -o - | grep -c '^x {cur}$')" = 1 ] || fail "a quoted {cur} in a .csv"
# 4. A first line that is a CSV row and an edge alike: refused with both readings, exit 3;
# named, it is read as named.
printf 'Ann Lee,Bob\nCid Wu,Dan\n' > both.txt
"$bin" both.txt -q 2> err.both; [ $? -eq 3 ] || fail "an ambiguous first line was read"
grep -q "both.txt:1: 'Ann Lee,Bob' reads as CSV ('Ann Lee' -> 'Bob') and as an edge list ('Ann' -> 'Lee,Bob')" err.both ||
  fail "ambiguity message: $(cat err.both)"
[ "$("$bin" both.txt -f csv -q -o - --output-format csv | tail -1)" = "Cid Wu,Dan" ] || fail "-f csv"
printf '"b jr",c\n' | "$bin" - -q -o - --output-format csv | grep -qx "b jr,c" || fail "a quoted field is CSV"
printf 'Paris,FR Lyon,FR\n' | "$bin" - -q -o - | grep -qx "Paris,FR Lyon,FR" || fail "commas inside labels"
# A line that reads only as CSV is still an edge list, refused for its third column: a
# decimal comma's weight, networkx's data=["label"] with a comma in it.
for rows in '1 2 0,5\n2 3 1,25' 'a b x,y\nb c p,q'; do
  printf "$rows\n" | "$bin" - -q 2> err.third; [ $? -eq 3 ] && grep -q "column 3" err.third ||
    fail "$rows was read: $(cat err.third)"
done
# 5. Blank lines beyond the first 64 KiB sniffed, then the graph: read, not an empty file.
python3 -c "open('blank.txt','w').write('\n' * 65536 + '1 2\n')"
[ "$("$bin" blank.txt -q -o -)" = "1 2" ] || fail "64 KiB of blank lines then an edge"
printf '\n \n' > empty.txt
"$bin" empty.txt -q 2> err.empty; [ $? -eq 3 ] && grep -q "empty file" err.empty || fail "a blank file"
echo "edge lists ok"
