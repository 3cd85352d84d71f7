"""The promises from Python: label arrays are checked, never promoted; duplicate and unknown
labels raise with one message; non-UTF-8 labels stay distinct; a forked child gets a clear
error or the host, never a hang; the error kinds map through the library's one table."""

import os

import numpy as np
import pytest

import closure

EDGES = np.array([[0, 1], [1, 2]])


def test_mixed_signedness_keeps_labels_near_2_53_apart():
    us = np.array([2**53, 1], dtype=np.uint64)
    vs = np.array([2**53 + 1, 3], dtype=np.int64)
    c = closure.transitive_closure((us, vs))
    assert sorted(int(v) for v in c.vertices) == [1, 3, 2**53, 2**53 + 1]
    assert c.reaches(2**53, 2**53 + 1)
    assert not c.reaches(2**53 + 1, 2**53)


def test_unsigned_labels_of_2_63_and_more_with_int64():
    big = np.uint64(2**63 + 5)
    c = closure.transitive_closure((np.array([big, 1], dtype=np.uint64),
                                    np.array([2, 3], dtype=np.int64)))
    assert c.reaches(int(big), 2)
    with pytest.raises(TypeError, match="no integer type holds both"):
        closure.transitive_closure((np.array([big], dtype=np.uint64),
                                    np.array([-1], dtype=np.int64)))


def test_unknown_large_label_is_a_key_error_not_vertex_0():
    c = closure.transitive_closure(np.array([[5, 7], [7, 9]]))
    for label in (np.array([2**62]), np.array([2**64 - 1], dtype=np.uint64), np.array([4])):
        with pytest.raises(KeyError, match="is not in the graph"):
            c.index_of(label)
    assert list(c.index_of(np.array([9, 5]))) == [2, 0]


def test_float_labels_are_refused_unless_whole_and_small():
    with pytest.raises(TypeError, match="not whole numbers"):
        closure.transitive_closure(np.array([[1.5, 2.0], [2.0, 3.0]]))
    with pytest.raises(TypeError, match="2\\^53"):
        closure.transitive_closure(np.array([[2.0**60, 1.0]]))
    c = closure.transitive_closure(np.array([[1.0, 2.0], [2.0, 3.0]]))  # np.loadtxt's floats
    assert c.reaches(1, 3)


def test_duplicate_vertices_are_refused():
    with pytest.raises(ValueError, match="vertex 2 is listed twice"):
        closure.transitive_closure(np.array([[1, 2], [2, 3]]), vertices=[1, 2, 2, 3])
    with pytest.raises(ValueError, match="'b' is listed twice"):
        closure.transitive_closure([("a", "b")], vertices=["a", "b", "b"])


def test_unknown_endpoint_message_is_said_once():
    with pytest.raises(closure.InputError) as info:
        closure.transitive_closure(np.array([[1, 2], [2, 9]]), vertices=[1, 2, 3])
    message = str(info.value)
    assert message.count("not") == 1, message
    assert "edge endpoint 9 is not among the given vertices" in message


def test_non_utf8_labels_stay_distinct_and_give_their_bytes_back(tmp_path):
    path = tmp_path / "bytes.txt"
    path.write_bytes(b"a\xff b\nb a\xfe\n")
    g = closure.read_graph(path)
    raw = sorted(v.encode("utf-8", "surrogateescape") for v in g.vertices)
    assert raw == [b"a\xfe", b"a\xff", b"b"]


def test_bytes_paths_are_paths_in_every_entry_point(tmp_path):
    # python.md: paths are str, bytes or os.PathLike, names that are not UTF-8 included.
    # as_graph (and all that reads through it) had taken bytes for an unknown input.
    for name in (b"plain.txt", b"n\xff.txt"):
        path = os.path.join(os.fsencode(tmp_path), name)
        with open(path, "wb") as f:
            f.write(b"1 2\n2 3\n")
        assert closure.as_graph(path).edge_count == 2
        assert closure.transitive_closure(path).pair_count == 3
        assert sorted(closure.descendants(path, 1)) == [2, 3]
        assert closure.build_index(path).reaches(1, 3)


def test_error_kinds_map_to_their_classes(tmp_path):
    assert issubclass(closure.UsageError, ValueError)
    assert issubclass(closure.ResourceError, OSError)
    assert issubclass(closure.InternalError, RuntimeError)
    with pytest.raises(closure.UsageError):
        closure.transitive_closure(EDGES, device="no-such-device")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_fork_after_opencl_is_a_clear_error_or_the_host():
    try:
        closure.transitive_closure(EDGES, device="cpu")
    except (closure.DeviceError, closure.UsageError):
        pytest.skip("no OpenCL CPU device")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a named device is a DeviceError, auto runs on the host
        os.close(read)
        out = []
        try:
            closure.transitive_closure(EDGES, device="cpu")
            out.append("device-ok")
        except closure.DeviceError as e:
            out.append("device-error" if "forked" in str(e) else "other-error")
        out.append("auto-ok" if closure.transitive_closure(EDGES).reaches(0, 2) else "auto-wrong")
        os.write(write, " ".join(out).encode())
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    answer = os.read(read, 100).decode()
    os.close(read)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert answer == "device-error auto-ok"
