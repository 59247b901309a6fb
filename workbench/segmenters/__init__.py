"""Deterministic segmenters and Algorithm 3's multiplexer.

* :mod:`.deterministic` — unigram Viterbi, longest match (MaxMatch), the default per vocabulary,
  and :class:`DeterministicSegmenter` (either, bound to a vocabulary: a
  :class:`workbench.interfaces.Segmenter`);
* :mod:`.batch` — their batch kernels to ids;
* :mod:`.multiplex` — :class:`Multiplexer`: a stochastic tokeniser with probability ``p``, else a
  deterministic one (GRaMPa §4.6), on words or on flat code points (the text pipeline). Every
  multiplexing in the package goes through it.

Stochastic samplers live in :mod:`workbench.grampa`.
"""

from .deterministic import (
    DeterministicSegmenter,
    default_segmenter,
    longest_match,
    unigram_viterbi,
)
from .multiplex import Multiplexer

__all__ = ["DeterministicSegmenter", "Multiplexer", "default_segmenter", "longest_match",
           "unigram_viterbi"]
