#!/usr/bin/env bash
# query's answer lines echo labels as edge lists write them (\#x for the label #x, \%y for
# %y, \\#x26 for \#x26), whatever answers: one pair, --pairs through the closure, through an
# index built for it and through a saved one. Each answer line given back as a question
# answers itself. They had echoed labels bare: "#x0 ..." read back as a comment.
# Usage: query_lines_escaped.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
printf '%s\n' '\#x0 \\#x26' '\#x0 %y' '\#x0 \\z' '\#x0 plain' > "$dir/g.txt"
"$bin" index "$dir/g.txt" -o "$dir/g.idx" -q || fail "index: exit $?"
# The questions, %y spelt bare (a label there, as only '#' starts a comment in --pairs).
printf '%s\n' '\#x0 \\#x26' '\#x0 %y' '\#x0 \\z' '\#x0 plain' '\\#x26 \#x0' '\\#x26 \#nobody' \
  > "$dir/q.txt"
printf '%s\n' '\#x0 \\#x26 yes' '\#x0 \%y yes' '\#x0 \z yes' '\#x0 plain yes' '\\#x26 \#x0 no' \
  "\\\\#x26 \\#nobody unknown vertex '\\#nobody'" > "$dir/want.txt"
answers() {  # the answers of q.txt, one way: $1 names it
  case $1 in
    one-*) while read -r u v; do "$bin" query "${1#one-}" "$u" "$v" -q; done < "$dir/q.txt" ;;
    *) "$bin" query -q "${@:2}" --pairs "$dir/q.txt" ;;
  esac
}
for way in "one-$dir/g.txt" "one-$dir/g.idx" "closure $dir/g.txt --engine closure" \
           "index $dir/g.txt --engine index" "saved $dir/g.idx"; do
  # shellcheck disable=SC2086
  answers $way > "$dir/got.txt"
  cmp -s "$dir/got.txt" "$dir/want.txt" || fail "${way%% *}: $(tr '\n' '|' < "$dir/got.txt")"
  # Read back: each answer's labels ask the same question again.
  cut -d' ' -f1,2 "$dir/got.txt" > "$dir/again.txt"
  "$bin" query -q "$dir/g.idx" --pairs "$dir/again.txt" | cmp -s - "$dir/want.txt" ||
    fail "${way%% *}: its lines read back answer otherwise"
done
# --json gives the labels themselves: reach's "vertex" too, and query's error, also for a
# label with blanks (a DOT name) that reads like the message.
"$bin" reach "$dir/g.txt" '\#x0' --json --count | grep -q '"vertex": "#x0"' ||
  fail "reach --json: $("$bin" reach "$dir/g.txt" '\#x0' --json --count | grep vertex)"
"$bin" query "$dir/g.txt" '\#x0' '\#nobody' --json > "$dir/json.txt"
grep -qF "\"error\":\"unknown vertex '#nobody'\"" "$dir/json.txt" || fail "query --json: $(cat "$dir/json.txt")"
printf 'digraph { "x y" -> z; "" -> z; }\n' > "$dir/s.dot"
# The label "" is a question too (it had read as no U given: exit 2).
"$bin" query "$dir/s.dot" "" z --json | grep -qF '{"u":"","v":"z","reachable":true}' ||
  fail "query of the label \"\": $("$bin" query "$dir/s.dot" "" z --json 2>&1)"
for engine in closure index; do
  "$bin" query "$dir/s.dot" "p unknown vertex 'q" z --json --engine $engine > "$dir/json.txt"
  grep -qF "\"error\":\"unknown vertex 'p unknown vertex 'q'\"}" "$dir/json.txt" ||
    fail "query --json --engine $engine, a label like the message: $(cat "$dir/json.txt")"
done
# A label holding a line break, a blank or nothing is refused in an answer line (exit 2):
# "a b c yes" or " c yes" would read back as other questions. JSON answers them.
printf 'digraph { "a\nb" -> c; "x y" -> c; "" -> c; }\n' > "$dir/nl.dot"
for label in "$(printf 'a\nb')" "x y" ""; do
  "$bin" query "$dir/nl.dot" "$label" c > "$dir/out.txt" 2> "$dir/err.txt"
  [ $? = 2 ] && [ ! -s "$dir/out.txt" ] && grep -q "empty or holds a blank or a line break" "$dir/err.txt" ||
    fail "the label '$label': $(cat "$dir/out.txt" "$dir/err.txt")"
  "$bin" query "$dir/nl.dot" c "$label" > /dev/null 2>&1
  [ $? = 2 ] || fail "the label '$label' as V"
  "$bin" query "$dir/nl.dot" "$label" c --json | grep -qF '"reachable":true' ||
    fail "the label '$label', --json"
done
echo "query lines escaped ok"
