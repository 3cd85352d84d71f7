"""Reachability without the closure: descendants, ancestors and the transitive reduction
of one graph, and the reachability index (:class:`Index`), over the library's
closure::reach (src/closure/reach/). Inputs are converted by :func:`closure.as_graph` and
labels handled as :class:`closure.Closure` handles them. See docs/python.md."""

from __future__ import annotations

import errno
import os
import sys
import threading

import numpy as np

from . import _closure
# The package's conversions: closure/__init__.py imports this module once they exist.
from . import (Graph, InputError, UsageError, _check_label_array, _facts_html, _is_pair,
               _Labels, _networkx_digraph, _object_array, _pairs_frame, _pandas_pairs, _path_text,
               _table_columns, _tuple_columns, _UnknownLabel, _warn_converted_per_call, as_graph)


def _search(reverse, graph, u, format, vertices, source, target, header,
            delimiter) -> np.ndarray:
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        _warn_converted_per_call(graph, "ancestors" if reverse else "descendants")
    g = as_graph(graph, format, vertices, source=source, target=target, header=header,
                 delimiter=delimiter)
    searcher = g._search()
    found = (searcher.ancestors if reverse else searcher.descendants)(g._labels.index(u))
    return g._labels.labels(found)


def descendants(graph, u, *, format: str = "auto", vertices=None, source=None,
                target=None, header=None, delimiter=None) -> np.ndarray:
    """The vertices reachable from ``u`` by a path of one or more edges, ``u`` excluded,
    as labels in vertex order: as a set, what ``networkx.descendants(G, u)`` returns.

    ``graph`` is anything :func:`as_graph` takes. A :class:`Graph` (``g =
    closure.as_graph(G)``, converted once) makes each call cost what its search visits:
    the graph keeps a visited array stamped per search (allocated on its first search,
    never cleared) and, for ancestors, its reverse graph; so does a networkx graph under
    networkx 3.3 or later (converted once while unchanged, kept in its
    ``__networkx_cache__``); any other input is converted on every call (O(n + m)), and a
    networkx graph of 10,000 vertices or more that cannot keep its conversion (networkx
    before 3.3, views) says so once a process in a RuntimeWarning. The C++ function includes ``u`` when ``u`` lies on a cycle;
    here, as in networkx, ``u`` is never among its own descendants. KeyError when ``u``
    is not in the graph. A breadth-first search; a large one runs without the GIL on a
    worker thread that Ctrl-C stops."""
    return _search(False, graph, u, format, vertices, source, target, header, delimiter)


def ancestors(graph, u, *, format: str = "auto", vertices=None, source=None,
              target=None, header=None, delimiter=None) -> np.ndarray:
    """The vertices from which a path of one or more edges leads to ``u``, ``u``
    excluded, as labels in vertex order: as a set, what ``networkx.ancestors(G, u)``
    returns. Otherwise as :func:`descendants` (a search over the reversed graph, which a
    :class:`Graph` builds on its first ancestors call and keeps)."""
    return _search(True, graph, u, format, vertices, source, target, header, delimiter)


def components(graph, *, format: str = "auto", vertices=None, source=None,
               target=None, header=None, delimiter=None) -> tuple[int, np.ndarray]:
    """The strongly connected components, as scipy's
    ``scipy.sparse.csgraph.connected_components(A, directed=True, connection="strong")``:
    ``(n_components, labels)``, labels[i] the component of the i-th vertex (in
    ``as_graph(graph).vertices`` order; for a networkx graph, ``list(G)`` order), an int64
    array. Component ids are numbered in topological order of the condensation: every
    edge between two components goes from a lower id to a higher one (scipy's numbering
    differs; the partition is the same). Tarjan's algorithm, O(n + m), without the GIL."""
    g = as_graph(graph, format, vertices, source=source, target=target, header=header,
                 delimiter=delimiter)
    count, labels = _closure.components(g._core)
    return int(count), labels.astype(np.int64)


def condensation(graph, *, format: str = "auto", vertices=None, source=None, target=None,
                 header=None, delimiter=None):
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
    g = as_graph(graph, format, vertices, source=source, target=target, header=header,
                 delimiter=delimiter)
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
                         target=None, header=None, delimiter=None):
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
    g = as_graph(graph, format, vertices, source=source, target=target, header=header,
                 delimiter=delimiter)
    sources, targets = _closure.transitive_reduction(g._core)
    us, vs = g._labels.labels(sources), g._labels.labels(targets)
    nx = sys.modules.get("networkx")
    if nx is not None and isinstance(graph, nx.Graph):
        return _networkx_digraph(g.vertices, us, vs)
    pairs = _pandas_pairs(graph, source, target)
    if pairs is not None:
        return _pairs_frame(us, vs, *_table_columns(pairs[2], None, None))
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
            self._vertices.flags.writeable = False  # as _Labels' arrays
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

    def extended(self, items: list) -> "_IndexLabels":
        """The labels once vertices labelled ``items`` are appended (as _Labels.extended):
        the names are the index's, so only the array of them is dropped."""
        return _IndexLabels(self._core)


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _canonical_int(name: str):
    """The int that ``name`` is the decimal form of (as the index files tell integer
    names: no sign on 0, no leading zeros, no '+', no spaces), else None."""
    if not name.isascii():
        return None
    try:
        x = int(name)
    except ValueError:
        return None
    return x if str(x) == name else None


def _edge_columns(edges) -> tuple[list, list]:
    """(sources, targets) of what :meth:`Index.add_edges` takes, as lists of labels: a
    list (or any other iterable) of (u, v) pairs, a (sources, targets) tuple, an (m, 2)
    NumPy array or a pandas DataFrame, by as_graph's rules and with its InputError for a
    shape it refuses. Labels in lists and tuples stay the objects given (np.asarray would
    turn True into 1 and 1.5 into a float array); whole floats in NumPy arrays (what
    np.loadtxt gives) are ints, as as_graph reads them."""
    if edges is None or isinstance(edges, (str, bytes, dict)):
        raise InputError(f"cannot read edges from {type(edges).__name__}: give a list of "
                         "(u, v) pairs", "<edge array>")
    pairs = _pandas_pairs(edges, None, None)
    if pairs is not None:
        us, vs = pairs[0], pairs[1]
        if len(us) != len(vs):
            raise InputError(f"sources and targets differ in length ({len(us)} and "
                             f"{len(vs)})", "<edge array>")
    elif isinstance(edges, tuple):
        columns = _tuple_columns(edges)  # the shape checked
        us, vs = (c if isinstance(c, (list, tuple, range)) else a
                  for c, a in zip(edges, columns))
    elif isinstance(edges, np.ndarray):
        arr = edges if len(edges) else np.empty((0, 2), dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise InputError(f"an edge array must have shape (m, 2); this one has shape "
                             f"{arr.shape}", "<edge array>")
        us, vs = arr[:, 0], arr[:, 1]
    else:
        try:
            items = edges if isinstance(edges, list) else list(edges)
        except TypeError:
            raise InputError(f"cannot read edges from {type(edges).__name__}: give a list of "
                             "(u, v) pairs", "<edge array>") from None
        for i, p in enumerate(items):
            if not _is_pair(p):
                what = f"a {type(p).__name__} of {len(p)}" if hasattr(p, "__len__") else repr(p)
                raise InputError(f"a list of edges holds (u, v) pairs; item {i} is {what} (a "
                                 "tuple (us, vs) gives sources and targets)", "<edge array>")
        us, vs = [p[0] for p in items], [p[1] for p in items]
    return _label_list(us), _label_list(vs)


def _label_list(column) -> list:
    """One side of the edges as a list of labels (Python objects)."""
    if not isinstance(column, np.ndarray):
        return list(column)
    if column.dtype.kind == "f":
        try:
            column = _check_label_array(column, "the labels")
        except TypeError:
            pass  # labels that are not whole numbers: refused one by one, with the label
    return column.reshape(-1).tolist()


class Index:
    """A reachability index: answers "does u reach v?" without the closure, in space
    linear in the graph (the library's ReachIndex: interval labels, Bloom filters and
    supportive components over the condensation, a pruned search when they cannot
    decide), with a layer of the vertices and edges added since (:meth:`add_edges`; the
    library's LivingIndex). Made by :func:`build_index` or :func:`load_index`; queries take
    labels.

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
        # add_edges() from several threads, one at a time: each matches the vertices the
        # core numbered during its own call to its labels (a rebuild runs without the GIL).
        self._append_lock = threading.Lock()

    def __copy__(self):
        # A shallow copy would share the core but not the labels: an append through one would
        # leave the other's labels behind its vertices (as pickling and deepcopy, refused).
        raise TypeError("a closure.Index cannot be copied; build or load another (or save "
                        "this one and load the file)")

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

    def add_edges(self, edges) -> dict:
        """Adds edges to the index, as ``closure index --append`` does: every answer then
        is that of an index built from the graph and every edge added since. Labels not
        in the index become new vertices (after the others, in order of appearance; as
        ``closure index --append``, the index's names are compared: an int and its
        decimal str denote the same vertex, so on an index of integer labels ``"7"`` is
        the vertex 7, and a new ``"7"`` is the int 7).

        ``edges``: a list (or any iterable) of (u, v) pairs, or as :func:`as_graph` reads
        edges: a (sources, targets) tuple of two 1-D sequences, an (m, 2) NumPy array, a
        pandas DataFrame. A label already in the index may be anything it holds; a new
        one must be a non-empty str or an int (it is stored as ``str(label)``).

        An edge from a new vertex costs O(1) (it goes into the index's layer); an edge
        from an old vertex that the index says already reaches its target, nothing; any
        other edge from an old vertex rebuilds the index, in time linear in its
        condensation plus the layer, as does a layer grown past a sixteenth of the index
        (at least 4096 vertices and edges). :meth:`save` writes base and layer.

        Returns ``{"edges_given", "new_vertices", "layer_edges", "already_implied",
        "rebuilt", "why_rebuilt"}``: the pairs given, the vertices added, the edges that
        went into the layer, those already implied, whether the index was rebuilt and why
        ("an edge from an old vertex", "the layer grew" or "").

        Raises UsageError for a new label that is not a non-empty str or an int (None,
        1.5, True, "") and when the index could not be saved (labels whose str() forms
        collide), InputError for ``edges`` that are not edges (None, a tuple of three
        sequences, an item that is not a pair), as :func:`as_graph`; the index is then
        unchanged, as it is when Ctrl-C stops a rebuild (KeyboardInterrupt; one that came
        as the rebuild ended raises it too, the edges then added). A rebuild runs without
        the GIL."""
        if self._unsaveable:
            raise UsageError("cannot add edges to this index: two of its labels have the same "
                             "str() form (such as 1 and '1'), which its names could not tell "
                             "apart")
        us, vs = _edge_columns(edges)
        # Every label an int, in an int64 array or (past int64: 2**64) an object one.
        integer = isinstance(self._labels, _Labels) and (
            self._labels.vertices.dtype.kind in "iu" or self._labels.vertices.dtype == object
            and all(map(_is_int, self._labels.vertices.tolist())))
        fresh = {}  # name -> the label of a vertex the index may not hold yet

        def name(x) -> str:
            if isinstance(x, str):
                x = str(x)  # np.str_ too
                if not x:
                    raise UsageError("an appended edge has an empty label")
                if x not in fresh:
                    n = _canonical_int(x) if integer else None
                    fresh[x] = x if n is None else n
                return x
            if isinstance(x, (bool, np.bool_)):
                raise UsageError(f"a label must be a str or an int, not {x!r} (a bool)")
            if _is_int(x):
                s = str(int(x))
                fresh.setdefault(s, int(x))
                return s
            try:  # a label of the graph the index was built from, such as a tuple
                return self._core.label(self._labels.index(x))
            except _UnknownLabel:
                raise UsageError(f"a label must be a non-empty str, an int or a label of the "
                                 f"index, not {x!r} ({type(x).__name__})") from None

        # Edge by edge, u then v: the order in which the index numbers new vertices.
        with self._append_lock:
            names_u, names_v = [], []
            for u, v in zip(us, vs):
                names_u.append(name(u))
                names_v.append(name(v))
            before = self._core.vertex_count
            try:
                report = self._core.add_edges(names_u, names_v)
            finally:
                # Also where Ctrl-C came as the rebuild ended (the KeyboardInterrupt is raised
                # after the index changed): the labels follow what the index holds.
                after = self._core.vertex_count
                if after > before:
                    added = [fresh[self._core.label(i)] for i in range(before, after)]
                    self._labels = self._labels.extended(added)
            return report

    def save(self, path: str | os.PathLike) -> int:
        """Writes the index file that ``closure index`` writes (``closure query FILE u v``
        reads it), atomically as the CLI does: a temporary renamed over ``path``, so an
        interrupted save leaves no half-written file. Labels are stored as ``str(label)``
        (:func:`load_index` gives integers back when all are integers). An index with
        edges added (:meth:`add_edges`) is written as ``closure index --append`` writes
        it: the base and the layer of added vertices and edges, in time proportional to
        the file (nothing is rebuilt). Returns the bytes written. OSError when the file
        system refuses; ValueError for a refused target (a hard-linked file) or labels
        whose str() forms collide (1 and "1")."""
        if self._unsaveable:
            raise ValueError(self._unsaveable)
        target = _path_text(path)
        if os.path.isdir(target):  # as open() refuses a folder
            raise IsADirectoryError(errno.EISDIR, "cannot write an index onto a folder",
                                    os.fsdecode(target))
        return self._core.save(target)

    def __repr__(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return (f"<closure.Index ({kind}): {self.vertex_count} vertices, "
                f"{self.component_count} components>")

    def _repr_html_(self) -> str:
        kind = "reflexive" if self.reflexive else "strict"
        return _facts_html(f"closure.Index ({kind})", [
            ("vertices", self.vertex_count), ("components", self.component_count)])


def build_index(graph, reflexive: bool = False, *, supportive: int = 32,
                format: str = "auto", vertices=None, source=None, target=None, header=None, delimiter=None) -> Index:
    """The reachability index of ``graph`` (anything :func:`as_graph` takes), as
    ``closure index`` builds it: linear time and space, no closure; the index's queries
    then take the graph's labels. ``supportive``: components (0..32) given exact
    reachability bits (the CLI's ``--supportive``). Runs without the GIL; Ctrl-C stops
    the strongly-connected-components pass (the labelling after it runs to its end)."""
    if (isinstance(supportive, (bool, np.bool_)) or not isinstance(supportive, (int, np.integer))
            or not 0 <= supportive <= 32):
        raise UsageError(f"supportive must be 0..32 (an int), not {supportive!r}")
    g = as_graph(graph, format, vertices, source=source, target=target, header=header,
                 delimiter=delimiter)
    names, unsaveable = None, None
    if not g._labels.identity and not g._core.labelled:
        # In-memory labels go into the index as str, so that a saved file names them.
        names = [str(x) for x in g.vertices.tolist()]
        if len(set(names)) != len(names):
            names = None
            unsaveable = ("cannot save this index: two labels have the same str() form "
                          "(such as 1 and '1'), which an index file could not tell apart")
    core = _closure.build_index(g._core, names, int(supportive))
    return Index(core, g._labels, reflexive, unsaveable)


def load_index(path: str | os.PathLike, reflexive: bool = False) -> Index:
    """Reads an index file (from :meth:`Index.save`, ``closure index`` or ``closure index
    --append``, with the layer of added vertices and edges the last writes) and checks it:
    header, sizes, checksum and every offset a query follows. Raises InputError with the
    CLI's message when the file is missing, damaged, truncated or not an index."""
    core = _closure.load_index(_path_text(path))
    ints = core.integer_labels()
    labels = _Labels(ints) if ints is not None else _IndexLabels(core)
    return Index(core, labels, reflexive)
