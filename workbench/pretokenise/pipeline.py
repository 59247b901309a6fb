"""Text to ids as in the GRaMPa paper's §5.2: a pretokeniser, then Algorithm 3 per pretoken.

:class:`TextTokenizer` turns raw text into token ids: optional LD1 typos (:mod:`.typos`),
a pretokeniser, then per pretoken a coin with bias ``p`` picks the stochastic sampler
(GRaMPa or any :class:`workbench.interfaces.Sampler`) for all of that pretoken's pieces, or
else the deterministic segmenter (unigram Viterbi or longest match,
:class:`workbench.segmenters.DeterministicSegmenter`): Algorithm 3 through
:meth:`workbench.Multiplexer.encode_code_points`, the pretokens as its coin groups. Both
halves run as batch kernels over a whole block of lines, on flat code points (no Python
string per piece).

The pretokeniser is the paper's P1 + P2 (``pattern=None``, the default; :mod:`.rules`,
:func:`.scan.scan_lines`): NFKC, whitespace dropped, punctuation, contractions, digits and
hyphens isolated, a boundary marker before every pretoken. It rewrites the text, so
``decode`` gives the normalised text with a marker's space before every pretoken, and the
offsets of :meth:`TextTokenizer.encode_with_offsets` come from an alignment
(:mod:`.offsets`). With a split ``pattern`` (``"gpt4"``, ``"gpt2"`` or a regex, as
:class:`workbench.bpe.BPEModel`'s) every chunk is one pretoken, spelled in the vocabulary's
alphabet: nothing is lost (``decode(encode(text)) == text`` when the vocabulary spells every
chunk) and offsets are exact.

It speaks the text-level contract (:class:`workbench.textlevel.TextSampler`): ``encode``,
``encode_batch``, ``encode_with_offsets``, ``tokenize`` (tokens spelled as the vocabulary
spells them), ``decode``, ``token_bytes``, ``reseeded``. Randomness: one generator from
``seed``; text ``k`` of a batch draws its typos, coins and samples from stream ``k``, so
``encode(text)`` is ``encode_batch([text])[0]`` from the same state, and a per-call
``seed=s`` is ``reseeded(s)``. :meth:`TextTokenizer.encode_lines` is the fast flat form for a
block of lines (one stream for the block: it is what :func:`.corpus.tokenize_corpus` runs).

This module does not read files or run in parallel (:mod:`.corpus`).

Example
-------
>>> from workbench import Grampa, datasets
>>> v = datasets.load_vocabulary("ulm-8k")
>>> tok = TextTokenizer(Grampa(v, tau=5.0), p=0.0, seed=0)
>>> tok.tokenize("To be, or not to be")
['▁To', '▁be', '▁', ',', '▁or', '▁not', '▁to', '▁be']
>>> ids, offsets = tok.encode_with_offsets("To be, or")
>>> offsets
[(0, 2), (3, 5), (5, 5), (5, 6), (7, 9)]
>>> tok.decode(ids)
' To be , or'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.seeds import as_generator
from .._core.validate import check_choice, check_probability
from ..bpe.split_patterns import resolve_pattern, split_by
from ..interfaces import Sampler
from ..segmenters import DeterministicSegmenter, Multiplexer
from ..textlevel import TextSampler, as_texts, char_offsets, default_threads
from ..vocab.alphabets import spelled_bytes
from .offsets import p1p2_offsets
from .scan import Scanned, scan_lines
from .typos import perturb

__all__ = ["TextTokenizer"]


class _Encoded(NamedTuple):
    """One block's ids, per line and per pretoken (the typos applied: ``lines``)."""

    ids: np.ndarray  # int32
    line_offsets: np.ndarray  # int64, lines + 1
    pretoken_offsets: np.ndarray  # int64, pretokens + 1
    scanned: Scanned
    lines: list[str]


class TextTokenizer(TextSampler):
    """Raw text → ids: typos, a pretokeniser, and per-pretoken multiplexing (§5.2).

    Parameters
    ----------
    stochastic : Sampler
        :class:`workbench.Grampa` or any :class:`workbench.interfaces.Sampler`, on a finite
        vocabulary; its vocabulary's alphabet decides the spelling and the marker.
    p : float in [0, 1], default 0.5
        Multiplexing rate: the share of pretokens the stochastic sampler tokenises.
    deterministic : {"viterbi", "longest"}, default "viterbi" if the vocabulary has scores
    typo_rate : float in [0, 1], default 0.0
        LD1 perturbation rate applied to every text first (0: none).
    pattern : str, optional
        ``None`` (default): the paper's P1 + P2. Else a split pattern (``"gpt4"``,
        ``"gpt2"`` or a regex): each chunk is one pretoken.
    seed : int, numpy.random.Generator or None
        Every call draws its typos, coins and samples from this generator (the sampler's
        own generator is not used: it is reseeded per text).
    """

    def __init__(self, stochastic: object, *, p: float = 0.5, deterministic: str | None = None,
                 typo_rate: float = 0.0, pattern: str | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        if not isinstance(stochastic, Sampler) or stochastic.vocab.is_infinite:
            raise ArgumentTypeError("stochastic must be a sampler (workbench.interfaces.Sampler) "
                                    "on a finite vocabulary")
        super().__init__(seed)
        vocab = stochastic.vocab
        self.stochastic = stochastic
        self.vocab = vocab
        self.p = check_probability(p, "p")
        if deterministic is None:
            deterministic = "viterbi" if vocab.scores is not None else "longest"
        self.deterministic = check_choice(deterministic, "deterministic", ("viterbi", "longest"))
        self.typo_rate = check_probability(typo_rate, "typo_rate")
        self.pattern: str | None = None
        if pattern is not None:
            self.pattern, _, self._split = resolve_pattern(pattern)
        self._segmenter = DeterministicSegmenter(vocab, self.deterministic)

    def __repr__(self) -> str:
        extra = "" if self.pattern is None else f", pattern={self.pattern!r}"
        return (f"TextTokenizer({self.stochastic!r}, p={self.p}, "
                f"deterministic={self.deterministic!r}, typo_rate={self.typo_rate}{extra})")

    # ------------------------------------------------------------------ the block form
    def encode_lines(self, lines: Sequence[str], seed: int | np.random.Generator | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Ids of every line: ``(ids, offsets)``, line ``k``'s ids ``ids[offsets[k]:offsets[k+1]]``.

        The fast form for a block of lines (given without their newlines): one draw for the
        block, so line ``k``'s ids depend on the lines before it, unlike
        :meth:`encode_batch`. Deterministic given ``seed`` (int or Generator); without it,
        the draws come from the tokenizer's generator.
        """
        if isinstance(lines, str):
            raise ArgumentTypeError("lines must be a sequence of str")
        rng = self._rng if seed is None else as_generator(seed)
        done = self._encode_block(list(lines), rng)
        return done.ids, done.line_offsets

    def _encode_block(self, lines: list[str], rng: np.random.Generator) -> _Encoded:
        typo_seed, coin_seed, sample_seed = rng.integers(0, 2**63 - 1, size=3).tolist()
        if self.typo_rate > 0:
            lines = [perturb(line, self.typo_rate, np.random.default_rng([typo_seed, k]))
                     for k, line in enumerate(lines)]
        scanned = self._pretokenise(lines)
        mux = Multiplexer(self._segmenter, self.stochastic.reseeded(sample_seed), self.p,
                          seed=coin_seed)
        ids, pretoken_offsets = mux.encode_code_points(scanned.code_points, scanned.offsets,
                                                       groups=scanned.sizes)
        first_pretoken = np.zeros(scanned.per_line.size + 1, dtype=np.int64)
        np.cumsum(scanned.per_line, out=first_pretoken[1:])
        return _Encoded(ids, pretoken_offsets[first_pretoken], pretoken_offsets, scanned, lines)

    def _pretokenise(self, lines: list[str]) -> Scanned:
        """The pieces of every line, flat: P1 + P2, or one piece per chunk of the pattern."""
        if self.pattern is None:
            return scan_lines(lines, self.vocab.alphabet)
        chunks = [split_by(self.pattern, self._split, line) for line in lines]
        words = [self.vocab.to_alphabet(c) for cs in chunks for c in cs]
        flat = "".join(words)
        cps = np.frombuffer(flat.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        offsets = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum([len(w) for w in words], out=offsets[1:])
        return Scanned(cps.astype(np.int32), offsets, np.ones(len(words), dtype=np.int64),
                       np.array([len(cs) for cs in chunks], dtype=np.int64))

    # ------------------------------------------------------------------ the contract
    def encode(self, text: str, seed: int | np.random.Generator | None = None) -> list[int]:
        """The token ids of ``text``: ``encode_batch([text], seed=seed)[0]``."""
        return self.encode_batch([text], seed=seed)[0]

    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None,
                     seed: int | np.random.Generator | None = None) -> list[list[int]]:
        """One id list per text; text ``k``'s typos, coins and samples come from stream ``k``.

        ``num_threads`` is checked; the texts are encoded on this thread (for a corpus on
        many threads, :func:`workbench.pretokenise.tokenize_corpus`).
        """
        texts = as_texts(texts)
        default_threads(num_threads)
        return [self._encode_block([t], rng).ids.tolist()
                for t, rng in zip(texts, self._streams(len(texts), seed))]

    def encode_with_offsets(self, text: str, seed: int | np.random.Generator | None = None
                            ) -> tuple[list[int], list[tuple[int, int]]]:
        """The ids of ``text`` (as :meth:`encode`) and each token's character span in it.

        With a split pattern the spans are exact (a byte-level token that cuts a character
        covers all of it). Under P1 + P2 they come from aligning the tokens with the text
        (:mod:`.offsets`): a token that is only the boundary marker is an empty span where
        its pretoken starts. With ``typo_rate > 0`` the tokens spell a perturbed text, so
        there are no offsets into the one given (:class:`workbench.InvalidValueError`).
        """
        if not isinstance(text, str):
            raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
        if self.typo_rate > 0:
            raise InvalidValueError("no offsets with typo_rate > 0: the tokens spell a perturbed "
                                    "copy of the text, not the text")
        done = self._encode_block([text], self._streams(1, seed)[0])
        ids = done.ids.tolist()
        lengths = [len(t) for t in self.vocab.decode_ids(ids)]
        if self.pattern is not None:
            if self.vocab.alphabet == "byte-level":
                return ids, char_offsets(text, lengths)
            ends = np.cumsum(lengths, dtype=np.int64).tolist()
            return ids, [(e - n, e) for e, n in zip(ends, lengths)]
        cuts = done.pretoken_offsets.tolist()
        pieces, sizes = done.scanned.pieces(), done.scanned.sizes.tolist()
        pretokens, at = [], 0
        for n in sizes:
            pretokens.append("".join(pieces[at:at + n]))
            at += n
        return ids, p1p2_offsets(text, self.vocab.alphabet, pretokens,
                                 [lengths[a:b] for a, b in zip(cuts[:-1], cuts[1:])])

    def convert_ids_to_tokens(self, ids: Sequence[int]) -> list[str]:
        """Each id's token as the vocabulary spells it (``▁the``, ``Ġthe``)."""
        return self.vocab.decode_ids(self._checked_ids(ids))

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text`` as the vocabulary spells them (``▁the``, ``Ġthe``)."""
        return self.convert_ids_to_tokens(self.encode(text))

    @property
    def token_bytes(self) -> Mapping[int, bytes]:  # type: ignore[override]
        """Every id's bytes: the token unspelled (``▁`` and ``Ġ`` are spaces; read-only)."""
        return MappingProxyType(self._token_table)

    @cached_property
    def _token_table(self) -> dict[int, bytes]:
        alphabet = self.vocab.alphabet
        return {int(i): spelled_bytes(alphabet, t)
                for t, i in zip(self.vocab.tokens, self.vocab.ids.tolist())}

    def reseeded(self, seed: int | np.random.Generator | None) -> TextTokenizer:
        """A copy whose draws come from ``seed`` (as one built with it); ``self`` unchanged."""
        return super().reseeded(seed)

