"""DUPLICATION BPE (Cognetta et al. 2024, §4.2, Eqs. 16–17).

The ``N`` most frequent tokens ``X`` each get ``k`` copies with the same surface form; after BPE,
every occurrence of a token of ``X`` is replaced by one of its ``k`` copies drawn uniformly and
independently (``SUB``, Eq. 16). Copy 1 is the original id; copies 2…k get new ids after the
base vocabulary: the ``r``-th token of ``X`` (by frequency rank) owns ids
``base + r·(k−1) … base + r·(k−1) + k−2`` where ``base = max id + 1``. So
``|V'| = |V| + (k−1)N`` and each duplicated token's unigram mass is split ``k`` ways (Theorems
4.2–4.3). :meth:`DuplicationBPE.canonical` is the inverse map (copy → original) used to
detokenise and evaluate.

Randomness (the text-level contract, :class:`workbench.textlevel.TextSampler`): the object
holds one generator, seeded when it is built. Every call draws one base seed from it; text
``k`` of :meth:`~DuplicationBPE.encode_batch` draws its copies from stream ``k`` of that seed,
in token order, so ``encode(text)`` is ``encode_batch([text])[0]`` from the same state and the
same seed and calls give the same ids in every process, thread count and batching. A per-call
``seed=`` means ``reseeded(seed)`` for that call: ``d.encode(text, seed=s) ==
d.reseeded(s).encode(text)``, and ``d``'s own generator is not touched.

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
[3, 2, 2, 2, 1]
>>> d.canonical(ids), d.decode(ids)
([0, 0, 0, 0, 1], 'aaaab')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import PY_ENTRY_BYTES, check_int, check_size
from ..textlevel import TextSampler, encode_each
from .merge_tree import check_bpe_model, vocab_dict
from .ranking import top_tokens

__all__ = ["DuplicationBPE"]


class DuplicationBPE(TextSampler):
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
        super().__init__(seed)

    def substitute(self, ids: Sequence[int], seed: int | np.random.Generator | None = None
                   ) -> list[int]:
        """``SUB`` (Eq. 16) on a base encoding: each duplicated id → a uniform copy.

        The copies come from one stream (that of a one-text batch); ``seed`` as everywhere.
        """
        return self._substitute(self._base_ids(ids), self._streams(1, seed)[0])

    def _base_ids(self, ids: Sequence[int]) -> np.ndarray:
        arr = np.asarray(ids, dtype=np.int64)
        if arr.size and (arr.ndim != 1 or arr.min() < 0 or arr.max() >= self._slot.size):
            raise InvalidValueError("ids must be a 1-D sequence of base vocabulary ids")
        return arr

    def _substitute(self, arr: np.ndarray, rng: np.random.Generator) -> list[int]:
        if arr.size == 0:
            return []
        slot = self._slot[arr]
        hit = np.flatnonzero(slot >= 0)
        out = arr.copy()
        choice = rng.integers(0, self.k, size=hit.size)
        out[hit] = self._table[slot[hit], choice]
        return out.tolist()

    def encode(self, text: str, seed: int | np.random.Generator | None = None) -> list[int]:
        """Token ids of ``text`` with every duplicated token replaced by a random copy (Eq. 17).

        ``encode_batch([text], seed=seed)[0]``.
        """
        return self.encode_batch([text], seed=seed)[0]

    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None,
                     seed: int | np.random.Generator | None = None) -> list[list[int]]:
        """One id list per text; text ``k``'s copies come from stream ``k`` of one draw.

        The base model encodes on ``num_threads`` threads (a base model of the text-level
        contract; else text by text); ``seed`` as everywhere (see the module docstring).
        """
        base = encode_each(self.model, texts, num_threads)
        streams = self._streams(len(texts), seed)
        return [self._substitute(np.asarray(ids, dtype=np.int64), rng)
                for ids, rng in zip(base, streams)]

    def encode_chunks(self, chunks: Sequence[str],
                      seed: int | np.random.Generator | None = None) -> list[list[int]]:
        """One id list per chunk, copies drawn as :meth:`encode` draws them for the chunks in turn.

        The copies come from one stream over all chunks' tokens in order, so the result equals
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

    @property
    def token_bytes(self) -> Mapping[int, bytes]:
        """``V'``: every id's bytes, each copy with its original's (read-only)."""
        return MappingProxyType(self.vocab)

    def canonical(self, ids: Sequence[int]) -> list[int]:
        """The inverse map: every copy → its original base id (others unchanged)."""
        arr = np.asarray(ids, dtype=np.int64)
        if arr.size == 0:
            return []
        if arr.ndim != 1 or arr.min() < 0 or arr.max() >= self._original.size \
                or not self._known[arr].all():
            raise InvalidValueError("ids must be a 1-D sequence of ids of this model's vocabulary")
        return self._original[arr].tolist()

    def tokens(self, text: str) -> list[bytes]:
        """Surface forms of :meth:`encode` (identical to the base model's, by construction)."""
        return [self.vocab[i] for i in self.encode(text)]

    def __len__(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"DuplicationBPE(N={self.n_top}, k={self.k}, |V'|={len(self.vocab)}, "
                f"base |V|={len(self.vocab) - (self.k - 1) * self.n_top})")
