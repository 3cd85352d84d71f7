"""The module's surface as Python and networkx users expect it: a namespace of exactly the
public API, `in` that answers False for unknown labels, len() of a closure, the notebook
view (_repr_html_), and a transitive_closure docstring that says what the library does."""

import html.parser
import re

import networkx as nx
import numpy as np
import pytest

import closure
from conftest import DATA_DIR

EDGES = [(0, 1), (1, 2), (2, 1), (2, 3), (4, 4)]


def test_dir_lists_exactly_the_public_api():
    public = {name for name in dir(closure) if not name.startswith("_")}
    assert public == set(closure.__all__), (
        f"not in __all__: {sorted(public - set(closure.__all__))}; "
        f"in __all__ but not in dir: {sorted(set(closure.__all__) - public)}")
    assert len(closure.__all__) == len(set(closure.__all__))
    for name in closure.__all__:
        assert getattr(closure, name).__module__.startswith("closure")


# --- `in` is False for an unknown label; reaches still raises -------------------------

def test_closure_contains_is_false_for_unknown_labels():
    g = nx.DiGraph([("a", "b"), ("b", "c")])
    tc = nx.transitive_closure(g)
    c = closure.transitive_closure(g)
    for pair in [("a", "zz"), ("zz", "a"), ("zz", "zz"), ("a", 1), ("a", None)]:
        assert (pair in c) is False and (pair in tc.edges) is False
    assert ("a", "c") in c and ("a", "c") in tc.edges
    with pytest.raises(KeyError, match="'zz' is not in the graph"):
        c.reaches("a", "zz")
    # Integer labels 0..n-1 (looked up by arithmetic) and other integers (in a dict).
    for edges in (EDGES, [(10, 20), (20, 30)]):
        ints = closure.transitive_closure(edges)
        first, second = int(ints.vertices[0]), int(ints.vertices[1])
        for pair in [(first, 99), (-1, first), (first, 2**70), (first, "0"), (first, 1.5)]:
            assert pair not in ints
        assert (first, second) in ints
        with pytest.raises(KeyError):
            ints.reaches(first, 99)


def test_index_contains_is_false_for_unknown_labels(tmp_path):
    for graph in (nx.DiGraph([("a", "b"), ("b", "c")]), nx.DiGraph(EDGES)):
        built = closure.build_index(graph)
        built.save(tmp_path / "g.idx")
        for index in (built, closure.load_index(tmp_path / "g.idx")):
            first = index.vertices[0]
            for pair in [(first, "zz"), ("zz", first), (first, 10**9), (first, None)]:
                assert pair not in index
                with pytest.raises(KeyError, match="is not in the graph"):
                    index.reaches(*pair)
            with pytest.raises(KeyError):
                index.reaches_many([first], ["zz"])


# --- len() and the notebook view --------------------------------------------------------

def test_len_of_a_closure_is_its_pair_count():
    g = nx.DiGraph(EDGES)
    g.add_node(5)
    for reflexive in (False, True):
        c = closure.transitive_closure(g, reflexive=reflexive)
        assert len(c) == c.pair_count == nx.transitive_closure(g, reflexive).number_of_edges()
        assert len(c) == len(c.pairs()[0])
    empty = closure.transitive_closure(nx.DiGraph([(0, 1), (1, 2)]).subgraph([0, 2]))
    assert len(empty) == 0 and not empty


class _Facts(html.parser.HTMLParser):
    """The caption and the (th, td) rows of a _repr_html_ table."""

    def __init__(self, text):
        super().__init__()
        self.caption, self.facts, self._tag, self._key = "", {}, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self._tag = tag

    def handle_endtag(self, tag):
        self._tag = None

    def handle_data(self, data):
        if self._tag == "caption":
            self.caption += data
        elif self._tag == "th":
            self._key = data
        elif self._tag == "td":
            self.facts[self._key] = data


def test_closure_graph_and_index_show_their_facts_in_notebooks():
    g = nx.DiGraph(EDGES)
    g.add_node(5)
    c = closure.transitive_closure(g)
    view = _Facts(c._repr_html_())
    assert c._repr_html_().startswith("<table")
    assert view.caption == "closure.Closure (strict)"
    assert view.facts == {"vertices": "6", "pairs": "10", "components": "5",
                          "method": "sparse"}
    r = _Facts(closure.transitive_closure(g, reflexive=True)._repr_html_())
    assert r.caption == "closure.Closure (reflexive)" and r.facts["pairs"] == "13"
    path_graph = closure.as_graph((np.arange(1233), np.arange(1, 1234)))
    view = _Facts(path_graph._repr_html_())
    assert view.caption == "closure.Graph"
    assert view.facts == {"vertices": "1,234", "edges": "1,233"}
    assert _Facts(closure.read_graph(DATA_DIR / "ring.mtx")._repr_html_()).facts["format"] == (
        "mtx")
    index = closure.build_index(g)
    assert _Facts(index._repr_html_()).facts == {"vertices": "6", "components": "5"}


# --- the transitive_closure docstring says what the library does -----------------------

def _method_names():
    with pytest.raises(ValueError) as info:
        closure.transitive_closure([(0, 1)], method="no-such-method")
    return re.search(r"\(([^)]*)\)$", str(info.value)).group(1).split(", ")


def test_docstring_names_every_method_and_what_auto_may_choose():
    names = _method_names()
    assert "propagate" in names and "auto" in names
    doc = " ".join(closure.transitive_closure.__doc__.split())
    for name in names:
        assert f'"{name}"' in doc
    assert "auto never" not in doc and "which auto never does" not in doc
    assert "propagate on the device" in doc and "50,000 vertices + edges" in doc


@pytest.mark.parametrize("n, small", [(24_000, True), (26_000, False)])
def test_auto_models_costs_from_50000_vertices_and_edges_as_documented(n, small):
    # A path of n vertices has n + (n - 1) vertices + edges: under 50,000 auto says "small"
    # without modelling; from there it predicts the host's time (and a GPU's, when one
    # could win) and says so in the report.
    c = closure.transitive_closure((np.arange(n - 1), np.arange(1, n)), device="host")
    reason = c.report["reason"]
    assert c.method in ("sparse", "propagate") and reason.startswith("auto: ")
    assert ("small" in reason) == small and ("predicted host" in reason) == (not small)
    assert c.report["device"] == "host" and c.method == "sparse"


def test_reaches_many_on_device_rows_is_the_host_answer():
    # Rows held on the device (propagate, PoCL here) answer a batch in one launch a block;
    # one blocking read a pair had been 70x the host's time. Same answers, reflexive too.
    rng = np.random.default_rng(4)
    n = 3000
    g = closure.as_graph((rng.integers(0, n, 9000), rng.integers(0, n, 9000)),
                         vertices=np.arange(n))
    us, vs = rng.integers(0, n, 70000), rng.integers(0, n, 70000)
    vs[:500] = us[:500]  # some (v, v) pairs
    for reflexive in (False, True):
        host = closure.transitive_closure(g, method="sparse", device="host", reflexive=reflexive)
        dev = closure.transitive_closure(g, method="propagate", reflexive=reflexive)
        assert np.array_equal(dev.reaches_many(us, vs), host.reaches_many(us, vs)), reflexive
