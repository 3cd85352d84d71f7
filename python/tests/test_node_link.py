"""`closure G -o c.json --output-format node-link` is networkx's node-link JSON: what
nx.node_link_graph reads back is the closure networkx computes, every vertex included, with
integer labels as integers and any other labels as strings."""

import json
import os
import pathlib
import subprocess

import networkx as nx
import pytest

import closure
from conftest import DATA_DIR

BUILD_DIR = pathlib.Path(os.environ.get("CLOSURE_BUILD_DIR",
                                        pathlib.Path(__file__).resolve().parents[2] / "build"))
CLI = BUILD_DIR / "closure"


def _node_link(path, out, *extra):
    subprocess.run([str(CLI), "-q", str(path), "-o", str(out), "--output-format", "node-link",
                    *extra], check=True)
    with open(out) as f:
        return _read_node_link(json.load(f))


def _read_node_link(data):
    """The call docs/formats.md gives: networkx 3.4 renamed the edges' key argument (link= ->
    edges=) and 3.6 made "edges" its default, where "links" had been (and what closure writes)."""
    major, minor = (int(x) for x in nx.__version__.split(".")[:2])
    if (major, minor) >= (3, 4):
        return nx.node_link_graph(data, edges="links")
    return nx.node_link_graph(data)


@pytest.mark.parametrize("name", sorted(p.name for p in DATA_DIR.iterdir()
                                        if ".closure." not in p.name))
def test_node_link_reads_back_as_networkx_closure(tmp_path, name):
    g = closure.read_graph(str(DATA_DIR / name)).to_networkx()
    back = _node_link(DATA_DIR / name, tmp_path / "c.json")
    assert list(back.nodes()) == list(g.nodes())
    assert back.is_directed() and not back.is_multigraph()
    assert set(back.edges()) == set(nx.transitive_closure(g, reflexive=False).edges())


def test_reflexive_and_string_labels(tmp_path):
    src = tmp_path / "g.txt"
    src.write_text("a 1\n1 \\#b\n")  # labels a, 1, #b: all strings (never 1 and "1")
    back = _node_link(src, tmp_path / "c.json", "--reflexive")
    assert list(back.nodes()) == ["a", "1", "#b"]
    g = nx.DiGraph([("a", "1"), ("1", "#b")])
    assert set(back.edges()) == set(nx.transitive_closure(g, reflexive=True).edges())


def test_node_link_is_refused_under_another_formats_name(tmp_path):
    r = subprocess.run([str(CLI), str(DATA_DIR / "cycle.txt"), "-o", str(tmp_path / "c.mtx"),
                        "--output-format", "node-link"], capture_output=True, text=True)
    assert r.returncode == 2 and "conflicts with the extension" in r.stderr
