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


# --- labels keep Python's equality, as networkx's nodes do ------------------------------

# 1 and "1" are two vertices: np.asarray would turn these pairs into strings, merging them
# (and inventing the self-loop ("1", "1")).
MIXED = [(1, "1"), ("1", 2), (2, "a"), (3, "3"), ("3", 3.0)]


def _mixed_input(kind):
    us, vs = [u for u, _ in MIXED], [v for _, v in MIXED]
    return {"list of tuples": lambda: MIXED,
            "list of lists": lambda: [list(p) for p in MIXED],
            "object array": lambda: np.array(MIXED, dtype=object),
            "tuple of lists": lambda: (us, vs),
            "tuple of object arrays": lambda: (np.array(us, dtype=object),
                                               np.array(vs, dtype=object))}[kind]()


@pytest.mark.parametrize("kind", ["list of tuples", "list of lists", "object array",
                                  "tuple of lists", "tuple of object arrays"])
def test_mixed_int_and_str_labels_stay_apart_as_in_networkx(kind):
    graph = _mixed_input(kind)
    g = nx.DiGraph(MIXED)  # 3 and 3.0 are one node there, 1 and "1" two
    c = closure.transitive_closure(graph)
    assert closure_pairs(c) == networkx_pairs(g, False)
    assert closure_pairs(closure.transitive_closure(graph, reflexive=True)) == (
        networkx_pairs(g, True))
    # Labels that cannot be sorted come in networkx's order: first occurrence.
    assert c.vertices.dtype == object and c.vertices.tolist() == list(g)
    assert [type(v) for v in c.vertices.tolist()] == [type(v) for v in g]
    assert (1, "1") in c and ("1", 1) not in c and not c.reaches("1", "1")
    assert c.reaches_many([1, "1", 1], ["1", 1, 2]).tolist() == [True, False, True]
    assert set(c.descendants(1).tolist()) == nx.descendants(g, 1)


def test_first_example_of_the_issue_has_no_self_loop():
    edges = [(1, "1"), ("1", 2)]
    c = closure.transitive_closure(edges)
    assert closure_pairs(c) == set(nx.transitive_closure(nx.DiGraph(edges)).edges())
    assert closure_pairs(c) == {(1, "1"), (1, 2), ("1", 2)} and c.vertex_count == 3


def test_given_vertices_with_mixed_labels():
    c = closure.transitive_closure([(1, "1")], vertices=["1", 1, 5])
    assert c.vertices.tolist() == ["1", 1, 5] and closure_pairs(c) == {(1, "1")}


def test_tuple_labels_as_networkx_nodes():
    # Tuple labels (grid nodes) stay labels instead of becoming a third axis.
    g = nx.grid_2d_graph(3, 2).to_directed()
    edges = list(g.edges())
    c = closure.transitive_closure(edges)
    assert closure_pairs(c) == networkx_pairs(nx.DiGraph(edges), False)
    assert c.reaches((0, 0), (2, 1)) and ((0, 0), (9, 9)) not in c


def test_plain_int_and_str_lists_keep_their_fast_dtypes():
    g = closure.as_graph([(0, 1), (1, 2), (5, 2)])
    assert g.vertices.dtype == np.int64 and g.vertices.tolist() == [0, 1, 2, 5]
    assert closure.as_graph([(0, 1.0)]).vertices.dtype == np.int64  # np.loadtxt's floats
    s = closure.as_graph([("b", "a"), ("a", "c")])
    assert s.vertices.dtype == object and s.vertices.tolist() == ["a", "b", "c"]  # sorted
    big = closure.as_graph([(0, 2**64)])  # no NumPy integer holds both: Python ints
    assert big.vertices.tolist() == [0, 2**64]


# --- one rule for edges: a list is pairs, a tuple is (sources, targets) ------------------

def _container(kind, labels):
    if kind == "series":
        pd = pytest.importorskip("pandas")
        return pd.Series(labels)
    return {"list": list, "tuple": tuple, "array": np.array}[kind](labels)


@pytest.mark.parametrize("kind", ["list", "tuple", "array", "series"])
@pytest.mark.parametrize("us, vs", [([1, 2], [3, 4]), ([0, 1, 2], [1, 2, 0]), ([7], [8]),
                                    (["x", "y"], ["y", "z"])])
def test_a_tuple_is_sources_and_targets_whatever_holds_them(kind, us, vs):
    # Two columns of two labels, ((1, 2), (3, 4)), are the edges 1 -> 3 and 2 -> 4 in
    # every container, as networkx reads zip(us, vs).
    want = sorted(nx.DiGraph(list(zip(us, vs))).edges())
    assert _edges_of((_container(kind, us), _container(kind, vs))) == want
    assert _edges_of((_container(kind, us), np.array(vs))) == want  # mixed containers
    assert _edges_of((_container(kind, us), list(vs))) == want


def test_a_tuple_of_ranges():
    assert _edges_of((range(0, 3), range(1, 4))) == [(0, 1), (1, 2), (2, 3)]


@pytest.mark.parametrize("pair", [tuple, list, np.array])
def test_a_list_is_pairs_whatever_holds_each_pair(pair):
    for edges in ([(1, 2), (3, 4)], [(0, 1), (1, 2), (2, 0)], [("x", "y")]):
        want = sorted(nx.DiGraph(edges).edges())
        assert _edges_of([pair(p) for p in edges]) == want
        assert _edges_of(np.array(edges)) == want  # an (m, 2) array: pairs too


def test_tuples_and_lists_that_follow_neither_rule_are_refused():
    with pytest.raises(closure.InputError, match=r"a tuple is \(sources, targets\)"):
        closure.as_graph(((0, 1), (1, 2), (2, 3)))  # three pairs: a list of them is edges
    with pytest.raises(closure.InputError, match=r"a tuple is \(sources, targets\)"):
        closure.as_graph((0, 1))  # one edge: [(0, 1)]
    with pytest.raises(closure.InputError, match="differ in length"):
        closure.as_graph(([0, 1], [1]))
    with pytest.raises(closure.InputError, match=r"holds \(u, v\) pairs; item 1 is a list of 3"):
        closure.as_graph([(0, 1), [1, 2, 3]])
    with pytest.raises(closure.InputError, match=r"holds \(u, v\) pairs"):
        closure.as_graph([[0, 1, 2], [1, 2, 0]])  # columns in a list: a tuple is meant


def test_integer_labels_of_a_file_are_ints_up_to_int64(tmp_path):
    # The reader keeps integer labels as numbers; Python gets them as ints, in first
    # appearance, and past int64 as the strings they are.
    p = tmp_path / "big.txt"
    p.write_text("4000000000 3\n3 9223372036854775807\n")
    g = closure.read_graph(p)
    assert g.vertices.dtype == np.int64
    assert g.vertices.tolist() == [4000000000, 3, 9223372036854775807]
    p.write_text("4000000000 3\n3 9223372036854775808\n")
    g = closure.read_graph(p)
    assert g.vertices.dtype == object
    assert g.vertices.tolist() == ["4000000000", "3", "9223372036854775808"]


@pytest.mark.parametrize("edges", [[(0, 1), (1, 2)], [(5, 1), (1, 2)]])
def test_a_whole_float_or_a_bool_is_the_int_vertex_on_every_graph(edges):
    # Labels keep Python's equality (1.0 == True == 1), as networkx's nodes do: on vertices
    # 0..n-1 too, whose lookup is arithmetic, not a dict (it had taken ints only there).
    c, ix = closure.transitive_closure(edges), closure.build_index(edges)
    g = nx.DiGraph(edges)
    for u in (1.0, np.float64(1.0), True, np.int32(1)):
        assert (u, 2) in c and (u, 2) in ix and c.reaches(u, 2) and ix.reaches(u, 2)
        assert nx.has_path(g, u, 2)
    for u in (1.5, float("nan"), float("inf"), -1.0):
        assert (u, 2) not in c and (u, 2) not in ix



def test_labels_without_a_total_order_are_one_vertex_each_as_python_says():
    # frozensets are ordered by inclusion only: sorting left equal labels apart.
    a, b = frozenset({1}), frozenset({2})
    c = closure.transitive_closure([(a, b), (b, a)])
    assert c.pair_count == nx.transitive_closure(nx.DiGraph([(a, b), (b, a)])).number_of_edges()
    assert c.reaches(a, a) and len(c.vertices) == 2
    nan = (float("nan"),)  # one object: equal to itself by identity, as in a dict
    assert closure.transitive_closure([(nan, (1,)), ((1,), nan)]).pair_count == 4
    decimal = pytest.importorskip("decimal")
    assert closure.transitive_closure([(decimal.Decimal("NaN"), 1)]).pair_count == 1


def test_scipy_duplicate_entries_are_summed_before_their_nonzeros_are_edges():
    sp = pytest.importorskip("scipy.sparse")
    a = sp.coo_array(([1, -1, 1], ([0, 0, 1], [1, 1, 0])), shape=(2, 2))  # 0->1 sums to 0
    assert closure.transitive_closure(a).pair_count == 1
    assert closure.transitive_closure(a.tocsr()).pair_count == 1
    assert a.nnz == 3  # the caller's matrix is left as it was


def test_an_undirected_view_of_a_digraph_is_its_symmetric_digraph():
    view = nx.DiGraph([(0, 1), (1, 0), (1, 2)]).to_undirected(as_view=True)
    expect = nx.transitive_closure(nx.DiGraph(view.to_directed())).number_of_edges()
    assert closure.transitive_closure(view).pair_count == expect


def test_networkx_nodes_that_equal_0_to_n_minus_1_keep_their_types():
    assert list(closure.transitive_closure(nx.DiGraph([(0, 1.0)])).vertices) == [0, 1.0]
    g = nx.DiGraph()
    g.add_nodes_from([0, True, 2])
    assert [type(v) for v in closure.as_graph(g).vertices] == [int, bool, int]


def test_pairs_of_other_floats_and_booleans_are_labels_as_networkx_nodes_are():
    assert list(closure.transitive_closure([(1, 2.5)]).vertices) == [1, 2.5]
    assert sorted(closure.transitive_closure([(True, False)]).vertices) == [False, True]
    assert list(closure.transitive_closure([(1.0, 2.0)]).vertices) == [1, 2]  # whole: ints


def test_edge_arrays_of_another_shape_are_an_input_error():
    assert closure.transitive_closure(np.matrix([[0, 1], [1, 2]])).pair_count == 3
    for bad in (np.array(5), np.empty((0, 3)), np.zeros((2, 3))):
        with pytest.raises(closure.InputError):
            closure.transitive_closure(bad)


def test_format_and_vertices_where_they_mean_nothing_are_a_type_error():
    with pytest.raises(TypeError):
        closure.transitive_closure([(1, 2)], format="bogus")
    with pytest.raises(TypeError):
        closure.transitive_closure(nx.DiGraph([(1, 2)]), vertices=[9, 1, 2])
    assert closure.transitive_closure([(1, 2)], format="auto").pair_count == 1


def test_labels_no_vertex_has_are_a_key_error_in_reaches_many_as_in_reaches():
    c = closure.transitive_closure([(0, 1)])
    ix = closure.build_index([(0, 1)])
    for q in (c, ix):
        for u in ([0.5], [float("nan")], [-1, 2**63]):
            with pytest.raises(KeyError):
                q.reaches_many(u, [0] * len(u))
    assert c.reaches(np.True_, 1) == c.reaches_many([np.True_], [1])[0] == c.reaches(1, 1)
    assert list(c.reaches_many(np.array([0.0]), np.array([1.0]))) == [True]  # whole floats
