#!/usr/bin/env bash
# What glibc's handling of freed memory costs a whole process: runs each command line
# given (one argument each, split as words) ROUNDS times, interleaved, under four settings
# of the allocator on the same binary: glibc's defaults (CLOSURE_HEAP_REUSE=off: blocks
# mapped and unmapped on their own, the heap's free top trimmed), closure's own policy
# (app/process/allocator_policy.hpp: blocks under 32 MiB from the heap, 4 MiB kept at its
# top), and through GLIBC_TUNABLES, which the policy leaves to the user, big blocks from the
# heap (mmap_threshold 1 GiB) and the heap's free top kept too (trim_threshold 1 GiB).
# Prints the median wall seconds and peak MiB of each (docs/benchmarks-gpu.md, benchmarks.md).
#   ROUNDS=5 tools/bench-heap-reuse.sh "/tmp/closure-before G -q" "/tmp/closure-before index -q G -o /tmp/x"
set -u
ROUNDS=${ROUNDS:-5}
settings=("" "" "glibc.malloc.mmap_threshold=1073741824"
          "glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824")
reuse=("off" "" "" "")
names=("glibc defaults" "closure's" "mmap 1G" "mmap+trim 1G")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for ((c = 1; c <= $#; c++)); do
  for ((r = 0; r < ROUNDS; r++)); do
    for i in 0 1 2 3; do
      # shellcheck disable=SC2086
      GLIBC_TUNABLES=${settings[$i]} CLOSURE_HEAP_REUSE=${reuse[$i]} /usr/bin/time -f "%e %M" -o "$tmp/t" ${!c} > /dev/null 2>&1
      tail -1 "$tmp/t" >> "$tmp/c$c.s$i"
    done
  done
done
median() { sort -n | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
for ((c = 1; c <= $#; c++)); do
  echo "== ${!c}"
  for i in 0 1 2 3; do
    printf '  %-14s wall %6s s  peak %6s MiB\n' "${names[$i]}" \
      "$(cut -d' ' -f1 < "$tmp/c$c.s$i" | median)" \
      "$(cut -d' ' -f2 < "$tmp/c$c.s$i" | median | awk '{printf "%.0f", $1/1024}')"
  done
done
