#!/usr/bin/env python3
"""Writes cmake/startup-order.txt: the sections of the functions small runs of `closure`
execute, which gold places together in the executable's text (cmake/startup_order.cmake).

Why: on a 3-10-vertex graph a run is all start-up, and each first touch of a 64 KB block of
the 5.8 MB executable's code is a page fault (20-28 us each in the 2-core VM). Scattered,
the ~580 functions of data/dag.gra's run faulted the text in 23 times; grouped, 11.

Usage: tools/make-startup-order.py [BUILD_DIR]   (a Release build of `closure`; needs valgrind
and readelf; run after changes that move a small run's code much: a stale list only costs
faults, never correctness, and house.startup_order_names_real_functions says when it is)
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
    ["tests/data/grail/kegg_dag_uniq.gra", "-q"],
    ["tests/data/grail/human_dag_uniq.gra", "-q"],
    ["tests/data/grail/arXiv_sub_6000-1.gra", "-q"],
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


def real_sections(build):
    """The .text* sections of every object the executable links (its link line's .o and .a)."""
    link = open(os.path.join(build, "CMakeFiles", "closure.dir", "link.txt")).read().split()
    inputs = [os.path.join(build, t) for t in link if t.endswith((".o", ".a"))]
    out = subprocess.run(["readelf", "-SW"] + inputs, capture_output=True, text=True,
                         check=True).stdout
    return set(re.findall(r"\]\s+(\.text\S*)", out))


def sections_of(name, real):
    """The sections that hold `name`'s code: its own, its cold part's (.text.unlikely.), a
    constructor's or destructor's other variant (C1/C2, D1/D2: one is emitted, the other
    aliased), a static constructor's or main's (.text.startup.)."""
    cold = name.endswith(".cold")
    base = name[: -len(".cold")] if cold else name
    aliases = {base}
    for a, b in (("C1", "C2"), ("C2", "C1"), ("D1", "D2"), ("D2", "D1")):
        aliases.add(re.sub(a + r"(?=[EI])", b, base))
    # A function's cold part only where it ran; a function GCC placed whole in
    # .text.unlikely (one it judged cold) where no hot section holds it.
    hot_prefixes = () if cold else (".text.", ".text.startup.", ".text.hot.")
    hot = [p + x for x in aliases for p in hot_prefixes if p + x in real]
    return sorted(hot or [".text.unlikely." + x for x in aliases
                          if ".text.unlikely." + x in real])


def profile_runs(binary):
    names = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, run in enumerate(RUNS):
            profile = os.path.join(tmp, f"callgrind.{number}.out")
            args = [a.format(tmp=tmp) for a in run]
            # valgrind exits with the program's status: a run that fails (a missing file)
            # would list its error path instead of the work.
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                            "--callgrind-out-file=" + profile, binary] + args, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            found = executed_functions(profile, os.path.realpath(binary))
            if not found:
                sys.exit(f"no function of {binary} in the profile of {' '.join(run)}")
            names += [n for n in found if n not in names]
    return names


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    names = profile_runs(os.path.join(build, "closure"))
    real = real_sections(build)
    lines, unplaced = [], 0
    for name in names:
        found = sections_of(name, real)
        unplaced += not found  # _init, _start: outside any function section
        lines += [s for s in found if s not in lines]
    out = os.path.join(ROOT, "cmake", "startup-order.txt")
    with open(out, "w") as f:
        f.writelines(line + "\n" for line in lines)
    print(f"{len(names)} functions ({unplaced} in no section of their own), {len(lines)} "
          f"sections -> {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
