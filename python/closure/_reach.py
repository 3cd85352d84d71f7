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
from . import _Labels, _networkx_digraph, _object_array, as_graph


def _search(search, graph, u, format, vertices) -> np.ndarray:
    g = as_graph(graph, format, vertices)
    i = g._labels.index(u)
    found = search(g._core, i)
    return g._labels.labels(found[found != i])


def descendants(graph, u, *, format: str = "auto", vertices=None) -> np.ndarray:
    """The vertices reachable from ``u`` by a path of one or more edges, ``u`` excluded,
    as labels in vertex order: as a set, what ``networkx.descendants(G, u)`` returns.

    ``graph`` is anything :func:`as_graph` takes; it is converted on every call, so
    convert it once (``g = closure.as_graph(G)``) to ask about many vertices. The C++
    function includes ``u`` when ``u`` lies on a cycle; here, as in networkx, ``u`` is
    never among its own descendants. KeyError when ``u`` is not in the graph. A
    breadth-first search, O(n + m), without the GIL."""
    return _search(_closure.descendants, graph, u, format, vertices)


def ancestors(graph, u, *, format: str = "auto", vertices=None) -> np.ndarray:
    """The vertices from which a path of one or more edges leads to ``u``, ``u``
    excluded, as labels in vertex order: as a set, what ``networkx.ancestors(G, u)``
    returns. Otherwise as :func:`descendants` (a search over the reversed graph)."""
    return _search(_closure.ancestors, graph, u, format, vertices)


def transitive_reduction(graph, *, format: str = "auto", vertices=None):
    """The transitive reduction: the fewest edges with the same closure as ``graph``.

    On a DAG it is ``networkx.transitive_reduction(G)``: the edges (u, v) for which no
    other path leads from u to v. networkx refuses graphs with cycles; here each strongly
    connected component of k > 1 vertices becomes the cycle through its members in vertex
    order (k edges: v1 -> v2 -> ... -> vk -> v1), a vertex alone in its component keeps
    its self-loop, and each edge (C, D) of the condensation's reduction becomes the
    smallest edge (u, v) of the graph (by vertex order) with u in C and v in D.

    Returns, for a networkx graph, a ``networkx.DiGraph`` with the same nodes (without
    attributes), as networkx does; for every other input two arrays ``(sources,
    targets)`` of labels, sorted by (source, target) in vertex order, as
    :meth:`Closure.pairs`. Runs without the GIL."""
    g = as_graph(graph, format, vertices)
    sources, targets = _closure.transitive_reduction(g._core)
    us, vs = g._labels.labels(sources), g._labels.labels(targets)
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        return _networkx_digraph(g.vertices, us, vs)
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
            raise KeyError(f"vertex {label!r} is not in the graph")
        return i

    def indices(self, labels) -> np.ndarray:
        items = labels.reshape(-1).tolist() if isinstance(labels, np.ndarray) else list(labels)
        ids = self._core.find_many(items)
        unknown = ids < 0
        if unknown.any():
            raise KeyError(f"vertex {items[int(np.argmax(unknown))]!r} is not in the graph")
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
        u, v = pair
        return self.reaches(u, v)

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


def build_index(graph, reflexive: bool = False, *, supportive: int = 32,
                format: str = "auto", vertices=None) -> Index:
    """The reachability index of ``graph`` (anything :func:`as_graph` takes), as
    ``closure index`` builds it: linear time and space, no closure; the index's queries
    then take the graph's labels. ``supportive``: components (0..32) given exact
    reachability bits (the CLI's ``--supportive``). Runs without the GIL; Ctrl-C stops
    the strongly-connected-components pass (the labelling after it runs to its end)."""
    g = as_graph(graph, format, vertices)
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
