"""Real text to token ids as in the GRaMPa paper's §5.1–5.2.

Modules in reading order: :mod:`.rules` (P1, P2, :class:`Pretokeniser`), :mod:`.scan` (P1 + P2
of a whole block in one numba pass, :func:`scan_lines`), :mod:`.typos` (LD1 perturbation),
:mod:`.pipeline` (:class:`TextTokenizer`: multiplexing per P1 pretoken, ids),
:mod:`.corpus` (:func:`tokenize_corpus` on both cores; :func:`tokenize_corpus_dask`).

This package does not sample segmentations itself (:mod:`workbench.grampa`,
:mod:`workbench.samplers`).
"""

from .corpus import tokenize_corpus, tokenize_corpus_dask
from .pipeline import TextTokenizer
from .rules import Pretokeniser, p1, p2
from .scan import scan_lines
from .typos import perturb

__all__ = ["Pretokeniser", "TextTokenizer", "p1", "p2", "perturb", "scan_lines",
           "tokenize_corpus", "tokenize_corpus_dask"]
