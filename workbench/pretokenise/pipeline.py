"""Text to ids as in the GRaMPa paper's §5.2: P1 + P2, multiplexed per P1 pretoken.

:class:`TextTokenizer` turns lines of raw text into token ids: optional LD1 typos
(:mod:`.typos`), P1 and P2 (:mod:`.rules`), then per P1 pretoken a coin with bias ``p``
picks the stochastic sampler (GRaMPa or any sampler with ``encode``) for all of that
pretoken's P2 pieces, or else the deterministic segmenter (unigram Viterbi or longest
match, :mod:`workbench.segmenters.batch`). Both halves run as batch kernels over a whole
block of lines, on flat code points from :func:`.scan.scan_lines` (no Python string per
piece). :meth:`TextTokenizer.encode_lines` is deterministic given its ``seed``: the
coins and the sampler draw from generators derived from it, nothing else.

This module does not read files or run in parallel (:mod:`.corpus`).

Example
-------
>>> from workbench import Grampa, datasets
>>> v = datasets.load_vocabulary("ulm-8k")
>>> tok = TextTokenizer(Grampa(v, tau=5.0), p=0.0)
>>> ids, offsets = tok.encode_lines(["To be, or not to be"], seed=0)
>>> v.decode_ids(ids)
['▁To', '▁be', '▁', ',', '▁or', '▁not', '▁to', '▁be']
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
from numba import njit

from .._core.config import JIT
from .._core.rng import as_generator
from .._core.validate import check_choice, check_probability
from ..grampa import Grampa
from ..segmenters.batch import encode_deterministic_code_points
from .scan import Scanned, scan_lines
from .typos import perturb


def reseeded(sampler: object, seed: object) -> object:
    """A copy of ``sampler`` whose randomness comes from ``seed`` (Grampa or a TokenSampler)."""
    if isinstance(sampler, Grampa):
        return Grampa(sampler.vocab, sampler.tau, sampler.ell_min, sampler.direction, seed=seed)
    if hasattr(sampler, "reseeded"):
        return sampler.reseeded(seed)
    raise TypeError(f"cannot reseed a {type(sampler).__name__}: give it a reseeded(seed) method")


@njit(**JIT)
def _split_into(cps, piece_off, sizes, heads, want, out, out_off):
    n_out = 0
    n_piece = 0
    out_off[0] = 0
    piece = 0
    for t in range(sizes.shape[0]):
        for _ in range(sizes[t]):
            if heads[t] == want:
                for i in range(piece_off[piece], piece_off[piece + 1]):
                    out[n_out] = cps[i]
                    n_out += 1
                n_piece += 1
                out_off[n_piece] = n_out
            piece += 1
    return n_out, n_piece


def _split(cps: np.ndarray, piece_off: np.ndarray, sizes: np.ndarray, heads: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pieces of pretokens with ``heads`` and of those without, each flat.

    >>> halves = _split(np.arange(5, dtype=np.int32), np.array([0, 1, 3, 5]),
    ...                 np.array([1, 2]), np.array([False, True]))
    >>> [h.tolist() for h in halves]
    [[1, 2, 3, 4], [0, 2, 4], [0], [0, 1]]
    """
    out = []
    for want in (True, False):
        flat = np.empty(cps.size, dtype=np.int32)
        off = np.empty(piece_off.size, dtype=np.int64)
        n_out, n_piece = _split_into(cps, piece_off, sizes, heads, want, flat, off)
        out += [flat[:n_out], off[:n_piece + 1]]
    return out[0], out[1], out[2], out[3]


@njit(**JIT)
def _merge(sizes, per_line, heads, s_ids, s_off, d_ids, d_off, ids, offsets):
    """Interleave the halves' ids in text order; ``offsets[k]``: tokens before line ``k``."""
    n = 0
    s_piece = 0
    d_piece = 0
    t = 0
    offsets[0] = 0
    for line in range(per_line.shape[0]):
        for _ in range(per_line[line]):
            for _ in range(sizes[t]):
                if heads[t]:
                    for k in range(s_off[s_piece], s_off[s_piece + 1]):
                        ids[n] = s_ids[k]
                        n += 1
                    s_piece += 1
                else:
                    for k in range(d_off[d_piece], d_off[d_piece + 1]):
                        ids[n] = d_ids[k]
                        n += 1
                    d_piece += 1
            t += 1
        offsets[line + 1] = n


class TextTokenizer:
    """Raw lines → ids: typos, P1, P2, and per-P1-pretoken multiplexing (§5.2).

    Parameters
    ----------
    stochastic : Grampa or sampler
        Finite vocabulary; has ``encode(words)``; its vocabulary's alphabet decides P2's
        spelling and marker.
    p : float in [0, 1], default 0.5
        Multiplexing rate: the share of P1 pretokens the stochastic sampler tokenises.
    deterministic : {"viterbi", "longest"}, default "viterbi" if the vocabulary has scores
    typo_rate : float in [0, 1], default 0.0
        LD1 perturbation rate applied to every line first (0: none).
    """

    def __init__(self, stochastic: object, *, p: float = 0.5, deterministic: str | None = None,
                 typo_rate: float = 0.0) -> None:
        vocab = getattr(stochastic, "vocab", None)
        if vocab is None or vocab.is_infinite or not hasattr(stochastic, "encode"):
            raise TypeError("stochastic must be a sampler with encode() on a finite vocabulary")
        self.stochastic = stochastic
        self.vocab = vocab
        self.p = check_probability(p, "p")
        if deterministic is None:
            deterministic = "viterbi" if vocab.scores is not None else "longest"
        self.deterministic = check_choice(deterministic, "deterministic", ("viterbi", "longest"))
        self.typo_rate = check_probability(typo_rate, "typo_rate")

    def __repr__(self) -> str:
        return (f"TextTokenizer({self.stochastic!r}, p={self.p}, "
                f"deterministic={self.deterministic!r}, typo_rate={self.typo_rate})")

    def encode_lines(self, lines: Sequence[str], seed: object = None
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Ids of every line: ``(ids, offsets)``, line ``k``'s ids ``ids[offsets[k]:offsets[k+1]]``.

        Line ``k`` (given without its newline) gets typos, P1, P2, coins and samples drawn
        from generators seeded by ``seed`` alone.
        """
        if isinstance(lines, str):
            raise TypeError("lines must be a sequence of str")
        lines = list(lines)
        rng = as_generator(seed)
        typo_seed, coin_seed, sample_seed = rng.integers(0, 2**63 - 1, size=3).tolist()
        if self.typo_rate > 0:
            lines = [perturb(line, self.typo_rate, np.random.default_rng([typo_seed, k]))
                     for k, line in enumerate(lines)]
        scanned = scan_lines(lines, self.vocab.alphabet)
        heads = np.random.default_rng(coin_seed).random(len(scanned.sizes)) < self.p
        halves = _split(scanned.code_points, scanned.offsets, scanned.sizes, heads)
        s_ids, s_off = self._stochastic_half(sample_seed, halves[0], halves[1])
        d_ids, d_off = encode_deterministic_code_points(halves[2], halves[3], self.vocab,
                                                        self.deterministic)
        ids = np.empty(s_ids.size + d_ids.size, dtype=np.int32)
        offsets = np.empty(scanned.per_line.size + 1, dtype=np.int64)
        _merge(scanned.sizes, scanned.per_line, heads, s_ids, s_off, d_ids, d_off, ids, offsets)
        return ids, offsets

    def _stochastic_half(self, seed: int, cps: np.ndarray, offsets: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
        sampler = reseeded(self.stochastic, seed)
        if isinstance(sampler, Grampa):
            return sampler.encode_code_points(cps, offsets)
        pieces = Scanned(cps, offsets, np.zeros(0, np.int64), np.zeros(0, np.int64)).pieces()
        return sampler.encode(pieces)

    def reseeded(self, seed: object) -> TextTokenizer:  # pragma: no cover - symmetry only
        """A copy (the tokenizer itself holds no randomness; seeds go to encode_lines)."""
        return copy.copy(self)
