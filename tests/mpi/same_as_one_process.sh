#!/usr/bin/env bash
# Usage: same_as_one_process.sh CLOSURE RANKS SET [closure options...]
# For every graph of SET (data: the example graphs; grail: tests/data/grail; random:
# $RANDOM_GRAPHS (default 40) random graphs with cycles and self-loops, fixed seeds), runs one process and
# `mpirun -np RANKS` with the same options, and fails unless the output files are
# byte-identical and the JSON summaries give the same pair count.
set -euo pipefail
closure=$1 ranks=$2 set=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
source "$here/run_mpi.sh"
work=$(mktemp -d)
trap 'rm -rf "$work" "$OMPI_MCA_orte_tmpdir_base"' EXIT
graphs=()
case $set in
  data) for g in "$here"/../../data/*.{txt,gra,dimacs,mtx,dot}; do
          case $g in *.closure.txt) ;; *) [ -f "$g" ] && graphs+=("$g") ;; esac
        done ;;
  grail) for g in "$here"/../data/grail/*.gra; do [ -f "$g" ] && graphs+=("$g"); done
         [ ${#graphs[@]} -gt 0 ] || { echo "no GRAIL graphs in tests/data/grail: skipped"; exit 0; } ;;
  random)
    for seed in $(seq 1 "${RANDOM_GRAPHS:-40}"); do
      # n from 1 to ~700 (sizes around 32-multiples too), out-degree 0.3..4, 10% back
      # edges (cycles) and a self-loop now and then.
      awk -v seed="$seed" 'BEGIN { srand(seed); n = (seed % 4 == 0) ? 32 * (1 + seed % 5) + seed % 3 - 1 : 1 + int(rand() * 700);
        d = 0.3 + rand() * 3.7; m = int(n * d);
        for (i = 0; i < m; i++) { u = int(rand() * n); v = int(rand() * n);
          if (u > v && rand() > 0.1) { t = u; u = v; v = t }
          print u, v }
        if (seed % 3 == 0) print int(n / 2), int(n / 2) }' > "$work/random$seed.txt"
      graphs+=("$work/random$seed.txt")
    done ;;
  *) echo "unknown set $set" >&2; exit 2 ;;
esac
checked=0
for g in "${graphs[@]}"; do
  name=$(basename "$g")
  "$closure" "$g" "$@" -o "$work/one.$name.out" --json > "$work/one.json"
  mpi "$ranks" "$closure" "$g" "$@" -o "$work/many.$name.out" --json > "$work/many.json"
  one=$(grep -o '"pairs": [0-9]*' "$work/one.json")
  many=$(grep -o '"pairs": [0-9]*' "$work/many.json")
  if [ "$one" != "$many" ]; then
    echo "FAIL $name ($*): one process $one, $ranks ranks $many" >&2
    exit 1
  fi
  if ! cmp -s "$work/one.$name.out" "$work/many.$name.out"; then
    echo "FAIL $name ($*): the output files differ with $ranks ranks" >&2
    cmp "$work/one.$name.out" "$work/many.$name.out" >&2 || true
    exit 1
  fi
  grep -q '"ranks": '"$ranks" "$work/many.json" || [ "$ranks" = 1 ] ||
    { echo "FAIL $name: the summary does not name $ranks ranks" >&2; exit 1; }
  checked=$((checked + 1))
done
echo "$checked graphs: the same pairs and byte-identical outputs on $ranks ranks ($set $*)"
