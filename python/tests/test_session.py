"""The Python module runs through the library's Session as the CLI does: threads= is
--threads (the same pairs whatever the count, bad counts refused), and a named host
device opens nothing."""

import numpy as np
import pytest

import closure


def random_edges(n, m, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(m, 2))


@pytest.mark.parametrize("method", ["auto", "sparse", "recursive"])
def test_threads_give_the_same_pairs(method):
    edges = random_edges(3000, 9000, 17)
    one = closure.transitive_closure(edges, method=method, device="host", threads=1)
    many = closure.transitive_closure(edges, method=method, device="host", threads=3)
    default = closure.transitive_closure(edges, method=method, device="host")
    assert one.pair_count == many.pair_count == default.pair_count
    us, vs = one.pairs()
    assert np.array_equal(many.reaches_many(us, vs), np.ones(len(us), dtype=bool))


@pytest.mark.parametrize("bad", [0, -1, 5000, 2.0, True, "4"])
def test_bad_thread_counts_are_refused(bad):
    with pytest.raises(ValueError, match="threads must be an integer"):
        closure.transitive_closure(np.array([[0, 1]]), threads=bad)


def test_the_host_device_reports_the_host():
    c = closure.transitive_closure(np.array([[0, 1], [1, 2]]), device="host", threads=2)
    assert c.report["device"] == "host"
    assert c.pair_count == 3
