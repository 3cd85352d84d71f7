"""Shared helpers of the Python tests: where the data lives, and the networkx reference."""

import os
import pathlib
import signal
import subprocess
import sys
import time

import networkx as nx
import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("CLOSURE_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
DATA_DIR = SOURCE_DIR / "data"
GRAIL_DIR = SOURCE_DIR / "tests" / "data" / "grail"


def closure_pairs(c):
    """The closure's pairs as a set of (label, label)."""
    us, vs = c.pairs()
    return set(zip(us.tolist(), vs.tolist()))


def networkx_pairs(g, reflexive):
    """networkx's closure as a set of pairs. networkx.transitive_closure(G, reflexive=False)
    is our strict closure: (v, v) iff v lies on a cycle, a self-loop included (it copies G's
    edges, self-loops too, and adds (v, w) for every edge (u, w) that a BFS from v meets,
    which reaches v again exactly when v is on a cycle); reflexive=True adds every (v, v).
    networkx's reflexive=None (descendants only, no (v, v) for cycles, though G's own
    self-loops stay since G's edges are copied) has no counterpart here."""
    return set(nx.transitive_closure(g, reflexive=reflexive).edges())


def interrupt_script(script, timeout):
    """Runs `script` in a fresh Python, sends SIGINT 1.5 s after it prints "ready" (it must
    then still be running), and returns (exit status, its output, the time SIGINT was sent).
    The scripts print "interrupted <monotonic time>" and exit 42 on KeyboardInterrupt."""
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                         env=os.environ.copy())
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1.5)
        assert p.poll() is None, "the call finished before it could be interrupted"
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=timeout)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, out, sent


@pytest.fixture
def data_dir():
    return DATA_DIR
