#!/usr/bin/env bash
# Real graphs no one here wrote, for benchmarks (docs/benchmarks-startup.md, "Start-up and exit"):
# git's own commit history (all refs, and master alone), Debian 12's package dependencies
# (Depends and Pre-Depends of the main archive, every alternative) and the #include graph
# of this machine's /usr/include; edge lists with integer (commits) or name labels,
# gzip-compressed into DIR.
#   tools/make-real-graphs.sh DIR [GIT_REPO]   (GIT_REPO: a clone of git's repository)
set -euo pipefail
dir=${1:?usage: tools/make-real-graphs.sh DIR [GIT_REPO]}
repo=${2:-}
mkdir -p "$dir"
if [ -n "$repo" ]; then
  # "commit parent" per parent, hashes numbered in the order they are met.
  number='{ for (i = 1; i <= NF; i++) if (!($i in id)) id[$i] = n++; for (i = 2; i <= NF; i++) print id[$1], id[$i] }'
  git -C "$repo" log --all --format='%H %P' | awk "$number" | gzip > "$dir/git-all-refs.txt.gz"
  git -C "$repo" log --format='%H %P' master | awk "$number" | gzip > "$dir/git-master.txt.gz"
fi
packages=$(ls /var/lib/apt/lists/*_debian_dists_bookworm_main_binary-amd64_Packages* 2>/dev/null | head -1)
if [ -n "$packages" ]; then
  /usr/lib/apt/apt-helper cat-file "$packages" | python3 -c '
import re, sys
edges, pkg = set(), None
for line in sys.stdin:
    if line.startswith("Package: "):
        pkg = line.split()[1]
    elif line.startswith(("Depends: ", "Pre-Depends: ")) and pkg:
        for alt in line.split(":", 1)[1].split(","):
            for d in alt.split("|"):
                d = re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", d).strip().split(":")[0]
                if d:
                    edges.add((pkg, d))
for a, b in sorted(edges):
    print(a, b)' | gzip > "$dir/debian-deps.txt.gz"
fi
python3 - "$dir/usr-include.txt" <<'PY'
import os, re, sys
include = re.compile(rb'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
edges = set()
for top, _, files in os.walk("/usr/include"):
    for f in files:
        path = os.path.join(top, f)
        try:
            data = open(path, "rb").read()
        except OSError:
            continue
        name = os.path.relpath(path, "/usr/include")
        for line in data.split(b"\n"):
            m = include.match(line)
            if m:
                edges.add((name, m.group(1).decode("latin1")))
with open(sys.argv[1], "w") as out:
    for a, b in sorted(edges):
        if " " not in a and " " not in b:
            out.write(f"{a} {b}\n")
PY
gzip -f "$dir/usr-include.txt"
ls -la "$dir"
