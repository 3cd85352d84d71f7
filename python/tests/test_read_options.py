"""Files that pandas writes with any separator, column titles and index, read with the header
and delimiter said (header=, delimiter=) as networkx reads the same edges; choices that a
format does not have, or that a non-file input cannot take, are refused."""

import itertools

import networkx as nx
import pytest

import closure
from conftest import DATA_DIR, closure_pairs, networkx_pairs

pd = pytest.importorskip("pandas")

SEPARATORS = [",", ";", "|", "\t", ":"]


def _edges(seed, n=30, m=70):
    g = nx.gnm_random_graph(n, m, seed=seed, directed=True)  # cycles and all
    return [(f"pkg{u}", f"pkg{v}") for u, v in g.edges()]


@pytest.mark.parametrize("sep,index,titles",
                         list(itertools.product(SEPARATORS, [False, True],
                                                [("from_pkg", "to_pkg"), ("caller", "callee"),
                                                 ("source", "target")])))
def test_pandas_files_read_with_the_header_and_delimiter_said(tmp_path, sep, index, titles):
    edges = _edges(len(sep) + index)
    df = pd.DataFrame(edges, columns=list(titles))
    path = tmp_path / "deps.txt"
    df.to_csv(path, sep=sep, index=index)
    expected = networkx_pairs(nx.DiGraph(edges), reflexive=False)
    c = closure.transitive_closure(str(path), delimiter=sep, header=True)
    assert closure_pairs(c) == expected
    # Without the header row, said so: the same edges.
    bare = tmp_path / "bare.txt"
    df.to_csv(bare, sep=sep, index=False, header=False)
    assert closure_pairs(closure.transitive_closure(str(bare), delimiter=sep,
                                                    header=False)) == expected


def test_a_header_the_guess_reads_as_an_edge_is_skipped_when_said(tmp_path):
    path = tmp_path / "calls.csv"
    path.write_text("caller,callee\nmain,parse\nparse,lex\n")
    guessed = closure_pairs(closure.transitive_closure(str(path)))
    assert ("caller", "callee") in guessed  # documented: unknown titles are an edge
    said = closure_pairs(closure.transitive_closure(str(path), header=True))
    assert said == {("main", "parse"), ("main", "lex"), ("parse", "lex")}


def test_an_edge_list_header_refusal_says_pythons_way_and_it_works(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text("from to\n1 2\n2 3\n")
    with pytest.raises(closure.InputError, match="header=True") as refused:
        closure.read_graph(str(path))
    assert "--" not in str(refused.value)
    assert closure_pairs(closure.transitive_closure(str(path), header=True)) == {
        (1, 2), (1, 3), (2, 3)}
    with_edge = closure_pairs(closure.transitive_closure(str(path), header=False))
    assert len(with_edge) == 4


def test_choices_that_do_not_apply_are_refused(tmp_path):
    with pytest.raises(closure.UsageError, match="not to the gra format"):
        closure.read_graph(str(DATA_DIR / "dag.gra"), header=True)
    with pytest.raises(closure.UsageError, match="delimiter"):
        closure.read_graph(str(DATA_DIR / "dag.gra"), delimiter=";")
    with pytest.raises(closure.UsageError, match="expected one printable character"):
        closure.read_graph(str(DATA_DIR / "diamond.txt"), delimiter="ab")
    with pytest.raises(TypeError, match="how to read a file"):
        closure.transitive_closure([(1, 2)], header=True)
    with pytest.raises(TypeError, match="how to read a file"):
        closure.descendants([(1, 2)], 1, delimiter=",")
