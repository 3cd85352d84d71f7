"""Files written by networkx's edge-list writers, with every delimiter, with and without
their attribute dicts, under every file name a user might give them: each reads as the
graph networkx wrote (compared through nx.transitive_closure), or is refused with an
InputError -- never read as another graph. The CLI reads through the same readers."""

import itertools

import networkx as nx
import pytest

import closure
from conftest import closure_pairs, networkx_pairs

DELIMITERS = [" ", ",", "\t", ";", "|", ":"]
NAMES = ["g.txt", "g.edgelist", "g.csv", "g.tsv", "g"]


def _weighted_dag(seed):
    g = nx.gnp_random_graph(39, 0.12, seed=seed, directed=True)
    g = nx.DiGraph((u, v) for u, v in g.edges() if u < v)  # a DAG, as in the issue
    for i, (u, v) in enumerate(g.edges()):
        g[u][v]["weight"] = round(0.1 + (i % 9) / 10, 3)
    return g


@pytest.mark.parametrize("delimiter,data,name",
                         list(itertools.product(DELIMITERS, [True, False], NAMES)))
def test_networkx_edgelist_reads_right_or_is_refused(tmp_path, delimiter, data, name):
    g = _weighted_dag(7)
    path = tmp_path / name
    nx.write_edgelist(g, path, delimiter=delimiter, data=data)
    expected = networkx_pairs(g, reflexive=False)
    try:
        c = closure.transitive_closure(str(path))
    except closure.InputError:
        return  # refused: fine, as long as it is never misread
    got = {(int(u), int(v)) for u, v in closure_pairs(c)}  # a misread label fails int()
    assert got == expected, f"{name} with delimiter {delimiter!r}, data={data}: misread"


def test_the_issues_comma_file_reads_as_networkx_wrote_it(tmp_path):
    # The case of the report: delimiter="," with weights, named g.txt (before: 207 vertices).
    g = _weighted_dag(1)
    path = tmp_path / "g.txt"
    nx.write_edgelist(g, path, delimiter=",")
    c = closure.transitive_closure(str(path))
    assert c.vertex_count == len({x for e in g.edges() for x in e})
    assert {(int(u), int(v)) for u, v in closure_pairs(c)} == networkx_pairs(g, False)


def test_a_delimiter_that_is_not_split_on_names_itself(tmp_path):
    path = tmp_path / "g.txt"
    nx.write_edgelist(_weighted_dag(2), path, delimiter=";")
    with pytest.raises(closure.InputError, match="delimiter ';'"):
        closure.read_graph(str(path))
