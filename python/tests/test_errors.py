"""Bad input raises closure.InputError with file and line and the CLI's message; other
mistakes raise the usual Python exceptions."""

import os
import pathlib
import subprocess

import numpy as np
import pytest
import scipy.sparse

import closure

BUILD_DIR = pathlib.Path(os.environ.get("CLOSURE_BUILD_DIR",
                                        pathlib.Path(__file__).resolve().parents[2] / "build"))


def cli_message(path):
    """What `closure FILE` prints on stderr, without its "closure: " prefix, or None when
    the CLI has not been built."""
    cli = BUILD_DIR / "closure"
    if not cli.exists():
        return None
    r = subprocess.run([str(cli), str(path), "-q"], capture_output=True, text=True)
    assert r.returncode == 3, r.stderr
    return r.stderr.strip().removeprefix("closure: ")


@pytest.mark.parametrize("name, text, line", [
    ("short.txt", "1 2\n3\n", 2),
    ("bad.gra", "graph_for_greach\n2\n0: 1 #\n1: 7 #\n", 4),
    ("bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 x\n", 3),
])
def test_malformed_file(tmp_path, name, text, line):
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(closure.InputError) as info:
        closure.transitive_closure(p)
    e = info.value
    assert e.file == str(p) and e.line == line
    assert str(e).startswith(f"{p}:{line}: ") and e.message in str(e)
    assert isinstance(e, ValueError) and isinstance(e, closure.Error)
    expected = cli_message(p)
    if expected is not None:
        assert str(e) == expected
    with pytest.raises(closure.InputError):
        closure.read_graph(p)


def test_missing_file(tmp_path):
    with pytest.raises(closure.InputError) as info:
        closure.read_graph(tmp_path / "nope.txt")
    assert info.value.file == str(tmp_path / "nope.txt") and info.value.line is None


def test_bad_in_memory_graphs():
    with pytest.raises(closure.InputError, match="square"):
        closure.transitive_closure(scipy.sparse.csr_array((2, 3)))
    with pytest.raises(closure.InputError, match=r"shape \(m, 2\)"):
        closure.transitive_closure(np.array([[1, 2, 3]]))
    with pytest.raises(closure.InputError, match="not among the given vertices"):
        closure.transitive_closure(np.array([[1, 2]]), vertices=[1])
    with pytest.raises(TypeError, match="cannot read a graph from int"):
        closure.transitive_closure(42)


def test_bad_names():
    g = np.array([[0, 1]])
    with pytest.raises(ValueError, match="unknown method 'fast'"):
        closure.transitive_closure(g, method="fast")
    with pytest.raises(ValueError, match="unknown input format"):
        closure.read_graph("x.txt", format="xml")
    with pytest.raises(ValueError):
        closure.transitive_closure(g, device="no-such-device-name")


def test_unknown_vertices():
    c = closure.transitive_closure(np.array([[0, 1]]))
    with pytest.raises(KeyError):
        c.reaches(0, 2)
    with pytest.raises(KeyError):
        c.reaches(-1, 0)
    with pytest.raises(KeyError):
        c.reaches_many([0, 0], [1, 5])
    with pytest.raises(ValueError):
        c.reaches_many([0, 0], [1])


def test_closure_that_does_not_fit_names_the_way_without_it():
    """Under a 400 MB data limit, a closure of 60,000 x 60,000 reachable pairs (450 MB of
    rows) is refused by the library's memory budget with its sizes, and the Python message
    adds build_index and descendants, which answer without the closure. Before the rows are
    made, a RuntimeWarning says so from their estimate, with the same way on."""
    import sys

    script = """
import resource
import numpy as np
import closure
resource.setrlimit(resource.RLIMIT_DATA, (400 << 20, 400 << 20))
k = 60000  # k sources -> hub -> a path of k vertices: each source reaches k + 1
n = 2 * k + 1
us = np.concatenate([np.arange(k), [k], np.arange(k + 1, n - 1)])
vs = np.concatenate([np.full(k, k), [k + 1], np.arange(k + 2, n)])
import warnings
with warnings.catch_warnings(record=True) as said:
    warnings.simplefilter("always")
    try:
        closure.transitive_closure((us, vs), vertices=np.arange(n))
        print("no error")
    except MemoryError as e:
        print(type(e).__name__, isinstance(e, closure.Error), e)
for w in said:
    print("WARNING", w.category.__name__, w.message)
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=300, env=os.environ.copy())
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("OutOfMemoryError True sparse on 120001 vertices needs more "
                               "than"), r.stdout
    first = r.stdout.splitlines()[0]
    assert "closure.build_index(graph)" in first and "closure.descendants" in first
    assert "--" not in first and "closure index" not in first  # Python's terms, not the CLI's
    said = [line for line in r.stdout.splitlines() if line.startswith("WARNING")]
    assert len(said) == 1, r.stdout
    assert said[0].startswith("WARNING RuntimeWarning the closure's rows are estimated at "), said
    assert "will likely stop for lack of memory" in said[0] and "closure.build_index" in said[0]
    assert "closure index" not in said[0]  # the CLI's way on became Python's


def propagate_under_address_space_limit(limit_mb, n, m, seed, device, loops):
    """Runs transitive_closure(method="propagate") on the edges of m random draws on n
    vertices, low id to high (self-loops kept where `loops`), in a child under RLIMIT_AS: it must end with the pairs or a
    MemoryError, never an abort. Returns the child's stdout."""
    import sys

    script = f"""
import resource
import numpy as np
import closure
rng = np.random.default_rng({seed})
a, b = rng.integers(0, {n}, {m}), rng.integers(0, {n}, {m})
keep = (a == a) if {loops} else (a != b)
g = closure.as_graph(np.stack([np.minimum(a, b)[keep], np.maximum(a, b)[keep]], 1))
resource.setrlimit(resource.RLIMIT_AS, ({limit_mb} << 20, {limit_mb} << 20))
try:
    print("pairs", closure.transitive_closure(g, method="propagate", device={device!r}).pair_count)
except MemoryError as e:
    print("MemoryError", e)
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=300, env=os.environ.copy())
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.startswith(("pairs ", "MemoryError ")), r.stdout
    return r.stdout


def test_a_cpu_device_sweep_under_an_address_space_limit_never_aborts():
    """The CPU device's memory is the process's: its slices are planned within what the
    process may still allocate. Planned on PoCL's own figure, an allocation failed inside
    PoCL, which asserted and ended the interpreter (exit 134) under a 1.2 GB RLIMIT_AS."""
    propagate_under_address_space_limit(1200, 200000, 2000000, 1, None, loops=True)


@pytest.mark.parametrize("limit_mb", [980, 1000])
def test_a_cpu_device_closure_kept_under_address_space_limits_never_aborts(limit_mb):
    """Around what a 60k-vertex DAG's rows need (450 MB, kept resident for the Closure):
    PoCL aborted the interpreter (exit 134) at 980 and 1000 MB, and a bare 'clCreateBuffer'
    came from an OpenCL call outside the checked path. Now the pairs or a MemoryError."""
    out = propagate_under_address_space_limit(limit_mb, 60000, 400000, 5, "cpu", loops=False)
    assert "clCreateBuffer\n" not in out


SHIM = BUILD_DIR / "tests" / "libfail_thread_start.so"


@pytest.mark.skipif(not SHIM.exists(), reason="the thread-start shim is not built (sanitized "
                    "builds leave it out: their runtime must be the first library loaded)")
def test_a_thread_that_cannot_start_is_a_memory_error(tmp_path):
    """Under ulimit -v or -u a worker thread may not start (EAGAIN from pthread_create). The
    shim makes every pthread_create fail, so read_graph's threads cannot start: the error is
    closure.OutOfMemoryError (a MemoryError) with the CLI's text in Python's terms, never a
    bare RuntimeError."""
    import sys

    script = """
import sys
import closure
us = list(range(300000))
vs = [u + 1 for u in us]
path = sys.argv[1]
with open(path, "w") as f:
    f.writelines(f"{u} {v}\\n" for u, v in zip(us, vs))
try:
    closure.read_graph(path)
    print("no error")
except MemoryError as e:
    print(type(e).__name__, isinstance(e, closure.Error), e)
"""
    env = dict(os.environ, LD_PRELOAD=str(SHIM), OPENBLAS_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "chain.txt")],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("OutOfMemoryError True out of memory or threads: a thread could "
                               "not start"), r.stdout
    assert "left to this process" in r.stdout and "threads=1" in r.stdout, r.stdout
    assert "--threads" not in r.stdout  # Python's terms, not the CLI's
