#!/usr/bin/env python3
"""The layers of src/ point only down (docs/architecture.md, "Layers").

Inside src/closure/ (the library) a unit is a folder, or a file at the top of it; between
the folders of src/ a unit is the folder. Each unit may include ("#include "...") only units
listed before it below, so no unit includes one above it, and no two units include each
other through any chain (no circle). A unit missing from the order fails the check: a new
folder is placed in the order on purpose, not by accident.

Usage: layers.py SOURCE_DIR   (exit 1 and one line per violation when the layers break)
"""

import pathlib
import re
import sys

# src/closure/, from the ground up. The ground: settings, errors, the host executor and the
# generated version header, which include nothing of ours; util, I/O helpers, the graph and
# the bit matrix above them; then OpenCL, the kernels, the engines and the algorithms that
# drive them; the tool's pieces; the umbrella header (closure.hpp) on top of all.
LIBRARY_ORDER = [
    "config", "errors", "executor", "version",
    "util",
    "io",
    "graph",
    "bitmatrix", "popcount", "or_words",
    "embedded_kernels", "ocl",
    "kernels",
    "engine",
    "algorithms",
    "verify",
    "reach",
    "tool",
    "distributed",
    "session",
    "closure",
]

# src/: the library; beside it the float GEMM study and the benchmarks (linked only by the
# CLI's bench subcommands and the tests); the MPI communicator; the CLI on top.
SOURCE_ORDER = ["closure", "gemm", "bench", "mpi", "serve", "cli"]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def library_unit(path_in_closure):
    """config.hpp -> config; graph/graph.hpp -> graph."""
    parts = pathlib.PurePosixPath(path_in_closure).parts
    return parts[0] if len(parts) > 1 else pathlib.PurePosixPath(parts[0]).stem


def includes(root, folder):
    """(unit of the file, file, line number, the included path) for every quoted include."""
    for path in sorted((root / folder).rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h", ".cc"):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if m:
                yield path.relative_to(root), number, m.group(1)


def circles(edges):
    """Units that reach themselves through the include edges (each circle once, sorted)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    found = set()
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    # One circle is found from each of its units: keep the turn that
                    # starts at its least unit.
                    i = trail.index(min(trail))
                    turn = trail[i:] + trail[:i]
                    found.add(" -> ".join(turn + [turn[0]]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    # The shortest first, and a few: one broken include closes many circles.
    return sorted(found, key=lambda c: (c.count("->"), c))[:5]


def check_library(root, problems):
    rank = {u: i for i, u in enumerate(LIBRARY_ORDER)}
    edges = set()
    for file, number, target in includes(root, "src/closure"):
        where = f"{file}:{number}"
        unit = library_unit(file.relative_to("src/closure").as_posix())
        if unit not in rank:
            problems.append(f"{where}: '{unit}' has no place in LIBRARY_ORDER of {__file__}")
            continue
        if not target.startswith("closure/"):
            # Headers of this folder are reached as closure/...; anything else quoted is
            # src/gemm, src/bench, src/cli, src/mpi: all above the library.
            problems.append(f'{where}: the library includes "{target}", which is not closure/...')
            continue
        target_unit = library_unit(target[len("closure/"):])
        if target_unit not in rank:
            problems.append(f"{where}: '{target_unit}' has no place in LIBRARY_ORDER of {__file__}")
        elif unit != target_unit:
            edges.add((unit, target_unit))
            if rank[target_unit] > rank[unit]:
                problems.append(f'{where}: {unit} includes "{target}" of {target_unit}, '
                                f"a layer above it")
    for c in circles(edges):
        problems.append(f"src/closure: the folders include each other in a circle: {c}")


def check_sources(root, problems):
    rank = {u: i for i, u in enumerate(SOURCE_ORDER)}
    edges = set()
    for folder in sorted(p.name for p in (root / "src").iterdir() if p.is_dir()):
        if folder not in rank:
            problems.append(f"src/{folder}: no place in SOURCE_ORDER of {__file__}")
            continue
        for file, number, target in includes(root, f"src/{folder}"):
            target_unit = pathlib.PurePosixPath(target).parts[0]
            if target_unit not in rank or target_unit == folder:
                continue  # a header of its own folder, or a file beside it
            edges.add((folder, target_unit))
            if rank[target_unit] > rank[folder]:
                problems.append(f'{file}:{number}: src/{folder} includes "{target}" of '
                                f"src/{target_unit}, a layer above it")
    for c in circles(edges):
        problems.append(f"src: the folders include each other in a circle: {c}")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    check_library(root, problems)
    check_sources(root, problems)
    for p in problems:
        print(p)
    if problems:
        return 1
    print("layers point down: src/closure " + " < ".join(LIBRARY_ORDER) +
          "; src " + " < ".join(SOURCE_ORDER))
    return 0


if __name__ == "__main__":
    sys.exit(main())
