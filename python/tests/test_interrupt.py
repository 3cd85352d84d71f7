"""Ctrl-C stops a long closure within about a second: the call runs without the GIL on a
worker thread, the library polls a cancellation flag, and the caller gets a
KeyboardInterrupt. Also: other Python threads run while a closure is computed."""

import textwrap
import threading
import time

import networkx as nx
import numpy as np
import pytest

import closure
from conftest import assert_interrupted_within, interrupt_script, interruptible

# Repeated squaring of a 12,000-vertex path on the host: half a minute of products.
LONG_RUN = textwrap.dedent("""
    import sys, time, numpy as np, closure
    n = 12000
    edges = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    print("ready", flush=True)
    t0 = time.monotonic()
    try:
        closure.transitive_closure(edges, method="square", device="host")
    except KeyboardInterrupt:
        print("interrupted", time.monotonic(), flush=True)
        sys.exit(42)
    print("finished", time.monotonic() - t0, flush=True)
""")


def test_ctrl_c_interrupts_a_long_closure():
    returncode, out, sent = interrupt_script(LONG_RUN, timeout=30)
    assert returncode == 42, out
    words = out.split()
    assert words[0] == "interrupted"
    # Reported, not asserted tightly (the machine is shared): the stop took this long.
    delay = float(words[1]) - sent
    print(f"KeyboardInterrupt {delay:.3f} s after SIGINT")
    assert delay < 5.0


# The device's sweep (PoCL here; a GPU where there is one): a launch sweeps for seconds, so
# the wait on it polls the cancellation flag (it had run to the end: 23 s after SIGINT).
LONG_DEVICE_RUN = interruptible("""
    import numpy as np, closure
    closure.transitive_closure(np.array([[0, 1], [1, 2]]), method="propagate")  # compiled
    rng = np.random.default_rng(1)
    n, m = 120000, 600000
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    g = closure.as_graph(np.stack([np.minimum(a, b), np.maximum(a, b)], 1))
""", 'closure.transitive_closure(g, method="propagate")')


def test_ctrl_c_interrupts_a_device_sweep():
    assert_interrupted_within(LONG_DEVICE_RUN, 5.0, timeout=90)


def test_other_threads_run_during_a_closure():
    g = closure.as_graph(nx.gnp_random_graph(3000, 0.002, directed=True, seed=3))
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    before = len(ticks)
    c = closure.transitive_closure(g, method="square", device="host")
    after = len(ticks)
    stop.set()
    t.join()
    assert c.pair_count > 0
    assert after > before  # the ticker ran while the closure was computed


def progress_graph(n=150_000, m=600_000, seed=5):
    """A random DAG whose closure takes a few hundred milliseconds or more."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = a != b
    return closure.as_graph((np.minimum(a, b)[keep], np.maximum(a, b)[keep]),
                            vertices=np.arange(n))


def test_progress_callback():
    g = progress_graph()
    calls = []
    c = closure.transitive_closure(g, progress=lambda phase, f: calls.append((phase, f)))
    assert c.pair_count == closure.transitive_closure(g).pair_count
    assert calls, "no progress call for a run of more than 50 ms"
    assert {p for p, _ in calls} <= {"components", "closure"}
    last = {}
    for phase, f in calls:
        assert f is None or 0.0 <= f <= 1.0
        if f is not None:  # within a phase the share never goes back
            assert f >= last.get(phase, 0.0)
            last[phase] = f
    # Small graphs, computed on the calling thread, make no call.
    small = []
    closure.transitive_closure(np.array([[0, 1], [1, 2]]), progress=lambda *a: small.append(a))
    assert small == []
    with pytest.raises(TypeError):
        closure.transitive_closure(g, progress="yes")


def test_progress_of_dense_methods_on_the_host_says_closure_after_components():
    # A path (a DAG: Kahn's pass, no Tarjan) and a cycle (Tarjan's pass): the dense methods
    # meter no rows, so the calls are ("closure", None) once the components are done.
    path = np.array([(i, i + 1) for i in range(5999)])
    for edges in (path, np.vstack([path, [(5999, 0)]])):
        for method in ("square", "recursive"):
            calls = []
            closure.transitive_closure(edges, method=method, device="host",
                                       progress=lambda phase, f: calls.append((phase, f)))
            # Squaring 6,000 vertices takes a tenth of a second or more: it is called.
            assert calls or method == "recursive", method
            if calls:
                assert calls[-1] == ("closure", None), (method, calls[-3:])


def test_progress_callback_exception_stops_the_closure():
    g = progress_graph()

    class Stop(Exception):
        pass

    def stop(phase, fraction):
        raise Stop(phase)

    with pytest.raises(Stop):
        closure.transitive_closure(g, progress=stop)
    assert closure.transitive_closure(g).pair_count > 0  # the library is fine after it


def test_progress_line_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr(closure._ProgressLine, "delay", 0.0)
    g = progress_graph()
    closure.transitive_closure(g, progress=True)
    err = capsys.readouterr().err
    assert err.startswith("\rclosure: ") and ("components" in err or "closure" in err)
    width = len(err.rsplit("\r", 2)[1])
    assert err.endswith("\r" + " " * width + "\r")  # blanked out at the end
