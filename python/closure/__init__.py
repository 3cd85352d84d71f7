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

# Every module-level name without a leading underscore is public API (``__all__``, and
# what ``dir(closure)`` shows): the modules the code needs are imported under private names.
from __future__ import annotations as _annotations

import itertools as _itertools
import os as _os
import sys as _sys

import numpy as _np

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


def _check_label_array(a: _np.ndarray, what: str) -> _np.ndarray:
    """Integer, string or object labels as they are; floats only when every one is a whole
    number below 2^53 (what np.loadtxt gives for integer columns), as int64. Anything else
    is a TypeError: a float label such as 1.5 names no vertex of any file, and floats from
    2^53 on cannot tell neighbouring integers apart."""
    if a.dtype.kind == "f":
        if not (_np.all(_np.isfinite(a)) and _np.all(a == _np.round(a))):
            raise TypeError(f"{what} holds floats that are not whole numbers; labels are "
                            "integers or strings")
        bits = _np.finfo(a.dtype).nmant + 1  # 53 for float64, 24 for float32
        if a.size and float(_np.max(_np.abs(a))) >= 2.0**bits:
            raise TypeError(f"{what} holds floats of 2^{bits} or more, which cannot tell "
                            "neighbouring integers apart; pass an integer array")
        return a.astype(_np.int64)
    if a.dtype.kind in "iub" or a.dtype.kind in "OUS":
        if a.dtype.kind == "b":
            raise TypeError(f"{what} holds booleans; labels are integers or strings")
        return a
    raise TypeError(f"{what} has dtype {a.dtype}; labels are integers or strings")


def _common_integers(a: _np.ndarray, b: _np.ndarray, what: str):
    """Two integer arrays in one dtype without going through float64 (which NumPy picks for
    int64 with uint64 and which merges distinct labels from 2^53 on)."""
    if a.dtype.kind not in "iu" or b.dtype.kind not in "iu" or a.dtype.kind == b.dtype.kind:
        return a, b
    signed, unsigned = (a, b) if a.dtype.kind == "i" else (b, a)
    if unsigned.size and int(unsigned.max()) > _np.iinfo(_np.int64).max:
        if signed.size and int(signed.min()) < 0:
            raise TypeError(f"{what} mix negative signed and unsigned labels of 2^63 or more; "
                            "no integer type holds both")
        conv = lambda x: x.astype(_np.uint64)  # noqa: E731
    else:
        conv = lambda x: x.astype(_np.int64)  # noqa: E731
    return (conv(a), conv(b))


class _Labels:
    """Vertex labels (a NumPy array in vertex order) and the way back from a label to its
    vertex index: arithmetic when the labels are 0..n-1, a sorted search for other integer
    labels, a dict otherwise."""

    def __init__(self, vertices: _np.ndarray):
        # Shared by every Graph, Closure and Index made from it, and handed out as their
        # .vertices: read-only, so that no caller's write changes another's labels, or the
        # labels apart from the lookups built from them.
        vertices.flags.writeable = False
        self.vertices = vertices
        n = len(vertices)
        self.identity = vertices.dtype.kind in "iu" and (
            n == 0 or (int(vertices[0]) == 0 and bool(_np.all(_np.diff(vertices) == 1)))
        )
        self._dict = None
        self._sorter = None

    def check_distinct(self) -> None:
        """ValueError for a label listed twice (only where a caller lists the vertices)."""
        v = self.vertices
        if v.dtype.kind in "iu":
            if len(v) > 1:
                ordered = _np.sort(v)
                same = ordered[1:] == ordered[:-1]
                if same.any():
                    raise ValueError(f"vertex {ordered[1:][_np.argmax(same)]!r} is listed twice "
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
        return cls(_np.arange(n, dtype=_np.int64))

    def __len__(self) -> int:
        return len(self.vertices)

    def _lookup(self) -> dict:
        if self._dict is None:
            self._dict = {v: i for i, v in enumerate(self.vertices.tolist())}
        return self._dict

    def index(self, label) -> int:
        if self.identity:
            # Python's equality, as the dict below keeps it for other labels: 1.0 (and True)
            # is the vertex 1.
            if isinstance(label, (int, float, _np.integer, _np.floating, _np.bool_)):
                try:
                    i = int(label)
                except (OverflowError, ValueError):  # inf, nan
                    raise _UnknownLabel(label) from None
                if i == label and 0 <= i < len(self.vertices):
                    return i
            raise _UnknownLabel(label)
        try:
            return self._lookup()[label]
        except (KeyError, TypeError):
            raise _UnknownLabel(label) from None

    def indices(self, labels) -> _np.ndarray:
        """Vertex indices (uint32) of an array of labels; KeyError names the first unknown."""
        arr = _label_array(labels)
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        n = len(self.vertices)
        if arr.dtype.kind == "f" and self.vertices.dtype.kind in "iu":
            # np.loadtxt's whole floats are the ints; any other float (2.5, nan, or past 2^53,
            # where a float names no one int) is a label no vertex has: KeyError, as in reaches.
            whole = _np.isfinite(arr) & (_np.abs(arr) < 2.0**53)
            whole[whole] = _np.mod(arr[whole], 1) == 0
            if not whole.all():
                raise _UnknownLabel(arr[_np.argmax(~whole)].item())
            arr = arr.astype(_np.int64)
        if arr.dtype.kind in "iu" and self.vertices.dtype.kind in "iu":
            if self.vertices.dtype.kind == "u" and arr.dtype.kind == "i" and (arr < 0).any():
                raise _UnknownLabel(arr[_np.argmax(arr < 0)].item())  # no vertex is negative
            vertices, arr = _common_integers(self.vertices, arr, "the labels and the vertices")
            if self.identity:
                bad = (arr < 0) | (arr >= n) if arr.dtype.kind == "i" else (arr >= n)
                if bad.any():
                    raise _UnknownLabel(arr[_np.argmax(bad)].item())
                return arr.astype(_np.uint32)
            if self._sorter is None:
                self._sorter = _np.argsort(self.vertices, kind="stable")
            ordered = vertices[self._sorter]
            pos = _np.searchsorted(ordered, arr)
            pos_clipped = _np.minimum(pos, max(n - 1, 0))
            bad = (pos >= n) | (ordered[pos_clipped] != arr) if n else _np.ones(len(arr), bool)
            if bad.any():
                raise _UnknownLabel(arr[_np.argmax(bad)].item())
            return self._sorter[pos_clipped].astype(_np.uint32)
        lookup = self._lookup()
        labels = arr.tolist()
        try:
            return _np.fromiter(map(lookup.__getitem__, labels), dtype=_np.uint32,
                                count=len(arr))
        except KeyError as e:
            raise _UnknownLabel(e.args[0]) from None
        except TypeError:  # an unhashable label ([0], {"a"}): no vertex's, as in reaches()
            raise _UnknownLabel(next(x for x in labels if not _hashable(x))) from None

    def labels(self, indices: _np.ndarray) -> _np.ndarray:
        return indices.astype(_np.int64) if self.identity else self.vertices[indices]

    def extended(self, items: list) -> "_Labels":
        """These labels with ``items`` (new vertices' labels, in vertex order) after them
        (Index.add_edges): a new object, since this one may be a Graph's, with the
        dictionary carried over rather than rebuilt. int64 while every label is an int
        that fits, else objects."""
        if not items:
            return self
        old = self.vertices
        new = _labels_of(items).vertices
        if old.dtype.kind == "i" and new.dtype.kind == "i":
            vertices = _np.concatenate([old, new])
        elif old.dtype.kind == "u" and new.dtype.kind == "i" and int(new.min()) >= 0:
            vertices = _np.concatenate([old, new.astype(old.dtype)])
        else:
            vertices = _object_array(old.tolist() + list(items))
        out = _Labels(vertices)
        if self._dict is not None:
            out._dict = dict(self._dict)
            out._dict.update((x, len(old) + i) for i, x in enumerate(items))
        return out


def _hashable(x) -> bool:
    try:
        hash(x)
        return True
    except TypeError:
        return False


def _object_array(items) -> _np.ndarray:
    """A 1-D object array of `items` (np.array would turn tuples into a second axis)."""
    out = _np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _label_array(labels) -> _np.ndarray:
    """Labels as an array that keeps Python's equality, as networkx's dict of nodes does.
    A NumPy array stays as it is. A list or tuple goes through np.asarray (at C speed) only
    when that gives a 1-D array of numbers, the common case of int labels; any other is an
    object array of the items as given: np.asarray would turn [1, "1"] into two equal
    strings "1", and tuple labels into a second axis."""
    if isinstance(labels, _np.ndarray):
        return labels
    try:
        arr = _np.asarray(labels)
    except (ValueError, TypeError):  # ragged, such as tuple labels of different lengths
        arr = None
    if arr is not None and arr.ndim == 1 and arr.dtype.kind in "iufb":
        return arr
    return _object_array(list(labels))


def _labels_of(items: list) -> _Labels:
    """Labels from a list: int64 when every label is an int, objects otherwise."""
    if all(type(x) is int for x in items):
        try:
            return _Labels(_np.array(items, dtype=_np.int64))
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
        # The column names of the table it came from, for the tables made from it
        # (_table_columns); None: it came from no table.
        self._columns = None

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
    def vertices(self) -> _np.ndarray:
        """Labels in vertex order: int64 when all are integers, else objects (str for files)."""
        return self._labels.vertices

    def edges(self) -> tuple[_np.ndarray, _np.ndarray]:
        """(sources, targets) as label arrays, sorted by (source index, target index)."""
        offsets = self._core.offsets().astype(_np.int64)
        us = _np.repeat(_np.arange(self.vertex_count, dtype=_np.int64), _np.diff(offsets))
        return self._labels.labels(us), self._labels.labels(self._core.targets())

    def to_scipy(self):
        """The adjacency matrix as a boolean scipy.sparse.csr_array over ``vertices``."""
        import scipy.sparse

        n = self.vertex_count
        targets = self._core.targets()
        return scipy.sparse.csr_array(
            (_np.ones(len(targets), dtype=bool), targets.astype(_np.int32),
             self._core.offsets().astype(_np.int64)),
            shape=(n, n))

    def to_networkx(self):
        """A networkx.DiGraph with every vertex (isolated ones too) and every edge."""
        us, vs = self.edges()
        return _networkx_digraph(self.vertices, us, vs)

    def to_pandas(self, source: str | None = None, target: str | None = None):
        """The edges as a pandas.DataFrame of two label columns (isolated vertices are
        not in it), in :meth:`edges` order; the columns are named as
        :func:`_table_columns` says (the input table's names, else source and target)."""
        return _pairs_frame(*self.edges(), *_table_columns(self._columns, source, target))

    def __repr__(self) -> str:
        fmt = f", format={self.format!r}" if self.format else ""
        return f"<closure.Graph: {self.vertex_count} vertices, {self.edge_count} edges{fmt}>"

    def _repr_html_(self) -> str:
        facts = [("vertices", self.vertex_count), ("edges", self.edge_count)]
        if self.format:
            facts.append(("format", self.format))
        return _facts_html("closure.Graph", facts)


def _facts_html(title: str, facts: list) -> str:
    """What Jupyter shows for a Graph, Closure or Index: a small table of (name, value),
    counts with thousands separators, all escaped (a format or method name is text)."""
    import html

    def cell(v) -> str:
        return html.escape(f"{v:,}" if isinstance(v, int) else str(v))

    rows = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                   f"<td style='text-align:right'>{cell(v)}</td></tr>" for k, v in facts)
    return f"<table><caption>{html.escape(title)}</caption>{rows}</table>"


def _table_columns(columns, source, target) -> tuple:
    """The one rule for the columns of a table out: the names asked for; else those of
    the table the graph came in as (a DataFrame's source and target columns, named
    Series); else "source" and "target" (networkx's from_pandas_edgelist defaults)."""
    default = columns or ("source", "target")
    names = (default[0] if source is None else source, default[1] if target is None else target)
    if names[0] == names[1]:  # a dict of two equal keys would keep one column: the targets
        raise ValueError(f"the source and target columns must have two names, not {names[0]!r} "
                         "twice")
    return names


def _pairs_frame(us: _np.ndarray, vs: _np.ndarray, source: str, target: str):
    import pandas as pd

    return pd.DataFrame({source: us, target: vs})


def _networkx_digraph(vertices: _np.ndarray, us: _np.ndarray, vs: _np.ndarray):
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(vertices.tolist())
    g.add_edges_from(zip(us.tolist(), vs.tolist()))
    return g


def _path_text(path) -> bytes:
    """The path's bytes (os.fsencode: a name that is not UTF-8, as os.listdir gives it, too),
    refusing an embedded NUL as open() does: the C++ side would end the name there and read
    or write another file. "-" is a file of that name, as open("-") has it, not the CLI's
    standard input or output."""
    text = _os.fsencode(path)
    if b"\0" in text:
        raise ValueError("embedded null byte")
    return b"./-" if text == b"-" else text


def read_graph(path: str | _os.PathLike, format: str = "auto", *, header: bool | None = None,
               delimiter: str | None = None) -> Graph:
    """Reads a graph file with the tool's readers: edge lists, CSV and TSV, GRAIL ``.gra``,
    DIMACS, Matrix Market, Graphviz DOT, adjacency lists, gzip-compressed or not.
    ``format``: "auto" (from the extension, then the content), "edges", "csv", "tsv",
    "gra", "dimacs", "mtx", "dot" or "adjlist".

    ``header``: whether the first row of a CSV, TSV or edge list is a header (True skips
    it, False reads it as an edge; None guesses from its words, as pandas' column titles
    "source,target" are guessed). ``delimiter``: read delimited text split on this
    character (";", "|", "\t", ...; None: "," for CSV, tab for TSV, blanks for edge
    lists). Either with a format that has no such thing is a UsageError.

    Raises InputError (with ``file`` and ``line``) for malformed input, and InputError
    with ``line`` None when the file cannot be opened, as the CLI reports both."""
    core, fmt, _records = _closure.read_graph(_path_text(path), format, header,
                                              "" if delimiter is None else delimiter)
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
    rows = adj.values()
    if not isinstance(adj, dict):
        # A view's len() of a row may not be its count (networkx 2.8's undirected view of a
        # digraph counts a neighbour both ways twice): the rows are listed first.
        rows = [list(row) for row in rows]
    counts = _np.fromiter(map(len, rows), dtype=_np.int64, count=n)
    m = int(counts.sum())
    edges = _itertools.chain.from_iterable(rows)
    # Every node an int (not 1.0 or True, which stay the labels given, as list(G) has them).
    if nodes == list(range(n)) and all(type(v) is int for v in nodes):
        labels = _Labels.range(n)
        targets = _np.fromiter(edges, dtype=_np.uint32, count=m)
    else:
        labels = _labels_of(nodes)
        index = {v: i for i, v in enumerate(nodes)}
        targets = _np.fromiter(map(index.__getitem__, edges), dtype=_np.uint32, count=m)
    sources = _np.repeat(_np.arange(n, dtype=_np.uint32), counts)
    return Graph(_closure.Graph.from_edges(n, sources, targets), labels)


def _networkx_cache_of(g):
    """G.__networkx_cache__ where a converted graph may be kept there: networkx 3.3+
    empties it on every change of nodes or edges (its backends keep their converted
    graphs there, under ``nx.config.cache_converted_graphs``). None for views (which change
    with the graph they view), frozen graphs and older networkx, which has no such cache."""
    nx = _sys.modules.get("networkx")
    cache = getattr(g, "__networkx_cache__", None)
    if (not isinstance(cache, dict) or hasattr(g, "_graph") or nx.is_frozen(g)
            or not getattr(getattr(nx, "config", None), "cache_converted_graphs", False)):
        return None
    return cache


_told_converted_per_call = False


def _warn_converted_per_call(g, what: str) -> None:
    """Once a process: a per-vertex query (descendants, ancestors) handed a large networkx
    graph that cannot keep its conversion pays O(n + m) on every call, where networkx's
    own search pays what it visits; as_graph once makes each call cost its search."""
    global _told_converted_per_call
    if _told_converted_per_call or _networkx_cache_of(g) is not None or len(g) < 10000:
        return
    _told_converted_per_call = True
    nx = _sys.modules.get("networkx")
    import warnings
    warnings.warn(f"closure.{what} converts this networkx graph on every call (networkx "
                  f"{getattr(nx, '__version__', '?')} keeps no converted graph: 3.3 and later "
                  f"do, for graphs that are not views): convert it once with "
                  f"g = closure.as_graph(G) and pass g", RuntimeWarning, stacklevel=4)


def _cached_from_networkx(g) -> Graph:
    """A networkx graph converted once while it is unchanged, in its networkx cache
    (_networkx_cache_of); converted on every call where there is none."""
    cache = _networkx_cache_of(g)
    if cache is None:
        return _from_networkx(g)
    converted = cache.get("closure")
    if converted is None:
        converted = cache["closure"] = _from_networkx(g)
    return converted


def _from_scipy(a) -> Graph:
    if len(a.shape) != 2 or a.shape[0] != a.shape[1]:
        raise InputError(f"an adjacency matrix must be square; this one is {a.shape[0]} x "
                         f"{a.shape[1]}", "<scipy.sparse matrix>")
    coo = a.tocoo(copy=True)
    coo.sum_duplicates()  # duplicate entries are one entry, their sum (1 and -1: no edge)
    nonzero = coo.data != 0  # explicitly stored zeros are not edges
    n = int(a.shape[0])
    return Graph(
        _closure.Graph.from_edges(n, coo.row[nonzero].astype(_np.uint32),
                                  coo.col[nonzero].astype(_np.uint32)), _Labels.range(n))


def _from_pairs(us: _np.ndarray, vs: _np.ndarray, vertices) -> Graph:
    # Files read with np.loadtxt hold floats: whole numbers are taken as integers.
    us = _check_label_array(us, "the sources")
    vs = _check_label_array(vs, "the targets")
    us, vs = _common_integers(us, vs, "the sources and the targets")
    if vertices is not None:
        labels = _labels_of(list(vertices)) if not isinstance(vertices, _np.ndarray) else (
            _Labels(vertices.copy()))  # the caller's array stays the caller's
        labels.check_distinct()
        try:
            sources, targets = labels.indices(us), labels.indices(vs)
        except _UnknownLabel as e:
            raise InputError(f"edge endpoint {e.label!r} is not among the given vertices",
                             "<edge array>") from None
    else:
        labels, sources, targets = _occurring_labels(us, vs)
    return Graph(_closure.Graph.from_edges(len(labels), sources, targets), labels)


def _occurring_labels(us: _np.ndarray, vs: _np.ndarray):
    """(labels, sources, targets) when no ``vertices`` are given: the labels that occur,
    sorted (np.unique), or, for labels that cannot be sorted (1 and "1", which Python
    keeps apart), in order of first occurrence (_first_seen)."""
    both = _np.concatenate([us, vs])
    try:
        values, inverse = _np.unique(both, return_inverse=True)
        # Sorting groups equal labels only under a total order: frozensets (ordered by
        # inclusion) or NaN inside tuples leave equal labels apart, which Python's equality
        # (a set) then finds.
        if both.dtype == object and len(set(values.tolist())) != len(values):
            return _first_seen(us, vs)
    except Exception:  # noqa: BLE001 -- 1 < "1" (TypeError), Decimal("NaN") < 1, ...
        if both.dtype != object:
            raise
        return _first_seen(us, vs)
    labels = _Labels(values if values.dtype != object else _object_array(values.tolist()))
    return labels, inverse[:len(us)].astype(_np.uint32), inverse[len(us):].astype(_np.uint32)


def _first_seen(us: _np.ndarray, vs: _np.ndarray):
    """Labels numbered as networkx.DiGraph(edges) adds its nodes: u then v, edge by edge;
    a dict keeps them apart by Python's equality, as networkx's does."""
    order = _np.empty(2 * len(us), dtype=object)
    order[0::2], order[1::2] = us, vs
    number = {}
    try:
        ids = _np.fromiter((number.setdefault(x, len(number)) for x in order.tolist()),
                           dtype=_np.uint32, count=len(order))
    except TypeError as e:
        raise InputError(f"an edge label is not hashable: {e}", "<edge array>") from None
    return _Labels(_object_array(list(number))), ids[0::2].copy(), ids[1::2].copy()


def _pandas_column(x, what: str) -> _np.ndarray:
    """A pandas Series, Index or extension array (nullable, string or Arrow-backed) as a
    NumPy array of labels: numbers as their NumPy dtype, strings as objects. Missing
    values (NaN, None, pd.NA) are an InputError: an edge needs both endpoints."""
    if x.isna().any() if hasattr(x, "isna") else False:
        raise InputError(f"{what} holds missing values (NaN, None or NA); every edge needs "
                         "both endpoints", "<DataFrame>")
    numpy_dtype = getattr(x.dtype, "numpy_dtype", None)  # nullable Int64, Arrow int64, ...
    if numpy_dtype is not None and _np.dtype(numpy_dtype).kind in "iuf":
        return _np.asarray(x.to_numpy(dtype=numpy_dtype))
    a = _np.asarray(x.to_numpy())
    if a.dtype.kind in "US":
        a = a.astype(object)
    return a


def _is_pandas(x, *names) -> bool:
    pd = _sys.modules.get("pandas")
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
            and all(_is_pandas(a, "Series", "Index") or isinstance(a, _np.ndarray) and a.ndim == 1
                    for a in graph)
            and any(not isinstance(a, _np.ndarray) for a in graph)):
        us, vs = (_pandas_column(a, w) if not isinstance(a, _np.ndarray) else a
                  for a, w in zip(graph, ("the sources", "the targets")))
        names = tuple(getattr(a, "name", None) for a in graph)
        return us, vs, (names[0] or "source", names[1] or "target")
    return None


def _column(a, what: str) -> _np.ndarray | None:
    """One side of a tuple (sources, targets) as a 1-D label array, whatever holds it;
    None for anything that is not a 1-D sequence of labels."""
    if _is_pandas(a, "Series", "Index"):
        return _pandas_column(a, what)
    if isinstance(a, _np.ndarray):
        return a if a.ndim == 1 else None
    if isinstance(a, (list, tuple, range)):
        return _label_array(a)
    return None


def _tuple_columns(graph: tuple) -> tuple[_np.ndarray, _np.ndarray]:
    """(sources, targets) of a tuple, which is always two 1-D sequences of labels, whatever
    their container: ((1, 2), (3, 4)) is the edges 1 -> 3 and 2 -> 4, as ([1, 2], [3, 4])
    and (np.array([1, 2]), np.array([3, 4])) are. Read as pairs instead, a tuple of two
    pairs could not be told from two columns of two labels; pairs come in a list."""
    columns = [_column(a, w) for a, w in zip(graph, ("the sources", "the targets"))]
    if len(graph) != 2 or any(c is None for c in columns):
        raise InputError(f"a tuple is (sources, targets), two 1-D sequences of labels; this "
                         f"one has {len(graph)} items of types "
                         f"{', '.join(type(a).__name__ for a in graph[:3])}"
                         f"{', ...' if len(graph) > 3 else ''}: give a list of (u, v) pairs "
                         "for edges", "<edge array>")
    us, vs = columns
    if len(us) != len(vs):
        raise InputError(f"sources and targets differ in length ({len(us)} and {len(vs)})",
                         "<edge array>")
    return us, vs


def _is_pair(p) -> bool:
    return (isinstance(p, (tuple, list)) or isinstance(p, _np.ndarray) and p.ndim == 1) and (
        len(p) == 2)


def _list_pairs(items: list) -> tuple[_np.ndarray, _np.ndarray]:
    """(us, vs) of a list of (u, v) pairs (tuples, lists or 1-D arrays of two labels).
    Pairs of numbers go through np.asarray, at C speed (the common case: int labels, an
    int64 array); other labels are kept as given, in object arrays (as _label_array, so
    that 1 and "1" stay two vertices)."""
    try:
        arr = _np.asarray(items) if items else _np.empty((0, 2), dtype=_np.int64)
    except (ValueError, TypeError):  # ragged
        arr = None
    # Ints, and floats that are whole (1.0 is the vertex 1): at C speed. Booleans and other
    # floats stay the Python objects given, as networkx's nodes (2.5 is a vertex of its own).
    if arr is not None and arr.ndim == 2 and arr.shape[1] == 2 and (
            arr.dtype.kind in "iu" or arr.dtype.kind == "f" and _np.all(_np.mod(arr, 1) == 0)):
        return arr[:, 0], arr[:, 1]
    for i, p in enumerate(items):
        if not _is_pair(p):
            what = f"a {type(p).__name__} of {len(p)}" if hasattr(p, "__len__") else repr(p)
            raise InputError(f"a list of edges holds (u, v) pairs; item {i} is {what} (a "
                             "tuple (us, vs) gives sources and targets)", "<edge array>")
    return _object_array([p[0] for p in items]), _object_array([p[1] for p in items])


def as_graph(graph, format: str = "auto", vertices=None, *, source=None, target=None,
             header: bool | None = None, delimiter: str | None = None) -> Graph:
    """Converts any supported input to a :class:`Graph`:

    - a :class:`Graph` (returned as is);
    - a path (str, bytes or os.PathLike): read with :func:`read_graph`, ``format``, ``header``
      and ``delimiter`` (given for anything else, those two are a TypeError);
    - a networkx Graph/DiGraph/MultiDiGraph: its nodes in order (isolated ones too) and
      its edges; an undirected graph becomes its symmetric digraph;
    - a scipy.sparse matrix or array (n x n): vertex i is row/column i, nonzeros are edges;
    - edges, by one rule whatever holds the labels: a **list** is a list of (u, v) pairs
      (tuples, lists or arrays of two labels); a **tuple** is always (sources, targets),
      two 1-D sequences of the same length (lists, tuples, ranges, NumPy arrays, pandas
      Series or Index, mixed as wanted), so ``((1, 2), (3, 4))`` is the edges 1 -> 3 and
      2 -> 4, as ``([1, 2], [3, 4])`` is (a tuple of any other length is an InputError);
      a NumPy array has shape (m, 2), one pair a row. The vertices are the labels that
      occur, sorted, unless ``vertices`` lists them (in the order wanted; isolated
      vertices allowed); labels that cannot be sorted (1 with "1") in order of first
      occurrence, as ``networkx.DiGraph(edges)`` orders its nodes. Labels keep Python's
      equality, as networkx's: 1 and "1" are two vertices (in a list, a tuple or an
      object array), 1 and 1.0 one;
    - a pandas DataFrame of edges: the columns named by ``source`` and ``target``, else
      "source" and "target" (networkx's ``from_pandas_edgelist`` defaults), else the first
      two columns. Labels as for pairs (object, string and Arrow-backed string columns as
      labels; nullable and Arrow integers as integers); a missing value is an InputError.
    """
    is_path = isinstance(graph, (str, bytes, _os.PathLike))  # bytes: a name not UTF-8
    if (header is not None or delimiter is not None or format != "auto") and not is_path:
        raise TypeError("format=, header= and delimiter= say how to read a file; this is a "
                        f"{type(graph).__name__}")
    nx = _sys.modules.get("networkx")
    sparse = _sys.modules.get("scipy.sparse")
    if vertices is not None and (
            is_path or isinstance(graph, Graph) or nx is not None and isinstance(graph, nx.Graph)
            or sparse is not None and sparse.issparse(graph)):
        raise TypeError("vertices= lists the vertices of edges given as pairs; a "
                        f"{type(graph).__name__} names its own")
    if isinstance(graph, Graph):
        return graph
    if source is not None or target is not None:
        if not _is_pandas(graph, "DataFrame"):
            raise TypeError("source= and target= name the columns of a pandas DataFrame; "
                            f"this is a {type(graph).__name__}")
    pairs = _pandas_pairs(graph, source, target)
    if pairs is not None:
        us, vs, names = pairs
        if len(us) != len(vs):
            raise InputError(f"sources and targets differ in length ({len(us)} and {len(vs)})",
                             "<edge array>")
        g = _from_pairs(us, vs, vertices)
        g._columns = names
        return g
    if is_path:
        return read_graph(graph, format, header=header, delimiter=delimiter)
    if nx is not None and isinstance(graph, nx.Graph):
        return _cached_from_networkx(graph)
    if sparse is not None and sparse.issparse(graph):
        return _from_scipy(graph)
    if isinstance(graph, tuple):
        return _from_pairs(*_tuple_columns(graph), vertices)
    if isinstance(graph, list):
        return _from_pairs(*_list_pairs(graph), vertices)
    if isinstance(graph, _np.ndarray):
        arr = _np.asarray(graph)  # an np.matrix as the 2-D array it is
        if arr.ndim == 1 and arr.size == 0:
            arr = _np.empty((0, 2), dtype=_np.int64)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise InputError(f"an edge array must have shape (m, 2); this one has shape "
                             f"{arr.shape}", "<edge array>")
        return _from_pairs(arr[:, 0], arr[:, 1], vertices)
    raise TypeError(f"cannot read a graph from {type(graph).__name__}: expected a networkx "
                    "graph, a scipy.sparse matrix, a pandas DataFrame, a NumPy array of (u, v) "
                    "pairs or a path (str, bytes or os.PathLike)")


class Closure:
    """The transitive closure of a graph, held compactly (per strongly connected
    component) by the library; queries take labels, as the input named its vertices.

    Semantics: strict unless ``reflexive`` -- (u, v) iff a path of >= 1 edges leads from u
    to v, so (v, v) iff v is on a cycle (a self-loop counts); reflexive adds every (v, v).
    """

    def __init__(self, core: _closure.Closure, labels: _Labels, reflexive: bool, source=None,
                 columns=None):
        self._core = core
        self._labels = labels
        self.reflexive = bool(reflexive)
        self._source = source  # the networkx graph it was computed from, for to_networkx
        self._columns = columns  # the input table's column names, for to_pandas

    @property
    def vertices(self) -> _np.ndarray:
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

    def index_of(self, labels) -> _np.ndarray:
        """Vertex indices (rows of :meth:`to_scipy`) of an array of labels."""
        return self._labels.indices(labels).astype(_np.int64)

    def reaches(self, u, v) -> bool:
        """Whether (u, v) is in the closure. KeyError for a label not in the graph."""
        return self._core.reaches(self._labels.index(u), self._labels.index(v), self.reflexive)

    def __contains__(self, pair) -> bool:
        """``(u, v) in c``: :meth:`reaches`, but False for a label not in the graph (as
        ``(u, v) in G.edges`` for a networkx graph), where :meth:`reaches` raises."""
        u, v = pair
        try:
            return self.reaches(u, v)
        except _UnknownLabel:
            return False

    def __len__(self) -> int:
        """``len(c)``: the pairs in the closure, :attr:`pair_count` (a closure is a set of
        pairs; so an empty closure is false)."""
        return self.pair_count

    def reaches_many(self, us, vs) -> _np.ndarray:
        """Vectorised :meth:`reaches`: a bool array, one answer per (us[i], vs[i])."""
        a, b = self._labels.indices(us), self._labels.indices(vs)
        if len(a) != len(b):
            raise ValueError(f"us and vs differ in length ({len(a)} and {len(b)})")
        return self._core.reaches_many(a, b, self.reflexive)

    def successors(self, u) -> _np.ndarray:
        """The closure's row of u: every v with (u, v) in it, in vertex order (u itself
        iff u is on a cycle, or reflexive)."""
        row = self._core.successors(self._labels.index(u), self.reflexive)
        return self._labels.labels(row)

    def descendants(self, u) -> _np.ndarray:
        """The vertices reachable from u by a path of one or more edges, u excluded,
        in vertex order: as a set, what ``networkx.descendants(G, u)`` returns."""
        i = self._labels.index(u)
        row = self._core.successors(i, False)
        return self._labels.labels(row[row != i])

    def to_scipy(self):
        """The closure as a boolean scipy.sparse.csr_array, n x n over :attr:`vertices`
        (row i = the vertices that vertices[i] reaches); built in C++ as CSR arrays."""
        import scipy.sparse

        self._core.check_room(self.reflexive, 9, "Closure.to_scipy()")
        indptr, indices = self._core.csr(self.reflexive)
        n = self.vertex_count
        return scipy.sparse.csr_array((_np.ones(len(indices), dtype=bool), indices, indptr),
                                      shape=(n, n))

    def pairs(self, labels: bool = True) -> tuple[_np.ndarray, _np.ndarray]:
        """Every pair as two arrays (us, vs), sorted by (u index, v index): labels, or
        vertex indices with ``labels=False``.

        Their arrays take about 36 bytes a pair (20 with ``labels=False``): a closure whose
        pairs would not fit raises OutOfMemoryError with the sizes before allocating."""
        self._core.check_room(self.reflexive, 36 if labels else 20, "Closure.pairs()")
        indptr, indices = self._core.csr(self.reflexive)
        us = _np.repeat(_np.arange(self.vertex_count, dtype=_np.int64), _np.diff(indptr))
        if not labels:
            return us, indices.astype(_np.int64)
        return self._labels.labels(us), self._labels.labels(indices)

    def to_networkx(self):
        """The closure as a networkx graph: what ``networkx.transitive_closure(G,
        reflexive=self.reflexive)`` returns.

        For a networkx input G: a copy of G (``G.copy()``: its class, graph, node and edge
        attributes, as G is at the time of this call) with the closure's pairs added as
        attribute-less edges where G has none: on a multigraph no parallel edge is added;
        on an undirected G, as networkx, every u-v within a connected component (u != v)
        and no self-loop but G's own (every v-v when reflexive); ValueError where G's nodes
        are no longer the closure's (G changed since). For any other input: a
        networkx.DiGraph over every vertex with exactly the pairs."""
        # networkx keeps each edge in two dicts: hundreds of bytes a pair.
        self._core.check_room(self.reflexive, 400, "Closure.to_networkx()")
        us, vs = self.pairs()
        g = self._source
        if g is None:
            return _networkx_digraph(self.vertices, us, vs)
        if len(g) != self.vertex_count or list(g) != self.vertices.tolist():
            raise ValueError("the networkx graph's nodes changed since this closure was "
                             "computed from it: compute the closure of the graph as it is now")
        tc = g.copy()
        if not g.is_directed() and not self.reflexive:
            keep = us != vs
            us, vs = us[keep], vs[keep]
        adj = tc._adj if isinstance(getattr(tc, "_adj", None), dict) else tc.adj
        tc.add_edges_from((u, v) for u, v in zip(us.tolist(), vs.tolist()) if v not in adj[u])
        return tc

    def to_pandas(self, source: str | None = None, target: str | None = None):
        """The pairs as a pandas.DataFrame of two label columns, in :meth:`pairs` order:
        ``df.to_csv`` writes the closure as an edge list, and ``closure.as_graph(df)`` reads
        it back. The columns are named ``source`` and ``target`` when given, else as the
        input table's (a DataFrame's, as :func:`transitive_reduction` keeps them), else
        "source" and "target"."""
        self._core.check_room(self.reflexive, 52, "Closure.to_pandas()")
        return _pairs_frame(*self.pairs(), *_table_columns(self._columns, source, target))

    def __repr__(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return (f"<closure.Closure ({kind}): {self.vertex_count} vertices, "
                f"{self.pair_count} pairs, method {self.method}>")

    def _repr_html_(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return _facts_html(f"closure.Closure ({kind})", [
            ("vertices", self.vertex_count), ("pairs", self.pair_count),
            ("components", self.component_count), ("method", self.method)])


def transitive_closure(graph, method: str = "auto", device=None, reflexive: bool = False, *,
                       format: str = "auto", vertices=None, threads: int | None = None,
                       source=None, target=None, progress=None, header: bool | None = None,
                       delimiter: str | None = None) -> Closure:
    """The transitive closure of ``graph`` (anything :func:`as_graph` takes).

    method: the CLI's methods (the library's registry), all giving the same pairs:
    "sparse" (the strongly connected components' condensation, then propagation over it
    on host threads), "propagate" (the same propagation on the OpenCL device; sparse on
    the host without one), "recursive" and "condense" (dense closures of the
    condensation's matrix), "square" (repeated squaring of the whole matrix), or "auto"
    (the default), which chooses between sparse and propagate as the CLI does: sparse on
    the host below 50,000 vertices + edges; from there it condenses the graph, samples
    its closure and predicts the host's time, and where that is 0.3 s or more and a GPU
    could beat it, looks up the GPU and predicts its time too: propagate on the device
    when it is the faster (on the host after all if the device that opens is not a GPU,
    or none does). ``report["reason"]`` gives the choice with its figures.
    device: None ($CLOSURE_DEVICE, else the first GPU, else the first CPU OpenCL device;
    opened only when the method runs on one: propagate, recursive, condense and square,
    and auto when it chooses propagate), "host" (no device, for every method), "gpu",
    "cpu", an index from :func:`devices`, or part of a device's name (opened up front).
    reflexive: add every (v, v) (as networkx's reflexive=True).
    threads: host threads the computation may use (None: the hardware's, as the CLI's
    --threads).

    The computation runs without the GIL; Ctrl-C stops it within a second
    (KeyboardInterrupt). Raises InputError for bad input, ValueError for a bad method or
    device name, OutOfMemoryError when a dense method would not fit, DeviceError for
    OpenCL failures. source, target: the columns of a pandas DataFrame; header,
    delimiter: how to read a file (as_graph).

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
    g = as_graph(graph, format, vertices, source=source, target=target, header=header,
                 delimiter=delimiter)
    spec = "" if device is None else str(device)
    line = _ProgressLine() if progress is True else None
    if progress is not None and progress is not True and not callable(progress):
        raise TypeError(f"progress must be None, True or a callable, not {progress!r}")
    try:
        core = _closure.transitive_closure(g._core, method, spec, _threads(threads),
                                           line if line is not None else progress)
    finally:
        if line is not None:
            line.clear()
    nx = _sys.modules.get("networkx")
    source_graph = graph if nx is not None and isinstance(graph, nx.Graph) else None
    return Closure(core, g._labels, reflexive, source_graph, g._columns)


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
        _sys.stderr.write("\r" + text.ljust(self._width))
        _sys.stderr.flush()
        self._width = max(self._width, len(text))

    def clear(self):
        if self._width:
            _sys.stderr.write("\r" + " " * self._width + "\r")
            _sys.stderr.flush()


def _threads(threads) -> int:
    if threads is None:
        return 0
    if (isinstance(threads, (bool, _np.bool_)) or not isinstance(threads, (int, _np.integer))
            or not 1 <= threads <= 4096):
        raise ValueError(f"threads must be an integer from 1 to 4096, not {threads!r}")
    return int(threads)


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
