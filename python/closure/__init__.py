"""closure: transitive closure and reachability on directed graphs, from Python.

The library behind the ``closure`` command-line tool, with conversions from and to
networkx, scipy.sparse and NumPy::

    import closure, networkx as nx
    G = nx.gnp_random_graph(1000, 0.002, directed=True, seed=1)
    c = closure.transitive_closure(G)
    c.pair_count, c.reaches(0, 5), c.to_scipy(), c.to_networkx()

The closure is strict, as networkx's ``transitive_closure(G, reflexive=False)``: (u, v)
is in it iff a path of one or more edges leads from u to v, so (v, v) only when v lies on
a cycle or has a self-loop; ``reflexive=True`` adds every (v, v).

Without the closure: ``descendants``, ``ancestors``, ``transitive_reduction`` and the
reachability index (``build_index``, ``load_index``, ``Index``). See docs/python.md.
"""

from __future__ import annotations

import itertools
import os
import sys

import numpy as np

from . import _closure
from ._errors import (
    DeviceError,
    Error,
    InputError,
    InternalError,
    OutOfMemoryError,
    ResourceError,
    UsageError,
)

__version__ = _closure.__version__

__all__ = [
    "Closure",
    "DeviceError",
    "Error",
    "Graph",
    "Index",
    "InputError",
    "InternalError",
    "OutOfMemoryError",
    "ResourceError",
    "UsageError",
    "ancestors",
    "as_graph",
    "build_index",
    "components",
    "condensation",
    "descendants",
    "devices",
    "load_index",
    "read_graph",
    "transitive_closure",
    "transitive_reduction",
]


class _UnknownLabel(KeyError):
    """A label that is not a vertex; ``label`` is the label itself."""

    def __init__(self, label):
        super().__init__(f"vertex {label!r} is not in the graph")
        self.label = label


def _check_label_array(a: np.ndarray, what: str) -> np.ndarray:
    """Integer, string or object labels as they are; floats only when every one is a whole
    number below 2^53 (what np.loadtxt gives for integer columns), as int64. Anything else
    is a TypeError: a float label such as 1.5 names no vertex of any file, and floats from
    2^53 on cannot tell neighbouring integers apart."""
    if a.dtype.kind == "f":
        if not (np.all(np.isfinite(a)) and np.all(a == np.round(a))):
            raise TypeError(f"{what} holds floats that are not whole numbers; labels are "
                            "integers or strings")
        bits = np.finfo(a.dtype).nmant + 1  # 53 for float64, 24 for float32
        if a.size and float(np.max(np.abs(a))) >= 2.0**bits:
            raise TypeError(f"{what} holds floats of 2^{bits} or more, which cannot tell "
                            "neighbouring integers apart; pass an integer array")
        return a.astype(np.int64)
    if a.dtype.kind in "iub" or a.dtype.kind in "OUS":
        if a.dtype.kind == "b":
            raise TypeError(f"{what} holds booleans; labels are integers or strings")
        return a
    raise TypeError(f"{what} has dtype {a.dtype}; labels are integers or strings")


def _common_integers(a: np.ndarray, b: np.ndarray, what: str):
    """Two integer arrays in one dtype without going through float64 (which NumPy picks for
    int64 with uint64 and which merges distinct labels from 2^53 on)."""
    if a.dtype.kind not in "iu" or b.dtype.kind not in "iu" or a.dtype.kind == b.dtype.kind:
        return a, b
    signed, unsigned = (a, b) if a.dtype.kind == "i" else (b, a)
    if unsigned.size and int(unsigned.max()) > np.iinfo(np.int64).max:
        if signed.size and int(signed.min()) < 0:
            raise TypeError(f"{what} mix negative signed and unsigned labels of 2^63 or more; "
                            "no integer type holds both")
        conv = lambda x: x.astype(np.uint64)  # noqa: E731
    else:
        conv = lambda x: x.astype(np.int64)  # noqa: E731
    return (conv(a), conv(b))


class _Labels:
    """Vertex labels (a NumPy array in vertex order) and the way back from a label to its
    vertex index: arithmetic when the labels are 0..n-1, a sorted search for other integer
    labels, a dict otherwise."""

    def __init__(self, vertices: np.ndarray):
        self.vertices = vertices
        n = len(vertices)
        self.identity = vertices.dtype.kind in "iu" and (
            n == 0 or (int(vertices[0]) == 0 and bool(np.all(np.diff(vertices) == 1)))
        )
        self._dict = None
        self._sorter = None

    def check_distinct(self) -> None:
        """ValueError for a label listed twice (only where a caller lists the vertices)."""
        v = self.vertices
        if v.dtype.kind in "iu":
            if len(v) > 1:
                ordered = np.sort(v)
                same = ordered[1:] == ordered[:-1]
                if same.any():
                    raise ValueError(f"vertex {ordered[1:][np.argmax(same)]!r} is listed twice "
                                     "in the vertices")
            return
        seen = set()
        for x in v.tolist():
            try:
                if x in seen:
                    raise ValueError(f"vertex {x!r} is listed twice in the vertices")
                seen.add(x)
            except TypeError:
                raise TypeError(f"vertex {x!r} cannot be a label (it is not hashable)") from None

    @classmethod
    def range(cls, n: int) -> "_Labels":
        return cls(np.arange(n, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.vertices)

    def _lookup(self) -> dict:
        if self._dict is None:
            self._dict = {v: i for i, v in enumerate(self.vertices.tolist())}
        return self._dict

    def index(self, label) -> int:
        if self.identity:
            if isinstance(label, (int, np.integer)) and not isinstance(label, bool):
                if 0 <= label < len(self.vertices):
                    return int(label)
            raise _UnknownLabel(label)
        try:
            return self._lookup()[label]
        except (KeyError, TypeError):
            raise _UnknownLabel(label) from None

    def indices(self, labels) -> np.ndarray:
        """Vertex indices (uint32) of an array of labels; KeyError names the first unknown."""
        arr = np.asarray(labels)
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        n = len(self.vertices)
        if arr.dtype.kind == "f" and self.vertices.dtype.kind in "iu":
            arr = _check_label_array(arr, "the labels")  # np.loadtxt's whole floats
        if arr.dtype.kind in "iu" and self.vertices.dtype.kind in "iu":
            if self.vertices.dtype.kind == "u" and arr.dtype.kind == "i" and (arr < 0).any():
                raise _UnknownLabel(arr[np.argmax(arr < 0)].item())  # no vertex is negative
            vertices, arr = _common_integers(self.vertices, arr, "the labels and the vertices")
            if self.identity:
                bad = (arr < 0) | (arr >= n) if arr.dtype.kind == "i" else (arr >= n)
                if bad.any():
                    raise _UnknownLabel(arr[np.argmax(bad)].item())
                return arr.astype(np.uint32)
            if self._sorter is None:
                self._sorter = np.argsort(self.vertices, kind="stable")
            ordered = vertices[self._sorter]
            pos = np.searchsorted(ordered, arr)
            pos_clipped = np.minimum(pos, max(n - 1, 0))
            bad = (pos >= n) | (ordered[pos_clipped] != arr) if n else np.ones(len(arr), bool)
            if bad.any():
                raise _UnknownLabel(arr[np.argmax(bad)].item())
            return self._sorter[pos_clipped].astype(np.uint32)
        lookup = self._lookup()
        try:
            return np.fromiter(map(lookup.__getitem__, arr.tolist()), dtype=np.uint32,
                               count=len(arr))
        except KeyError as e:
            raise _UnknownLabel(e.args[0]) from None

    def labels(self, indices: np.ndarray) -> np.ndarray:
        return indices.astype(np.int64) if self.identity else self.vertices[indices]


def _object_array(items) -> np.ndarray:
    """A 1-D object array of `items` (np.array would turn tuples into a second axis)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _labels_of(items: list) -> _Labels:
    """Labels from a list: int64 when every label is an int, objects otherwise."""
    if all(type(x) is int for x in items):
        try:
            return _Labels(np.array(items, dtype=np.int64))
        except OverflowError:
            pass
    return _Labels(_object_array(items))


class Graph:
    """A directed graph as the library holds it: vertices 0..n-1 in compressed rows, and
    their labels (``vertices``). Made by :func:`read_graph` or :func:`as_graph`; pass it
    to :func:`transitive_closure` to skip the conversion when closing it repeatedly."""

    def __init__(self, core: _closure.Graph, labels: _Labels, format: str | None = None):
        self._core = core
        self._labels = labels
        self.format = format
        self._searcher = None

    def _search(self) -> _closure.Searcher:
        """The graph's searcher (descendants, ancestors), made on first use and kept: its
        visited stamps and reverse graph serve every later search."""
        if self._searcher is None:
            self._searcher = _closure.Searcher(self._core)
        return self._searcher

    @property
    def vertex_count(self) -> int:
        return self._core.vertex_count

    @property
    def edge_count(self) -> int:
        """Distinct edges (duplicates collapse)."""
        return self._core.edge_count

    @property
    def vertices(self) -> np.ndarray:
        """Labels in vertex order: int64 when all are integers, else objects (str for files)."""
        return self._labels.vertices

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """(sources, targets) as label arrays, sorted by (source index, target index)."""
        offsets = self._core.offsets().astype(np.int64)
        us = np.repeat(np.arange(self.vertex_count, dtype=np.int64), np.diff(offsets))
        return self._labels.labels(us), self._labels.labels(self._core.targets())

    def to_scipy(self):
        """The adjacency matrix as a boolean scipy.sparse.csr_array over ``vertices``."""
        import scipy.sparse

        n = self.vertex_count
        targets = self._core.targets()
        return scipy.sparse.csr_array(
            (np.ones(len(targets), dtype=bool), targets.astype(np.int32),
             self._core.offsets().astype(np.int64)),
            shape=(n, n))

    def to_networkx(self):
        """A networkx.DiGraph with every vertex (isolated ones too) and every edge."""
        us, vs = self.edges()
        return _networkx_digraph(self.vertices, us, vs)

    def to_pandas(self, source: str = "source", target: str = "target"):
        """The edges as a pandas.DataFrame of two label columns (isolated vertices are
        not in it), in :meth:`edges` order."""
        return _pairs_frame(*self.edges(), source, target)

    def __repr__(self) -> str:
        fmt = f", format={self.format!r}" if self.format else ""
        return f"<closure.Graph: {self.vertex_count} vertices, {self.edge_count} edges{fmt}>"


def _pairs_frame(us: np.ndarray, vs: np.ndarray, source: str, target: str):
    import pandas as pd

    return pd.DataFrame({source: us, target: vs})


def _networkx_digraph(vertices: np.ndarray, us: np.ndarray, vs: np.ndarray):
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(vertices.tolist())
    g.add_edges_from(zip(us.tolist(), vs.tolist()))
    return g


def read_graph(path: str | os.PathLike, format: str = "auto") -> Graph:
    """Reads a graph file with the tool's readers: edge lists, GRAIL ``.gra``, DIMACS,
    Matrix Market, Graphviz DOT, gzip-compressed or not. ``format``: "auto" (from the
    extension, then the content), "edges", "gra", "dimacs", "mtx" or "dot".

    Raises InputError (with ``file`` and ``line``) for malformed input, and InputError
    with ``line`` None when the file cannot be opened, as the CLI reports both."""
    core, fmt, _records = _closure.read_graph(os.fspath(path), format)
    ints = core.integer_labels()
    labels = _Labels(ints) if ints is not None else _Labels(_object_array(core.labels()))
    return Graph(core, labels, fmt)


def _from_networkx(g) -> Graph:
    # The adjacency dict of dicts, walked at C speed (map/chain/fromiter): building the
    # arrays costs about as much as iterating the graph once. (An undirected graph lists
    # each edge both ways, so it becomes its symmetric digraph.)
    adj = getattr(g, "_adj", None)
    if not isinstance(adj, dict):
        adj = g.adj
    if isinstance(adj, dict):
        # Nodes 0..n-1 in order (the common case): the dicts are walked in C++.
        core = _closure.Graph.from_identity_adjacency(adj)
        if core is not None:
            return Graph(core, _Labels.range(len(adj)))
    nodes = list(adj)
    n = len(nodes)
    counts = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
    m = int(counts.sum())
    edges = itertools.chain.from_iterable(adj.values())
    if nodes == list(range(n)) and all(type(v) is int for v in nodes[:1]):
        labels = _Labels.range(n)
        targets = np.fromiter(edges, dtype=np.uint32, count=m)
    else:
        labels = _labels_of(nodes)
        index = {v: i for i, v in enumerate(nodes)}
        targets = np.fromiter(map(index.__getitem__, edges), dtype=np.uint32, count=m)
    sources = np.repeat(np.arange(n, dtype=np.uint32), counts)
    return Graph(_closure.Graph.from_edges(n, sources, targets), labels)


def _cached_from_networkx(g) -> Graph:
    """A networkx graph converted once while it is unchanged. networkx 3.3+ empties
    ``G.__networkx_cache__`` on every change of nodes or edges (its backends keep their
    converted graphs there, under ``nx.config.cache_converted_graphs``), so the Graph kept
    there is current; views (which change with the graph they view) and older networkx,
    which has no such cache, are converted on every call."""
    nx = sys.modules.get("networkx")
    cache = getattr(g, "__networkx_cache__", None)
    if (not isinstance(cache, dict) or hasattr(g, "_graph") or nx.is_frozen(g)
            or not getattr(getattr(nx, "config", None), "cache_converted_graphs", False)):
        return _from_networkx(g)
    converted = cache.get("closure")
    if converted is None:
        converted = cache["closure"] = _from_networkx(g)
    return converted


def _from_scipy(a) -> Graph:
    if len(a.shape) != 2 or a.shape[0] != a.shape[1]:
        raise InputError(f"an adjacency matrix must be square; this one is {a.shape[0]} x "
                         f"{a.shape[1]}", "<scipy.sparse matrix>")
    coo = a.tocoo()
    nonzero = coo.data != 0  # explicitly stored zeros are not edges
    n = int(a.shape[0])
    return Graph(
        _closure.Graph.from_edges(n, coo.row[nonzero].astype(np.uint32),
                                  coo.col[nonzero].astype(np.uint32)), _Labels.range(n))


def _from_pairs(us: np.ndarray, vs: np.ndarray, vertices) -> Graph:
    # Files read with np.loadtxt hold floats: whole numbers are taken as integers.
    us = _check_label_array(us, "the sources")
    vs = _check_label_array(vs, "the targets")
    us, vs = _common_integers(us, vs, "the sources and the targets")
    if vertices is not None:
        labels = _labels_of(list(vertices)) if not isinstance(vertices, np.ndarray) else (
            _Labels(vertices))
        labels.check_distinct()
        try:
            sources, targets = labels.indices(us), labels.indices(vs)
        except _UnknownLabel as e:
            raise InputError(f"edge endpoint {e.label!r} is not among the given vertices",
                             "<edge array>") from None
    else:
        # The vertices are the labels that occur, sorted (np.unique).
        both = np.concatenate([us, vs])
        try:
            values, inverse = np.unique(both, return_inverse=True)
        except TypeError as e:
            raise InputError(f"edge labels cannot be sorted: {e}", "<edge array>") from None
        labels = _Labels(values if values.dtype != object else _object_array(values.tolist()))
        sources = inverse[:len(us)].astype(np.uint32)
        targets = inverse[len(us):].astype(np.uint32)
    return Graph(_closure.Graph.from_edges(len(labels), sources, targets), labels)


def _pandas_column(x, what: str) -> np.ndarray:
    """A pandas Series, Index or extension array (nullable, string or Arrow-backed) as a
    NumPy array of labels: numbers as their NumPy dtype, strings as objects. Missing
    values (NaN, None, pd.NA) are an InputError: an edge needs both endpoints."""
    if x.isna().any() if hasattr(x, "isna") else False:
        raise InputError(f"{what} holds missing values (NaN, None or NA); every edge needs "
                         "both endpoints", "<DataFrame>")
    numpy_dtype = getattr(x.dtype, "numpy_dtype", None)  # nullable Int64, Arrow int64, ...
    if numpy_dtype is not None and np.dtype(numpy_dtype).kind in "iuf":
        return np.asarray(x.to_numpy(dtype=numpy_dtype))
    a = np.asarray(x.to_numpy())
    if a.dtype.kind in "US":
        a = a.astype(object)
    return a


def _is_pandas(x, *names) -> bool:
    pd = sys.modules.get("pandas")
    return pd is not None and any(isinstance(x, getattr(pd, n)) for n in names)


def _frame_columns(df, source, target):
    """The source and target columns of a DataFrame: the ones named by ``source`` and
    ``target``; else "source" and "target" (networkx's from_pandas_edgelist defaults);
    else the first two."""
    columns = list(df.columns)
    if source is None and target is None and "source" in columns and "target" in columns:
        source, target = "source", "target"
    elif source is None and target is None:
        if len(columns) < 2:
            raise InputError(f"a DataFrame of edges needs two columns (source, target); this "
                             f"one has {len(columns)}", "<DataFrame>")
        source, target = columns[0], columns[1]
    elif source is None or target is None:
        raise TypeError("name both columns: source= and target=")
    for name in (source, target):
        if name not in columns:
            raise KeyError(f"the DataFrame has no column {name!r} (it has {columns})")
    return source, target


def _pandas_pairs(graph, source, target):
    """(us, vs, column names) of a DataFrame or a pair of Series; None for anything else."""
    if _is_pandas(graph, "DataFrame"):
        source, target = _frame_columns(graph, source, target)
        us, vs = graph[source], graph[target]
        if getattr(us, "ndim", 1) != 1 or getattr(vs, "ndim", 1) != 1:
            raise InputError(f"columns {source!r} and {target!r} are not single columns "
                             "(duplicate column names?)", "<DataFrame>")
        return (_pandas_column(us, f"column {source!r}"), _pandas_column(vs, f"column {target!r}"),
                (source, target))
    if (isinstance(graph, tuple) and len(graph) == 2
            and all(_is_pandas(a, "Series", "Index") or isinstance(a, np.ndarray) and a.ndim == 1
                    for a in graph)
            and any(not isinstance(a, np.ndarray) for a in graph)):
        us, vs = (_pandas_column(a, w) if not isinstance(a, np.ndarray) else a
                  for a, w in zip(graph, ("the sources", "the targets")))
        names = tuple(getattr(a, "name", None) for a in graph)
        return us, vs, (names[0] or "source", names[1] or "target")
    return None


def as_graph(graph, format: str = "auto", vertices=None, *, source=None, target=None) -> Graph:
    """Converts any supported input to a :class:`Graph`:

    - a :class:`Graph` (returned as is);
    - a path (str or os.PathLike): read with :func:`read_graph` and ``format``;
    - a networkx Graph/DiGraph/MultiDiGraph: its nodes in order (isolated ones too) and
      its edges; an undirected graph becomes its symmetric digraph;
    - a scipy.sparse matrix or array (n x n): vertex i is row/column i, nonzeros are edges;
    - a NumPy array of shape (m, 2) of (u, v) pairs, a list of pairs, or a tuple (us, vs)
      of two 1-D NumPy arrays: the vertices are the labels that occur, sorted, unless
      ``vertices`` lists them (in the order wanted; isolated vertices allowed);
    - a pandas DataFrame of edges: the columns named by ``source`` and ``target``, else
      "source" and "target" (networkx's ``from_pandas_edgelist`` defaults), else the first
      two columns; or a tuple (us, vs) of two pandas Series. Labels as for pairs (object,
      string and Arrow-backed string columns as labels; nullable and Arrow integers as
      integers); a missing value is an InputError.
    """
    if isinstance(graph, Graph):
        return graph
    if source is not None or target is not None:
        if not _is_pandas(graph, "DataFrame"):
            raise TypeError("source= and target= name the columns of a pandas DataFrame; "
                            f"this is a {type(graph).__name__}")
    pairs = _pandas_pairs(graph, source, target)
    if pairs is not None:
        us, vs, _names = pairs
        if len(us) != len(vs):
            raise InputError(f"sources and targets differ in length ({len(us)} and {len(vs)})",
                             "<edge array>")
        return _from_pairs(us, vs, vertices)
    if isinstance(graph, (str, os.PathLike)):
        return read_graph(graph, format)
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        return _cached_from_networkx(graph)
    sparse = sys.modules.get("scipy.sparse")
    if sparse is not None and sparse.issparse(graph):
        return _from_scipy(graph)
    if (isinstance(graph, tuple) and len(graph) == 2 and all(
            isinstance(a, np.ndarray) and a.ndim == 1 for a in graph)):
        us, vs = graph
        if len(us) != len(vs):
            raise InputError(f"sources and targets differ in length ({len(us)} and {len(vs)})",
                             "<edge array>")
        return _from_pairs(us, vs, vertices)
    if isinstance(graph, (np.ndarray, list, tuple)):
        arr = np.asarray(graph) if len(graph) else np.empty((0, 2), dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise InputError(f"an edge array must have shape (m, 2); this one has shape "
                             f"{arr.shape}", "<edge array>")
        return _from_pairs(arr[:, 0], arr[:, 1], vertices)
    raise TypeError(f"cannot read a graph from {type(graph).__name__}: expected a networkx "
                    "graph, a scipy.sparse matrix, a pandas DataFrame, a NumPy array of (u, v) "
                    "pairs or a path")


class Closure:
    """The transitive closure of a graph, held compactly (per strongly connected
    component) by the library; queries take labels, as the input named its vertices.

    Semantics: strict unless ``reflexive`` -- (u, v) iff a path of >= 1 edges leads from u
    to v, so (v, v) iff v is on a cycle (a self-loop counts); reflexive adds every (v, v).
    """

    def __init__(self, core: _closure.Closure, labels: _Labels, reflexive: bool, source=None):
        self._core = core
        self._labels = labels
        self.reflexive = bool(reflexive)
        self._source = source  # the networkx graph it was computed from, for to_networkx

    @property
    def vertices(self) -> np.ndarray:
        """Labels in vertex order (the rows and columns of :meth:`to_scipy`)."""
        return self._labels.vertices

    @property
    def vertex_count(self) -> int:
        return self._core.vertex_count

    @property
    def pair_count(self) -> int:
        """Number of pairs (u, v) in the closure."""
        return self._core.pair_count(self.reflexive)

    @property
    def component_count(self) -> int:
        """Strongly connected components the closure was computed over."""
        return self._core.component_count

    @property
    def method(self) -> str:
        """The method that ran (auto's choice resolved)."""
        return self._core.report["method"]

    @property
    def report(self) -> dict:
        """What ran and how long it took: method, reason, device, components, times (s)."""
        return self._core.report

    def index_of(self, labels) -> np.ndarray:
        """Vertex indices (rows of :meth:`to_scipy`) of an array of labels."""
        return self._labels.indices(labels).astype(np.int64)

    def reaches(self, u, v) -> bool:
        """Whether (u, v) is in the closure. KeyError for a label not in the graph."""
        return self._core.reaches(self._labels.index(u), self._labels.index(v), self.reflexive)

    def __contains__(self, pair) -> bool:
        u, v = pair
        return self.reaches(u, v)

    def reaches_many(self, us, vs) -> np.ndarray:
        """Vectorised :meth:`reaches`: a bool array, one answer per (us[i], vs[i])."""
        a, b = self._labels.indices(us), self._labels.indices(vs)
        if len(a) != len(b):
            raise ValueError(f"us and vs differ in length ({len(a)} and {len(b)})")
        return self._core.reaches_many(a, b, self.reflexive)

    def successors(self, u) -> np.ndarray:
        """The closure's row of u: every v with (u, v) in it, in vertex order (u itself
        iff u is on a cycle, or reflexive)."""
        row = self._core.successors(self._labels.index(u), self.reflexive)
        return self._labels.labels(row)

    def descendants(self, u) -> np.ndarray:
        """The vertices reachable from u by a path of one or more edges, u excluded,
        in vertex order: as a set, what ``networkx.descendants(G, u)`` returns."""
        i = self._labels.index(u)
        row = self._core.successors(i, False)
        return self._labels.labels(row[row != i])

    def to_scipy(self):
        """The closure as a boolean scipy.sparse.csr_array, n x n over :attr:`vertices`
        (row i = the vertices that vertices[i] reaches); built in C++ as CSR arrays."""
        import scipy.sparse

        indptr, indices = self._core.csr(self.reflexive)
        n = self.vertex_count
        return scipy.sparse.csr_array((np.ones(len(indices), dtype=bool), indices, indptr),
                                      shape=(n, n))

    def pairs(self, labels: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Every pair as two arrays (us, vs), sorted by (u index, v index): labels, or
        vertex indices with ``labels=False``."""
        indptr, indices = self._core.csr(self.reflexive)
        us = np.repeat(np.arange(self.vertex_count, dtype=np.int64), np.diff(indptr))
        if not labels:
            return us, indices.astype(np.int64)
        return self._labels.labels(us), self._labels.labels(indices)

    def to_networkx(self):
        """The closure as a networkx graph: what ``networkx.transitive_closure(G,
        reflexive=self.reflexive)`` returns.

        For a networkx input G: a copy of G (``G.copy()``: its class, graph, node and edge
        attributes, as G is at the time of this call) with the closure's pairs added as
        attribute-less edges where G has none: on a multigraph no parallel edge is added;
        on an undirected G, as networkx, every u-v within a connected component (u != v)
        and no self-loop but G's own (every v-v when reflexive). For any other input: a
        networkx.DiGraph over every vertex with exactly the pairs."""
        us, vs = self.pairs()
        g = self._source
        if g is None:
            return _networkx_digraph(self.vertices, us, vs)
        tc = g.copy()
        if not g.is_directed() and not self.reflexive:
            keep = us != vs
            us, vs = us[keep], vs[keep]
        adj = tc._adj if isinstance(getattr(tc, "_adj", None), dict) else tc.adj
        tc.add_edges_from((u, v) for u, v in zip(us.tolist(), vs.tolist()) if v not in adj[u])
        return tc

    def to_pandas(self, source: str = "source", target: str = "target"):
        """The pairs as a pandas.DataFrame of two label columns (named ``source`` and
        ``target``), in :meth:`pairs` order: ``df.to_csv`` writes the closure as an edge
        list, and ``closure.as_graph(df)`` reads it back."""
        return _pairs_frame(*self.pairs(), source, target)

    def __repr__(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return (f"<closure.Closure ({kind}): {self.vertex_count} vertices, "
                f"{self.pair_count} pairs, method {self.method}>")


def transitive_closure(graph, method: str = "auto", device=None, reflexive: bool = False, *,
                       format: str = "auto", vertices=None, threads: int | None = None,
                       source=None, target=None, progress=None) -> Closure:
    """The transitive closure of ``graph`` (anything :func:`as_graph` takes).

    method: "auto" (the default: sparse propagation, the fastest measured), "sparse",
    "recursive", "condense" or "square"; all give the same pairs.
    device: None ($CLOSURE_DEVICE, else the first GPU, else the first CPU OpenCL device;
    only opened when the method needs one, which auto never does), "host", "gpu", "cpu",
    an index from :func:`devices`, or part of a device's name.
    reflexive: add every (v, v) (as networkx's reflexive=True).
    threads: host threads the computation may use (None: the hardware's, as the CLI's
    --threads).

    The computation runs without the GIL; Ctrl-C stops it within a second
    (KeyboardInterrupt). Raises InputError for bad input, ValueError for a bad method or
    device name, OutOfMemoryError when a dense method would not fit, DeviceError for
    OpenCL failures. source, target: the columns of a pandas DataFrame (as_graph).

    progress: None, a callable ``progress(phase, fraction)`` or True (a line on stderr,
    rewritten in place and cleared at the end, as the CLI's --progress). The callable is
    called on the calling thread about every 50 ms while the computation runs (never for
    a run shorter than that, nor for the small graphs computed on the calling thread):
    phase "components" (Tarjan's pass, fraction of its vertices and edges) or "closure"
    (the sparse propagation's rows, or None where the method does not meter its work:
    the dense methods, a DAG's rows before they start). An exception it raises stops the
    computation and propagates.

    A closure that would not fit in memory raises OutOfMemoryError as soon as the
    library's budget is exceeded (while the rows are computed), with the sizes and a
    pointer to :func:`build_index`, :func:`descendants` and :func:`ancestors`, which
    answer reachability without the closure.
    """
    g = as_graph(graph, format, vertices, source=source, target=target)
    spec = "" if device is None else str(device)
    line = _ProgressLine() if progress is True else None
    if progress is not None and progress is not True and not callable(progress):
        raise TypeError(f"progress must be None, True or a callable, not {progress!r}")
    try:
        core = _closure.transitive_closure(g._core, method, spec, _threads(threads),
                                           line if line is not None else progress)
    except OutOfMemoryError as e:
        raise OutOfMemoryError(f"{e}; {_WITHOUT_CLOSURE}") from None
    finally:
        if line is not None:
            line.clear()
    nx = sys.modules.get("networkx")
    source_graph = graph if nx is not None and isinstance(graph, nx.Graph) else None
    return Closure(core, g._labels, reflexive, source_graph)


class _ProgressLine:
    """progress=True: "closure: components 40% 2 s" on stderr, rewritten in place (after a
    second, as the CLI's line, so short runs stay silent), blanked out at the end."""

    delay = 1.0  # seconds before the first line

    def __init__(self):
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._width = 0

    def __call__(self, phase, fraction):
        elapsed = self._clock() - self._start
        if elapsed < self.delay:
            return
        share = "" if fraction is None else f" {int(fraction * 100)}%"
        text = f"closure: {phase}{share} {int(elapsed)} s"
        sys.stderr.write("\r" + text.ljust(self._width))
        sys.stderr.flush()
        self._width = max(self._width, len(text))

    def clear(self):
        if self._width:
            sys.stderr.write("\r" + " " * self._width + "\r")
            sys.stderr.flush()


_WITHOUT_CLOSURE = ("the closure does not fit: closure.build_index(graph) answers u-reaches-v "
                    "queries in memory linear in the graph, and closure.descendants(graph, u) "
                    "/ closure.ancestors(graph, u) give one vertex's row, without the closure")


def _threads(threads) -> int:
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 4096:
        raise ValueError(f"threads must be an integer from 1 to 4096, not {threads!r}")
    return threads


def devices() -> list[dict]:
    """The OpenCL devices (name, platform, type, memory, ...); ``index`` is what
    ``device=`` takes and ``default`` marks the one used when device is None. Empty when
    no OpenCL platform exists (the host engine then runs)."""
    return _closure.devices()


# Last: _reach uses the conversions above.
from ._reach import (  # noqa: E402
    Index,
    ancestors,
    build_index,
    components,
    condensation,
    descendants,
    load_index,
    transitive_reduction,
)
