#!/usr/bin/env bash
# query --pairs -: each answer goes out as soon as its line is read, with every engine and
# --json, so a program that writes a pair and waits for its answer is never left waiting for
# the end of input. Bounded: each answer is waited for at most 10 s. Usage: BIN DATA
set -u
bin=$1 data=$2
fail() { echo "FAILED: $*"; exit 1; }
for args in "--engine closure" "--engine index" "--engine closure --json" "--engine index --json"; do
  coproc Q { "$bin" query "$data/names.txt" --pairs - -q $args; }
  out=${Q[1]} in=${Q[0]}
  echo "eve frank" >&"$out"
  read -t 10 -r first <&"$in" || fail "$args: no answer to the first pair while input stays open"
  echo "frank eve" >&"$out"
  read -t 10 -r second <&"$in" || fail "$args: no answer to the second pair"
  eval "exec $out>&-"
  wait "$Q_PID" || fail "$args: exit status $?"
  case "$first $second" in
    *yes*no* | *true*false*) ;;
    *) fail "$args: answers '$first' '$second'" ;;
  esac
done
echo "answered as read"
