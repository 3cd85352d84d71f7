"""pandas DataFrames and Series as inputs (through as_graph, so every entry point), and
results as DataFrames (Closure.to_pandas, Graph.to_pandas, transitive_reduction of a
DataFrame), checked against networkx's from_pandas_edgelist and through CSV files
written by DataFrame.to_csv and read back by pandas.read_csv."""

import random

import networkx as nx
import numpy as np
import pytest

import closure
from conftest import closure_pairs, networkx_pairs

pd = pytest.importorskip("pandas")


def random_frame(seed, labels="int"):
    rng = random.Random(seed)
    n = rng.choice([1, 5, 20, 60])
    m = rng.randint(0, 3 * n)
    us = [rng.randrange(n) for _ in range(m)]
    vs = [rng.randrange(n) for _ in range(m)]
    if labels == "str":
        us, vs = [f"v{u}" for u in us], [f"v{v}" for v in vs]
    return pd.DataFrame({"source": us, "target": vs, "weight": [rng.random() for _ in us]})


def frame_pairs(df, source="source", target="target"):
    return set(zip(df[source].tolist(), df[target].tolist()))


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("labels", ["int", "str"])
def test_dataframe_closure_matches_networkx(seed, labels, tmp_path):
    df = random_frame(seed, labels)
    g = nx.from_pandas_edgelist(df, create_using=nx.DiGraph)
    want = networkx_pairs(g, reflexive=False)
    assert closure_pairs(closure.transitive_closure(df)) == want
    # Written by pandas, read back by pandas: the same graph.
    path = tmp_path / "edges.csv"
    df.to_csv(path, index=False)
    back = pd.read_csv(path)
    c = closure.transitive_closure(back)
    assert closure_pairs(c) == want
    # The closure as a DataFrame, through a CSV file too.
    out = c.to_pandas()
    assert list(out.columns) == ["source", "target"] and len(out) == c.pair_count
    assert frame_pairs(out) == want
    out.to_csv(tmp_path / "closure.csv", index=False)
    assert frame_pairs(pd.read_csv(tmp_path / "closure.csv")) == want
    # A pair of Series, and every other entry point.
    assert closure_pairs(closure.transitive_closure((df.source, df.target))) == want
    for u in list(g)[:5]:
        assert set(closure.descendants(df, u).tolist()) == nx.descendants(g, u)
        assert set(closure.ancestors(back, u).tolist()) == nx.ancestors(g, u)
        assert closure.build_index(df).reaches(u, u) == ((u, u) in want)


def test_column_choice():
    df = pd.DataFrame({"a": [1, 2], "b": [2, 3], "source": [9, 9], "target": [8, 8]})
    assert closure_pairs(closure.transitive_closure(df)) == {(9, 8)}  # named columns first
    assert closure_pairs(closure.transitive_closure(df, source="b", target="a")) == {
        (2, 1), (3, 2), (3, 1)}
    first_two = pd.DataFrame({"from": ["x", "y"], "to": ["y", "z"], "w": [1, 2]})
    assert closure_pairs(closure.transitive_closure(first_two)) == {
        ("x", "y"), ("y", "z"), ("x", "z")}
    g = closure.as_graph(first_two, source="to", target="from")
    assert set(zip(*(a.tolist() for a in g.edges()))) == {("y", "x"), ("z", "y")}
    with pytest.raises(KeyError):
        closure.as_graph(first_two, source="nope", target="to")
    with pytest.raises(TypeError):
        closure.as_graph(first_two, source="from")
    with pytest.raises(TypeError):
        closure.as_graph(np.array([[0, 1]]), source="a", target="b")
    with pytest.raises(closure.InputError):
        closure.as_graph(pd.DataFrame({"only": [1, 2]}))


def test_series_pair_as_networkx_sees_it():
    df = pd.DataFrame({"u": ["a", "b", "c"], "v": ["b", "c", "b"]})
    g = nx.from_pandas_edgelist(df, "u", "v", create_using=nx.DiGraph)
    assert closure_pairs(closure.transitive_closure((df.u, df.v))) == networkx_pairs(g, False)
    assert closure_pairs(closure.transitive_closure((df.u, df["v"].to_numpy()))) == (
        networkx_pairs(g, False))
    # Reduction of a DataFrame: a DataFrame with the input's column names.
    red = closure.transitive_reduction(df, source="u", target="v")
    assert list(red.columns) == ["u", "v"]
    assert frame_pairs(red, "u", "v") == {("a", "b"), ("b", "c"), ("c", "b")}
    red = closure.transitive_reduction((df.u, df.v))
    assert list(red.columns) == ["u", "v"]


def test_extension_dtypes():
    ints = pd.DataFrame({"s": pd.array([1, 2, 3], dtype="Int64"),
                         "t": pd.array([2, 3, 1], dtype="Int64")})
    g = closure.as_graph(ints)
    assert g.vertices.dtype == np.int64 and g.vertices.tolist() == [1, 2, 3]
    strings = pd.DataFrame({"s": pd.array(["p", "q"], dtype="string"),
                            "t": pd.array(["q", "r"], dtype="string")})
    assert closure.as_graph(strings).vertices.tolist() == ["p", "q", "r"]
    cat = pd.DataFrame({"s": pd.Categorical(["p", "q"]), "t": pd.Categorical(["q", "r"])})
    assert closure_pairs(closure.transitive_closure(cat)) == {("p", "q"), ("q", "r"),
                                                              ("p", "r")}
    for missing in (pd.array([1, None], dtype="Int64"), [1.0, np.nan], ["a", None]):
        df = pd.DataFrame({"s": missing, "t": missing})
        with pytest.raises(closure.InputError, match="missing"):
            closure.as_graph(df)
    floats = pd.DataFrame({"s": [1.0, 2.0], "t": [2.0, 3.0]})  # read_csv of ints with NaN gone
    assert closure.as_graph(floats).vertices.tolist() == [1, 2, 3]


def test_arrow_backed_columns():
    pytest.importorskip("pyarrow")
    df = pd.DataFrame({"source": pd.array(["a", "b"], dtype="string[pyarrow]"),
                       "target": pd.array(["b", "c"], dtype="string[pyarrow]")})
    assert closure_pairs(closure.transitive_closure(df)) == {("a", "b"), ("b", "c"),
                                                             ("a", "c")}
    ints = pd.DataFrame({"source": pd.array([0, 1], dtype="int64[pyarrow]"),
                         "target": pd.array([1, 2], dtype="int64[pyarrow]")})
    assert closure.as_graph(ints).vertices.tolist() == [0, 1, 2]


def test_graph_to_pandas():
    g = closure.as_graph(nx.DiGraph([("a", "b"), ("b", "c")]))
    df = g.to_pandas()
    assert frame_pairs(df) == {("a", "b"), ("b", "c")}
    assert list(g.to_pandas("u", "v").columns) == ["u", "v"]
    assert closure.as_graph(df).edge_count == 2


def test_mixed_object_columns_keep_1_and_str_1_apart():
    df = pd.DataFrame({"source": [1, "1", 2], "target": ["1", 2, 1]}, dtype=object)
    g = nx.from_pandas_edgelist(df, create_using=nx.DiGraph)
    c = closure.transitive_closure(df)
    assert closure_pairs(c) == networkx_pairs(g, False)
    assert c.vertices.tolist() == list(g)
    assert closure_pairs(closure.transitive_closure((df.source, df.target))) == (
        networkx_pairs(g, False))


def test_one_rule_names_the_columns_of_every_table_out():
    """A table out takes the names asked for, else the input table's, else source and
    target: Closure.to_pandas, Graph.to_pandas and transitive_reduction alike."""
    df = pd.DataFrame({"caller": ["main", "parse"], "callee": ["parse", "lex"], "n": [3, 1]})
    c = closure.transitive_closure(df)
    assert list(c.to_pandas().columns) == ["caller", "callee"]
    assert list(closure.transitive_reduction(df).columns) == ["caller", "callee"]
    assert list(closure.as_graph(df).to_pandas().columns) == ["caller", "callee"]
    assert list(c.to_pandas("u", "v").columns) == ["u", "v"]
    series = closure.transitive_closure((df.caller.rename("a"), df.callee.rename("b")))
    assert list(series.to_pandas().columns) == ["a", "b"]
    # Not from a table: source and target.
    assert list(closure.transitive_closure([(1, 2)]).to_pandas().columns) == ["source", "target"]
    assert set(map(tuple, c.to_pandas().to_numpy().tolist())) == {
        ("main", "parse"), ("main", "lex"), ("parse", "lex")}


def test_exports_that_do_not_fit_name_their_sizes():
    """Under a 600 MB address-space limit, exporting the 2e9 pairs of a 63,246-vertex chain
    (tens of GB as arrays) is refused before allocating, with the sizes and Python's way on."""
    import subprocess
    import sys

    script = """
import resource
import numpy as np
import closure
n = 63246
c = closure.transitive_closure((np.arange(n - 1), np.arange(1, n)))
resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))
for call in (c.pairs, c.to_scipy, c.to_pandas, c.to_networkx):
    try:
        call()
        print("no error")
    except closure.OutOfMemoryError as e:
        print("refused", e)
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 4, r.stdout
    for line, what in zip(lines, ("pairs()", "to_scipy()", "to_pandas()", "to_networkx()")):
        assert line.startswith(f"refused Closure.{what} of 1999996635 pairs needs about "), line
        assert "is available" in line and "closure.descendants" in line and "--" not in line


def test_one_name_for_both_columns_is_refused():
    # A DataFrame of two equal keys keeps one column (the targets): said, not lost.
    c = closure.transitive_closure([(0, 1)])
    with pytest.raises(ValueError, match="two names, not 'u' twice"):
        c.to_pandas("u", "u")
    with pytest.raises(ValueError, match="two names"):
        closure.as_graph([(0, 1)]).to_pandas("u", "u")

