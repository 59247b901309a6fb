"""DUPLICATION BPE (Cognetta et al. 2024, §4.2, Eqs. 16–17).

The ``N`` most frequent tokens ``X`` each get ``k`` copies with the same surface form; after BPE,
every occurrence of a token of ``X`` is replaced by one of its ``k`` copies drawn uniformly and
independently (``SUB``, Eq. 16). Copy 1 is the original id; copies 2…k get new ids after the
base vocabulary: the ``r``-th token of ``X`` (by frequency rank) owns ids
``base + r·(k−1) … base + r·(k−1) + k−2`` where ``base = max id + 1``. So
``|V'| = |V| + (k−1)N`` and each duplicated token's unigram mass is split ``k`` ways (Theorems
4.2–4.3). :meth:`DuplicationBPE.canonical` is the inverse map (copy → original) used to
detokenise and evaluate.

Randomness: each :meth:`~DuplicationBPE.encode` call draws its copies from the object's
generator (seeded at construction) or from ``seed`` if given, in token order, so the same seed
and the same calls give the same ids in every process.

This module does not train BPE.

Example
-------
>>> class M:  # "ab" -> [a][b]
...     merges = []
...     vocab = {0: b"a", 1: b"b"}
...     def encode(self, text): return [0 if ch == "a" else 1 for ch in text]
...     def encode_chunks(self, chunks): return [self.encode(c) for c in chunks]
...     def decode(self, ids): return b"".join(self.vocab[i] for i in ids).decode()
...     def tokens(self, text): return [self.vocab[i] for i in self.encode(text)]
>>> d = DuplicationBPE(M(), {0: 9, 1: 1}, n_top=1, k=3, seed=0)
>>> d.copies[0], d.vocab[3]
((0, 2, 3), b'a')
>>> ids = d.encode("aaaab"); ids
[3, 2, 2, 0, 1]
>>> d.canonical(ids), d.decode(ids)
([0, 0, 0, 0, 1], 'aaaab')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .._core.errors import InvalidValueError
from .._core.seeds import as_generator
from .._core.validate import PY_ENTRY_BYTES, check_int, check_size
from .merge_tree import check_bpe_model, vocab_dict
from .ranking import top_tokens

__all__ = ["DuplicationBPE"]


class DuplicationBPE:
    """A BPE model whose ``N`` most frequent tokens are each spread over ``k`` identical copies.

    Parameters
    ----------
    model : MergeModel
        Any :class:`workbench.interfaces.MergeModel` (e.g. ``workbench.bpe``'s ``BPEModel``).
    frequencies : mapping id → count
        Token frequencies on a reference corpus (they define the top ``N``; ties: smaller id).
    n_top : int
        ``N``, ``1 <= N <= |V|``.
    k : int
        Copies per duplicated token, ``k >= 2`` (``k = 1`` would change nothing).
    seed : int or numpy.random.Generator, optional
        Generator for the uniform choice of copies.

    Attributes
    ----------
    duplicated : tuple[int, ...]
        ``X`` in rank order.
    copies : dict[int, tuple[int, ...]]
        Original id → its ``k`` copies (the original first).
    vocab : dict[int, bytes]
        ``V'``: the base vocabulary plus the new copies (same bytes as their original).
    merges : list of (bytes, bytes)
        The base model's merges (unchanged).
    """

    def __init__(self, model: object, frequencies: Mapping[int, int], n_top: int, k: int, *,
                 seed: int | np.random.Generator | None = None) -> None:
        self.model = check_bpe_model(model)
        base_vocab = vocab_dict(model.vocab)
        n_top = check_int(n_top, "n_top", minimum=1, maximum=len(base_vocab),
                          why=" (the vocabulary size)")
        self.k = check_int(k, "k", minimum=2)
        self.n_top = n_top
        check_size((self.k - 1) * n_top, "k", item_bytes=PY_ENTRY_BYTES + 4 * 8,
                   what=f"{n_top:,} tokens times k - 1 new copies")
        self.duplicated: tuple[int, ...] = tuple(top_tokens(frequencies, n_top,
                                                            among=base_vocab))
        base = max(base_vocab) + 1
        size = base + (self.k - 1) * n_top
        self._original = np.arange(size, dtype=np.int64)
        self._slot = np.full(base, -1, dtype=np.int64)
        self._table = np.empty((n_top, self.k), dtype=np.int64)
        self.copies: dict[int, tuple[int, ...]] = {}
        self.vocab = dict(base_vocab)
        for r, t in enumerate(self.duplicated):
            new = list(range(base + r * (self.k - 1), base + (r + 1) * (self.k - 1)))
            self.copies[t] = (t, *new)
            self._table[r] = self.copies[t]
            self._slot[t] = r
            self._original[new] = t
            for i in new:
                self.vocab[i] = base_vocab[t]
        self._known = np.zeros(size, dtype=bool)
        self._known[list(self.vocab)] = True
        self.merges = list(model.merges)
        self._rng = as_generator(seed)

    def substitute(self, ids: Sequence[int], seed: int | np.random.Generator | None = None
                   ) -> list[int]:
        """``SUB`` (Eq. 16) on a base encoding: each duplicated id → a uniform copy."""
        arr = np.asarray(ids, dtype=np.int64)
        if arr.size == 0:
            return []
        if arr.ndim != 1 or arr.min() < 0 or arr.max() >= self._slot.size:
            raise InvalidValueError("ids must be a 1-D sequence of base vocabulary ids")
        rng = self._rng if seed is None else as_generator(seed)
        slot = self._slot[arr]
        hit = np.flatnonzero(slot >= 0)
        out = arr.copy()
        choice = rng.integers(0, self.k, size=hit.size)
        out[hit] = self._table[slot[hit], choice]
        return out.tolist()

    def encode(self, text: str, seed: int | np.random.Generator | None = None) -> list[int]:
        """Token ids of ``text`` with every duplicated token replaced by a random copy (Eq. 17).

        ``seed`` overrides the object's generator for this call only.
        """
        return self.substitute(self.model.encode(text), seed)

    def encode_chunks(self, chunks: Sequence[str],
                      seed: int | np.random.Generator | None = None) -> list[list[int]]:
        """One id list per chunk, copies drawn as :meth:`encode` draws them for the chunks in turn.

        The copies come from one draw over all chunks' tokens in order, so the result equals
        :meth:`encode` of the chunks' concatenation (for a base model that splits it back
        into the same chunks) from the same generator state.
        """
        parts = self.model.encode_chunks(chunks)
        flat = self.substitute([i for ids in parts for i in ids], seed)
        out, at = [], 0
        for ids in parts:
            out.append(flat[at:at + len(ids)])
            at += len(ids)
        return out

    def canonical(self, ids: Sequence[int]) -> list[int]:
        """The inverse map: every copy → its original base id (others unchanged)."""
        arr = np.asarray(ids, dtype=np.int64)
        if arr.size == 0:
            return []
        if arr.ndim != 1 or arr.min() < 0 or arr.max() >= self._original.size \
                or not self._known[arr].all():
            raise InvalidValueError("ids must be a 1-D sequence of ids of this model's vocabulary")
        return self._original[arr].tolist()

    def decode(self, ids: Sequence[int]) -> str:
        """Text of ``ids``: copies are mapped back (:meth:`canonical`), then the base decoder."""
        return self.model.decode(self.canonical(ids))

    def tokens(self, text: str) -> list[bytes]:
        """Surface forms of :meth:`encode` (identical to the base model's, by construction)."""
        return [self.vocab[i] for i in self.encode(text)]

    def __len__(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"DuplicationBPE(N={self.n_top}, k={self.k}, |V'|={len(self.vocab)}, "
                f"base |V|={len(self.vocab) - (self.k - 1) * self.n_top})")
