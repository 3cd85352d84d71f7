#!/usr/bin/env bash
# query --pairs --json: every stdout line is JSON, malformed and unknown lines included.
# Usage: json_lines.sh BIN GRAPH
set -eu
printf '1 5\njunk\n# c\n1 zz\n5 1\n' | "$1" query -q "$2" --pairs - --json > "${TMPDIR:-/tmp}/json-lines.$$" || true
python3 -c 'import json, sys; print(len([json.loads(l) for l in open(sys.argv[1])]), "json lines")' "${TMPDIR:-/tmp}/json-lines.$$"
rm -f "${TMPDIR:-/tmp}/json-lines.$$"
