#!/usr/bin/env python3
"""Writes cmake/startup-order.txt: the functions a small run of `closure` executes, which the
link places together at the start of the executable's text (cmake/startup_order.cmake).

Why: on a 3-10-vertex graph a run is all start-up, and each first touch of a 64 KB block of
the 5.8 MB executable's code is a page fault (20-28 us each in the 2-core VM). Scattered,
the ~580 functions of data/dag.gra's run faulted the text in 23 times; grouped, 11.

Usage: tools/make-startup-order.py [BUILD_DIR]   (needs valgrind; run after changes that move
a small run's code much; a stale list only costs faults, never correctness)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What small runs do: count, write, print the summary, answer a query, say the version.
RUNS = [
    ["data/dag.gra", "-q"],
    ["data/cycle.txt"],
    ["data/names.txt", "-o", "{tmp}/out.txt"],
    ["data/deps.dot", "--json"],
    ["reach", "data/cycle.txt", "1"],
    ["--version"],
    # Small real graphs (GRAIL's): the planner's samples, counts by columns, more threads.
    ["tests/data/grail/kegg.gra", "-q"],
    ["tests/data/grail/human.gra", "-q"],
    ["tests/data/grail/arXiv.gra", "-q"],
]


def executed_functions(profile, binary):
    """Mangled names of the functions of `binary` that a callgrind profile saw run."""
    objects, functions, names = {}, {}, []
    current = None
    for line in open(profile, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(c?)ob=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3):
                objects[m.group(2)] = m.group(3)
            if not m.group(1):
                current = m.group(2)
            continue
        m = re.match(r"^(c?)fn=\((\d+)\)(?: (.*))?$", line)
        if not m:
            continue
        if m.group(3):
            functions[m.group(2)] = m.group(3)
        name = functions.get(m.group(2))
        if not m.group(1) and name and objects.get(current, "") == binary:
            # callgrind marks a recursion's deeper calls "name'2"; "(below main)" and
            # "0x..." name code outside any function symbol.
            name = re.sub(r"'\d+$", "", name)
            if not name.startswith(("(", "0x")) and name not in names:
                names.append(name)
    return names


def section_patterns(name):
    # A constructor or destructor is emitted once (C2/D2) and aliased (C1/D1): name both.
    variants = {name}
    for a, b in (("C1E", "C2E"), ("D1E", "D2E"), ("C2E", "C1E"), ("D2E", "D1E")):
        if a in name:
            variants.add(name.replace(a, b, 1))
    return sorted(".text." + v for v in variants)


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    binary = os.path.join(build, "closure")
    names = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in RUNS:
            profile = os.path.join(tmp, "callgrind.out")
            args = [a.format(tmp=tmp) for a in run]
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                            "--callgrind-out-file=" + profile, binary] + args, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for name in executed_functions(profile, os.path.realpath(binary)):
                if name not in names:
                    names.append(name)
    lines = []
    for name in names:
        if name in ("_init", "_start"):
            continue  # outside any function section
        # Static constructors and main are in .text.startup.*: one per translation unit,
        # every one run at start, so they are listed too.
        startup = name.startswith("_GLOBAL__sub_I") or name == "main"
        patterns = [".text.startup." + name] if startup else section_patterns(name)
        lines += [p for p in patterns if p not in lines]
    out = os.path.join(ROOT, "cmake", "startup-order.txt")
    with open(out, "w") as f:
        f.writelines(line + "\n" for line in lines)
    print(f"{len(names)} functions, {len(lines)} sections -> {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
