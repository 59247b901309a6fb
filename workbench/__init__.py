"""Tokenisation Workbench: exact references, numba kernels and notebooks for subword tokenisation.

Start with :class:`Vocabulary` and :func:`count_segmentations`; the samplers live in
:mod:`workbench.grampa`, the closed forms and theorems in :mod:`workbench.theory`, the
trainers in :mod:`workbench.greedtok` (and the other paper packages), the metrics in
:mod:`workbench.metrics`. ARCHITECTURE.md maps the layers.
"""

from .bpe import BPEModel, export_hf, train_bpe
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
from .pretokenise import TextTokenizer, tokenize_corpus
from .samplers import (
    BitRejectionSampler,
    BPESampler,
    MarkovRejectionSampler,
    MaxMatchSampler,
    RejectionLimitError,
    ULMSampler,
    UnigramRejectionSampler,
)
from .segmenters import Multiplexer
from .vocab import Vocabulary, VocabularyFormatError

__all__ = [
    "BPEModel",
    "BPESampler",
    "BitRejectionSampler",
    "DuplicationBPE",
    "Grampa",
    "GreedTokModel",
    "Lattice",
    "MarkovRejectionSampler",
    "MaxMatchSampler",
    "Multiplexer",
    "RandomDropBPE",
    "RejectionLimitError",
    "SegmentationError",
    "TextTokenizer",
    "ULMSampler",
    "UnigramRejectionSampler",
    "Vocabulary",
    "VocabularyFormatError",
    "count_segmentations",
    "enumerate_segmentations",
    "expected_efficiency",
    "expected_token_counts",
    "export_hf",
    "percentile_frequency",
    "renyi_efficiency",
    "renyi_entropy",
    "sequence_length",
    "shannon_entropy",
    "tokenize_corpus",
    "train_bpe",
    "train_greedtok",
    "unigram_counts",
]
__version__ = "0.1.0"
