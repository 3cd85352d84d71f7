#!/usr/bin/env bash
# index --append, every kind of edge, four rounds: the answers to every pair of labels equal
# those of `closure index` over the base graph plus every appended file, through the file.
# New vertices numbered by first appearance; a rebuild keeps the supportive count.
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
# The share answered without search is the base's querier's count: not given for a layered
# index (it said "0 of 0", or the base's part, beside every line answered), given for a
# plain one. New vertices pointing at old ones stay a layer.
"$bin" index -q base.txt -o layered.idx
"$bin" index -q --append layered.idx new0.txt -o layered.idx
"$bin" query layered.idx --pairs pairs.txt 2> err.txt > /dev/null || [ $? -eq 3 ]
if grep -q "without search" err.txt; then echo "a layered index's share: $(tail -1 err.txt)"; exit 1; fi
"$bin" query rebuilt.idx --pairs pairs.txt 2> err.txt > /dev/null || [ $? -eq 3 ]
grep -q "without search" err.txt
# New vertices are numbered in the order they first appear in the appended file, as a rebuild
# numbers them: merged, a numbered graph's index still takes binary pairs (4 0 is vertex 4's).
printf '0 1\n1 2\n' > nb.txt
printf '3 0\n4 0\n3 5\n' > nn.txt
"$bin" index -q nb.txt -o nb.idx
"$bin" index -q --append nb.idx nn.txt -o nm.idx --merge
python3 -c "import struct,sys;sys.stdout.buffer.write(struct.pack('<4I',4,0,5,1))" > q.u32
[ "$("$bin" query -q nm.idx --pairs q.u32 --pairs-format u32 | od -An -tu1 | tr -s ' ')" = " 1 0" ]
# A rebuild keeps the index's supportive components (the header's word at byte 40), unless
# --supportive says otherwise.
printf 'a b\nb c\nc d\n' > sd.txt
printf 'n1 n0\nb n1\n' > so.txt
supportive() { python3 -c "import struct,sys;print(struct.unpack_from('<I',open(sys.argv[1],'rb').read(),40)[0])" "$1"; }
"$bin" index -q sd.txt -o s2.idx --supportive 2
"$bin" index -q --append s2.idx so.txt -o s2b.idx
[ "$(supportive s2b.idx)" = 2 ]
"$bin" index -q --append s2.idx so.txt -o s3b.idx --supportive 3
[ "$(supportive s3b.idx)" = 3 ]
echo same
