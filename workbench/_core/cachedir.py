"""The one directory where the package keeps what it can rebuild (never the user's files).

Numba's compiled kernels (:mod:`.config`), the pretokeniser's class table
(:mod:`workbench.bpe.split`), the checked GPT-2 model (:mod:`workbench.bpe.gpt2cache`) and
the experiments' kept results (:mod:`workbench.experiments.kept`) live under
:data:`CACHE_ROOT`: ``$NUMBA_CACHE_DIR/workbench`` when that variable is set, else
``workbench-numba`` in the temporary directory. ``NUMBA_CACHE_DIR`` must then be an absolute
path: a relative one would put the caches in whatever directory a process starts in (a
repository, a home directory), so importing this module refuses it with
:class:`~workbench.InvalidValueError`, naming the variable, its value and the directory it
would have meant (set it to an absolute path, or unset it).

:func:`prune` removes the rebuildable *files* of that directory that are stale by one rule:
a file named as the package names them (:data:`NAMES`; files of one *name* differ only in
the key their name ends with: inputs, source, versions) that was not used (read or
written, its mtime: the readers call :func:`mark_used`) for :data:`MAX_AGE_DAYS` days,
unless it is the most recently used file of its name; a file of a name the package no
longer reads (:data:`RETIRED`) or a temporary of one of its files (a writer that died), as
old. ``python -m workbench warmup`` runs it. Deleting any of these
costs only the time to rebuild it.

What this module does not do: import numba (a process that has not loaded it can still
find its cache), or remove anything it does not recognise by name: numba's kernel
directories (``python -m workbench warmup`` prunes their stale index files), other files,
subdirectories, symbolic links.
"""

from __future__ import annotations

import math
import numbers
import os
import re
import tempfile
import time
from pathlib import Path

from .errors import ArgumentTypeError, InvalidValueError

__all__ = ["CACHE_ROOT", "MAX_AGE_DAYS", "NAMES", "RETIRED", "mark_used", "prune"]


def _cache_root() -> Path:
    """:data:`CACHE_ROOT` from the environment (see the module docstring): a relative
    ``NUMBA_CACHE_DIR`` is refused, never read against the current directory."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if not env:
        return Path(tempfile.gettempdir()) / "workbench-numba"
    if not os.path.isabs(env):
        try:
            meant = f" (from here, {Path.cwd() / env})"
        except OSError:  # the current directory was removed
            meant = ""
        raise InvalidValueError(
            f"NUMBA_CACHE_DIR must be an absolute path, got the relative {env!r:.200}: it would "
            f"put the compiled-kernel and data caches in whatever directory a process starts "
            f"in{meant}; set it to an absolute path or unset it (the default is "
            f"{Path(tempfile.gettempdir()) / 'workbench-numba'})")
    return Path(env) / "workbench"


CACHE_ROOT = _cache_root()

#: Days a rebuildable file may go unused before :func:`prune` removes it (if it is not the
#: most recently used of its name).
MAX_AGE_DAYS = 14

#: The package's rebuildable files: the group ``name`` is what files of one name share.
NAMES = (
    # experiments.kept: kept_<module>_<result>_<24 hex of inputs, source, versions>.<suffix>
    re.compile(r"(?P<name>kept_[A-Za-z0-9_.+-]+?)_[0-9a-f]{24}\.[a-z]{3,4}"),
    # bpe.gpt2cache: gpt2_model_<24 hex of the shipped files>.npz
    re.compile(r"(?P<name>gpt2_model)_[0-9a-f]{24}\.npz"),
    # bpe.split: split_classes_v<format>_regex<regex's version>.npy
    re.compile(r"(?P<name>split_classes)_v[0-9]+_regex[0-9_]+\.npy"),
)
#: Names the package wrote once and reads no more: removed once as old, none kept.
RETIRED = (
    # experiments.greedtok's results before experiments.kept
    re.compile(r"experiments_greedtok_[a-z0-9_-]+?_[0-9a-f]{24}\.json"),
)
#: Temporaries of the writers: ``_core.io.write_atomic``'s and ``bpe.split``'s.
_TEMPORARIES = (re.compile(r"\.(?P<target>.+)\.[A-Za-z0-9_]+\.part"),
                re.compile(r"(?P<target>.+)\.[0-9]+\.tmp\.npy"))


def _name_of(filename: str) -> str | None:
    """The name of one of the package's rebuildable files (``""``: a retired one), else None."""
    for pattern in NAMES:
        match = pattern.fullmatch(filename)
        if match:
            return match["name"]
    return "" if any(p.fullmatch(filename) for p in RETIRED) else None


def _check_age(value: object) -> float:
    """``max_age_days`` as a float: a finite real number ``>= 0``, else refused by name."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"max_age_days must be a real number of days (>= 0), not "
                                f"{type(value).__name__} ({value!r:.40})")
    try:
        days = float(value)
    except OverflowError:  # an int past the float range
        days = math.inf
    if not (math.isfinite(days) and days >= 0):
        raise InvalidValueError(f"max_age_days must be a finite number of days >= 0, got "
                                f"{value!r:.40}" + (" (a negative age would remove files in use)"
                                                    if days < 0 else ""))
    return days


def mark_used(path: str | os.PathLike) -> None:
    """Set ``path``'s mtime to now: it was read (:func:`prune` keeps files in use). Best
    effort: a file that cannot be touched is left as it is."""
    try:
        os.utime(path)
    except OSError:
        pass


def prune(root: str | os.PathLike = CACHE_ROOT, max_age_days: float = MAX_AGE_DAYS,
          now: float | None = None) -> list[Path]:
    """Remove the stale rebuildable files directly in ``root`` (see the module's docstring);
    return them.

    Parameters
    ----------
    root : path-like
        The directory (default :data:`CACHE_ROOT`); a missing one holds nothing.
    max_age_days : float
        Days without use after which a file that is not its name's newest is removed: a
        finite real number ``>= 0`` (``0`` removes every stale file however recent, keeping
        each name's newest; a negative age would reach into the future and remove files in
        use, so it is refused, as are NaN and infinity).
    now : float, optional
        The present as a POSIX time (default: the clock); for tests.

    Returns
    -------
    list of Path
        The files removed (a file another process removed first is not listed).

    Raises
    ------
    ArgumentTypeError
        If ``max_age_days`` is not a real number (``True``, ``"14"``, ``None``).
    InvalidValueError
        If ``max_age_days`` is negative, NaN or infinite (nothing is removed).
    """
    max_age_days = _check_age(max_age_days)
    cutoff = (time.time() if now is None else now) - max_age_days * 86400.0
    groups: dict[str, list[tuple[float, Path]]] = {}
    stale: list[Path] = []  # retired names and temporaries: none kept
    try:
        entries = list(os.scandir(root))
    except OSError:
        return []
    for entry in entries:
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            used = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        name = _name_of(entry.name)
        if name:
            groups.setdefault(name, []).append((used, Path(entry.path)))
        elif name == "" and used < cutoff:
            stale.append(Path(entry.path))  # retired
        elif name is None and used < cutoff:
            for pattern in _TEMPORARIES:
                match = pattern.fullmatch(entry.name)
                if match and _name_of(match["target"]) is not None:
                    stale.append(Path(entry.path))
                    break
    doomed = list(stale)
    for files in groups.values():
        files.sort()
        doomed += [path for used, path in files[:-1] if used < cutoff]
    removed = []
    for path in sorted(doomed):
        try:
            os.remove(path)
        except OSError:
            continue
        removed.append(path)
    return removed
