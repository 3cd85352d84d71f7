"""Closure.to_networkx() against networkx.transitive_closure(G) itself: the same graph
class as the input (Graph, DiGraph, MultiGraph, MultiDiGraph), the same nodes in the same
order with their attributes, the graph's attributes, and the same edges with the same
attributes (G's kept, the added ones bare), strict and reflexive, on random graphs."""

import random

import networkx as nx
import pytest

import closure


def random_graph(seed, cls):
    rng = random.Random(seed)
    n = rng.choice([1, 2, 6, 15, 40])
    g = cls()
    g.graph.update(name=f"g{seed}", seed=seed)
    nodes = list(range(n))
    rng.shuffle(nodes)
    for v in nodes:
        g.add_node(v, colour=rng.choice("rgb"))
    for _ in range(rng.randint(0, 2 * n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u == v and rng.random() < 0.7:
            continue
        g.add_edge(u, v, weight=rng.randint(1, 9))
    if seed % 2:
        g = nx.relabel_nodes(g, {v: f"v{v}" for v in g})
    return g


def same_graph(ours, want):
    assert type(ours) is type(want)
    assert ours.graph == want.graph
    assert list(ours.nodes(data=True)) == list(want.nodes(data=True))
    if want.is_multigraph():
        key = lambda e: (str(e[0]), str(e[1]), e[2])  # noqa: E731
        assert sorted(ours.edges(keys=True, data=True), key=key) == sorted(
            want.edges(keys=True, data=True), key=key)
    else:
        def edge_set(g):
            if g.is_directed():
                return {(u, v): d for u, v, d in g.edges(data=True)}
            return {frozenset((u, v)): d for u, v, d in g.edges(data=True)}
        assert edge_set(ours) == edge_set(want)
    assert ours.number_of_edges() == want.number_of_edges()


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("cls", [nx.DiGraph, nx.Graph, nx.MultiDiGraph, nx.MultiGraph])
@pytest.mark.parametrize("reflexive", [False, True])
def test_to_networkx_is_networkx_transitive_closure(seed, cls, reflexive):
    g = random_graph(seed, cls)
    want = nx.transitive_closure(g, reflexive=reflexive)
    ours = closure.transitive_closure(g, reflexive=reflexive).to_networkx()
    same_graph(ours, want)
    # A copy: the input is left as it was, and the result shares no attribute dict with it.
    assert ours is not g and ours.graph is not g.graph


def test_undirected_path():
    g = nx.Graph([(1, 2), (2, 3)])
    g.add_node(4)
    tc = closure.transitive_closure(g).to_networkx()
    assert type(tc) is nx.Graph
    assert sorted(map(sorted, tc.edges())) == [[1, 2], [1, 3], [2, 3]]  # no self-loops
    assert list(tc) == [1, 2, 3, 4]


def test_other_inputs_give_a_digraph():
    import numpy as np

    tc = closure.transitive_closure(np.array([[0, 1], [1, 2]])).to_networkx()
    assert type(tc) is nx.DiGraph and set(tc.edges()) == {(0, 1), (1, 2), (0, 2)}


def test_a_source_graph_whose_nodes_changed_since_is_a_value_error():
    for change in (lambda g: g.clear(), lambda g: g.remove_node(2), lambda g: g.add_node(9)):
        g = nx.DiGraph([(1, 2), (2, 3)])
        c = closure.transitive_closure(g)
        change(g)
        with pytest.raises(ValueError):
            c.to_networkx()
    g = nx.DiGraph([(1, 2), (2, 3)])
    c = closure.transitive_closure(g)
    g.nodes[1]["color"] = "red"  # attributes as G is now: still the same nodes
    assert c.to_networkx().nodes[1]["color"] == "red"
