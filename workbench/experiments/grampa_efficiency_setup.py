"""The two tokeniser families of GRaMPa's Figures 10–12 on one shipped text: :class:`Setup`.

Part of :mod:`.grampa_efficiency` (which re-exports :class:`Setup`, :func:`make_setup` and
:data:`KINDS`). The corpus is the text's whitespace-separated words with their counts
(:func:`workbench.datasets.corpora.whitespace_word_counts`; the paper splits its validation
set the same way), and every tokeniser segments the same words, spelled with the leading
space of their position (``▁word`` for SentencePiece, ``Ġword`` byte-level):

* **ulm** — the shipped ``ulm-8k`` SentencePiece unigram model: deterministic ULM (k = 1) is
  its Viterbi segmentation, stochastic ULM its ``nbest_size=-1`` sampling with smoothing α;
  GRaMPa runs over its vocabulary.
* **bpe** — our byte-level BPE (:func:`.training.train_serial_bpe`) trained on the same
  words, BPE-dropout its :meth:`~workbench.bpe.BPEModel.encode_chunks` with ``dropout = p_d``;
  GRaMPa runs over :meth:`~workbench.bpe.BPEModel.to_vocabulary`.

Every count array is indexed by token id, one slot per id up to the largest: a vocabulary
with sparse, huge ids is refused (:class:`~workbench._core.validate.BudgetError`, when the
:class:`Setup` is made) where one count's arrays would pass the memory budget.

This module computes no efficiency and samples nothing: it builds the corpus, the
vocabularies, the models and the deterministic baselines once per text (cached).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from .._core.validate import check_budget, check_choice, check_int
from ..datasets.corpora import whitespace_word_counts
from ..vocab import Vocabulary
from .training import train_serial_bpe

__all__ = ["KINDS", "Setup", "make_setup"]

KINDS = ("bpe", "ulm")
#: Bytes per id slot at the peak of one count: an int64 ``bincount``, its float64 copy and
#: one float64 temporary of E_α (:data:`Setup.size` is checked against the memory budget).
BYTES_PER_ID = 24


@dataclass(eq=False)
class Setup:
    """One tokeniser family on one word table: vocabulary, spellings, models, baselines.

    Attributes
    ----------
    kind : {"bpe", "ulm"}
    vocab : Vocabulary
        GRaMPa's vocabulary (and the ids every count array is indexed by).
    words, spelled : tuple of str
        Plain words and the same words in ``vocab``'s alphabet, with the leading space.
    counts : numpy.ndarray
        Occurrences of each word (int64).
    deterministic : tuple of tuple of str
        The deterministic tokeniser's tokens of each spelled word: BPE without dropout, or
        ULM's Viterbi segmentation (k = 1).
    model : BPEModel or sentencepiece.SentencePieceProcessor
    dropped : int
        Distinct words left out (ULM only: words SentencePiece would normalise or that are
        not segmentable by single-character tokens of the vocabulary).

    Raises
    ------
    BudgetError
        When ``vocab``'s largest id makes the count arrays (:attr:`size` slots of
        :data:`BYTES_PER_ID` bytes) exceed the memory budget.
    """

    kind: str
    vocab: Vocabulary
    words: tuple[str, ...]
    spelled: tuple[str, ...]
    counts: np.ndarray
    deterministic: tuple[tuple[str, ...], ...]
    model: Any = field(repr=False)
    dropped: int = 0

    def __post_init__(self) -> None:
        size = int(self.vocab.ids.max(initial=-1)) + 1
        check_budget(BYTES_PER_ID * size, f"count arrays by id (one slot per id up to the "
                     f"largest, {size - 1:,}, for {len(self.vocab):,} tokens)",
                     hint="; renumber the vocabulary's ids densely (ids=range(len(tokens)))")

    @cached_property
    def table(self) -> dict[str, int]:
        """Spelled word → count (what :func:`expected_token_counts` takes)."""
        return dict(zip(self.spelled, self.counts.tolist()))

    @cached_property
    def size(self) -> int:
        """Length of every count array: the largest id plus one (checked against the memory
        budget when the setup is made)."""
        return int(self.vocab.ids.max()) + 1

    @cached_property
    def occurrences(self) -> np.ndarray:
        """Word index of every occurrence, in table order (int64)."""
        return np.repeat(np.arange(len(self.words)), self.counts)

    @cached_property
    def deterministic_counts(self) -> np.ndarray:
        """Unigram counts of the deterministic tokeniser over the corpus."""
        index = dict(zip(self.vocab.tokens, self.vocab.ids.tolist()))
        out = np.zeros(self.size)
        for tokens, c in zip(self.deterministic, self.counts.tolist()):
            for t in tokens:
                out[index[t]] += c
        return out

    def segment(self, spelled_word: str) -> list[str]:
        """The deterministic tokeniser as a callable (for :class:`Multiplexer`)."""
        return list(self._lookup[spelled_word])

    @cached_property
    def _lookup(self) -> dict[str, tuple[str, ...]]:
        return dict(zip(self.spelled, self.deterministic))

    @property
    def n_tokens_deterministic(self) -> float:
        return float(self.deterministic_counts.sum())


@lru_cache(maxsize=8)
def make_setup(kind: str, text: str = "shakespeare", max_lines: int | None = None,
               bpe_size: int = 8192) -> Setup:
    """The :class:`Setup` of a family on a shipped text (cached: BPE training takes seconds).

    Parameters
    ----------
    kind : {"bpe", "ulm"}
    text : str
        A shipped text (:func:`workbench.datasets.load_text`).
    max_lines : int, optional
        Only the first non-blank lines (notebooks use a slice).
    bpe_size : int
        Vocabulary size of the BPE trained on the words (``kind="bpe"``); ULM is the
        shipped 8k model.
    """
    kind = check_choice(kind, "kind", KINDS)
    bpe_size = check_int(bpe_size, "bpe_size", minimum=257)
    table = whitespace_word_counts(text, max_lines)
    if kind == "bpe":
        model = train_serial_bpe({" " + w: c for w, c in table.items()}, bpe_size)
        vocab = model.to_vocabulary()
        words = tuple(table)
        ids = model.encode_chunks([" " + w for w in words])
        det = tuple(tuple(vocab.token_of(i) for i in seg) for seg in ids)
        spelled = tuple(vocab.to_alphabet(" " + w) for w in words)
        return Setup(kind, vocab, words, spelled, np.fromiter(table.values(), np.int64),
                     det, model)
    import sentencepiece as spm

    from .. import datasets

    vocab = datasets.load_vocabulary("ulm-8k")
    model = spm.SentencePieceProcessor(
        model_file=str(datasets.sentencepiece_model_path("ulm-8k")))
    singles = {t for t in vocab.tokens if len(t) == 1}
    keep_w, keep_s, keep_d, keep_c = [], [], [], []
    pieces = model.encode(list(table), out_type=str)
    for (w, c), seg in zip(table.items(), pieces):
        s = vocab.to_alphabet(" " + w)
        if "".join(seg) == s and set(s) <= singles and all(p in vocab for p in seg):
            keep_w.append(w)
            keep_s.append(s)
            keep_d.append(tuple(seg))
            keep_c.append(c)
    return Setup(kind, vocab, tuple(keep_w), tuple(keep_s), np.asarray(keep_c, np.int64),
                 tuple(keep_d), model, dropped=len(table) - len(keep_w))
