"""Tokenisation Workbench: exact references, numba kernels and notebooks for subword tokenisation.

Start with :class:`Vocabulary` and :func:`count_segmentations`; the samplers live in
:mod:`workbench.grampa`, the closed forms in :mod:`workbench.theory`.
"""

from .grampa import Grampa
from .lattice import (
    Lattice,
    SegmentationError,
    count_segmentations,
    enumerate_segmentations,
)
from .segmenters import Multiplexer
from .vocab import Vocabulary, VocabularyFormatError

__all__ = [
    "Grampa",
    "Lattice",
    "Multiplexer",
    "SegmentationError",
    "Vocabulary",
    "VocabularyFormatError",
    "count_segmentations",
    "enumerate_segmentations",
]
__version__ = "0.1.0"
