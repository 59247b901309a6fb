"""Numba compilation flags and the numba cache, in one place.

Every kernel in the package is decorated with one of three flag sets: ``njit(**JIT)`` (leaf
kernels, cached), ``njit(**JIT_INLINE)`` (small hot helpers inlined at numba-IR level) or
``njit(**JIT_PARALLEL)`` (batch kernels that ``prange`` over words).

**The cache is keyed per module on its own dependencies.** Numba's ``cache=True`` re-checks
only the file of the cached function, not kernels it inlines from other modules: after an
edit to ``_core/trie.py`` a cached kernel of ``lattice/kernels.py`` would keep the old trie
lookup and silently return wrong arcs. So every kernel of this package is cached by
:class:`DependencyKeyedLocator`, whose source stamp hashes the kernel's module *and every
package module it imports, transitively*. An edit to ``_core/trie.py`` recompiles the kernels
of every module that reaches it; an edit to a notebook module, which no kernel imports,
recompiles nothing. All entries live under one directory, :data:`CACHE_ROOT`
(``$NUMBA_CACHE_DIR/workbench`` when that variable is set; it must be an absolute path, a
relative one is refused when :mod:`.cachedir` is imported). ``python -m workbench warmup``
removes the per-source-hash directories of earlier versions (``workbench-numba-<hash>`` in the
temp directory) and the index files of kernels that no longer exist.

This module defines no kernels and imports nothing of the package but :mod:`.cachedir` (where
:data:`CACHE_ROOT` is defined, for processes that have not loaded numba; it imports only
:mod:`.errors`).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path

from numba.core import caching as _numba_caching

from .cachedir import CACHE_ROOT

PACKAGE_DIR = Path(__file__).resolve().parent.parent

_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(\.+[\w.]*|workbench[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
    r"|^[ \t]*import[ \t]+(workbench[\w.]*)", re.MULTILINE)


def _module_file(dotted: list[str]) -> Path | None:
    """The file of package module ``dotted`` (parts below ``workbench``), or None."""
    base = PACKAGE_DIR.joinpath(*dotted)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def _direct_imports(path: Path, mtime_ns: int, size: int) -> tuple[Path, ...]:
    """Package files that ``path`` imports (module level or inside functions).

    A plain text scan, deliberately generous: an import named in a docstring counts too,
    which can only cause a needless recompilation, never a stale kernel.

    >>> kernels = PACKAGE_DIR / "lattice" / "kernels.py"
    >>> any(p.name == "trie.py" for p in _direct_imports(*_stat(kernels)))
    True
    """
    text = path.read_text(encoding="utf-8")
    package = list(path.relative_to(PACKAGE_DIR).parent.parts)
    found: set[Path] = set()
    for relative, names, absolute in _IMPORT.findall(text):
        if absolute:
            target = absolute.split(".")[1:]
        elif relative.startswith("."):
            level = len(relative) - len(relative.lstrip("."))
            if level - 1 > len(package):
                continue
            target = package[: len(package) - level + 1] + [
                p for p in relative.lstrip(".").split(".") if p]
        else:
            target = relative.split(".")[1:]
        module = _module_file(target)
        if module is not None:
            found.add(module)
        # "from . import lattice" imports modules by name
        for name in re.findall(r"[A-Za-z_]\w*", names):
            sub = _module_file(target + [name])
            if sub is not None:
                found.add(sub)
    found.discard(path)
    return tuple(sorted(found))


def _stat(path: Path) -> tuple[Path, int, int]:
    st = path.stat()
    return path, st.st_mtime_ns, st.st_size


def dependency_closure(path: str | os.PathLike) -> list[Path]:
    """``path`` and every package module it imports, transitively, sorted.

    >>> names = [p.name for p in dependency_closure(PACKAGE_DIR / "_core" / "config.py")]
    >>> names
    ['cachedir.py', 'config.py', 'errors.py']
    """
    start = Path(path).resolve()
    seen = {start}
    todo = [start]
    while todo:
        for dep in _direct_imports(*_stat(todo.pop())):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def source_stamp(path: str | os.PathLike) -> str:
    """Hash of a module's source and of every package module it reaches (the cache key)."""
    return _stamp(tuple(_stat(dep) for dep in dependency_closure(path)))


@cache
def _stamp(files: tuple[tuple[Path, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for dep, _, _ in files:
        digest.update(dep.relative_to(PACKAGE_DIR).as_posix().encode())
        digest.update(b"\0")
        digest.update(dep.read_bytes())
    return digest.hexdigest()


class DependencyKeyedLocator(_numba_caching._CacheLocator):
    """Numba cache locator for this package's kernels: stamp = :func:`source_stamp`.

    Used only for functions defined in a file of the package; numba's own locators handle
    everything else. Index and data files go to ``CACHE_ROOT/<folder>_<hash of folder>``.
    """

    def __init__(self, py_func, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(CACHE_ROOT / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return source_stamp(self._py_file)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):
        try:
            Path(py_file).resolve().relative_to(PACKAGE_DIR)
        except (ValueError, OSError):
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:  # not writable: numba's other locators (or no cache) take over
            return None
        return self


def remove_per_hash_directories() -> list[str]:
    """Remove the ``workbench-numba-<hash>`` directories of the earlier whole-package key.

    Called by ``python -m workbench warmup``; returns the directories removed.
    """
    pattern = re.compile(r"workbench-numba-[0-9a-f]{16}")
    try:
        entries = os.listdir(tempfile.gettempdir())
    except OSError:
        return []
    removed = []
    for entry in entries:
        if pattern.fullmatch(entry):
            removed.append(os.path.join(tempfile.gettempdir(), entry))
            shutil.rmtree(removed[-1], ignore_errors=True)
    return removed


if DependencyKeyedLocator not in _numba_caching.CacheImpl._locator_classes:
    _numba_caching.CacheImpl._locator_classes.insert(0, DependencyKeyedLocator)

#: The module numba's CPU target probes for BLAS when it starts (``numba.np.arraymath``).
BLAS_PROBE = "scipy.linalg.cython_blas"


def _import_arraymath_without_blas_probe() -> None:
    """Import ``numba.np.arraymath`` while its start-up BLAS probe is told "no SciPy".

    The first kernel of a process (even one loaded from the cache) starts numba's CPU
    target, which imports ``numba.np.arraymath``; at import that module runs
    ``_HAVE_BLAS = _check_blas()``, an ``import scipy.linalg.cython_blas`` that pulls in all
    of ``scipy.linalg`` and, through SciPy's array-API shim, ``numpy.f2py`` (~0.2 s, half
    the cold start of a first GRaMPa sample). The flag decides one thing only: whether
    ``np.convolve`` / ``np.correlate`` *compiled in numba* use BLAS for their inner product
    (no kernel of this package calls them). So the probe runs with ``sys.modules`` holding
    ``None`` for that one module — Python's documented way to make an import fail at once —
    and the entry is removed right after. Nothing of numba is patched: ``np.dot``,
    ``@`` and ``np.linalg`` in kernels still call numba's ``ensure_blas`` /
    ``ensure_lapack`` when they compile, which import the real SciPy modules then (tested in
    ``tests/project/test_coldstart.py``). If SciPy's BLAS module is already loaded, nothing is done.
    """
    if "numba.np.arraymath" in sys.modules or BLAS_PROBE in sys.modules:
        return
    sys.modules[BLAS_PROBE] = None  # type: ignore[assignment]
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(BLAS_PROBE, 0) is None:
            del sys.modules[BLAS_PROBE]


_import_arraymath_without_blas_probe()

JIT = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}
JIT_PARALLEL = {**JIT, "parallel": True}
#: Small hot helpers are inlined at numba-IR level: no call, no array refcounting per call.
JIT_INLINE = {**JIT, "inline": "always"}

__all__ = ["CACHE_ROOT", "JIT", "JIT_INLINE", "JIT_PARALLEL", "DependencyKeyedLocator",
           "dependency_closure", "source_stamp"]
