"""Exceptions raised by closure. The compiled module raises these for the library's C++
exceptions, with the same messages as the command-line tool."""

from __future__ import annotations

from typing import Optional


class Error(Exception):
    """Base class of closure's own exceptions."""


class InputError(Error, ValueError):
    """Bad graph input: a malformed file, or a graph object that cannot be read.

    ``str(e)`` is the CLI's ``FILE:LINE: message``; ``file`` and ``line`` say where
    (``line`` is None when the problem concerns the input as a whole)."""

    def __init__(self, message: str, file: Optional[str] = None, line: Optional[int] = None):
        self.message = message
        self.file = file
        self.line = line
        where = file or ""
        if file and line:
            where += f":{line}"
        super().__init__(f"{where}: {message}" if where else message)


class OutOfMemoryError(Error, MemoryError):  # the resource kind, for memory
    """A closure method would not fit in host or device memory (the message names sizes)."""


class DeviceError(Error, RuntimeError):
    """An OpenCL call failed (the message names the call and the status)."""


class UsageError(Error, ValueError):
    """A bad option value or a refused combination (the CLI's exit status 2)."""


class ResourceError(Error, OSError):
    """An I/O failure or a size limit (memory failures are OutOfMemoryError)."""


class InternalError(Error, RuntimeError):
    """A broken invariant inside closure: a bug worth reporting."""


class OutputClosedError(ResourceError, BrokenPipeError):
    """The reader of a stream output (a pipe, a FIFO) went away before it was all written."""


class Cancelled(KeyboardInterrupt):
    """Ctrl-C stopped a long call. A KeyboardInterrupt, not an Error: ``except Exception``
    lets it through, as Python does for Ctrl-C anywhere else."""
