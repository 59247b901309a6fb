"""Experiment results kept on disk between processes: :func:`kept`, :func:`kept_path`.

A notebook opened in a fresh kernel (Voilà's cold start) recomputes what an earlier process
computed already: trained tokenisers, sampled corpora. :func:`kept` returns a result read
from a file under :data:`CACHE_DIR` (the numba cache's directory,
:data:`workbench._core.cachedir.CACHE_ROOT`), or computes and writes it (atomically, via the
caller's ``save``). :func:`kept_path` names the file by the SHA-256 of the caller's inputs, of
the calling module's source and every package module it imports
(:func:`workbench._core.config.source_stamp`) and of SentencePiece's version: a change of
any of them makes a new file. A file that cannot be read or does not hold such a result is
ignored and written again; one that cannot be written costs only the time; deleting them
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
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .._core.cachedir import CACHE_ROOT, mark_used
from .._core.config import source_stamp

__all__ = ["CACHE_DIR", "FORMAT", "kept", "kept_path"]

#: Bumped when what a kept file holds changes (old files are then ignored).
FORMAT = 1
#: Where the files are kept (a module attribute, so tests can point it elsewhere).
CACHE_DIR: Path = CACHE_ROOT
_MEMO: dict[Path, object] = {}  # this process's results, by file
T = TypeVar("T")


def kept_path(module_file: str, name: str, key: bytes, suffix: str = ".json") -> Path:
    """The file of result ``name`` of the package module at ``module_file``, for inputs ``key``."""
    import sentencepiece

    head = (f"workbench kept v{FORMAT}\n{name}\nsentencepiece {sentencepiece.__version__}\n"
            f"{source_stamp(module_file)}\n")
    digest = hashlib.sha256(head.encode())
    digest.update(key)
    return CACHE_DIR / f"kept_{Path(module_file).stem}_{name}_{digest.hexdigest()[:24]}{suffix}"


def kept(path: Path, load: Callable[[Path], T | None], make: Callable[[], T],
         save: Callable[[Path, T], None]) -> T:
    """``make()``, or what ``load`` reads from ``path`` (``None``, ``OSError`` or
    ``ValueError``: unusable, so made and saved again); remembered in this process too
    (``tests/experiments/test_kept.py``).
    """
    hit = _MEMO.get(path)
    if hit is None:
        try:
            hit = load(path)
        except (OSError, ValueError):
            hit = None
        if hit is None:
            hit = make()
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                save(path, hit)
            except OSError:
                pass
        else:
            mark_used(path)
        if len(_MEMO) >= 256:
            _MEMO.clear()
        _MEMO[path] = hit
    return hit  # type: ignore[return-value]
