"""Graphs from files: the examples in data/ (against networkx and against their expected
closure files) and the GRAIL benchmark graphs in tests/data/grail
(every row against a scipy BFS reference, sampled rows against networkx)."""

import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse
from scipy.sparse import csgraph

import closure
from conftest import DATA_DIR, GRAIL_DIR, closure_pairs, networkx_pairs

DATA_FILES = sorted(p for p in DATA_DIR.iterdir() if ".closure." not in p.name)
GRAIL_FILES = sorted(GRAIL_DIR.glob("*.gra")) if GRAIL_DIR.is_dir() else []


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_data_file(path):
    g = closure.read_graph(path)
    nxg = g.to_networkx()
    for reflexive in (False, True):
        c = closure.transitive_closure(path, reflexive=reflexive)
        assert closure_pairs(c) == networkx_pairs(nxg, reflexive)
    # The expected closure beside it (edge lines in the input's labels).
    expected = path.with_name(path.name.split(".")[0] + ".closure.txt")
    if expected.exists():
        lines = [line.split() for line in expected.read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
        want = {(u, v) for u, v, *_ in lines}
        got = {(str(u), str(v)) for u, v in closure_pairs(closure.transitive_closure(path))}
        assert got == want


def reference_rows(a):
    """Strict closure rows of adjacency matrix `a` by scipy: a BFS from each vertex gives
    it and what it reaches; the vertex itself stays iff it lies on a cycle (a strongly
    connected component of two or more, or a self-loop)."""
    n = a.shape[0]
    _, comp = csgraph.connected_components(a, directed=True, connection="strong")
    cyclic = (np.bincount(comp)[comp] > 1) | (a.diagonal() != 0)
    rows = []
    for v in range(n):
        order = csgraph.breadth_first_order(a, v, directed=True, return_predecessors=False)
        rows.append(np.sort(order if cyclic[v] else order[order != v]))
    return rows


@pytest.mark.skipif(not GRAIL_FILES, reason=f"no GRAIL graphs in {GRAIL_DIR}")
@pytest.mark.parametrize("path", GRAIL_FILES, ids=[p.stem for p in GRAIL_FILES])
def test_grail_graph(path):
    g = closure.read_graph(path)
    c = closure.transitive_closure(g)
    s = c.to_scipy()
    a = g.to_scipy()
    rows = reference_rows(a)
    assert s.nnz == sum(len(r) for r in rows) == c.pair_count
    assert np.array_equal(s.indices, np.concatenate(rows).astype(s.indices.dtype))
    assert np.array_equal(np.diff(s.indptr), [len(r) for r in rows])
    # networkx itself on a sample of rows (its full closure takes minutes on these).
    nxg = g.to_networkx()
    rng = random.Random(path.stem)
    cycles = {v for comp in nx.strongly_connected_components(nxg) if len(comp) > 1
              for v in comp} | set(nx.nodes_with_selfloops(nxg))
    for v in rng.sample(list(nxg.nodes), min(200, nxg.number_of_nodes())):
        want = nx.descendants(nxg, v) | ({v} if v in cycles else set())
        assert set(c.successors(v).tolist()) == want


def test_a_path_with_a_null_byte_is_refused(tmp_path):
    # As open() refuses it: the C++ side would end the name at the NUL and use another file.
    good = tmp_path / "g.txt"
    good.write_text("1 2\n")
    bad = str(good) + "\0junk"
    for call in (lambda: closure.read_graph(bad), lambda: closure.transitive_closure(bad),
                 lambda: closure.build_index(bad), lambda: closure.load_index(bad)):
        with pytest.raises(ValueError, match="embedded null byte"):
            call()
    index = closure.build_index(str(good))
    with pytest.raises(ValueError, match="embedded null byte"):
        index.save(str(tmp_path / "a") + "\0b.idx")
    assert not (tmp_path / "a").exists()

