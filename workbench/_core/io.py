"""Writing files so that nothing is lost: output paths checked first, every write atomic.

* :func:`check_output_path` — before any work: the parent directory exists and is writable,
  the path is not a directory and not a device or other special file;
* :func:`write_atomic` — the whole of a ``str`` or ``bytes`` to a file, atomically;
* :func:`atomic_write` — a context manager yielding a handle to a temporary file in the
  target's directory; on success it is flushed, fsynced and moved over the target with
  ``os.replace`` (atomic on POSIX), on any exception (``KeyboardInterrupt`` included) it is
  removed and the target is left as it was.

A reader therefore sees either the old file or the whole new one, never a prefix. This module
does not choose formats and does not read anything back.

Example
-------
>>> import tempfile, os
>>> target = os.path.join(tempfile.mkdtemp(), "t.txt")
>>> with atomic_write(target) as handle:
...     _ = handle.write("whole")
>>> open(target).read()
'whole'
>>> try:
...     with atomic_write(target) as handle:
...         _ = handle.write("half")
...         raise KeyboardInterrupt
... except KeyboardInterrupt:
...     pass
>>> open(target).read(), sorted(os.listdir(os.path.dirname(target)))
('whole', ['t.txt'])
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .errors import ArgumentTypeError, InvalidValueError, NotWritableError

__all__ = ["atomic_write", "check_output_path", "write_atomic"]

_UMASK = os.umask(0)
os.umask(_UMASK)


def check_output_path(path: str | os.PathLike, name: str = "out") -> Path:
    """Check that ``path`` can be written as a regular file; return it as a ``Path``.

    Raises
    ------
    TypeError
        ``path`` is not a str or path-like.
    ValueError
        An empty path, an existing directory, an existing special file (``/dev/full``, a
        FIFO, a socket), a missing parent directory or a parent that is not a directory.
    PermissionError
        The parent directory is not writable.

    Examples
    --------
    >>> check_output_path("/dev/full")
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: out: /dev/full exists and is not a regular file
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"{name} must be a path (str or os.PathLike), not "
                                f"{type(path).__name__}")
    if not os.fspath(path):
        raise InvalidValueError(f"{name}: empty path")
    target = Path(path)
    if target.is_dir():
        raise InvalidValueError(f"{name}: {target} is a directory, not a file name")
    if target.exists() and not stat.S_ISREG(target.stat().st_mode):
        raise InvalidValueError(f"{name}: {target} exists and is not a regular file")
    parent = target.parent
    if not parent.exists():
        raise InvalidValueError(f"{name}: the directory {parent} does not exist")
    if not parent.is_dir():
        raise InvalidValueError(f"{name}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise NotWritableError(f"{name}: the directory {parent} is not writable")
    return target


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None, name: str = "out") -> Iterator[IO]:
    """Open a temporary file beside ``path``; move it over ``path`` only if the block succeeds.

    Parameters
    ----------
    path : str or os.PathLike
        The target, checked with :func:`check_output_path` before anything is created.
    mode : {"w", "wb"}
        Text or binary.
    encoding, newline : str, optional
        As for :func:`open` (text mode only).
    name : str
        Argument name used in error messages.
    """
    if mode not in ("w", "wb"):
        raise InvalidValueError(f"mode must be 'w' or 'wb', not {mode!r}")
    target = check_output_path(path, name)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        kwargs = {} if mode == "wb" else {"encoding": encoding, "newline": newline}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        mode_bits = (target.stat().st_mode & 0o7777) if target.exists() else 0o666 & ~_UMASK
        os.chmod(tmp, mode_bits)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path: str | os.PathLike, data: str | bytes, *, name: str = "out") -> Path:
    """Write ``data`` (UTF-8 text or bytes) to ``path`` atomically; return the path.

    A ``str`` that cannot be encoded (a lone surrogate) raises ``ValueError`` before the
    target is touched.

    >>> import tempfile, os
    >>> target = os.path.join(tempfile.mkdtemp(), "v.txt")
    >>> write_atomic(target, "a\\udc80")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: out: the text holds a character UTF-8 cannot encode ... at index 1
    >>> os.path.exists(target)
    False
    """
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidValueError(f"{name}: the text holds a character UTF-8 cannot encode (a "
                                    f"lone surrogate?) at index {err.start}") from None
    elif not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArgumentTypeError(f"data must be str or bytes, not {type(data).__name__}")
    with atomic_write(path, "wb", name=name) as handle:
        handle.write(data)
    return Path(path)
