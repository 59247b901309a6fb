"""The small real data shipped in ``data/``: texts, word counts and ready-made vocabularies.

Read-only loaders (:mod:`.loaders`); the pipeline that rebuilds ``data/`` from raw archives is
:mod:`workbench.datasets.build` (``python -m workbench.datasets.build``), imported only on
demand.
"""

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
    "available_vocabularies",
    "english_words",
    "load_brown_tagged",
    "load_documents",
    "load_gpt2_merges",
    "load_text",
    "load_vocabulary",
    "load_word_counts",
    "sentencepiece_model_path",
]
