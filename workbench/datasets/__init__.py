"""The small real data shipped in ``data/``: texts, word counts and ready-made vocabularies.

Read-only loaders (:mod:`.loaders`); vocabularies by name for the CLI and the panels, and
from uploaded bytes or pasted tokens (:mod:`.catalog`); the corpus recipes (text → lines,
words, chunks) in :mod:`.corpora`; the pipeline that rebuilds ``data/`` from raw archives is
:mod:`workbench.datasets.build` (``python -m workbench.datasets.build``), imported only on
demand.
"""

from .catalog import (
    FIGURE1_TOKENS,
    figure1_vocabulary,
    resolve_vocabulary,
    vocabulary_from_bytes,
    vocabulary_from_text,
    vocabulary_options,
)
from .corpora import (
    first_words,
    greedtok_chunk_counts,
    greedtok_text_chunk_counts,
    letter_words,
    spell_words,
    split_chunk_counts,
    split_words,
    synthetic_words,
    text_lines,
    whitespace_word_counts,
)
from .loaders import (
    COUNT_TABLES,
    DATA_DIR,
    available_vocabularies,
    english_words,
    load_brown_tagged,
    load_counts,
    load_documents,
    load_gpt2_merges,
    load_text,
    load_vocabulary,
    load_word_counts,
    sentencepiece_model_path,
)

__all__ = [
    "COUNT_TABLES",
    "DATA_DIR",
    "FIGURE1_TOKENS",
    "available_vocabularies",
    "english_words",
    "figure1_vocabulary",
    "first_words",
    "greedtok_chunk_counts",
    "greedtok_text_chunk_counts",
    "letter_words",
    "load_brown_tagged",
    "load_counts",
    "load_documents",
    "load_gpt2_merges",
    "load_text",
    "load_vocabulary",
    "load_word_counts",
    "resolve_vocabulary",
    "sentencepiece_model_path",
    "spell_words",
    "split_chunk_counts",
    "split_words",
    "synthetic_words",
    "text_lines",
    "vocabulary_from_bytes",
    "vocabulary_from_text",
    "vocabulary_options",
    "whitespace_word_counts",
]
