#!/usr/bin/env bash
# reach's lines are labels as edge lists write them (\#x for the label #x, \\#y for \#y, \z
# as it is): every line given back to query names the same vertex. The label \#x26 had been
# printed bare and came back as #x26, an unknown vertex.
# Usage: reach_lines_escaped.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
printf '%s\n' '\#x0 \\#x26' '\#x0 %y' '\#x0 \\z' '\#x0 plain' > "$dir/g.txt"
"$bin" reach "$dir/g.txt" '\#x0' > "$dir/lines" || fail "reach: exit $?"
[ "$(cat "$dir/lines")" = "$(printf '%s\n' '\\#x26' '\%y' '\z' plain)" ] ||
  fail "reach's lines: $(tr '\n' '|' < "$dir/lines")"
while read -r line; do
  answer=$("$bin" query "$dir/g.txt" '\#x0' "$line") || fail "query '$line': exit $?: $answer"
  [ "${answer##* }" = yes ] || fail "query '$line': $answer"
done < "$dir/lines"
echo "reach lines escaped ok"
