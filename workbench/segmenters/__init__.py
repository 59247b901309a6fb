"""Deterministic segmenters and Algorithm 3's multiplexer.

* :mod:`.deterministic` — unigram Viterbi, longest match (MaxMatch), the default per vocabulary;
* :mod:`.multiplex` — :class:`Multiplexer`: a stochastic tokeniser with probability ``p``, else a
  deterministic one (GRaMPa §4.6). Every multiplexing in the package goes through it.

Stochastic samplers live in :mod:`workbench.grampa`.
"""

from .deterministic import default_segmenter, longest_match, unigram_viterbi
from .multiplex import Multiplexer

__all__ = ["Multiplexer", "default_segmenter", "longest_match", "unigram_viterbi"]
