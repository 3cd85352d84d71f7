"""Index.add_edges: edges appended to a reachability index (a living index: base + layer)
answer as an index built from the graph plus every appended edge. Checked on every pair
against networkx after each round, through save/load_index, against `closure index
--append`, and on arguments that must be refused without changing the index."""

import os
import pathlib
import random
import subprocess

import networkx as nx
import numpy as np
import pytest

import closure

BUILD_DIR = pathlib.Path(os.environ.get("CLOSURE_BUILD_DIR",
                                        pathlib.Path(__file__).resolve().parents[2] / "build"))
CLI = BUILD_DIR / "closure"


def random_graph(seed, n, kind):
    """n vertices (isolated ones too), mostly forward edges with some backward ones and
    self-loops (cycles); labels 0..n-1 ("identity"), shuffled sparse ints ("ints") or
    strings ("str")."""
    rng = random.Random(seed)
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for _ in range(int(rng.choice([0.02, 0.05, 0.1]) * n * n) + rng.randint(0, n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u > v and rng.random() < 0.85:
            u, v = v, u
        g.add_edge(u, v)
    for _ in range(rng.randint(0, 2)):
        v = rng.randrange(n)
        g.add_edge(v, v)
    if kind == "ints":
        perm = rng.sample(range(10 * n + 1), n)
        g = nx.relabel_nodes(g, dict(zip(range(n), perm)))
    elif kind == "str":
        g = nx.relabel_nodes(g, {v: f"v{v}" for v in g})
    return g


def strict_reach(g):
    """{u: the set of vertices that a path of one or more edges leads to from u}: for v != u
    exactly the v with nx.has_path(g, u, v); u itself only when u lies on a cycle (a
    self-loop counts), the index's strict semantics (as test_reach.py compares)."""
    out = {}
    for u in g:
        reached = set()
        for s in g.successors(u):
            reached.add(s)
            reached |= nx.descendants(g, s)
        out[u] = reached
    return out


def check_all_pairs(index, g, spot_checks=200, rng=None):
    """Every pair's reaches() and reaches_many() against networkx; the counts too."""
    nodes = list(g)
    assert index.vertex_count == len(nodes)
    assert index.component_count == nx.number_strongly_connected_components(g)
    assert sorted(map(repr, index.vertices.tolist())) == sorted(map(repr, nodes))
    reach = strict_reach(g)
    us = [u for u in nodes for _ in nodes]
    vs = [v for _ in nodes for v in nodes]
    want = [v in reach[u] for u, v in zip(us, vs)]
    assert index.reaches_many(us, vs).tolist() == want
    assert [index.reaches(u, v) for u, v in zip(us, vs)] == want
    rng = rng or random.Random(0)
    for _ in range(spot_checks):  # the reference itself, against networkx's has_path
        u, v = rng.choice(nodes), rng.choice(nodes)
        if u != v:
            assert index.reaches(u, v) == nx.has_path(g, u, v)
    return us, vs, want


def new_label(kind, counter):
    return f"new{counter}" if kind == "str" else 100000 + counter


def append_round(rng, g, kind, counter, kinds=("new->old", "new->new", "cycle", "old->old",
                                               "old->new")):
    """A round of edges of each kind in `kinds`, shuffled; returns (edges, counter)."""
    old = list(g)
    edges = []
    fresh = []

    def make():
        nonlocal counter
        counter += 1
        fresh.append(new_label(kind, counter))
        return fresh[-1]

    for what in kinds:
        for _ in range(rng.randint(1, 4)):
            if what == "new->old" and old:
                edges.append((make(), rng.choice(old)))
            elif what == "new->new":
                a = make() if not fresh or rng.random() < 0.5 else rng.choice(fresh)
                edges.append((a, make()))
            elif what == "cycle":  # new vertices on a cycle, one of them leading to an old
                ring = [make() for _ in range(rng.randint(1, 3))]
                edges += [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]
                if old:
                    edges.append((ring[0], rng.choice(old)))
            elif what == "old->old" and old:
                edges.append((rng.choice(old), rng.choice(old)))
            elif what == "old->new" and old:
                edges.append((rng.choice(old), make()))
    rng.shuffle(edges)
    return edges, counter


def expected_vertices(g, edges):
    """The vertices after appending `edges` to g: the old ones, then the new in order of
    appearance (u then v, edge by edge)."""
    out = list(g)
    seen = set(out)
    for u, v in edges:
        for x in (u, v):
            if x not in seen:
                seen.add(x)
                out.append(x)
    return out


@pytest.mark.parametrize("n", [1, 7, 33, 100])
@pytest.mark.parametrize("kind", ["identity", "ints", "str"])
def test_append_rounds_match_networkx(tmp_path, n, kind):
    seed = n * 7 + len(kind)
    g = random_graph(seed, n, kind)
    rng = random.Random(seed)
    index = closure.build_index(g, supportive=rng.choice([0, 3, 32]))
    check_all_pairs(index, g)
    counter = 0
    # The first rounds only leave new vertices (the layer, no rebuild); then every kind.
    plans = [("new->old", "new->new", "cycle"), ("new->old", "cycle"), None, None, None]
    for round_, plan in enumerate(plans):
        edges, counter = append_round(rng, g, kind, counter, *([plan] if plan else []))
        vertices = expected_vertices(g, edges)
        before = index.vertex_count
        report = index.add_edges(edges)
        g.add_edges_from(edges)
        assert report["edges_given"] == len(edges)
        assert report["new_vertices"] == len(vertices) - before == index.vertex_count - before
        assert index.vertices.tolist() == vertices  # new labels as given, in order
        if plan is not None:  # edges from new vertices only: the layer takes them
            assert not report["rebuilt"] and report["why_rebuilt"] == ""
            assert report["layer_edges"] == len(set(edges))
        else:
            assert report["rebuilt"] == (report["why_rebuilt"] != "")
        us, vs, want = check_all_pairs(index, g, rng=rng)
        # save/load keeps the answers (the layer written and read back).
        path = tmp_path / f"r{round_}.idx"
        assert index.save(path) == path.stat().st_size
        loaded = closure.load_index(path)
        assert loaded.vertex_count == index.vertex_count
        assert loaded.component_count == index.component_count
        # Labels come back as load_index gives them: ints when all are ints, else str.
        as_loaded = [str(x) for x in vertices] if kind == "str" else vertices
        assert loaded.vertices.tolist() == as_loaded
        key = str if kind == "str" else (lambda x: x)
        assert loaded.reaches_many([key(u) for u in us], [key(v) for v in vs]).tolist() == want
        # A loaded index saves the same file again.
        again = tmp_path / f"again{round_}.idx"
        loaded.save(again)
        assert again.read_bytes() == path.read_bytes()
    # Appending to a loaded index goes on where the built one left off.
    edges, counter = append_round(rng, g, kind, counter)
    loaded.add_edges(edges)
    index.add_edges(edges)
    g.add_edges_from(edges)
    check_all_pairs(loaded, g)
    check_all_pairs(index, g)


def test_reflexive_index_after_append():
    g = random_graph(3, 7, "identity")
    index = closure.build_index(g, reflexive=True)
    index.add_edges([(50, 0), (51, 50), (3, 52)])
    g.add_edges_from([(50, 0), (51, 50), (3, 52)])
    for u in g:
        for v in g:
            assert index.reaches(u, v) == nx.has_path(g, u, v)
    nodes = list(g)
    assert index.reaches_many(nodes, nodes).tolist() == [True] * len(nodes)


def test_the_layer_grows_into_a_rebuild():
    g = random_graph(5, 33, "identity")
    index = closure.build_index(g)
    # More than AppendOptions::merge_minimum (4096) new vertices and edges in the layer.
    chain = [(1000 + i, 1000 + i + 1) for i in range(2100)] + [(3100, 0), (1000, 1500)]
    report = index.add_edges(chain)
    assert report["rebuilt"] and report["why_rebuilt"] == "the layer grew"
    g.add_edges_from(chain)
    assert index.vertex_count == len(g)
    rng = random.Random(5)
    nodes = list(g)
    us = [rng.choice(nodes) for _ in range(3000)]
    vs = [rng.choice(nodes) for _ in range(3000)]
    reach = {u: nx.descendants(g, u) for u in set(us)}
    want = [v in reach[u] if u != v else False for u, v in zip(us, vs)]  # a chain: no cycles
    assert index.reaches_many(us, vs).tolist() == want
    assert [index.reaches(u, v) for u, v in zip(us[:300], vs[:300])] == want[:300]


def test_already_implied_edges_change_nothing():
    index = closure.build_index(nx.DiGraph([(0, 1), (1, 2)]))
    report = index.add_edges([(0, 2), (0, 1)])
    assert report == {"edges_given": 2, "new_vertices": 0, "layer_edges": 0,
                      "already_implied": 2, "rebuilt": False, "why_rebuilt": ""}
    report = index.add_edges([])
    assert report["edges_given"] == 0 and not report["rebuilt"]


def test_integer_labels_and_their_decimal_strings():
    index = closure.build_index(nx.DiGraph([(0, 1), (1, 2)]))
    index.add_edges([("7", "0"), (np.int64(8), "7"), ("09", 2)])
    # "7" is the int 7 (a new vertex); 8 is 8; "09" is no integer's decimal form: a str.
    assert index.vertices.tolist() == [0, 1, 2, 7, 8, "09"]
    assert index.reaches(8, 2) and index.reaches(7, 1) and index.reaches("09", 2)
    assert not index.reaches(2, 7)
    index.add_edges([("2", "8")])  # "2" is the vertex 2: an edge from an old vertex
    assert index.reaches(0, 7) and index.reaches(8, 8) and index.vertex_count == 6
    # A loaded index of integer names takes both forms too.
    shuffled = closure.build_index(nx.DiGraph([(30, 10), (10, 20)]))
    shuffled.add_edges([("20", 5), (5, "40")])
    assert shuffled.vertices.tolist() == [30, 10, 20, 5, 40]
    assert shuffled.reaches(30, 40) and not shuffled.reaches(40, 30)


def test_string_index_and_other_label_types(tmp_path):
    g = nx.DiGraph([("a", "b"), ("b", "c")])
    index = closure.build_index(g)
    index.add_edges([("x", "a"), ("c", 5)])
    assert index.vertices.tolist() == ["a", "b", "c", "x", 5]
    assert index.reaches("x", 5) and index.reaches("a", 5)
    index.save(tmp_path / "s.idx")
    loaded = closure.load_index(tmp_path / "s.idx")
    assert loaded.vertices.tolist() == ["a", "b", "c", "x", "5"]  # names are str
    assert loaded.reaches("x", "5")
    loaded.add_edges([("5", "y")])
    assert loaded.reaches("a", "y") and loaded.vertices.tolist()[-1] == "y"
    # Labels of the built graph that are neither str nor int still name their vertices.
    tuples = closure.build_index(nx.DiGraph([((0, 1), (2, 3))]))
    tuples.add_edges([((2, 3), "z"), ("w", (0, 1))])
    assert tuples.reaches("w", "z") and tuples.reaches((0, 1), "z")


def test_every_edge_container():
    g = random_graph(8, 7, "identity")
    pairs = [(20, 0), (21, 20), (3, 21), (21, 21)]
    want = closure.build_index(g)
    want.add_edges(pairs)
    us, vs = [p[0] for p in pairs], [p[1] for p in pairs]
    containers = [iter(pairs), (p for p in pairs), [list(p) for p in pairs], (us, vs),
                  (np.array(us), np.array(vs)), np.array(pairs), np.array(pairs, dtype=float)]
    pd = pytest.importorskip("pandas")
    containers += [pd.DataFrame({"source": us, "target": vs}),
                   pd.DataFrame({"a": us, "b": vs}), (pd.Series(us), pd.Series(vs))]
    nodes = list(range(7)) + [20, 21]
    everything = ([u for u in nodes for _ in nodes], [v for _ in nodes for v in nodes])
    for edges in containers:
        index = closure.build_index(g)
        report = index.add_edges(edges)
        assert report["edges_given"] == len(pairs), type(edges)
        assert index.vertices.tolist() == want.vertices.tolist()
        assert (index.reaches_many(*everything).tolist()
                == want.reaches_many(*everything).tolist()), type(edges)


def snapshot(index, tmp_path):
    nodes = index.vertices.tolist()
    us = [u for u in nodes for _ in nodes]
    vs = [v for _ in nodes for v in nodes]
    path = tmp_path / "snapshot.idx"
    index.save(path)
    return (index.vertex_count, index.component_count, nodes,
            index.reaches_many(us, vs).tolist(), [index.reaches(u, v) for u, v in zip(us, vs)],
            path.read_bytes())


@pytest.mark.parametrize("kind", ["identity", "ints", "str"])
def test_hostile_arguments_leave_the_index_unchanged(tmp_path, kind):
    g = random_graph(2, 7, kind)
    index = closure.build_index(g)
    index.add_edges([(new_label(kind, 1), list(g)[0])])  # a layer to keep, too
    first = list(g)[0]
    before = snapshot(index, tmp_path)
    input_errors = [
        None, 42, "ab", b"ab", {first: first},
        (list(g)[:2], list(g)[:2], list(g)[:2]),  # a tuple is (sources, targets)
        [(first, first, first)],                  # a pair of three
        [(first, first), (first,)],
        ([first, first], [first]),                # columns of different lengths
        np.array([[first, first, first]]),
    ]
    for edges in input_errors:
        with pytest.raises(closure.InputError):
            index.add_edges(edges)
        assert snapshot(index, tmp_path) == before, repr(edges)
    usage_errors = [
        [(first, None)], [(None, first)], [(first, 1.5)], [(first, "")], [("", "")],
        [(first, True)], [(first, [1, 2])], [(first, object())], [(first, ())],
        [(first, new_label(kind, 90)), (new_label(kind, 91), "")],  # valid edges first
        [(new_label(kind, 92), first), (first, None)],
    ]
    for edges in usage_errors:
        with pytest.raises(closure.UsageError):
            index.add_edges(edges)
        assert snapshot(index, tmp_path) == before, repr(edges)
    for e in (closure.InputError, closure.UsageError):
        assert issubclass(e, closure.Error) and issubclass(e, ValueError)
    # Still appendable afterwards.
    index.add_edges([(new_label(kind, 93), first)])
    assert index.vertex_count == before[0] + 1


def test_an_index_whose_labels_collide_as_str_refuses_appends():
    index = closure.build_index(nx.DiGraph([(1, "1"), ("1", 2)]))
    with pytest.raises(closure.UsageError, match="str"):
        index.add_edges([(2, 3)])
    assert index.vertex_count == 3 and index.reaches(1, 2)


def test_an_empty_index_takes_edges(tmp_path):
    index = closure.build_index(nx.DiGraph())
    index.add_edges([("a", "b"), ("b", "a")])
    assert index.vertices.tolist() == ["a", "b"] and index.component_count == 1
    assert index.reaches("a", "a") and index.reaches("b", "a")
    index.save(tmp_path / "e.idx")
    assert closure.load_index(tmp_path / "e.idx").reaches("a", "a")


def test_queries_from_threads_while_appending():
    import threading

    g = random_graph(4, 100, "identity")
    index = closure.build_index(g)
    nodes = list(g)
    reach = strict_reach(g)
    us = [u for u in nodes for _ in nodes]
    vs = [v for _ in nodes for v in nodes]
    want = [v in reach[u] for u, v in zip(us, vs)]
    failures = []

    def query():
        # Old vertices' answers only grow with appends of new vertices' edges.
        for _ in range(20):
            if index.reaches_many(us, vs).tolist() != want:
                failures.append("reaches_many")

    threads = [threading.Thread(target=query) for _ in range(3)]
    for t in threads:
        t.start()
    rebuilt = 0
    for i in range(200):
        index.add_edges([(1000 + i, nodes[i % len(nodes)]), (1000 + i, 999 + i)])
        if i % 20 == 0:  # an old vertex to a new sink: a rebuild, old answers unchanged
            rebuilt += index.add_edges([(nodes[i % len(nodes)], 5000 + i)])["rebuilt"]
    for t in threads:
        t.join()
    assert not failures and rebuilt == 10
    assert index.vertex_count == 100 + 200 + 1 + 10


def test_appends_from_two_threads_keep_every_label():
    # Each call matches the vertices the core numbered during it to its own labels: two
    # threads appending at once had mixed them up (wrong answers, labels lost, KeyError).
    import threading

    index = closure.build_index([(i, i + 1) for i in range(2000)])
    errors = []

    def append(kind):
        for i in range(150):
            try:
                index.add_edges([(f"a{i}", 0)] if kind == 0 else [(f"b{i}", f"sink{i}")])
            except Exception as e:  # noqa: BLE001 -- any escape is the failure reported
                errors.append(repr(e))

    threads = [threading.Thread(target=append, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert index.vertex_count == len(index.vertices) == 2001 + 150 * 3
    for i in range(150):
        assert index.reaches(f"a{i}", 2000) and index.reaches(f"b{i}", f"sink{i}")
        assert not index.reaches(f"b{i}", 2000) and not index.reaches(f"sink{i}", f"b{i}")


def test_an_index_is_not_copied():
    # A shallow copy would share the core but not the labels (pickle and deepcopy refuse).
    import copy

    index = closure.build_index([(0, 1)])
    with pytest.raises(TypeError, match="cannot be copied"):
        copy.copy(index)


# --- the command-line tool ------------------------------------------------------------

def cli_answers(path, pairs, tmp_path):
    """`closure query PATH --pairs FILE`'s answers (True/False per pair)."""
    queries = tmp_path / "pairs.txt"
    queries.write_text("".join(f"{u} {v}\n" for u, v in pairs))
    out = subprocess.run([str(CLI), "query", str(path), "--pairs", str(queries)],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [line.split()[2] == "yes" for line in out if line]


@pytest.mark.skipif(not CLI.exists(), reason="the closure CLI is not built")
@pytest.mark.parametrize("kind", ["identity", "ints", "str"])
def test_cli_append_output_loads_with_the_same_answers(tmp_path, kind):
    import json

    g = random_graph(9, 33, kind)
    rng = random.Random(9)
    base = closure.build_index(g)
    base_path = tmp_path / "base.idx"
    base.save(base_path)
    counter = 0
    for round_, plan in enumerate([("new->old", "new->new", "cycle"), None]):
        edges, counter = append_round(rng, g, kind, counter, *([plan] if plan else []))
        new_edges = tmp_path / f"new{round_}.txt"
        new_edges.write_text("".join(f"{u} {v}\n" for u, v in edges))
        out_path = tmp_path / f"appended{round_}.idx"
        run = subprocess.run([str(CLI), "index", "--append", str(base_path), str(new_edges),
                              "-o", str(out_path), "--json", "-q"],
                             capture_output=True, text=True, check=True)
        cli_report = json.loads(run.stdout)
        report = base.add_edges(edges)  # the same edges, from Python
        g.add_edges_from(edges)
        assert cli_report["new_vertices"] == report["new_vertices"]
        if plan is not None:
            assert cli_report["layer_vertices"] > 0 and not report["rebuilt"]
        loaded = closure.load_index(out_path)
        assert loaded.vertex_count == len(g)
        key = str if kind == "str" else (lambda x: x)
        nodes = list(g)
        us = [key(u) for u in nodes for _ in nodes]
        vs = [key(v) for _ in nodes for v in nodes]
        reach = strict_reach(g)
        want = [v in reach[u] for u in nodes for v in nodes]
        assert loaded.reaches_many(us, vs).tolist() == want
        assert base.reaches_many(nodes and [u for u in nodes for _ in nodes],
                                 [v for _ in nodes for v in nodes]).tolist() == want
        # And the other way: Python's file with its layer, read by the CLI.
        py_path = tmp_path / f"python{round_}.idx"
        base.save(py_path)
        sample = rng.sample(list(zip(us, vs)), 300)
        got = cli_answers(py_path, sample, tmp_path)
        assert got == [loaded.reaches(u, v) for u, v in sample]
        base_path = py_path  # the next round appends to the Python-written file


def test_a_new_decimal_str_is_an_int_on_an_index_of_ints_past_int64_too():
    # 2**64 makes the labels an object array; every one is still an int, so "7" is 7.
    ix = closure.build_index([(0, 1)])
    ix.add_edges([(2**64, 0)])
    ix.add_edges([("7", 0)])
    assert list(ix.vertices) == [0, 1, 2**64, 7]
    assert ix.reaches(7, 1)
    names = closure.build_index([("a", "b")])
    names.add_edges([("7", "a")])
    assert list(names.vertices) == ["a", "b", "7"]
