"""RANDOM-DROP BPE (Cognetta et al. 2024, §4.1, Eqs. 4–5).

Pick ``k`` tokens at random (seeded) among the ``N`` most frequent *merged* tokens; call them
``D``. Tokenise with the unchanged BPE model, then replace every token by ``DEC(t)``::

    DEC(z) = DEC(x) DEC(y)   if z = [x, y] and z ∈ D,      z otherwise        (Eq. 4)

so a dropped token is split along its merge, recursively, until no part is in ``D``. It is
deterministic once ``D`` is chosen, and the surface text is unchanged (``decode`` round-trips).
Figure 2's example: ``D = {ENCOD, COD}`` turns ``ENCOD -ING`` into ``EN -CO -D -ING``.

The expansion of each token is precomputed as one flat table, and a sequence is expanded
with a vectorised gather (no Python loop per token).

This module does not train BPE and does not pick ``N``/``k`` for you.

Example
-------
>>> class M:  # "abab" -> [abab]; merges a+b, ab+ab
...     merges = [(b"a", b"b"), (b"ab", b"ab")]
...     vocab = {0: b"a", 1: b"b", 2: b"ab", 3: b"abab"}
...     def encode(self, text): return [3] if text == "abab" else []
...     def encode_chunks(self, chunks): return [self.encode(c) for c in chunks]
...     def decode(self, ids): return b"".join(self.vocab[i] for i in ids).decode()
...     def tokens(self, text): return [self.vocab[i] for i in self.encode(text)]
>>> rd = RandomDropBPE(M(), {3: 5, 2: 1}, n_top=2, k=2, seed=0)
>>> rd.encode("abab"), rd.tokens("abab"), rd.decode(rd.encode("abab"))
([0, 1, 0, 1], [b'a', b'b', b'a', b'b'], 'abab')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numpy as np

from .._core.errors import InvalidValueError
from .._core.seeds import as_generator
from .._core.validate import check_int
from ..textlevel import TextLevelTokenizer, encode_each
from .merge_tree import MergeTree, check_bpe_model
from .ranking import top_tokens

__all__ = ["RandomDropBPE", "expand_ids"]


def expand_ids(ids: np.ndarray, offsets: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Concatenate ``flat[offsets[t]:offsets[t+1]]`` for every ``t`` in ``ids`` (a gather).

    >>> expand_ids(np.array([1, 0]), np.array([0, 1, 3]), np.array([7, 8, 9]))
    array([8, 9, 7])
    """
    starts, lengths = offsets[ids], offsets[ids + 1] - offsets[ids]
    total = int(lengths.sum())
    # position j of the output reads flat[start of its token + rank of j inside that token]
    shift = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return flat[np.arange(total, dtype=np.int64) + shift]


class RandomDropBPE(TextLevelTokenizer):
    """A BPE model whose tokens in ``D`` are decomposed along their merges after encoding.

    Deterministic once built; it speaks the text-level contract
    (:class:`workbench.textlevel.TextLevelTokenizer`) over the vocabulary ``V'``.

    Parameters
    ----------
    model : MergeModel
        Any :class:`workbench.interfaces.MergeModel` (e.g. ``workbench.bpe``'s ``BPEModel``).
    frequencies : mapping id → count
        How often the model emits each token on a reference corpus (see
        :func:`~workbench.counterexamples.token_frequencies`); it defines the "top N".
    n_top : int
        ``N``: candidates are the ``N`` most frequent merged tokens (ties: smaller id). ``N``
        above the number of merged tokens means all of them.
    k : int
        ``|D|``, ``1 <= k <= min(N, merged tokens)``.
    seed : int or numpy.random.Generator, optional
        Chooses ``D`` (uniformly among the candidates, without replacement).

    Attributes
    ----------
    dropped : frozenset[int]
        ``D`` as token ids.
    merges : list of (bytes, bytes)
        The base model's merges (still all applied, Algorithm 1, before decomposition).
    vocab : dict[int, bytes]
        The base vocabulary without ``D`` (ids unchanged).
    """

    def __init__(self, model: object, frequencies: Mapping[int, int], n_top: int, k: int, *,
                 seed: int | np.random.Generator | None = None) -> None:
        self.model = check_bpe_model(model)
        tree = MergeTree(model)
        n_top = check_int(n_top, "n_top", minimum=1)
        merged = tree.merged_ids()
        candidates = top_tokens(frequencies, n_top, among=merged)
        k = check_int(k, "k", minimum=1, maximum=len(candidates),
                      why=f" (only {len(candidates)} merged candidates among the top {n_top})")
        rng = as_generator(seed)
        chosen = rng.choice(np.asarray(candidates, dtype=np.int64), size=k, replace=False)
        self.n_top, self.k = n_top, k
        self.candidates: tuple[int, ...] = tuple(candidates)
        self.dropped: frozenset[int] = frozenset(int(i) for i in chosen)
        self.merges = list(model.merges)
        self.vocab = {i: b for i, b in tree.vocab.items() if i not in self.dropped}
        self._tree = tree
        self._offsets, self._flat = self._expansion_table(tree)

    def decompose(self, token: int) -> tuple[int, ...]:
        """``DEC(token)`` (Eq. 4) as a tuple of ids.

        Iterative (no recursion limit): a stack of pending parts, left part on top.
        """
        out: list[int] = []
        stack = [int(token)]
        while stack:
            t = stack.pop()
            parts = self._tree.parts(t) if t in self.dropped else None
            if parts is None:
                out.append(t)
            else:
                stack.append(parts[1])
                stack.append(parts[0])
        return tuple(out)

    def _expansion_table(self, tree: MergeTree) -> tuple[np.ndarray, np.ndarray]:
        size = max(tree.vocab) + 1
        lengths = np.ones(size, dtype=np.int64)
        pieces: dict[int, tuple[int, ...]] = {t: self.decompose(t) for t in self.dropped}
        for t, p in pieces.items():
            lengths[t] = len(p)
        offsets = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        flat = np.empty(int(offsets[-1]), dtype=np.int64)
        flat[offsets[:-1][lengths == 1]] = np.flatnonzero(lengths == 1)
        for t, p in pieces.items():
            flat[offsets[t]:offsets[t + 1]] = p
        return offsets, flat

    def decompose_ids(self, ids: Sequence[int]) -> list[int]:
        """Eq. 5 on a base encoding: every id replaced by ``DEC`` of it."""
        arr = np.asarray(ids, dtype=np.int64)
        if arr.size == 0:
            return []
        if arr.ndim != 1 or arr.min() < 0 or arr.max() >= self._offsets.size - 1:
            raise InvalidValueError("ids must be a 1-D sequence of base vocabulary ids")
        return expand_ids(arr, self._offsets, self._flat).tolist()

    def encode(self, text: str) -> list[int]:
        """Token ids: the base model's encoding with every token replaced by ``DEC`` (Eq. 5)."""
        return self.decompose_ids(self.model.encode(text))

    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None
                     ) -> list[list[int]]:
        """One id list per text: the base model's ``encode_batch`` (on ``num_threads``
        threads, for a base model of the text-level contract), each with ``DEC`` applied."""
        return [self.decompose_ids(ids) for ids in encode_each(self.model, texts, num_threads)]

    def encode_chunks(self, chunks: Sequence[str]) -> list[list[int]]:
        """One id list per chunk: the base model's ``encode_chunks`` with ``DEC`` applied."""
        return [self.decompose_ids(ids) for ids in self.model.encode_chunks(chunks)]

    @property
    def token_bytes(self) -> Mapping[int, bytes]:
        """``V'``: every id's bytes, the dropped tokens left out (read-only)."""
        return MappingProxyType(self.vocab)

    def tokens(self, text: str) -> list[bytes]:
        """The encoding as bytes tokens."""
        vocab = self.vocab
        return [vocab[i] for i in self.encode(text)]

    def __len__(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return (f"RandomDropBPE(N={self.n_top}, k={self.k}, |V'|={len(self.vocab)}, "
                f"base |V|={len(self._tree.vocab)})")
