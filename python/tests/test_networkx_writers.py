"""Files written by networkx's edge-list writers, with every delimiter, with and without
their attribute dicts, under every file name a user might give them: each reads as the
graph networkx wrote (compared through nx.transitive_closure), or is refused with an
InputError -- never read as another graph. The CLI reads through the same readers."""

import itertools
import re

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
    except closure.InputError as e:
        # Refused: fine, as long as it is never misread, and a way on it names is right.
        advice = re.search(r"delimiter='(.)'", str(e))
        if advice is None:
            return
        assert "--" not in str(e), str(e)  # Python's terms, not the CLI's
        c = closure.transitive_closure(str(path), delimiter=advice.group(1))
    got = {(int(u), int(v)) for u, v in closure_pairs(c)}  # a misread label fails int()
    assert got == expected, f"{name} with delimiter {delimiter!r}, data={data}: misread"


@pytest.mark.parametrize("delimiter,data,name",
                         list(itertools.product([d for d in DELIMITERS if d != " "],
                                                [True, False], NAMES)))
def test_naming_the_delimiter_reads_every_networkx_file_right(tmp_path, delimiter, data, name):
    g = _weighted_dag(11)
    path = tmp_path / name
    nx.write_edgelist(g, path, delimiter=delimiter, data=data)
    for header in (None, False):
        c = closure.transitive_closure(str(path), delimiter=delimiter, header=header)
        assert {(int(u), int(v)) for u, v in closure_pairs(c)} == networkx_pairs(g, False)


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
    with pytest.raises(closure.InputError, match="delimiter ';'") as refused:
        closure.read_graph(str(path))
    assert "read it with delimiter=';'" in str(refused.value)
