"""Reachability without the closure: descendants, ancestors and the transitive reduction
of one graph, and the reachability index (:class:`Index`), over the library's
closure::reach (src/closure/reach/). Inputs are converted by :func:`closure.as_graph` and
labels handled as :class:`closure.Closure` handles them. See docs/python.md."""

from __future__ import annotations

import os
import sys

import numpy as np

from . import _closure
# The package's conversions: closure/__init__.py imports this module once they exist.
from . import (Graph, _facts_html, _Labels, _networkx_digraph, _object_array, _pairs_frame,
               _pandas_pairs, _UnknownLabel, as_graph)


def _search(reverse, graph, u, format, vertices, source, target) -> np.ndarray:
    g = as_graph(graph, format, vertices, source=source, target=target)
    searcher = g._search()
    found = (searcher.ancestors if reverse else searcher.descendants)(g._labels.index(u))
    return g._labels.labels(found)


def descendants(graph, u, *, format: str = "auto", vertices=None, source=None,
                target=None) -> np.ndarray:
    """The vertices reachable from ``u`` by a path of one or more edges, ``u`` excluded,
    as labels in vertex order: as a set, what ``networkx.descendants(G, u)`` returns.

    ``graph`` is anything :func:`as_graph` takes. A :class:`Graph` (``g =
    closure.as_graph(G)``, converted once) makes each call cost what its search visits:
    the graph keeps a visited array stamped per search (allocated on its first search,
    never cleared) and, for ancestors, its reverse graph; so does a networkx graph under
    networkx 3.3 or later (converted once while unchanged, kept in its
    ``__networkx_cache__``); any other input is converted on every call (O(n + m)). The C++ function includes ``u`` when ``u`` lies on a cycle;
    here, as in networkx, ``u`` is never among its own descendants. KeyError when ``u``
    is not in the graph. A breadth-first search; a large one runs without the GIL on a
    worker thread that Ctrl-C stops."""
    return _search(False, graph, u, format, vertices, source, target)


def ancestors(graph, u, *, format: str = "auto", vertices=None, source=None,
              target=None) -> np.ndarray:
    """The vertices from which a path of one or more edges leads to ``u``, ``u``
    excluded, as labels in vertex order: as a set, what ``networkx.ancestors(G, u)``
    returns. Otherwise as :func:`descendants` (a search over the reversed graph, which a
    :class:`Graph` builds on its first ancestors call and keeps)."""
    return _search(True, graph, u, format, vertices, source, target)


def components(graph, *, format: str = "auto", vertices=None, source=None,
               target=None) -> tuple[int, np.ndarray]:
    """The strongly connected components, as scipy's
    ``scipy.sparse.csgraph.connected_components(A, directed=True, connection="strong")``:
    ``(n_components, labels)``, labels[i] the component of the i-th vertex (in
    ``as_graph(graph).vertices`` order; for a networkx graph, ``list(G)`` order), an int64
    array. Component ids are numbered in topological order of the condensation: every
    edge between two components goes from a lower id to a higher one (scipy's numbering
    differs; the partition is the same). Tarjan's algorithm, O(n + m), without the GIL."""
    g = as_graph(graph, format, vertices, source=source, target=target)
    count, labels = _closure.components(g._core)
    return int(count), labels.astype(np.int64)


def condensation(graph, *, format: str = "auto", vertices=None, source=None, target=None):
    """The condensation: the DAG whose vertices are the strongly connected components
    (numbered as :func:`components` numbers them, in topological order: every edge goes
    from a lower id to a higher one) with an edge C -> D iff some edge of the graph leads
    from C to D (C != D).

    For a networkx graph, a ``networkx.DiGraph`` as ``networkx.condensation(G)``: nodes
    0..C-1, each with the node attribute ``members`` (the set of its vertices' labels),
    and the graph attribute ``mapping`` (label -> component). For every other input,
    ``(mapping, dag)``: ``mapping`` the int64 array of each vertex's component (as
    :func:`components`' labels) and ``dag`` a :class:`Graph` over the components 0..C-1
    (pass it to any function here; ``dag.to_networkx()`` for networkx)."""
    g = as_graph(graph, format, vertices, source=source, target=target)
    component_of, offsets, targets = _closure.condensation(g._core)
    count = len(offsets) - 1
    dag = Graph(_closure.Graph.from_rows(offsets, targets), _Labels.range(count))
    mapping = component_of.astype(np.int64)
    nx = sys.modules.get("networkx")
    if not (nx is not None and isinstance(graph, nx.Graph)):
        return mapping, dag
    labels = g.vertices.tolist()
    members = [set() for _ in range(count)]
    for label, c in zip(labels, mapping.tolist()):
        members[c].add(label)
    out = nx.DiGraph()
    out.add_nodes_from((c, {"members": members[c]}) for c in range(count))
    us, vs = dag.edges()
    out.add_edges_from(zip(us.tolist(), vs.tolist()))
    out.graph["mapping"] = dict(zip(labels, mapping.tolist()))
    return out


def transitive_reduction(graph, *, format: str = "auto", vertices=None, source=None,
                         target=None):
    """The transitive reduction: the fewest edges with the same closure as ``graph``.

    On a DAG it is ``networkx.transitive_reduction(G)``: the edges (u, v) for which no
    other path leads from u to v. networkx refuses graphs with cycles; here each strongly
    connected component of k > 1 vertices becomes the cycle through its members in vertex
    order (k edges: v1 -> v2 -> ... -> vk -> v1), a vertex alone in its component keeps
    its self-loop, and each edge (C, D) of the condensation's reduction becomes the
    smallest edge (u, v) of the graph (by vertex order) with u in C and v in D.

    Returns, for a networkx graph, a ``networkx.DiGraph`` with the same nodes (without
    attributes), as networkx does; for a pandas DataFrame (or a pair of Series), a
    DataFrame with the input's two column names; for every other input two arrays
    ``(sources, targets)`` of labels, sorted by (source, target) in vertex order, as
    :meth:`Closure.pairs`. Runs without the GIL."""
    g = as_graph(graph, format, vertices, source=source, target=target)
    sources, targets = _closure.transitive_reduction(g._core)
    us, vs = g._labels.labels(sources), g._labels.labels(targets)
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        return _networkx_digraph(g.vertices, us, vs)
    pairs = _pandas_pairs(graph, source, target)
    if pairs is not None:
        return _pairs_frame(us, vs, *pairs[2])
    return us, vs


class _IndexLabels:
    """The names of a loaded index that are not all integers: looked up in the name hash
    table stored in the file (no dictionary built); the array of them is built only when
    asked for (:attr:`Index.vertices`). The same interface as closure._Labels."""

    identity = False

    def __init__(self, core: _closure.Index):
        self._core = core
        self._vertices = None

    @property
    def vertices(self) -> np.ndarray:
        if self._vertices is None:
            self._vertices = _object_array(self._core.labels())
        return self._vertices

    def __len__(self) -> int:
        return self._core.vertex_count

    def index(self, label) -> int:
        i = self._core.find(label) if isinstance(label, str) else None
        if i is None:
            raise _UnknownLabel(label)
        return i

    def indices(self, labels) -> np.ndarray:
        items = labels.reshape(-1).tolist() if isinstance(labels, np.ndarray) else list(labels)
        ids = self._core.find_many(items)
        unknown = ids < 0
        if unknown.any():
            raise _UnknownLabel(items[int(np.argmax(unknown))])
        return ids.astype(np.uint32)

    def labels(self, indices: np.ndarray) -> np.ndarray:
        return self.vertices[indices]


class Index:
    """A reachability index: answers "does u reach v?" without the closure, in space
    linear in the graph (the library's ReachIndex: interval labels, Bloom filters and
    supportive components over the condensation, a pruned search when they cannot
    decide). Made by :func:`build_index` or :func:`load_index`; queries take labels.

    Semantics as :class:`Closure`: strict unless ``reflexive`` -- u reaches v iff a path
    of one or more edges leads from u to v, so u reaches u iff u lies on a cycle (a
    self-loop counts); reflexive: every u reaches u, as ``networkx.has_path``.
    """

    def __init__(self, core: _closure.Index, labels, reflexive: bool,
                 unsaveable: str | None = None):
        self._core = core
        self._labels = labels
        self.reflexive = bool(reflexive)
        self._unsaveable = unsaveable

    @property
    def vertices(self) -> np.ndarray:
        """Labels in vertex order: the graph's for a built index; for a loaded one, int64
        when every stored name is an integer, else str (as :func:`read_graph`)."""
        return self._labels.vertices

    @property
    def vertex_count(self) -> int:
        return self._core.vertex_count

    @property
    def component_count(self) -> int:
        """Strongly connected components (the condensation's vertices)."""
        return self._core.component_count

    def reaches(self, u, v) -> bool:
        """Whether u reaches v. KeyError for a label not in the graph."""
        i, j = self._labels.index(u), self._labels.index(v)
        return (self.reflexive and i == j) or self._core.reaches(i, j)

    def __contains__(self, pair) -> bool:
        """``(u, v) in ix``: :meth:`reaches`, but False for a label not in the graph (as
        ``(u, v) in G.edges`` for a networkx graph), where :meth:`reaches` raises."""
        u, v = pair
        try:
            return self.reaches(u, v)
        except _UnknownLabel:
            return False

    def reaches_many(self, us, vs) -> np.ndarray:
        """Vectorised :meth:`reaches`: a bool array, one answer per (us[i], vs[i]); the
        queries run in C++ without the GIL (Ctrl-C stops them)."""
        a, b = self._labels.indices(us), self._labels.indices(vs)
        if len(a) != len(b):
            raise ValueError(f"us and vs differ in length ({len(a)} and {len(b)})")
        out = self._core.reaches_many(a, b)
        if self.reflexive:
            out |= a == b
        return out

    def save(self, path: str | os.PathLike) -> int:
        """Writes the index file that ``closure index`` writes (``closure query FILE u v``
        reads it), atomically as the CLI does: a temporary renamed over ``path``, so an
        interrupted save leaves no half-written file. Labels are stored as ``str(label)``
        (:func:`load_index` gives integers back when all are integers). Returns the
        bytes written. OSError when the file system refuses; ValueError for a refused
        target (a hard-linked file) or labels whose str() forms collide (1 and "1")."""
        if self._unsaveable:
            raise ValueError(self._unsaveable)
        return self._core.save(os.fspath(path))

    def __repr__(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return (f"<closure.Index ({kind}): {self.vertex_count} vertices, "
                f"{self.component_count} components>")

    def _repr_html_(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return _facts_html(f"closure.Index ({kind})", [
            ("vertices", self.vertex_count), ("components", self.component_count)])


def build_index(graph, reflexive: bool = False, *, supportive: int = 32,
                format: str = "auto", vertices=None, source=None, target=None) -> Index:
    """The reachability index of ``graph`` (anything :func:`as_graph` takes), as
    ``closure index`` builds it: linear time and space, no closure; the index's queries
    then take the graph's labels. ``supportive``: components (0..32) given exact
    reachability bits (the CLI's ``--supportive``). Runs without the GIL; Ctrl-C stops
    the strongly-connected-components pass (the labelling after it runs to its end)."""
    g = as_graph(graph, format, vertices, source=source, target=target)
    names, unsaveable = None, None
    if not g._labels.identity and not g._core.labelled:
        # In-memory labels go into the index as str, so that a saved file names them.
        names = [str(x) for x in g.vertices.tolist()]
        if len(set(names)) != len(names):
            names = None
            unsaveable = ("cannot save this index: two labels have the same str() form "
                          "(such as 1 and '1'), which an index file could not tell apart")
    core = _closure.build_index(g._core, names, supportive)
    return Index(core, g._labels, reflexive, unsaveable)


def load_index(path: str | os.PathLike, reflexive: bool = False) -> Index:
    """Maps an index file (from :meth:`Index.save` or ``closure index``) and checks it:
    header, sizes, checksum and every offset a query follows. Raises InputError with the
    CLI's message when the file is missing, damaged, truncated or not an index."""
    core = _closure.load_index(os.fspath(path))
    ints = core.integer_labels()
    labels = _Labels(ints) if ints is not None else _IndexLabels(core)
    return Index(core, labels, reflexive)
