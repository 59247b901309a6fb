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

from .._core.rng import as_generator
from .._core.validate import check_choice, check_probability
from ..grampa import Grampa
from ..segmenters.batch import encode_deterministic_code_points
from .rules import Pretokeniser
from .scan import Scanned, scan_lines
from .typos import perturb


def reseeded(sampler: object, seed: object) -> object:
    """A copy of ``sampler`` whose randomness comes from ``seed`` (Grampa or a TokenSampler)."""
    if isinstance(sampler, Grampa):
        return Grampa(sampler.vocab, sampler.tau, sampler.ell_min, sampler.direction, seed=seed)
    if hasattr(sampler, "reseeded"):
        return sampler.reseeded(seed)
    raise TypeError(f"cannot reseed a {type(sampler).__name__}: give it a reseeded(seed) method")


def _offsets(lengths: np.ndarray) -> np.ndarray:
    """``[0, cumsum(lengths)...]`` as int64."""
    out = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


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
        self.pretokeniser = Pretokeniser(vocab.alphabet)

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
        cps, piece_off, sizes = scanned.code_points, scanned.offsets, scanned.sizes
        heads = np.random.default_rng(coin_seed).random(len(sizes)) < self.p
        piece_heads = np.repeat(heads, sizes)
        piece_len = np.diff(piece_off)
        char_heads = np.repeat(piece_heads, piece_len)
        s_ids, s_off = self._stochastic_half(sample_seed, cps[char_heads],
                                             _offsets(piece_len[piece_heads]))
        d_ids, d_off = encode_deterministic_code_points(
            cps[~char_heads], _offsets(piece_len[~piece_heads]), self.vocab, self.deterministic)
        counts = np.zeros(piece_len.size, dtype=np.int64)
        counts[piece_heads] = np.diff(s_off)
        counts[~piece_heads] = np.diff(d_off)
        ids = np.empty(int(counts.sum()), dtype=np.int32)
        token_heads = np.repeat(piece_heads, counts)
        ids[token_heads] = s_ids
        ids[~token_heads] = d_ids
        per_line = scanned.per_line
        piece_at = np.concatenate(([0], np.cumsum(sizes)))  # pieces before pretoken k
        token_at = np.concatenate(([0], np.cumsum(counts)))  # tokens before piece k
        line_at = np.concatenate(([0], np.cumsum(per_line)))  # pretokens before line k
        offsets = token_at[piece_at[line_at]]
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
