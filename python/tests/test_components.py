"""components() and condensation() against networkx's strongly_connected_components and
condensation, and scipy's connected_components(directed=True, connection="strong"), on
random graphs with fixed seeds: the partitions are equal exactly, the condensation's
edges equal up to the numbering of the components."""

import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph

import closure
from test_reach import random_digraph


def adjacency(g):
    """The adjacency matrix over list(g) (networkx refuses a graph without nodes)."""
    if not len(g):
        return scipy.sparse.csr_array((0, 0), dtype=bool)
    return nx.to_scipy_sparse_array(g, nodelist=list(g))


def partition(labels, vertices):
    """The partition as a set of frozensets of vertex labels."""
    groups = {}
    for v, c in zip(vertices, labels):
        groups.setdefault(int(c), set()).add(v)
    return {frozenset(s) for s in groups.values()}


@pytest.mark.parametrize("seed", range(60))
def test_components_match_networkx_and_scipy(seed):
    g = random_digraph(seed)
    nodes = list(g)
    count, labels = closure.components(g)
    assert labels.dtype == np.int64 and len(labels) == len(nodes)
    want = {frozenset(c) for c in nx.strongly_connected_components(g)}
    assert count == len(want)
    assert partition(labels, nodes) == want
    if nodes:
        assert set(labels.tolist()) == set(range(count))
    a = adjacency(g)
    s_count, s_labels = scipy.sparse.csgraph.connected_components(a, directed=True,
                                                                  connection="strong")
    assert s_count == count
    assert partition(s_labels, nodes) == partition(labels, nodes)
    # The same from every input type; scipy's own input gives scipy's vertex order.
    assert partition(closure.components(scipy.sparse.csr_array(a))[1], nodes) == want
    if g.number_of_edges():
        us, vs = map(np.array, zip(*g.edges()))
        graph = closure.as_graph((us, vs), vertices=nodes)
        assert partition(closure.components(graph)[1], nodes) == want


def test_component_ids_are_topological():
    g = random_digraph(5)
    count, labels = closure.components(g)
    index = {v: i for i, v in enumerate(g)}
    for u, v in g.edges():
        assert labels[index[u]] <= labels[index[v]]


def relabelled_edges(dag, members_of):
    """The DAG's edges as pairs of frozensets of members (numbering-free)."""
    return {(members_of[c], members_of[d]) for c, d in dag.edges()}


@pytest.mark.parametrize("seed", range(60))
def test_condensation_matches_networkx(seed):
    g = random_digraph(seed)
    ours = closure.condensation(g)
    want = nx.condensation(g)
    assert isinstance(ours, nx.DiGraph)
    assert ours.number_of_nodes() == want.number_of_nodes()
    assert list(ours) == list(range(ours.number_of_nodes()))
    ours_members = {c: frozenset(m) for c, m in ours.nodes(data="members")}
    want_members = {c: frozenset(m) for c, m in want.nodes(data="members")}
    assert set(ours_members.values()) == set(want_members.values())
    assert relabelled_edges(ours, ours_members) == relabelled_edges(want, want_members)
    assert nx.is_directed_acyclic_graph(ours)
    assert all(c < d for c, d in ours.edges())  # numbered in topological order
    # mapping: label -> component, consistent with members (and with networkx's up to ids).
    mapping = ours.graph["mapping"]
    assert set(mapping) == set(g)
    assert all(v in ours.nodes[mapping[v]]["members"] for v in g)
    assert {frozenset(v for v in g if mapping[v] == c) for c in ours} == set(
        want_members.values())
    # components() numbers them the same way.
    count, labels = closure.components(g)
    assert count == ours.number_of_nodes()
    assert [mapping[v] for v in g] == labels.tolist()


@pytest.mark.parametrize("seed", range(20))
def test_condensation_of_other_inputs(seed):
    g = random_digraph(seed)
    nodes = list(g)
    a = adjacency(g)
    mapping, dag = closure.condensation(a)
    assert isinstance(dag, closure.Graph)
    want = nx.condensation(g)
    assert dag.vertex_count == want.number_of_nodes()
    assert dag.edge_count == want.number_of_edges()
    members = {}
    for i, c in enumerate(mapping.tolist()):
        members.setdefault(c, set()).add(nodes[i])
    members = {c: frozenset(m) for c, m in members.items()}
    want_members = {c: frozenset(m) for c, m in want.nodes(data="members")}
    ours_edges = {(members[int(c)], members[int(d)]) for c, d in zip(*dag.edges())}
    assert ours_edges == relabelled_edges(want, want_members)
    # The dag is a Graph like any other: its closure is a DAG's (no pair (c, c)).
    tc = closure.transitive_closure(dag)
    assert not any(tc.reaches(c, c) for c in range(dag.vertex_count))


def test_condensation_small_cases():
    assert closure.components(nx.DiGraph())[0] == 0
    empty = closure.condensation(nx.DiGraph())
    assert empty.number_of_nodes() == 0 and empty.graph["mapping"] == {}
    g = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c"), ("d", "d")])
    c = closure.condensation(g)
    assert sorted(map(sorted, (m for _, m in c.nodes(data="members")))) == [
        ["a", "b"], ["c"], ["d"]]
    ab, cc = c.graph["mapping"]["a"], c.graph["mapping"]["c"]
    assert list(c.edges()) == [(ab, cc)]  # the self-loop of d is no edge of the DAG
    mapping, dag = closure.condensation(np.array([[0, 1], [1, 0], [1, 2]]))
    assert mapping.tolist() == [0, 0, 1] and dag.edges()[0].tolist() == [0]


def test_large_graph_components_match_scipy():
    rng = np.random.default_rng(11)
    n, m = 60000, 150000
    us, vs = rng.integers(0, n, m), rng.integers(0, n, m)
    a = scipy.sparse.csr_array((np.ones(m, dtype=bool), (us, vs)), shape=(n, n))
    count, labels = closure.components(a)
    s_count, s_labels = scipy.sparse.csgraph.connected_components(a, directed=True,
                                                                  connection="strong")
    assert count == s_count
    # Equal partitions: the map ours -> scipy's is a bijection.
    pairs = np.unique(np.stack([labels, s_labels.astype(np.int64)]), axis=1)
    assert pairs.shape[1] == count
    assert len(np.unique(pairs[0])) == count and len(np.unique(pairs[1])) == count
