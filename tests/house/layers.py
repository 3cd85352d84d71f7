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

# src/closure/, from the ground up, in two libraries that the linker keeps apart too
# (cmake/layer_checks.cmake). The core: settings, errors, the host executor, the generated
# version header, the public options, a device's plain facts and the CPU's features, which
# include nothing of ours;
# util, I/O helpers, the graph and the bit matrix above them; the host algorithms, the
# verification and the reachability index. The device library: OpenCL, the kernels, the
# engine (the methods' registry and runs, compute_closure) and the session on top; the
# umbrella header (closure.hpp) above all.
CORE_ORDER = [
    "config", "errors", "executor", "version", "options", "device_facts", "cpu_features",
    "util",
    "io",
    "graph",
    "bitmatrix", "popcount", "or_words", "max_words",
    "algorithms",
    "verify",
    "reach",
]
DEVICE_ORDER = [
    "embedded_kernels", "ocl",
    "kernels",
    "engine",
    "session",
]
LIBRARY_ORDER = CORE_ORDER + DEVICE_ORDER + ["closure"]

# src/: the library; the application's pieces (src/app: the CLI's pipeline, batch, MPI ranks);
# beside them the float GEMM study and the benchmarks (linked only by the CLI's bench
# subcommands and the tests); the MPI communicator; the server; the CLI on top.
SOURCE_ORDER = ["closure", "app", "gemm", "bench", "mpi", "serve", "cli"]

FOLDER_LIST = re.compile(r"set\((CLOSURE_(?:CORE|DEVICE)_FOLDERS)\s+([^)]*)\)")


def check_cmake_folders(root, problems):
    """CMakeLists.txt builds closure_core and closure_device from the folders named here."""
    text = (root / "CMakeLists.txt").read_text()
    lists = {m.group(1): m.group(2).split() for m in FOLDER_LIST.finditer(text)}
    folders = {p.name for p in (root / "src/closure").iterdir() if p.is_dir()}
    for name, order in (("CLOSURE_CORE_FOLDERS", CORE_ORDER), ("CLOSURE_DEVICE_FOLDERS", DEVICE_ORDER)):
        want = sorted(u for u in order if u in folders)
        if sorted(lists.get(name, [])) != want:
            problems.append(f"CMakeLists.txt: {name} is {sorted(lists.get(name, []))}, "
                            f"the layers of {__file__} say {want}")


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
    check_cmake_folders(root, problems)
    for p in problems:
        print(p)
    if problems:
        return 1
    print("layers point down: src/closure " + " < ".join(LIBRARY_ORDER) +
          "; src " + " < ".join(SOURCE_ORDER))
    return 0


if __name__ == "__main__":
    sys.exit(main())
