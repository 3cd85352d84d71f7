"""Shared helpers of the Python tests: where the data lives, and the networkx reference."""

import os
import pathlib
import signal
import subprocess
import sys
import textwrap
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


def interruptible(setup, call):
    """A script for interrupt_script: `setup` (indented code; not interrupted), "ready",
    then `call` run where a KeyboardInterrupt prints "interrupted <monotonic time>" and
    exits 42."""
    return textwrap.dedent(setup) + textwrap.dedent(f"""
        import sys, time
        print("ready", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            sys.exit(42)
        print("finished", flush=True)
    """)


def assert_interrupted_within(script, seconds, timeout):
    """Runs interrupt_script(script) and asserts a KeyboardInterrupt within `seconds` of
    SIGINT; prints the delay (the machine is shared)."""
    returncode, out, sent = interrupt_script(script, timeout=timeout)
    assert returncode == 42, out
    words = out.split()
    assert words[0] == "interrupted", out
    delay = float(words[1]) - sent
    print(f"KeyboardInterrupt {delay:.3f} s after SIGINT")
    assert delay < seconds


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
