"""Every input type, and the conversions and exports, on small graphs with known closures."""

import gzip
import pathlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import closure
from conftest import DATA_DIR, closure_pairs, networkx_pairs

# 0 -> 1 -> 2 -> 1 (cycle), 2 -> 3, self-loop on 4, 5 isolated.
EDGES = [(0, 1), (1, 2), (2, 1), (2, 3), (4, 4)]
STRICT = {(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (4, 4)}


def reflexive(pairs, vertices):
    return pairs | {(v, v) for v in vertices}


def test_networkx_digraph():
    g = nx.DiGraph(EDGES)
    g.add_node(5)
    c = closure.transitive_closure(g)
    assert closure_pairs(c) == STRICT and c.pair_count == 10
    assert c.vertices.tolist() == [0, 1, 2, 3, 4, 5]
    r = closure.transitive_closure(g, reflexive=True)
    assert closure_pairs(r) == reflexive(STRICT, range(6)) and r.pair_count == 13


def test_networkx_multidigraph_and_undirected():
    g = nx.MultiDiGraph(EDGES + EDGES)
    assert closure_pairs(closure.transitive_closure(g)) == STRICT
    u = nx.Graph([(0, 1), (1, 2), (5, 6)])  # an undirected graph: its symmetric digraph
    c = closure.transitive_closure(u)
    assert closure_pairs(c) == networkx_pairs(u.to_directed(), False)


def _edges_of(graph):
    us, vs = closure.as_graph(graph).edges()
    return sorted(zip(us.tolist(), vs.tolist()))


@pytest.mark.parametrize("kind", [nx.DiGraph, nx.Graph, nx.MultiDiGraph])
def test_networkx_nodes_in_order_take_the_fast_path_with_the_same_result(kind):
    # Nodes 0..n-1 in order are converted in C++ (from_identity_adjacency); the same graph
    # with its nodes renamed goes the general way: both must give the same edges.
    rng = np.random.default_rng(11)
    g = kind()
    g.add_nodes_from(range(60))
    g.add_edges_from((int(u), int(v)) for u, v in rng.integers(0, 60, size=(200, 2)))
    g.add_edges_from([(5, 5), (7, 8), (7, 8)])  # a self-loop and a parallel edge
    assert closure._closure.Graph.from_identity_adjacency(g._adj) is not None
    renamed = nx.relabel_nodes(g, {i: f"v{i:02d}" for i in g}, copy=True)
    general = closure.as_graph(renamed)
    us, vs = general.edges()
    index = {label: i for i, label in enumerate(general.vertices.tolist())}
    want = sorted((int(u[1:]), int(v[1:])) for u, v in zip(us.tolist(), vs.tolist()))
    assert _edges_of(g) == want
    assert closure.as_graph(g).vertices.tolist() == list(range(60))
    assert len(index) == 60


# The fast path reads one-digit ints straight from CPython's objects: negative ints and
# ints of two digits (2**30 and up) or more must decline too, not be misread.
@pytest.mark.parametrize("nodes", [[1, 0, 2], [0, 1, 3], [False, True], [0, np.int64(1)],
                                   [0, -1], [0, 2**30], [0, 2**64], [0, 1, -(2**40)]])
def test_networkx_other_nodes_keep_their_labels(nodes):
    # Not exactly the ints 0..n-1 in order: the fast path declines, labels stay as given.
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edge(nodes[0], nodes[-1])
    assert closure._closure.Graph.from_identity_adjacency(g._adj) is None
    c = closure.transitive_closure(g)
    assert c.vertices.tolist() == list(nodes)
    assert c.reaches(nodes[0], nodes[-1]) and c.pair_count == 1


def test_networkx_string_labels():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])
    c = closure.transitive_closure(g)
    assert c.vertices.dtype == object and c.vertices.tolist() == ["a", "b", "c"]
    assert c.reaches("a", "c") and not c.reaches("c", "a") and c.reaches("b", "b")
    assert c.reaches_many(["a", "c"], ["c", "a"]).tolist() == [True, False]
    assert c.descendants("a").tolist() == ["b", "c"]
    with pytest.raises(KeyError, match="'z' is not in the graph"):
        c.reaches("a", "z")
    with pytest.raises(KeyError):
        c.reaches_many(["a"], ["z"])


def test_networkx_sparse_integer_labels():
    g = nx.DiGraph([(10, 20), (20, 1000000), (7, 10)])
    c = closure.transitive_closure(g)
    assert c.vertices.dtype == np.int64
    assert c.reaches(7, 1000000) and not c.reaches(1000000, 7)
    assert c.reaches_many(np.array([7, 20]), np.array([20, 10])).tolist() == [True, False]
    with pytest.raises(KeyError):
        c.reaches_many(np.array([7]), np.array([11]))


@pytest.mark.parametrize("fmt", ["csr_array", "csr_matrix", "coo_matrix", "csc_array", "lil_matrix"])
def test_scipy(fmt):
    rows, cols = zip(*EDGES)
    a = scipy.sparse.coo_matrix((np.ones(len(EDGES)), (rows, cols)), shape=(6, 6))
    a = getattr(scipy.sparse, fmt)(a)
    c = closure.transitive_closure(a)
    assert closure_pairs(c) == STRICT and c.vertex_count == 6


def test_scipy_explicit_zeros_are_not_edges():
    a = scipy.sparse.csr_array((np.array([1.0, 0.0]), (np.array([0, 1]), np.array([1, 2]))),
                               shape=(3, 3))
    assert a.nnz == 2
    assert closure_pairs(closure.transitive_closure(a)) == {(0, 1)}


def test_numpy_pairs_list_and_tuple():
    arr = np.array(EDGES)
    expected = STRICT  # 5 is not in EDGES, so not a vertex here
    assert closure_pairs(closure.transitive_closure(arr)) == expected
    assert closure_pairs(closure.transitive_closure(EDGES)) == expected
    assert closure_pairs(closure.transitive_closure((arr[:, 0], arr[:, 1]))) == expected
    assert closure_pairs(closure.transitive_closure(arr.astype(np.float64))) == expected
    c = closure.transitive_closure(arr, vertices=[5, 4, 3, 2, 1, 0])
    assert c.vertices.tolist() == [5, 4, 3, 2, 1, 0] and closure_pairs(c) == expected
    assert c.to_scipy()[5, 4]  # row of vertex 0 (index 5), column of vertex 1 (index 4)
    s = closure.transitive_closure(np.array([["x", "y"], ["y", "x"]]))
    assert closure_pairs(s) == {(a, b) for a in "xy" for b in "xy"}


def test_paths_and_graph_objects(tmp_path):
    text = "".join(f"{u} {v}\n" for u, v in EDGES)
    p = tmp_path / "g.txt"
    p.write_text(text)
    pz = tmp_path / "g.txt.gz"
    pz.write_bytes(gzip.compress(text.encode()))
    for path in (p, str(p), pz):
        c = closure.transitive_closure(path)
        assert closure_pairs(c) == STRICT
    g = closure.read_graph(p)
    assert (g.vertex_count, g.edge_count, g.format) == (5, 5, "edges")
    assert closure_pairs(closure.transitive_closure(g)) == STRICT
    us, vs = g.edges()
    assert set(zip(us.tolist(), vs.tolist())) == set(EDGES)
    assert set(g.to_networkx().edges) == set(EDGES)
    assert (g.to_scipy() != closure.as_graph(np.array(EDGES)).to_scipy()).nnz == 0


def test_file_labels():
    # Matrix Market numbers vertices from 1; names.txt has names.
    ring = closure.transitive_closure(DATA_DIR / "ring.mtx")
    assert ring.vertices.dtype == np.int64 and ring.vertices.min() == 1
    names = closure.transitive_closure(DATA_DIR / "names.txt")
    assert names.vertices.dtype == object and all(isinstance(v, str) for v in names.vertices)


def test_exports():
    g = nx.DiGraph(EDGES)
    g.add_node(5)
    c = closure.transitive_closure(g)
    s = c.to_scipy()
    assert s.nnz == 10 and s.dtype == bool and s.shape == (6, 6)
    us, vs = c.pairs()
    assert us.dtype == np.int64 and len(us) == 10
    assert list(zip(us.tolist(), vs.tolist())) == sorted(STRICT)
    iu, iv = c.pairs(labels=False)
    assert (iu == us).all() and (iv == vs).all()
    assert c.successors(1).tolist() == [1, 2, 3] and c.descendants(1).tolist() == [2, 3]
    assert c.successors(5).tolist() == [] and c.descendants(0).tolist() == [1, 2, 3]
    r = closure.transitive_closure(g, reflexive=True)
    assert r.successors(5).tolist() == [5] and r.descendants(5).tolist() == []
    assert r.reaches(5, 5) and not c.reaches(5, 5)
    assert c.index_of([5, 0]).tolist() == [5, 0]
    assert "10 pairs" in repr(c) and c.method == "sparse"
    assert c.report["components"] == c.component_count == 5
    h = c.to_networkx()
    assert set(h.nodes) == set(range(6)) and set(h.edges) == STRICT


def test_empty_graphs():
    assert closure.transitive_closure(nx.DiGraph()).pair_count == 0
    assert closure.transitive_closure(np.empty((0, 2), dtype=int)).pair_count == 0
    assert closure.transitive_closure(scipy.sparse.csr_array((0, 0))).to_scipy().shape == (0, 0)
    c = closure.transitive_closure(scipy.sparse.csr_array((3, 3)), reflexive=True)
    assert c.pair_count == 3


def test_devices():
    devices = closure.devices()
    assert isinstance(devices, list)
    for d in devices:
        assert {"index", "name", "type", "default"} <= set(d)
    assert sum(d["default"] for d in devices) <= 1


def test_opencl_device_when_present():
    devices = closure.devices()
    if not devices:
        pytest.skip("no OpenCL device")
    g = nx.DiGraph(EDGES + [(3, 40), (40, 41), (41, 3)])
    expected = networkx_pairs(g, False)
    for method in ("recursive", "square"):
        c = closure.transitive_closure(g, method=method, device=devices[0]["index"])
        assert closure_pairs(c) == expected
        assert c.report["device"] != "host"
