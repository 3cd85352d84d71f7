#!/usr/bin/env bash
# index --append, every kind of edge, four rounds: the answers to every pair of labels equal
# those of `closure index` over the base graph plus every appended file, through the file.
# Usage: index_append.sh CLOSURE_BIN WORK_DIR   (prints "same")
set -euo pipefail
bin=$1 dir=$2
mkdir -p "$dir" && cd "$dir"
python3 - <<'PY'
import random
r = random.Random(3)
with open("base.txt", "w") as f:
    for _ in range(120):
        a, b = r.randrange(60), r.randrange(60)
        f.write(f"v{a} v{b}\n")
rounds = [
    [(f"n{i}", f"v{r.randrange(60)}") for i in range(10)],          # new -> old
    [(f"m{i}", f"m{(i + 1) % 5}") for i in range(5)] + [("m0", "v1")],  # new -> new, a cycle
    [(f"v{r.randrange(60)}", f"v{r.randrange(60)}") for _ in range(4)],  # old -> old
    [(f"v{r.randrange(60)}", f"k{i}") for i in range(3)],           # old -> new
]
for k, edges in enumerate(rounds):
    with open(f"new{k}.txt", "w") as f:
        f.writelines(f"{a} {b}\n" for a, b in edges)
labels = sorted({w for line in open("base.txt") for w in line.split()} |
                {w for edges in rounds for e in edges for w in e})
with open("pairs.txt", "w") as f:
    f.writelines(f"{a} {b}\n" for a in labels for b in labels)
PY
"$bin" index -q base.txt -o live.idx
cp base.txt all.txt
for k in 0 1 2 3; do
  "$bin" index -q --append live.idx "new$k.txt" -o live.idx
  cat "new$k.txt" >> all.txt
  "$bin" index -q all.txt -o rebuilt.idx
  # Labels of later rounds are unknown to both (exit 3 then): the lines must agree.
  "$bin" query -q live.idx --pairs pairs.txt > a.txt || [ $? -eq 3 ]
  "$bin" query -q rebuilt.idx --pairs pairs.txt > b.txt || [ $? -eq 3 ]
  cmp a.txt b.txt
done
echo same
