"""Experiment results kept on disk between processes: :func:`kept`, :func:`kept_path`.

A notebook opened in a fresh kernel (Voilà's cold start) recomputes what an earlier process
computed already: trained tokenisers, sampled corpora. :func:`kept` returns a result read
from a file under :data:`CACHE_DIR` (the numba cache's directory,
:data:`workbench._core.cachedir.CACHE_ROOT`), or computes it and writes it atomically
(:func:`workbench._core.io.write_atomic`: a temporary file moved over the target with
``os.replace``). :func:`kept_path` names the file by the SHA-256 of the caller's inputs, of
the calling module's source and every package module it imports
(:func:`workbench._core.config.source_stamp`) and of SentencePiece's version: a change of
any of them makes a new file.

The file
--------
A kept file is one header line and the caller's bytes (its ``save``: a JSON document, a
``.npy`` array)::

    workbench-kept v2 sha256=<64 hex digits>\\n<payload>

The digest is the SHA-256 of the file's *name*, a newline and the payload's exact bytes, so
an edit of the payload (one digit of a JSON number, a count inside the ``.npy``), a cut file,
or a kept file copied over another result's name fails the check. (It guards against
accidents, not an attacker: anyone who can write the file can write a matching header.)
Files written before this header existed (``FORMAT`` 1) have other names and lack it; they
are never read and :func:`workbench._core.cachedir.prune` removes them in time.

Reading is refusing anything but a kept file: the path must be a *regular file* (checked
with ``os.lstat`` before it is opened, so a symbolic link is refused, whatever it points to:
the package writes none; a FIFO, a device, a directory or a socket too), opened without
following a link and without blocking, checked again on the open descriptor
(``os.fstat``), and at most the caller's ``max_bytes`` of payload (plus the header) long;
only then is it read, in chunks, and its digest checked. What the caller's ``load`` makes
of the verified payload is checked by ``load`` (types, shapes, keys; ``None``: not such a
result), and *any* exception it raises (``ValueError``, ``EOFError``, ``AttributeError``,
``RecursionError``, ``MemoryError``, ...) means the same. Every refusal is silent: the
result is computed again and written over the file.

A file that cannot be written (a directory or a FIFO at its path, a full disk, a read-only
directory, a ``save`` that fails or exceeds ``max_bytes``) costs only the time: the result
computed is returned, with a :class:`KeptWriteWarning` naming the path. Deleting files
costs only the time.

A file read is marked used (:func:`workbench._core.cachedir.mark_used`, its mtime).
``python -m workbench warmup`` removes the files unused for
:data:`~workbench._core.cachedir.MAX_AGE_DAYS` days except the most recently used one of
each result name (:func:`workbench._core.cachedir.prune`), which bounds the directory: one
file per result name, plus those used in the last 14 days. It also fills the course's
results (:mod:`.course_kept`). This module knows nothing of what is kept (the caller's
``load`` checks it) and removes nothing itself.
"""

from __future__ import annotations

import hashlib
import os
import stat
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .._core.cachedir import CACHE_ROOT, mark_used
from .._core.config import source_stamp
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.io import write_atomic

__all__ = ["CACHE_DIR", "FORMAT", "MAX_BYTES", "KeptWriteWarning", "kept", "kept_path"]

#: Bumped when what a kept file holds changes (old files are then ignored: other names).
FORMAT = 2
#: The default limit of a kept file's payload (bytes); callers pass one fit for their kind.
MAX_BYTES = 256 << 20
#: Where the files are kept (a module attribute, so tests can point it elsewhere).
CACHE_DIR: Path = CACHE_ROOT
_MEMO: dict[Path, object] = {}  # this process's results, by file
_MAGIC = f"workbench-kept v{FORMAT} sha256=".encode()
_HEADER_BYTES = len(_MAGIC) + 64 + 1
_CHUNK = 1 << 20
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_BINARY", 0))
T = TypeVar("T")


class KeptWriteWarning(UserWarning):
    """A kept result was computed but could not be written (the next process computes it
    again); the message names the file and the reason."""


def kept_path(module_file: str, name: str, key: bytes, suffix: str = ".json") -> Path:
    """The file of result ``name`` of the package module at ``module_file``, for inputs ``key``.

    Parameters
    ----------
    module_file : str
        The calling module's ``__file__`` (its source and imports are part of the key).
    name : str
        The result's name (part of the file name: letters, digits, ``_.+-``).
    key : bytes
        The inputs the result depends on.
    suffix : str
        The file name's suffix (``.json``, ``.npy``: what the payload is).

    Returns
    -------
    Path
        ``CACHE_DIR / "kept_<module>_<name>_<24 hex digits><suffix>"``.
    """
    import sentencepiece

    head = (f"workbench kept v{FORMAT}\n{name}\nsentencepiece {sentencepiece.__version__}\n"
            f"{source_stamp(module_file)}\n")
    digest = hashlib.sha256(head.encode())
    digest.update(key)
    return CACHE_DIR / f"kept_{Path(module_file).stem}_{name}_{digest.hexdigest()[:24]}{suffix}"


def _header(path: Path, payload: bytes) -> bytes:
    """The header line of the kept file ``path`` holding ``payload``."""
    digest = hashlib.sha256(os.fsencode(path.name) + b"\n")
    digest.update(payload)
    return _MAGIC + digest.hexdigest().encode() + b"\n"


def _read(path: Path, max_bytes: int) -> bytes | None:
    """The payload of the kept file ``path`` if it is one (see the module's docstring)."""
    limit = _HEADER_BYTES + max_bytes
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or not _HEADER_BYTES <= info.st_size <= limit:
            return None
        fd = os.open(path, _OPEN_FLAGS)
        try:
            opened = os.fstat(fd)
            if not stat.S_ISREG(opened.st_mode) or opened.st_size > limit:
                return None
            chunks, size = [], 0
            while True:
                chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:  # grew since fstat
                    return None
        finally:
            os.close(fd)
    except OSError:
        return None
    raw = b"".join(chunks)
    payload = raw[_HEADER_BYTES:]
    return payload if raw[:_HEADER_BYTES] == _header(path, payload) else None


def _write(path: Path, payload: bytes, max_bytes: int) -> None:
    """Write ``payload`` as the kept file ``path``, atomically (raises what went wrong)."""
    if not isinstance(payload, bytes):
        raise ArgumentTypeError(f"save returned {type(payload).__name__}, not bytes")
    if len(payload) > max_bytes:
        raise InvalidValueError(f"{len(payload):,} bytes, over the {max_bytes:,}-byte limit of "
                                "this result (it could not be read back)")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, _header(path, payload) + payload, name="the kept result")


def kept(path: Path, load: Callable[[bytes], T | None], make: Callable[[], T],
         save: Callable[[T], bytes], *, max_bytes: int = MAX_BYTES) -> T:
    """The result kept in the file ``path``, or ``make()`` (then written there).

    Remembered in this process too (by ``path``). See the module's docstring for the file,
    its checks and what a failure costs (``tests/experiments/test_kept.py``).

    Parameters
    ----------
    path : Path
        The file (:func:`kept_path`).
    load : callable
        ``load(payload)``: the result from the verified bytes ``save`` wrote, or ``None``
        when they do not hold such a result (wrong type, shape, keys). Any exception it
        raises means the same.
    make : callable
        ``make()``: computes the result (its exceptions propagate; nothing is written).
    save : callable
        ``save(result)``: the result as ``bytes``, which ``load`` reads back.
    max_bytes : int
        The largest payload this kind of result can have: a larger file is not read, a
        larger ``save`` is not written.

    Returns
    -------
    object
        The result, read or made.

    Warns
    -----
    KeptWriteWarning
        The result was made but could not be written (it is returned all the same).
    """
    hit = _MEMO.get(path)
    if hit is None:
        payload = _read(path, max_bytes)
        if payload is not None:
            try:
                hit = load(payload)
            except Exception:  # noqa: BLE001 -- any failure to read: computed again
                hit = None
        if hit is None:
            hit = make()
            try:
                _write(path, save(hit), max_bytes)
            except Exception as err:  # noqa: BLE001 -- the result is returned all the same
                warnings.warn(f"could not keep the result in {path} ({type(err).__name__}: "
                              f"{err}); it is returned, but the next process computes it "
                              "again", KeptWriteWarning, stacklevel=2)
        else:
            mark_used(path)
        if len(_MEMO) >= 256:
            _MEMO.clear()
        _MEMO[path] = hit
    return hit  # type: ignore[return-value]
