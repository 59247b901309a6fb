"""GPT-2's shipped model, kept checked in the cache so that ``BPEModel.from_gpt2()`` loads fast.

``BPEModel.from_gpt2()`` without arguments reads the shipped ``data/gpt2_encoder.json.xz``
and ``data/gpt2_vocab.bpe.xz``: decompressing them, parsing 50,257 JSON entries and 50,000
merge lines and checking every merge take a few hundred milliseconds of Python, most of a
fresh process's first GPT-2 encode. The checked result is the same every time, so
:func:`shipped_model` keeps its merge symbols (``int64 (50000, 2)``), ids and special tokens
in one ``.npz`` under :data:`workbench._core.cachedir.CACHE_ROOT`, named after the SHA-256
of the two shipped files (and :data:`FORMAT`), and builds later models from it with
``BPEModel._from_trained`` (no per-merge Python checks, the ids and special tokens still
checked). The model equals the one read from the files (``tests/bpe/test_gpt2cache.py``).

A file that cannot be read, is partial, or does not hold such a model (wrong shapes or
types, a merge joining a symbol not made before it) is ignored and written again, never
trusted; a cache that cannot be written costs only the time (the next call reads the files
again). ``python -m workbench warmup`` writes it like the numba cache, and removes the
files of other shipped files once unused for a while (:func:`workbench._core.cachedir.prune`).

What this module does not do: cache GPT-2 files given by path (those are read and checked
on every call), or any other model.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import TypeVar

import numpy as np

from .._core.cachedir import CACHE_ROOT, mark_used
from .._core.io import write_atomic
from . import interop

#: Bumped when what the file holds changes (old files are then ignored).
FORMAT = 1
#: Where the file is kept (a module attribute, so tests can point it elsewhere).
CACHE_DIR: Path = CACHE_ROOT

M = TypeVar("M")


def cache_path() -> Path:
    """The cache file of the shipped GPT-2 files as they are now (named by their hash)."""
    digest = hashlib.sha256(f"gpt2 cache v{FORMAT}\n".encode())
    for path in interop.shipped_gpt2_files():
        digest.update(path.read_bytes())
    return CACHE_DIR / f"gpt2_model_{digest.hexdigest()[:24]}.npz"


def shipped_model(cls: type[M]) -> M:
    """``cls(**read_gpt2(shipped files))``, from the cache when it holds it (see above)."""
    path = cache_path()
    cached = _load(path)
    if cached is not None:
        sym, ids, specials = cached
        mark_used(path)  # in use: cachedir.prune keeps it
        return cls._from_trained(sym, [], pattern="gpt2", ids=ids,  # type: ignore[attr-defined]
                                 special_tokens=specials)
    model = cls(**interop.read_gpt2(*interop.shipped_gpt2_files()))
    _save(path, model)
    return model


def _load(path: Path) -> tuple[np.ndarray, list[int], dict[str, int]] | None:
    """The cached symbols, ids and special tokens, or None if the file is absent or unusable."""
    try:
        with np.load(path, allow_pickle=False) as doc:
            sym, ids, specials = doc["merge_symbols"], doc["ids"], json.loads(str(doc["special"]))
    except (OSError, ValueError, KeyError, EOFError):
        return None
    n = sym.shape[0] if sym.ndim == 2 else -1
    if (sym.dtype != np.int64 or sym.shape != (n, 2) or ids.dtype != np.int64
            or ids.shape != (256 + n,) or not isinstance(specials, dict)
            or not all(isinstance(k, str) and type(v) is int for k, v in specials.items())):
        return None
    made_before = 256 + np.arange(n, dtype=np.int64)[:, None]  # merge k joins symbols < 256 + k
    if n and (sym.min() < 0 or bool((sym >= made_before).any())):
        return None
    return sym, ids.tolist(), specials


def _save(path: Path, model) -> None:
    """Write the model's symbols, ids and special tokens atomically (a failure only costs
    time: the next call reads the files again)."""
    buffer = io.BytesIO()
    np.savez(buffer, merge_symbols=model._sym_merges, ids=model._ids,
             special=np.array(json.dumps(model.special_tokens)))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, buffer.getvalue(), name="the GPT-2 cache")
    except OSError:
        pass
