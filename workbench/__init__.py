"""Tokenisation Workbench: exact references, numba kernels and notebooks for subword tokenisation.

Start with :class:`Vocabulary` and :func:`count_segmentations`; the samplers live in
:mod:`workbench.grampa`, the closed forms and theorems in :mod:`workbench.theory`, the
trainers in :mod:`workbench.greedtok` (and the other paper packages), the metrics in
:mod:`workbench.metrics`. ARCHITECTURE.md maps the layers.
"""

from .counterexamples import DuplicationBPE, RandomDropBPE
from .grampa import Grampa, expected_efficiency, expected_token_counts
from .greedtok import GreedTokModel, train_greedtok
from .lattice import (
    Lattice,
    SegmentationError,
    count_segmentations,
    enumerate_segmentations,
)
from .metrics import (
    percentile_frequency,
    renyi_efficiency,
    renyi_entropy,
    sequence_length,
    shannon_entropy,
    unigram_counts,
)
from .segmenters import Multiplexer
from .vocab import Vocabulary, VocabularyFormatError

__all__ = [
    "DuplicationBPE",
    "Grampa",
    "GreedTokModel",
    "Lattice",
    "Multiplexer",
    "RandomDropBPE",
    "SegmentationError",
    "Vocabulary",
    "VocabularyFormatError",
    "count_segmentations",
    "enumerate_segmentations",
    "expected_efficiency",
    "expected_token_counts",
    "percentile_frequency",
    "renyi_efficiency",
    "renyi_entropy",
    "sequence_length",
    "shannon_entropy",
    "train_greedtok",
    "unigram_counts",
]
__version__ = "0.1.0"
