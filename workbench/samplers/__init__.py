"""Baseline samplers with GRaMPa's interface: ``sample``, ``sample_many``, ``tokenize``, ``encode``.

Modules in reading order:

* :mod:`.interface` — the shared interface and batch checks;
* :mod:`.kernels`, :mod:`.rejection` — Markov, bit and unigram rejection samplers (GRaMPa
  paper §2, §3.2, Appendix B) on any vocabulary, with a trial guard;
* :mod:`.joint` — Appendix A.1 made numerical: exact distributions of plain Markov sampling on
  the unigram-weighted graph against the joint unigram probability.

This package does not implement GRaMPa itself (:mod:`workbench.grampa`).
"""

from .interface import TokenSampler, as_words
from .rejection import (
    BitRejectionSampler,
    MarkovRejectionSampler,
    RejectionLimitError,
    UnigramRejectionSampler,
)

__all__ = [
    "BitRejectionSampler",
    "MarkovRejectionSampler",
    "RejectionLimitError",
    "TokenSampler",
    "UnigramRejectionSampler",
    "as_words",
]
