"""The small real data shipped in ``data/``: texts, word counts and ready-made vocabularies.

Read-only loaders (:mod:`.loaders`); vocabularies by name for the CLI and the panels, and
from uploaded bytes or pasted tokens (:mod:`.catalog`); the pipeline that rebuilds ``data/``
from raw archives is :mod:`workbench.datasets.build` (``python -m workbench.datasets.build``),
imported only on demand.
"""

from .catalog import (
    FIGURE1_TOKENS,
    figure1_vocabulary,
    resolve_vocabulary,
    vocabulary_from_bytes,
    vocabulary_from_text,
    vocabulary_options,
)
from .loaders import (
    DATA_DIR,
    available_vocabularies,
    english_words,
    load_brown_tagged,
    load_documents,
    load_gpt2_merges,
    load_text,
    load_vocabulary,
    load_word_counts,
    sentencepiece_model_path,
)

__all__ = [
    "DATA_DIR",
    "FIGURE1_TOKENS",
    "available_vocabularies",
    "english_words",
    "figure1_vocabulary",
    "load_brown_tagged",
    "load_documents",
    "load_gpt2_merges",
    "load_text",
    "load_vocabulary",
    "load_word_counts",
    "resolve_vocabulary",
    "sentencepiece_model_path",
    "vocabulary_from_bytes",
    "vocabulary_from_text",
    "vocabulary_options",
]
