"""Text to ids as in the GRaMPa paper's §5.2: P1 + P2, multiplexed per P1 pretoken.

:class:`TextTokenizer` turns lines of raw text into token ids: optional LD1 typos
(:mod:`.typos`), P1 and P2 (:mod:`.rules`), then per P1 pretoken a coin with bias ``p``
picks the stochastic sampler (GRaMPa or any :class:`workbench.interfaces.Sampler`) for all
of that pretoken's P2 pieces, or else the deterministic segmenter (unigram Viterbi or
longest match, :class:`workbench.segmenters.DeterministicSegmenter`): Algorithm 3 through
:meth:`workbench.Multiplexer.encode_code_points`, the P1 pretokens as its coin groups. Both
halves run as batch kernels over a whole block of lines, on flat code points from
:func:`.scan.scan_lines` (no Python string per piece). :meth:`TextTokenizer.encode_lines`
is deterministic given its ``seed``: the coins and the sampler draw from generators derived
from it, nothing else.

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

from .._core.errors import ArgumentTypeError
from .._core.seeds import as_generator
from .._core.validate import check_choice, check_probability
from ..interfaces import Sampler
from ..segmenters import DeterministicSegmenter, Multiplexer
from .scan import scan_lines
from .typos import perturb


class TextTokenizer:
    """Raw lines → ids: typos, P1, P2, and per-P1-pretoken multiplexing (§5.2).

    Parameters
    ----------
    stochastic : Sampler
        :class:`workbench.Grampa` or any :class:`workbench.interfaces.Sampler`, on a finite
        vocabulary; its vocabulary's alphabet decides P2's spelling and marker.
    p : float in [0, 1], default 0.5
        Multiplexing rate: the share of P1 pretokens the stochastic sampler tokenises.
    deterministic : {"viterbi", "longest"}, default "viterbi" if the vocabulary has scores
    typo_rate : float in [0, 1], default 0.0
        LD1 perturbation rate applied to every line first (0: none).
    """

    def __init__(self, stochastic: object, *, p: float = 0.5, deterministic: str | None = None,
                 typo_rate: float = 0.0) -> None:
        if not isinstance(stochastic, Sampler) or stochastic.vocab.is_infinite:
            raise ArgumentTypeError("stochastic must be a sampler (workbench.interfaces.Sampler) "
                                    "on a finite vocabulary")
        vocab = stochastic.vocab
        self.stochastic = stochastic
        self.vocab = vocab
        self.p = check_probability(p, "p")
        if deterministic is None:
            deterministic = "viterbi" if vocab.scores is not None else "longest"
        self.deterministic = check_choice(deterministic, "deterministic", ("viterbi", "longest"))
        self.typo_rate = check_probability(typo_rate, "typo_rate")
        self._segmenter = DeterministicSegmenter(vocab, self.deterministic)

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
            raise ArgumentTypeError("lines must be a sequence of str")
        lines = list(lines)
        rng = as_generator(seed)
        typo_seed, coin_seed, sample_seed = rng.integers(0, 2**63 - 1, size=3).tolist()
        if self.typo_rate > 0:
            lines = [perturb(line, self.typo_rate, np.random.default_rng([typo_seed, k]))
                     for k, line in enumerate(lines)]
        scanned = scan_lines(lines, self.vocab.alphabet)
        mux = Multiplexer(self._segmenter, self.stochastic.reseeded(sample_seed), self.p,
                          seed=coin_seed)
        ids, pretoken_offsets = mux.encode_code_points(scanned.code_points, scanned.offsets,
                                                       groups=scanned.sizes)
        first_pretoken = np.zeros(scanned.per_line.size + 1, dtype=np.int64)
        np.cumsum(scanned.per_line, out=first_pretoken[1:])
        return ids, pretoken_offsets[first_pretoken]

    def reseeded(self, seed: object) -> TextTokenizer:  # pragma: no cover - symmetry only
        """A copy (the tokenizer itself holds no randomness; seeds go to encode_lines)."""
        return copy.copy(self)
