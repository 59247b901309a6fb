"""Checks of what a BPE model is built from: text as UTF-8, token ids, special tokens.

Each check raises ``TypeError`` / ``ValueError`` naming the argument; none builds a model (see
:mod:`workbench.bpe.model`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import INT64_MAX, check_int


def _text_bytes(text: str, what: str = "text") -> bytes:
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{what} must be str, not {type(text).__name__}")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidValueError(f"{what} holds a lone surrogate U+{ord(text[err.start]):04X} at "
                                f"position {err.start}; it has no UTF-8 bytes (encode it as "
                                "text.encode('utf-8', 'surrogatepass') upstream or remove it)"
                         ) from None


def _check_ids(ids: Sequence[int] | None, n: int) -> np.ndarray:
    """``ids`` as int64 after checking: ``n`` distinct non-negative integers."""
    if ids is None:
        return np.arange(n, dtype=np.int64)
    if isinstance(ids, (str, bytes)):
        raise ArgumentTypeError("ids must be a sequence of int")
    if isinstance(ids, np.ndarray) and ids.dtype.kind in "iu" and ids.ndim == 1:
        ids = ids.tolist()
    ids = list(ids)
    if all(type(i) is int for i in ids) and (not ids or 0 <= min(ids) <= max(ids) <= INT64_MAX):
        arr = np.array(ids, dtype=np.int64)  # plain ints in range: what the checks pass
    else:
        for i in ids:
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                raise ArgumentTypeError(f"ids must be integers, got {type(i).__name__} ({i!r:.20})")
        arr = np.array([check_int(i, "every id") for i in ids], dtype=np.int64)
    if arr.shape[0] != n:
        raise InvalidValueError(f"got {arr.shape[0]} ids for {n} symbols (256 bytes, stop words, "
                                "merges)")
    if n and arr.min() < 0:
        raise InvalidValueError(f"ids must be non-negative (got {arr.min()})")
    if len(set(arr.tolist())) != n:  # a set: faster than np.unique's hash for 50k ids
        raise InvalidValueError("ids must be distinct")
    return arr


def _check_specials(special: dict[str, int] | None, vocab: dict[int, bytes],
                    stop: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for w, i in dict(special or {}).items():
        _text_bytes(w, "special token")
        if not w or isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i < 0:
            raise InvalidValueError(f"special token {w!r:.40} needs non-empty text and an id >= 0")
        if int(i) in vocab or int(i) in out.values() or w in stop:
            raise InvalidValueError(f"special token {w!r:.40} (id {i}) clashes with another token")
        out[w] = int(i)
    return out
