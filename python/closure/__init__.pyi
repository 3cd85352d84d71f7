"""Type stubs of the closure package (docstrings live in __init__.py)."""

import os
from typing import Any, Callable, Hashable, Iterable, Optional, Sequence, TypedDict, Union

import numpy as np
import numpy.typing as npt

from ._errors import DeviceError as DeviceError
from ._errors import Error as Error
from ._errors import InputError as InputError
from ._errors import InternalError as InternalError
from ._errors import OutOfMemoryError as OutOfMemoryError
from ._errors import ResourceError as ResourceError
from ._errors import UsageError as UsageError

__version__: str

# networkx graphs, scipy.sparse matrices/arrays, pandas DataFrames, (m, 2) arrays, lists of
# (u, v) pairs, (us, vs) tuples of two 1-D sequences (lists, tuples, arrays, pandas Series),
# paths, or a Graph.
GraphLike = Union["Graph", str, os.PathLike[str], npt.ArrayLike, Any]
DeviceSpec = Union[None, int, str]
Vertices = Optional[Union[Sequence[Hashable], np.ndarray]]
Column = Optional[Hashable]  # a pandas DataFrame's column name

class Graph:
    format: Optional[str]
    @property
    def vertex_count(self) -> int: ...
    @property
    def edge_count(self) -> int: ...
    @property
    def vertices(self) -> np.ndarray: ...
    def edges(self) -> tuple[np.ndarray, np.ndarray]: ...
    def to_scipy(self) -> Any: ...  # scipy.sparse.csr_array of bool
    def to_networkx(self) -> Any: ...  # networkx.DiGraph
    def to_pandas(self, source: str = "source",
                  target: str = "target") -> Any: ...  # pandas.DataFrame

class Closure:
    reflexive: bool
    @property
    def vertices(self) -> np.ndarray: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def pair_count(self) -> int: ...
    @property
    def component_count(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def report(self) -> dict[str, Any]: ...
    def index_of(self, labels: npt.ArrayLike) -> npt.NDArray[np.int64]: ...
    def reaches(self, u: Hashable, v: Hashable) -> bool: ...
    def __contains__(self, pair: tuple[Hashable, Hashable]) -> bool: ...
    def __len__(self) -> int: ...  # the pair count
    def reaches_many(self, us: npt.ArrayLike, vs: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...
    def successors(self, u: Hashable) -> np.ndarray: ...
    def descendants(self, u: Hashable) -> np.ndarray: ...
    def to_scipy(self) -> Any: ...  # scipy.sparse.csr_array of bool
    def pairs(self, labels: bool = True) -> tuple[np.ndarray, np.ndarray]: ...
    # The input's networkx class with its attributes (networkx input), else a DiGraph.
    def to_networkx(self) -> Any: ...
    def to_pandas(self, source: str = "source",
                  target: str = "target") -> Any: ...  # pandas.DataFrame

# What Index.add_edges returns (a plain dict at run time).
class AppendReport(TypedDict):
    edges_given: int
    new_vertices: int
    layer_edges: int
    already_implied: int
    rebuilt: bool
    why_rebuilt: str  # "an edge from an old vertex", "the layer grew" or ""

# Index.add_edges: (u, v) pairs (labels: str, int, or labels the index holds), a
# (sources, targets) tuple, an (m, 2) array or a pandas DataFrame.
EdgesLike = Union[Iterable[tuple[Hashable, Hashable]], tuple[Any, Any], np.ndarray, Any]

class Index:
    reflexive: bool
    @property
    def vertices(self) -> np.ndarray: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def component_count(self) -> int: ...
    def reaches(self, u: Hashable, v: Hashable) -> bool: ...
    def __contains__(self, pair: tuple[Hashable, Hashable]) -> bool: ...
    def reaches_many(self, us: npt.ArrayLike, vs: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...
    def add_edges(self, edges: EdgesLike) -> AppendReport: ...
    def save(self, path: Union[str, os.PathLike[str]]) -> int: ...

def read_graph(path: Union[str, os.PathLike[str]], format: str = "auto", *,
               header: Optional[bool] = None, delimiter: Optional[str] = None) -> Graph: ...
def as_graph(graph: GraphLike, format: str = "auto", vertices: Vertices = None, *,
             source: Column = None, target: Column = None,
             header: Optional[bool] = None, delimiter: Optional[str] = None) -> Graph: ...
def transitive_closure(graph: GraphLike, method: str = "auto", device: DeviceSpec = None,
                       reflexive: bool = False, *, format: str = "auto",
                       vertices: Vertices = None, threads: Optional[int] = None,
                       source: Column = None, target: Column = None,
                       progress: Union[None, bool, Callable[[str, Optional[float]], Any]] = None,
                       header: Optional[bool] = None, delimiter: Optional[str] = None) -> Closure: ...
def devices() -> list[dict[str, Any]]: ...
def descendants(graph: GraphLike, u: Hashable, *, format: str = "auto",
                vertices: Vertices = None, source: Column = None,
                target: Column = None, header: Optional[bool] = None, delimiter: Optional[str] = None) -> np.ndarray: ...
def ancestors(graph: GraphLike, u: Hashable, *, format: str = "auto",
              vertices: Vertices = None, source: Column = None,
              target: Column = None, header: Optional[bool] = None, delimiter: Optional[str] = None) -> np.ndarray: ...
# (n_components, labels): labels an int64 array over the vertices.
def components(graph: GraphLike, *, format: str = "auto", vertices: Vertices = None,
               source: Column = None, target: Column = None, header: Optional[bool] = None, delimiter: Optional[str] = None
               ) -> tuple[int, npt.NDArray[np.int64]]: ...
# A networkx.DiGraph (members, mapping) for a networkx input, else (mapping, Graph).
def condensation(graph: GraphLike, *, format: str = "auto", vertices: Vertices = None,
                 source: Column = None, target: Column = None, header: Optional[bool] = None, delimiter: Optional[str] = None
                 ) -> Union[Any, tuple[npt.NDArray[np.int64], Graph]]: ...
# A networkx.DiGraph for a networkx input, a pandas.DataFrame for a DataFrame (or two
# Series), else (sources, targets) label arrays.
def transitive_reduction(graph: GraphLike, *, format: str = "auto", vertices: Vertices = None,
                         source: Column = None, target: Column = None,
                         header: Optional[bool] = None, delimiter: Optional[str] = None) -> Union[Any, tuple[np.ndarray, np.ndarray]]: ...
def build_index(graph: GraphLike, reflexive: bool = False, *, supportive: int = 32,
                format: str = "auto", vertices: Vertices = None, source: Column = None,
                target: Column = None, header: Optional[bool] = None, delimiter: Optional[str] = None) -> Index: ...
def load_index(path: Union[str, os.PathLike[str]], reflexive: bool = False) -> Index: ...
