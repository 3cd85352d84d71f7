"""The closure equals networkx.transitive_closure on random graphs with cycles, self-loops,
isolated vertices and duplicate edges, strict and reflexive, through every input type."""

import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import closure
from conftest import closure_pairs, networkx_pairs

SEEDS = range(240)


def random_digraph(seed):
    rng = random.Random(seed)
    n = rng.choice([0, 1, 2, 3, 5, 8, 13, 31, 32, 33, 47, 64, 65, 90])
    g = nx.DiGraph()
    g.add_nodes_from(range(n))  # isolated vertices included
    if n:
        density = rng.choice([0.0, 0.02, 0.05, 0.1, 0.3])
        m = int(density * n * n) + rng.randint(0, n)
        for _ in range(m):
            u, v = rng.randrange(n), rng.randrange(n)
            if rng.random() < 0.7 and u > v:
                u, v = v, u  # mostly forward edges: long paths, some cycles
            g.add_edge(u, v)
        for _ in range(rng.randint(0, 3)):
            v = rng.randrange(n)
            g.add_edge(v, v)  # self-loops
    return g


@pytest.mark.parametrize("seed", SEEDS)
def test_networkx_input(seed):
    g = random_digraph(seed)
    for reflexive in (False, True):
        c = closure.transitive_closure(g, reflexive=reflexive)
        expected = networkx_pairs(g, reflexive)
        assert closure_pairs(c) == expected
        assert c.pair_count == len(expected)
        assert c.vertices.tolist() == list(g.nodes)


@pytest.mark.parametrize("seed", SEEDS[:60])
def test_relabelled_networkx_input(seed):
    # String and tuple labels, nodes in a shuffled order.
    g = random_digraph(seed)
    rng = random.Random(seed)
    order = list(g.nodes)
    rng.shuffle(order)
    names = {v: (f"v{v}" if v % 2 else ("t", v)) for v in order}
    h = nx.DiGraph()
    h.add_nodes_from(names[v] for v in order)
    h.add_edges_from((names[u], names[v]) for u, v in g.edges)
    for reflexive in (False, True):
        c = closure.transitive_closure(h, reflexive=reflexive)
        assert closure_pairs(c) == networkx_pairs(h, reflexive)
        assert c.vertices.tolist() == list(h.nodes)


@pytest.mark.parametrize("seed", SEEDS[:80])
def test_scipy_and_numpy_inputs(seed):
    g = random_digraph(seed)
    n = g.number_of_nodes()
    expected = networkx_pairs(g, False)
    edges = np.array(list(g.edges), dtype=np.int64).reshape(-1, 2)
    # scipy.sparse: vertex i is row i.
    a = scipy.sparse.csr_array((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    assert closure_pairs(closure.transitive_closure(a)) == expected
    # NumPy pairs with the vertex set given (isolated vertices kept).
    c = closure.transitive_closure(edges, vertices=np.arange(n))
    assert closure_pairs(c) == expected and c.vertex_count == n
    # NumPy pairs without: the vertices that occur.
    c = closure.transitive_closure(edges)
    assert closure_pairs(c) == expected
    assert c.vertices.tolist() == sorted(set(edges.ravel().tolist()))


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_every_method_on_host(seed):
    g = random_digraph(seed)
    expected = networkx_pairs(g, False)
    for method in ("sparse", "condense", "recursive", "square"):
        c = closure.transitive_closure(g, method=method, device="host")
        assert closure_pairs(c) == expected, method
        assert c.method == method


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_queries_and_exports(seed):
    g = random_digraph(seed)
    n = g.number_of_nodes()
    for reflexive in (False, True):
        c = closure.transitive_closure(g, reflexive=reflexive)
        tc = nx.transitive_closure(g, reflexive=reflexive)
        # to_scipy: boolean CSR over .vertices, equal to networkx's adjacency matrix.
        s = c.to_scipy()
        assert isinstance(s, scipy.sparse.csr_array) and s.dtype == bool and s.shape == (n, n)
        if n:  # networkx refuses to convert an empty graph
            ref = nx.to_scipy_sparse_array(tc, nodelist=list(g.nodes), dtype=bool, format="csr")
            assert (s != ref).nnz == 0
        assert s.has_sorted_indices
        # reaches and reaches_many over every pair.
        us, vs = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
        got = c.reaches_many(us.ravel(), vs.ravel())
        assert got.dtype == bool
        assert got.tolist() == [tc.has_edge(u, v) for u, v in zip(us.ravel(), vs.ravel())]
        for u in list(g.nodes)[:5]:
            assert c.reaches(u, u) == tc.has_edge(u, u)
            assert (u, u) in c if tc.has_edge(u, u) else (u, u) not in c
            assert set(c.successors(u).tolist()) == set(tc.successors(u))
            assert set(c.descendants(u).tolist()) == nx.descendants(g, u)
        # to_networkx: the same graph as networkx's closure.
        h = c.to_networkx()
        assert set(h.nodes) == set(tc.nodes) and set(h.edges) == set(tc.edges)
