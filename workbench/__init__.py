"""Tokenisation Workbench: exact references, numba kernels and notebooks for subword tokenisation.

Start with :class:`Vocabulary` and :func:`count_segmentations`; the samplers live in
:mod:`workbench.grampa`, the closed forms and theorems in :mod:`workbench.theory`, the
trainers in :mod:`workbench.greedtok` (and the other paper packages), the metrics in
:mod:`workbench.metrics`. ARCHITECTURE.md maps the layers. Every error the package raises is
a :class:`WorkbenchError` (and the built-in a caller expects: a ``ValueError`` for a bad value,
a ``TypeError`` for a wrong type); the errors of each subject are public here.

Importing the package is cheap: the public names are resolved on first use (PEP 562), so
``import workbench`` and ``python -m workbench --help`` load neither numba nor the scientific
stack, and ``from workbench import Grampa`` imports only what :class:`Grampa` needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and IDEs only; at run time names load lazily
    from ._core.deprecation import WorkbenchDeprecationWarning
    from ._core.errors import (
        ArgumentTypeError,
        BudgetError,
        InvalidValueError,
        InvariantError,
        MissingDependencyError,
        MissingFileError,
        NotWritableError,
        UnknownNameError,
        WorkbenchError,
    )
    from ._core.jsonfile import JSONFileError
    from .bpe import (
        BPEModel,
        BPEModelFormatError,
        BPESampler,
        NotExpressibleError,
        export_hf,
        train_bpe,
    )
    from .bpe.blocks import TextDecodeError
    from .counterexamples import DuplicationBPE, RandomDropBPE
    from .counts import CountsFormatError
    from .grampa import Grampa, expected_efficiency, expected_token_counts
    from .greedtok import GreedTokModel, train_greedtok
    from .greedtok.encoder import GreedTokModelFormatError
    from .lattice import (
        Lattice,
        SegmentationError,
        count_segmentations,
        enumerate_segmentations,
    )
    from .laws import SegmentationLaw
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
        MarkovRejectionSampler,
        MaxMatchSampler,
        RejectionLimitError,
        StochasTokSampler,
        ULMSampler,
        UnigramRejectionSampler,
    )
    from .segmenters import DeterministicSegmenter, Multiplexer
    from .vocab import Vocabulary, VocabularyFormatError

_LAZY = {
    "ArgumentTypeError": "_core.errors",
    "BitRejectionSampler": "samplers",
    "BPEModel": "bpe",
    "BPEModelFormatError": "bpe",
    "BPESampler": "bpe",
    "BudgetError": "_core.errors",
    "count_segmentations": "lattice",
    "CountsFormatError": "counts",
    "DeterministicSegmenter": "segmenters",
    "DuplicationBPE": "counterexamples",
    "enumerate_segmentations": "lattice",
    "expected_efficiency": "grampa",
    "expected_token_counts": "grampa",
    "export_hf": "bpe",
    "Grampa": "grampa",
    "GreedTokModel": "greedtok",
    "GreedTokModelFormatError": "greedtok.encoder",
    "InvalidValueError": "_core.errors",
    "InvariantError": "_core.errors",
    "JSONFileError": "_core.jsonfile",
    "Lattice": "lattice",
    "MarkovRejectionSampler": "samplers",
    "MaxMatchSampler": "samplers",
    "MissingDependencyError": "_core.errors",
    "MissingFileError": "_core.errors",
    "NotWritableError": "_core.errors",
    "Multiplexer": "segmenters",
    "NotExpressibleError": "bpe",
    "percentile_frequency": "metrics",
    "RandomDropBPE": "counterexamples",
    "RejectionLimitError": "samplers",
    "renyi_efficiency": "metrics",
    "renyi_entropy": "metrics",
    "SegmentationError": "lattice",
    "SegmentationLaw": "laws",
    "sequence_length": "metrics",
    "shannon_entropy": "metrics",
    "StochasTokSampler": "samplers",
    "TextDecodeError": "bpe.blocks",
    "TextTokenizer": "pretokenise",
    "tokenize_corpus": "pretokenise",
    "train_bpe": "bpe",
    "train_greedtok": "greedtok",
    "ULMSampler": "samplers",
    "unigram_counts": "metrics",
    "UnigramRejectionSampler": "samplers",
    "UnknownNameError": "_core.errors",
    "Vocabulary": "vocab",
    "VocabularyFormatError": "vocab",
    "WorkbenchDeprecationWarning": "_core.deprecation",
    "WorkbenchError": "_core.errors",
}
"""Public name → the subpackage (relative to ``workbench``) that defines it."""

__all__ = [
    "ArgumentTypeError",
    "BPEModel",
    "BPEModelFormatError",
    "BPESampler",
    "BitRejectionSampler",
    "BudgetError",
    "CountsFormatError",
    "DeterministicSegmenter",
    "DuplicationBPE",
    "Grampa",
    "GreedTokModel",
    "GreedTokModelFormatError",
    "InvalidValueError",
    "InvariantError",
    "JSONFileError",
    "Lattice",
    "MarkovRejectionSampler",
    "MaxMatchSampler",
    "MissingDependencyError",
    "MissingFileError",
    "Multiplexer",
    "NotExpressibleError",
    "NotWritableError",
    "RandomDropBPE",
    "RejectionLimitError",
    "SegmentationError",
    "SegmentationLaw",
    "StochasTokSampler",
    "TextDecodeError",
    "TextTokenizer",
    "ULMSampler",
    "UnigramRejectionSampler",
    "UnknownNameError",
    "Vocabulary",
    "VocabularyFormatError",
    "WorkbenchDeprecationWarning",
    "WorkbenchError",
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


def __getattr__(name: str) -> Any:
    """Import the subpackage defining ``name`` on first access (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:  # a subpackage, as ``workbench.grampa`` after a bare ``import workbench``
        if name.startswith("_"):
            raise AttributeError(f"module 'workbench' has no attribute {name!r}")
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'workbench' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later accesses skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
