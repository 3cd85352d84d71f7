#!/usr/bin/env bash
# Checks a DOT file closure wrote: Graphviz (`dot`, Debian's graphviz package) parses and
# renders it to SVG, and the SVG holds a node title per name given (each node's name is its
# title). Prints "rendered N nodes", or "no graphviz" where dot is not installed (the
# caller's expectations decide whether that passes).
#   check_dot.sh FILE.dot[.gz] NAME...
set -euo pipefail
file=$1
shift
if ! command -v dot >/dev/null; then
  echo "no graphviz"
  exit 0
fi
svg=$(mktemp)
trap 'rm -f "$svg"' EXIT
case "$file" in
  *.gz) gzip -dc "$file" | dot -Tsvg -o "$svg" ;;
  *) dot -Tsvg "$file" -o "$svg" ;;
esac
# SVG escapes &, < and > (and quotes) in titles.
esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' <<<"$1"; }
for name in "$@"; do
  grep -qF "<title>$(esc "$name")</title>" "$svg" || { echo "no node titled '$name' in the SVG" >&2; exit 1; }
done
echo "rendered $# nodes"
