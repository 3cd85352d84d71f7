"""descendants, ancestors, transitive_reduction and the reachability index against
networkx (and the closure) on random graphs with cycles, self-loops and isolated vertices,
with integer, shuffled-integer and string labels; index files round-trip, and damaged ones
raise InputError with the CLI's message."""

import errno
import os
import pathlib
import random
import subprocess

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import closure
from conftest import assert_interrupted_within, interruptible

BUILD_DIR = pathlib.Path(os.environ.get("CLOSURE_BUILD_DIR",
                                        pathlib.Path(__file__).resolve().parents[2] / "build"))


def random_digraph(seed, dag=False):
    """n vertices (isolated ones too), mostly forward edges (long paths), some backward
    ones and self-loops (cycles) unless dag; labels 0..n-1, shuffled ints or strings."""
    rng = random.Random(seed)
    n = rng.choice([0, 1, 2, 5, 13, 31, 64, 90, 150])
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    if n:
        m = int(rng.choice([0.01, 0.03, 0.08, 0.2]) * n * n) + rng.randint(0, n)
        for _ in range(m):
            u, v = rng.randrange(n), rng.randrange(n)
            if u > v and (dag or rng.random() < 0.8):
                u, v = v, u
            if not (dag and u == v):
                g.add_edge(u, v)
        for _ in range(0 if dag else rng.randint(0, 3)):
            v = rng.randrange(n)
            g.add_edge(v, v)
    kind = seed % 3
    if kind == 1:  # integers, not 0..n-1, nodes not in order
        perm = rng.sample(range(10 * n + 1), n)
        g = nx.relabel_nodes(g, dict(zip(range(n), perm)))
        h = nx.DiGraph()
        nodes = list(g)
        rng.shuffle(nodes)
        h.add_nodes_from(nodes)
        h.add_edges_from(g.edges())
        g = h
    elif kind == 2:
        g = nx.relabel_nodes(g, {v: f"v{v}" for v in g})
    return g


def as_set(labels):
    return set(labels.tolist())


def sample_pairs(g, rng, count):
    """count random pairs of nodes, a tenth of them (v, v)."""
    nodes = list(g)
    us = [rng.choice(nodes) for _ in range(count)]
    vs = [u if rng.random() < 0.1 else rng.choice(nodes) for u in us]
    return us, vs


# --- descendants and ancestors -------------------------------------------------------

@pytest.mark.parametrize("seed", range(60))
def test_descendants_ancestors_match_networkx(seed):
    g = random_digraph(seed)
    converted = closure.as_graph(g)
    for u in list(g)[:40]:
        d, a = closure.descendants(converted, u), closure.ancestors(converted, u)
        assert as_set(d) == nx.descendants(g, u)
        assert as_set(a) == nx.ancestors(g, u)
        assert u not in as_set(d) and u not in as_set(a)
        # In vertex order, without repeats.
        order = {v: i for i, v in enumerate(g)}
        assert [order[v] for v in d.tolist()] == sorted(order[v] for v in d.tolist())
        assert len(d) == len(as_set(d))
    if len(g):  # the networkx graph itself, converted by the call
        u = list(g)[len(g) // 2]
        assert as_set(closure.descendants(g, u)) == nx.descendants(g, u)
        assert as_set(closure.ancestors(g, u)) == nx.ancestors(g, u)


def test_a_networkx_graph_is_converted_once_while_unchanged():
    # Every change of nodes or edges must be seen: answers against networkx after each.
    g = nx.DiGraph([("a", "b"), ("b", "c")])
    assert as_set(closure.descendants(g, "a")) == {"b", "c"}
    g.add_edge("c", "d")
    assert as_set(closure.descendants(g, "a")) == nx.descendants(g, "a") == {"b", "c", "d"}
    g.remove_edge("a", "b")
    assert as_set(closure.descendants(g, "a")) == nx.descendants(g, "a") == set()
    g.add_edges_from([("a", "c"), ("d", "a")])
    assert as_set(closure.ancestors(g, "a")) == nx.ancestors(g, "a") == {"b", "c", "d"}
    view = g.subgraph(["a", "c", "d"])  # a view changes with g
    assert as_set(closure.descendants(view, "c")) == {"a", "d"}
    g.remove_edge("c", "d")
    assert as_set(closure.descendants(view, "c")) == nx.descendants(view, "c") == set()
    if not isinstance(getattr(g, "__networkx_cache__", None), dict):
        pytest.skip(f"networkx {nx.__version__} keeps no per-graph cache: converted every call")
    # networkx 3.3+: the conversion is kept while the graph is unchanged, and dropped when
    # it changes.
    first = closure.as_graph(g)
    assert closure.as_graph(g) is first
    g.add_node("e")
    assert closure.as_graph(g) is not first and closure.as_graph(g).vertex_count == 5


def test_a_graph_converted_on_every_call_says_so_once():
    """A large networkx graph that cannot keep its conversion (networkx before 3.3, or a
    view) makes descendants/ancestors warn once a process, pointing at as_graph; one that
    keeps it (networkx 3.3+) never warns. Small graphs never warn."""
    import subprocess
    import sys

    script = """
import warnings
import networkx as nx
import closure
g = nx.DiGraph((i, i + 1) for i in range(20000))
with warnings.catch_warnings(record=True) as said:
    warnings.simplefilter("always")
    closure.descendants(nx.DiGraph([(0, 1)]), 0)
    for u in (5, 6, 7):
        assert len(closure.descendants(g, u)) == 20000 - u
    closure.ancestors(g.subgraph(range(15000)), 7)
for w in said:
    print(w.category.__name__, w.filename.endswith("<string>"), w.message)
keeps = isinstance(getattr(g, "__networkx_cache__", None), dict) and getattr(
    getattr(nx, "config", None), "cache_converted_graphs", False)
print("cache", bool(keeps))
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    said = [line for line in lines if line.startswith("RuntimeWarning")]
    assert len(said) == 1, r.stdout  # once, whether for the graph or for the view
    assert said[0].startswith("RuntimeWarning True closure.")  # at the caller's line
    assert "g = closure.as_graph(G)" in said[0]
    if lines[-1] == "cache True":  # networkx 3.3+: only the view warned
        assert "closure.ancestors" in said[0]
    else:
        assert "closure.descendants" in said[0]


def test_vertex_on_a_cycle_is_not_its_own_descendant():
    g = nx.DiGraph([(0, 1), (1, 0), (1, 2), (3, 3)])
    assert as_set(closure.descendants(g, 0)) == {1, 2} == nx.descendants(g, 0)
    assert as_set(closure.ancestors(g, 0)) == {1} == nx.ancestors(g, 0)
    assert len(closure.descendants(g, 3)) == 0 and len(closure.ancestors(g, 3)) == 0
    # The closure's row, by contrast, contains 0.
    assert 0 in as_set(closure.transitive_closure(g).successors(0))


def test_descendants_every_input_type(tmp_path):
    g = random_digraph(7)  # shuffled integer labels
    us, vs = map(np.array, zip(*g.edges()))
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{u} {v}\n" for u, v in g.edges()))
    for u in [v for v in g if g.out_degree(v) and g.in_degree(v)][:5]:
        want_d, want_a = nx.descendants(g, u), nx.ancestors(g, u)
        for graph in (np.column_stack([us, vs]), (us, vs), list(zip(us, vs)), path):
            assert as_set(closure.descendants(graph, u)) == want_d
            assert as_set(closure.ancestors(graph, u)) == want_a
    h = nx.convert_node_labels_to_integers(g)
    a = nx.to_scipy_sparse_array(h, nodelist=range(len(h)))
    for u in list(h)[:10]:
        assert as_set(closure.descendants(scipy.sparse.csr_array(a), u)) == nx.descendants(h, u)
        assert as_set(closure.ancestors(a.tocoo(), u)) == nx.ancestors(h, u)


def test_searches_on_one_graph_reuse_its_state():
    """A Graph keeps its searcher: many searches, forward and backward interleaved, large
    ones (beyond the first 2^20 edges searched on the calling thread, the rest on a
    worker) and small ones after them, each the right answer."""
    rng = np.random.default_rng(3)
    n = 1_200_000  # a path with forward shortcuts: u reaches u+1..n-1, 0..u-1 reach u
    a, b = rng.integers(0, n, 5000), rng.integers(0, n, 5000)
    us = np.concatenate([np.arange(n - 1), np.minimum(a, b)])
    vs = np.concatenate([np.arange(1, n), np.maximum(a, b)])
    keep = us != vs
    g = closure.as_graph((us[keep], vs[keep]), vertices=np.arange(n))
    for u in [0, n - 1, 5, n // 2, 17, n - 3, 1]:
        d, a = closure.descendants(g, u), closure.ancestors(g, u)
        assert len(d) == n - 1 - u and (len(d) == 0 or (d[0] == u + 1 and d[-1] == n - 1))
        assert np.array_equal(a, np.arange(u))
        assert np.all(np.diff(d) == 1)
    assert g._search() is g._search()
    small = random_digraph(4)  # and a graph with cycles, after them, against networkx
    converted = closure.as_graph(small)
    for u in list(small)[:20]:
        assert as_set(closure.ancestors(converted, u)) == nx.ancestors(small, u)
        assert as_set(closure.descendants(converted, u)) == nx.descendants(small, u)


def test_searches_from_several_threads():
    import threading

    n = 1_100_000  # searches beyond 2^20 edges: partly on workers
    g = closure.as_graph((np.arange(n - 1), np.arange(1, n)), vertices=np.arange(n))
    errors = []

    def ask(start):
        try:
            for u in range(start, start + 5):
                d = closure.descendants(g, u)
                assert len(d) == n - 1 - u and d[0] == u + 1
                a = closure.ancestors(g, n - 1 - u)
                assert len(a) == n - 1 - u and a[-1] == n - 2 - u
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=ask, args=(k * 100,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_descendants_unknown_vertex():
    g = nx.DiGraph([("a", "b")])
    with pytest.raises(KeyError):
        closure.descendants(g, "c")
    with pytest.raises(KeyError):
        closure.ancestors(nx.DiGraph([(0, 1)]), 2)
    with pytest.raises(KeyError):
        closure.descendants(nx.DiGraph([(0, 1)]), -1)


# --- transitive reduction -------------------------------------------------------------

def documented_reduction(g):
    """The reduction as closure documents it, built with networkx: each strongly connected
    component of k > 1 vertices becomes the cycle through its members in vertex order, a
    single vertex keeps its self-loop, and each edge (C, D) of the condensation's
    reduction becomes the smallest edge (u, v) (by vertex order) from C to D."""
    order = {v: i for i, v in enumerate(g)}
    sccs = list(nx.strongly_connected_components(g))
    comp = {v: k for k, members in enumerate(sccs) for v in members}
    edges = set()
    for members in sccs:
        m = sorted(members, key=order.__getitem__)
        if len(m) > 1:
            edges |= {(m[i], m[(i + 1) % len(m)]) for i in range(len(m))}
        elif g.has_edge(m[0], m[0]):
            edges.add((m[0], m[0]))
    condensation = nx.DiGraph()
    condensation.add_nodes_from(range(len(sccs)))
    smallest = {}
    for u, v in g.edges():
        c, d = comp[u], comp[v]
        if c != d:
            condensation.add_edge(c, d)
            if (c, d) not in smallest or (order[u], order[v]) < smallest[c, d][0]:
                smallest[c, d] = ((order[u], order[v]), (u, v))
    reduced = nx.transitive_reduction(condensation)
    edges |= {smallest[c, d][1] for c, d in reduced.edges()}
    expected_count = (sum(len(m) for m in sccs if len(m) > 1) + nx.number_of_selfloops(g)
                      - sum(1 for m in sccs if len(m) > 1 for v in m if g.has_edge(v, v))
                      + reduced.number_of_edges())
    assert len(edges) == expected_count
    return edges


@pytest.mark.parametrize("seed", range(60))
def test_reduction_of_a_dag_is_networkx(seed):
    g = random_digraph(seed, dag=True)
    assert nx.is_directed_acyclic_graph(g)
    r = closure.transitive_reduction(g)
    want = nx.transitive_reduction(g)
    assert isinstance(r, nx.DiGraph)
    assert list(r) == list(g)  # the same nodes, in the same order
    assert set(r.edges()) == set(want.edges())
    assert r.number_of_edges() == want.number_of_edges()


@pytest.mark.parametrize("seed", range(60))
def test_reduction_with_cycles(seed):
    g = random_digraph(seed)
    r = closure.transitive_reduction(g)
    assert list(r) == list(g)
    # The same closure as the input, with the documented edges (and so their number).
    assert set(nx.transitive_closure(r, reflexive=False).edges()) == set(
        nx.transitive_closure(g, reflexive=False).edges())
    assert set(r.edges()) == documented_reduction(g)


def test_reduction_arrays_for_other_inputs(tmp_path):
    g = random_digraph(11)  # cycles; string labels
    us, vs = closure.transitive_reduction(closure.as_graph(g))
    assert isinstance(us, np.ndarray) and isinstance(vs, np.ndarray)
    assert set(zip(us.tolist(), vs.tolist())) == documented_reduction(g)
    # Sorted by (source, target) in vertex order, as Closure.pairs().
    order = {v: i for i, v in enumerate(g)}
    keys = [(order[u], order[v]) for u, v in zip(us.tolist(), vs.tolist())]
    assert keys == sorted(keys)

    h = random_digraph(12, dag=True)  # 0..n-1 labels
    pairs = np.array(list(h.edges()), dtype=np.int64)
    want = set(nx.transitive_reduction(nx.DiGraph(list(h.edges()))).edges())
    us, vs = closure.transitive_reduction(pairs)
    assert us.dtype == np.int64 and set(zip(us.tolist(), vs.tolist())) == want
    a = nx.to_scipy_sparse_array(h, nodelist=range(len(h)))
    us, vs = closure.transitive_reduction(a)
    assert set(zip(us.tolist(), vs.tolist())) == set(nx.transitive_reduction(h).edges())
    path = tmp_path / "h.txt"
    path.write_text("".join(f"{u} {v}\n" for u, v in h.edges()))
    us, vs = closure.transitive_reduction(path)
    assert set(zip(us.tolist(), vs.tolist())) == want


def test_reduction_of_small_cases():
    g = nx.DiGraph([(2, 1), (1, 0), (0, 2), (0, 3), (1, 3), (3, 3)])
    g.add_node(9)
    r = closure.transitive_reduction(g)
    assert list(r) == [2, 1, 0, 3, 9]
    # The cycle in vertex order 2 -> 1 -> 0 -> 2; (1, 3) is the smallest edge into {3}
    # (vertex 1 comes before 0); 3 is alone in its component and keeps its self-loop.
    assert set(r.edges()) == {(2, 1), (1, 0), (0, 2), (1, 3), (3, 3)}
    assert closure.transitive_reduction(nx.DiGraph()).number_of_nodes() == 0


# --- the reachability index -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(24))
def test_index_matches_networkx_and_closure(seed):
    g = random_digraph(seed)
    if not len(g):
        return
    rng = random.Random(1000 + seed)
    index = closure.build_index(g, supportive=rng.choice([0, 3, 32]))
    c = closure.transitive_closure(g)
    assert index.vertex_count == len(g) and list(index.vertices.tolist()) == list(g)
    assert index.component_count == nx.number_strongly_connected_components(g)
    us, vs = sample_pairs(g, rng, 1200)
    many = index.reaches_many(us, vs)
    assert many.dtype == np.bool_ and len(many) == len(us)
    assert many.tolist() == c.reaches_many(us, vs).tolist()
    for u, v, got in zip(us, vs, many.tolist()):
        assert index.reaches(u, v) == got and ((u, v) in index) == got
        if u != v:
            assert got == nx.has_path(g, u, v)
        else:  # strict: u reaches u iff u lies on a cycle (a self-loop counts)
            assert got == (g.has_edge(u, u) or len(nx.descendants(g, u) & nx.ancestors(g, u)) > 0)
    # Reflexive: networkx.has_path on every pair.
    reflexive = closure.build_index(g, reflexive=True)
    assert reflexive.reaches_many(us, vs).tolist() == [nx.has_path(g, u, v) for u, v in zip(us, vs)]
    assert all(reflexive.reaches(u, u) for u in us[:20])


def test_supportive_beyond_32_is_refused():
    with pytest.raises(ValueError, match="supportive must be 0..32"):
        closure.build_index(nx.DiGraph([(0, 1)]), supportive=33)


@pytest.mark.parametrize("bad", [-1, 2**64, float("nan"), 1.0, True, "4", None])
def test_supportive_that_is_not_an_int_in_range_is_a_usage_error(bad):
    # Refused as 33 is, not by the binding's own TypeError (which named another default).
    with pytest.raises(closure.UsageError, match="supportive must be 0..32"):
        closure.build_index(nx.DiGraph([(0, 1)]), supportive=bad)


def test_labels_that_are_not_utf8_are_found(tmp_path):
    # A name read from bytes that are not UTF-8 is a str with lone surrogates (PEP 383): it
    # must find its vertex in a built and in a loaded index, and be appended as such; the
    # file holds the bytes (the CLI answers on them).
    ix = closure.build_index([("\udcff", "a"), ("a", "b")])
    assert ix.reaches("\udcff", "b") and ("\udcff", "b") in ix
    ix.save(tmp_path / "s.idx")
    loaded = closure.load_index(tmp_path / "s.idx")
    assert ("\udcff", "b") in loaded and loaded.reaches("\udcff", "b")
    assert loaded.reaches_many(["\udcff"], ["b"]).tolist() == [True]
    assert "\udcff" in loaded.vertices.tolist()
    assert ("\udcfd", "b") not in loaded
    with pytest.raises(KeyError):
        loaded.reaches("\udcfd", "b")
    loaded.add_edges([("\udcfe", "\udcff")])
    assert loaded.reaches("\udcfe", "b")
    loaded.save(tmp_path / "s2.idx")
    cli = [str(BUILD_DIR / "closure"), "query", str(tmp_path / "s2.idx"), b"\xfe", "b"]
    out = subprocess.run(cli, capture_output=True, check=True).stdout
    assert out.endswith(b" yes\n")


@pytest.mark.parametrize("seed", range(3))
def test_index_on_larger_graphs(seed):
    """Enough vertices that the labels cannot decide every query and the pruned search
    runs; checked against the closure on 20000 pairs."""
    rng = np.random.default_rng(seed)
    n = 3000
    us = rng.integers(0, n, 4 * n)
    vs = rng.integers(0, n, 4 * n)
    forward = rng.random(4 * n) < 0.97
    us, vs = np.where(forward, np.minimum(us, vs), us), np.where(forward, np.maximum(us, vs), vs)
    graph = closure.as_graph((us, vs), vertices=np.arange(n))
    c = closure.transitive_closure(graph)
    qu, qv = rng.integers(0, n, 20000), rng.integers(0, n, 20000)
    for supportive in (0, 32):
        index = closure.build_index(graph, supportive=supportive)
        assert np.array_equal(index.reaches_many(qu, qv), c.reaches_many(qu, qv))


def test_index_unknown_labels(tmp_path):
    # String labels, shuffled integers, 0..n-1; built, and loaded from a file.
    for seed in (11, 7, 9):
        built = closure.build_index(random_digraph(seed))
        built.save(tmp_path / "i.idx")
        for index in (built, closure.load_index(tmp_path / "i.idx")):
            first = index.vertices[0]
            index.reaches(first, first)  # a known label answers
            with pytest.raises(KeyError):
                index.reaches("no such vertex", first)
            with pytest.raises(KeyError):
                index.reaches(first, 10 ** 9)
            assert (first, None) not in index  # `in` answers False, as networkx's
            with pytest.raises(KeyError):
                index.reaches_many([first, first], [first, "nope"])
            with pytest.raises(ValueError):
                index.reaches_many([first, first], [first])


def test_index_save_load_round_trip(tmp_path):
    cli = BUILD_DIR / "closure"
    for seed in (0, 1, 2, 4, 5, 8):  # 0..n-1, shuffled integers and string labels
        g = random_digraph(seed)
        index = closure.build_index(g)
        path = tmp_path / f"g{seed}.idx"
        size = index.save(path)
        assert size == path.stat().st_size
        assert not [p for p in tmp_path.iterdir() if not p.name.endswith(".idx")]  # no temporaries
        loaded = closure.load_index(str(path))
        assert loaded.vertex_count == index.vertex_count
        assert loaded.component_count == index.component_count
        assert loaded.vertices.tolist() == list(g)  # ints come back as ints, strings as str
        if len(g) == 0:
            continue
        rng = random.Random(seed)
        us, vs = sample_pairs(g, rng, 1000)
        want = index.reaches_many(us, vs)
        assert loaded.reaches_many(us, vs).tolist() == want.tolist()
        assert [loaded.reaches(u, v) for u, v in zip(us[:50], vs[:50])] == want.tolist()[:50]
        assert closure.load_index(path, reflexive=True).reaches(us[0], us[0])
        # A loaded index saves the same file again.
        again = tmp_path / f"again{seed}.idx"
        loaded.save(again)
        assert again.read_bytes() == path.read_bytes()
        again.unlink()
        # Saved over the file it was loaded from: the rename leaves the mapping intact.
        loaded.save(path)
        assert loaded.reaches_many(us, vs).tolist() == want.tolist()
        assert closure.load_index(path).reaches_many(us, vs).tolist() == want.tolist()
        if cli.exists():  # the CLI reads the file and answers the same
            out = subprocess.run([str(cli), "query", str(path), str(us[0]), str(vs[0])],
                                 capture_output=True, text=True, check=True).stdout.split()
            assert out == [str(us[0]), str(vs[0]), "yes" if want[0] else "no"]


def test_index_labels_that_collide_as_str(tmp_path):
    g = nx.DiGraph([(1, "1"), ("1", 2)])
    index = closure.build_index(g)
    assert index.reaches(1, 2) and not index.reaches("1", 1)
    with pytest.raises(ValueError, match="str"):
        index.save(tmp_path / "x.idx")
    assert not (tmp_path / "x.idx").exists()


def test_index_save_refused_by_the_file_system(tmp_path):
    index = closure.build_index(nx.DiGraph([(0, 1)]))
    with pytest.raises(FileNotFoundError) as e:  # errno and the path, as open() gives them
        index.save(tmp_path / "missing" / "x.idx")
    assert e.value.errno == errno.ENOENT and e.value.filename == str(tmp_path / "missing")


def cli_query_message(path):
    """What `closure query FILE 0 1` prints for a bad index file, or None without a CLI."""
    cli = BUILD_DIR / "closure"
    if not cli.exists():
        return None
    r = subprocess.run([str(cli), "query", str(path), "0", "1"], capture_output=True, text=True)
    assert r.returncode == 3, r.stderr
    return r.stderr.strip().removeprefix("closure: ")


def damaged_files(good: bytes):
    yield "truncated", good[:len(good) // 2], "truncated index file"
    yield "header only", good[:40], "truncated index file"
    flipped = bytearray(good)
    flipped[len(good) - 5] ^= 0x40  # in the payload: the checksum no longer matches
    yield "corrupted", bytes(flipped), "damaged index file"
    newer = bytearray(good)
    newer[8] = 99  # the version field
    yield "version", bytes(newer), "version 99"
    yield "magic only", b"CLOSRIDX" + b"\0" * 20, "truncated index file"


def test_damaged_index_files_raise_input_error(tmp_path):
    good_path = tmp_path / "good.idx"
    closure.build_index(random_digraph(5)).save(good_path)
    good = good_path.read_bytes()
    for name, data, phrase in damaged_files(good):
        path = tmp_path / (name.replace(" ", "_") + ".idx")
        path.write_bytes(data)
        with pytest.raises(closure.InputError) as info:
            closure.load_index(path)
        e = info.value
        assert phrase in e.message, (name, e.message)
        assert e.file == str(path) and e.line is None
        assert str(e) == f"{path}: {e.message}"
        cli = cli_query_message(path)
        assert cli is None or cli == str(e), (name, cli)


def test_not_an_index_file(tmp_path):
    text = tmp_path / "graph.txt"
    text.write_text("1 2\n")
    foreign = tmp_path / "image.idx"
    foreign.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    empty = tmp_path / "empty.idx"
    empty.write_bytes(b"")
    for path, phrase in ((text, "not a closure index file"), (foreign, "no CLOSRIDX header"),
                         (empty, "empty"),
                         (tmp_path / "missing.idx", "cannot open"), (tmp_path, "not a regular")):
        with pytest.raises(closure.InputError, match=phrase) as info:
            closure.load_index(path)
        assert info.value.file == str(path)


def test_empty_graph_index(tmp_path):
    index = closure.build_index(nx.DiGraph())
    assert index.vertex_count == 0 and index.component_count == 0
    assert index.reaches_many([], []).tolist() == []
    index.save(tmp_path / "e.idx")
    loaded = closure.load_index(tmp_path / "e.idx")
    assert loaded.vertex_count == 0 and len(loaded.vertices) == 0


def test_index_from_a_file_keeps_its_labels(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("a b\nb c\nc a\nc d\n")
    index = closure.build_index(path)
    assert index.vertices.tolist() == ["a", "b", "c", "d"]
    assert index.reaches("a", "d") and index.reaches("a", "a") and not index.reaches("d", "a")
    index.save(tmp_path / "g.idx")
    loaded = closure.load_index(tmp_path / "g.idx")
    assert loaded.vertices.tolist() == ["a", "b", "c", "d"]
    assert loaded.reaches_many(np.array(["a", "d"]), np.array(["d", "a"])).tolist() == [True, False]


# Four million queries that the labels cannot decide (a dense random DAG, no supportive
# components): long enough in pruned searches to be interrupted while they run.
LONG_QUERIES = interruptible("""
    import numpy as np, closure
    rng = np.random.default_rng(0)
    n = 200000
    us, vs = rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n)
    index = closure.build_index((np.minimum(us, vs), np.maximum(us, vs)),
                                vertices=np.arange(n), supportive=0)
    qu = rng.integers(0, n // 2, 4000000)
    qv = qu + rng.integers(1, n // 2, len(qu))
""", "index.reaches_many(qu, qv)")


def test_ctrl_c_interrupts_reaches_many():
    assert_interrupted_within(LONG_QUERIES, 5.0, timeout=60)


def test_add_edges_interrupted_as_it_ended_keeps_the_labels():
    # Ctrl-C that comes as a rebuild ends: the index changed, then KeyboardInterrupt. The
    # labels must follow (they had stayed behind: every later new label named the wrong
    # vertex). The C++ call is wrapped to do exactly that, deterministically.
    index = closure.build_index([(0, 1), (1, 2)])

    class EndsThenInterrupted:
        def __init__(self, core):
            self.core = core

        def __getattr__(self, name):
            return getattr(self.core, name)

        def add_edges(self, us, vs):
            self.core.add_edges(us, vs)
            raise KeyboardInterrupt

    real = index._core
    index._core = EndsThenInterrupted(real)
    with pytest.raises(KeyboardInterrupt):
        index.add_edges([(2, 0), (-2, 5)])  # a rebuild and two new vertices
    index._core = real
    assert index.vertex_count == len(index.vertices) == 5
    assert index.reaches(2, 0) and index.reaches(-2, 5)
    index.add_edges([(-3, -4)])
    assert index.reaches(-3, -4) and not index.reaches(-3, 5)


def test_paths_that_are_not_utf8_and_a_file_named_dash(tmp_path):
    # os.listdir's surrogateescape names are paths like any other; "-" is a file so named.
    name = tmp_path / os.fsdecode(b"g\xff.txt")
    name.write_text("a b\nb c\n")
    g = closure.read_graph(name)
    assert g.edge_count == 2
    index = closure.build_index(g)
    assert index.save(tmp_path / os.fsdecode(b"i\xff.idx")) > 0
    assert closure.load_index(tmp_path / os.fsdecode(b"i\xff.idx")).reaches("a", "c")
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        index.save("-")
        assert (tmp_path / "-").stat().st_size > 0
    finally:
        os.chdir(here)


def test_save_onto_a_folder_is_is_a_directory_error(tmp_path):
    with pytest.raises(IsADirectoryError):
        closure.build_index([("a", "b")]).save(tmp_path)


def test_unhashable_labels_are_unknown_to_reaches_many_as_to_reaches():
    c = closure.transitive_closure([(0, 1), (1, 2)])
    ix = closure.build_index([("a", "b")])
    for call in (lambda: c.reaches_many([[0]], [1]), lambda: ix.reaches_many([["a"]], ["b"]),
                 lambda: c.index_of([[0], [1]]), lambda: c.reaches([0], 1)):
        with pytest.raises(KeyError):
            call()


def test_vertices_are_read_only_and_a_given_array_is_copied():
    given = np.array(["a", "b", "c"], dtype=object)
    g = closure.as_graph([("a", "b"), ("b", "c")], vertices=given)
    given[:] = ["x", "y", "z"]
    assert list(g.vertices) == ["a", "b", "c"] and list(closure.descendants(g, "a")) == ["b", "c"]
    c, ix = closure.transitive_closure(g), closure.build_index(g)
    for v in (g.vertices, c.vertices, ix.vertices):
        with pytest.raises(ValueError):
            v[0] = "q"


def test_threads_takes_numpy_integers_and_a_reduction_of_one_named_column_twice_is_refused():
    assert closure.transitive_closure([(0, 1)], threads=np.int64(2)).pair_count == 1
    pd = pytest.importorskip("pandas")
    s, d = pd.Series(["a", "b"], name="x"), pd.Series(["b", "c"], name="x")
    with pytest.raises(ValueError):
        closure.transitive_reduction((s, d))
