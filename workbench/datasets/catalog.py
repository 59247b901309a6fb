"""Vocabularies by name: the catalog the CLI and the notebook panels offer, and resolution.

* :func:`vocabulary_options` — every vocabulary a dropdown or ``--vocab`` offers, as
  ``{name: loader}``: the shipped ones (:func:`.loaders.available_vocabularies`), then
  ``"infinite"`` and ``"figure-1"`` (:func:`figure1_vocabulary`, the small vocabulary of the
  GRaMPa paper's Figure 1);
* :func:`resolve_vocabulary` — the one input policy of the CLI and the panels: a name of the
  catalog, or else a vocabulary file (an unknown name lists the valid ones);
* :func:`vocabulary_from_bytes` and :func:`vocabulary_from_text` — a vocabulary from an
  uploaded file's bytes (parsed in memory, no temporary file) or from pasted tokens.

This module reads files only through :mod:`.loaders` and :meth:`Vocabulary.load` (uploads
are parsed in memory by :func:`workbench.vocab.formats.read_vocabulary_bytes`) and writes
none; it shows no widget (the upload box is
:func:`workbench.figures.panel.add_vocabulary_upload`) and does not segment words (see
:mod:`workbench.lattice`).

Example
-------
>>> list(vocabulary_options({"mine": Vocabulary(["a"])}))[-3:]
['infinite', 'figure-1', 'mine']
>>> resolve_vocabulary("figure-1").tokens[:5]
('G', 'R', 'A', 'M', 'P')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import lru_cache

from .._core.errors import ArgumentTypeError, InvalidValueError
from ..vocab import Vocabulary, VocabularyFormatError
from ..vocab.formats import read_vocabulary_bytes
from . import loaders

__all__ = [
    "FIGURE1_TOKENS",
    "figure1_vocabulary",
    "resolve_vocabulary",
    "vocabulary_from_bytes",
    "vocabulary_from_text",
    "vocabulary_options",
]

#: A vocabulary consistent with the caption of the paper's Figure 1 (``"GRAMPA"``): 16
#: segmentations, and with ``direction="r2l"`` the arcs M, AM, GRAM into node 4 leave nodes
#: with 4, 2 and 1 of node 4's 7 paths. The caption forces the first ten tokens; ``PA`` and
#: ``AMP`` are the first of the two smallest completions found by searching the other
#: substrings of the word (the other is ``PA``, ``AMPA``).
FIGURE1_TOKENS: tuple[str, ...] = (
    "G", "R", "A", "M", "P", "GR", "RA", "AM", "GRA", "GRAM", "PA", "AMP",
)


def figure1_vocabulary() -> Vocabulary:
    """The small vocabulary of :data:`FIGURE1_TOKENS`, named ``"figure-1"``.

    >>> from workbench import count_segmentations
    >>> count_segmentations("GRAMPA", figure1_vocabulary())
    16
    """
    return Vocabulary(FIGURE1_TOKENS, name="figure-1")


def vocabulary_options(
    extra: Mapping[str, Vocabulary] | None = None,
) -> dict[str, Callable[[], Vocabulary]]:
    """Vocabularies for a dropdown, as ``{name: loader}`` (loaders cache what they load).

    The shipped vocabularies come first (:func:`workbench.datasets.available_vocabularies`,
    loaded lazily with :func:`workbench.datasets.load_vocabulary`), then ``"infinite"``,
    ``"figure-1"`` (:func:`figure1_vocabulary`) and ``extra``. If the shipped files are not
    there, only the built-in entries are listed.

    Parameters
    ----------
    extra : dict {name: Vocabulary}, optional
        Added last, under their names.

    Returns
    -------
    dict {name: callable returning a Vocabulary}

    >>> opts = vocabulary_options()
    >>> opts["infinite"]().is_infinite, opts["figure-1"]() is opts["figure-1"]()
    (True, True)
    """
    options: dict[str, Callable[[], Vocabulary]] = {}
    try:
        for name in loaders.available_vocabularies():
            options[str(name)] = lru_cache(maxsize=1)(
                lambda name=name: loaders.load_vocabulary(name)
            )
    except (ImportError, FileNotFoundError):
        pass
    options["infinite"] = Vocabulary.infinite
    options["figure-1"] = lru_cache(maxsize=1)(figure1_vocabulary)
    for name, vocab in (extra or {}).items():
        options[name] = lambda vocab=vocab: vocab
    return options


def resolve_vocabulary(spec: str, options: Mapping[str, Callable[[], Vocabulary]] | None = None,
                       ) -> Vocabulary:
    """The vocabulary named ``spec`` in ``options`` (default :func:`vocabulary_options`),
    else the vocabulary file at path ``spec`` (:meth:`Vocabulary.load`).

    Parameters
    ----------
    spec : str
        A name of ``options`` or a path.
    options : dict {name: loader}, optional

    Returns
    -------
    Vocabulary

    Raises
    ------
    TypeError
        If ``spec`` is not a str.
    ValueError
        If ``spec`` is neither a name nor an existing file; the message lists the names.
    workbench.vocab.formats.VocabularyFormatError
        If the file is malformed (the message names file and problem).

    >>> resolve_vocabulary("infinite").is_infinite
    True
    >>> resolve_vocabulary("nope", {"a": lambda: Vocabulary(["a"])})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: unknown vocabulary 'nope': not a name ...; valid names: a
    """
    opts = vocabulary_options() if options is None else options
    if not isinstance(spec, str):
        raise ArgumentTypeError(f"vocabulary must be a name or a path, not {type(spec).__name__}")
    if spec in opts:
        return opts[spec]()
    if os.path.isfile(spec):
        return Vocabulary.load(spec)
    raise InvalidValueError(f"unknown vocabulary {spec!r}: not a name and no such file; valid "
                            f"names: {', '.join(opts)}")


def vocabulary_from_bytes(filename: str, data: bytes) -> Vocabulary:
    """A vocabulary from an uploaded file's name and bytes, parsed in memory.

    The format is detected from ``filename`` and the content, as :meth:`Vocabulary.load`
    does for a path: ``tokenizer.json``, SentencePiece ``.model``, GPT-2 ``encoder.json``,
    this package's ``.json`` or a plain token list. Nothing is written to disk.

    Parameters
    ----------
    filename : str
        The upload's name (only its suffix and stem matter; ``""`` reads as a token list).
    data : bytes-like

    Returns
    -------
    Vocabulary

    Raises
    ------
    workbench.vocab.formats.VocabularyFormatError
        If the file is malformed; the message names the upload and the problem.

    >>> vocabulary_from_bytes("mine.txt", "a\\nb\\nab\\n".encode()).tokens
    ('a', 'b', 'ab')
    """
    name = str(filename) if os.path.basename(str(filename)) else "upload.txt"
    spec = read_vocabulary_bytes(name, bytes(data))
    try:
        return Vocabulary(**spec)
    except VocabularyFormatError:
        raise
    except (TypeError, ValueError) as err:  # as Vocabulary.load: name the file
        raise VocabularyFormatError(f"{name}: invalid vocabulary ({err})") from err


def vocabulary_from_text(text: str) -> Vocabulary:
    """A vocabulary from pasted tokens, one per line (blank lines ignored; order kept).

    Raises
    ------
    TypeError
        If ``text`` is not a str.
    ValueError
        If no line holds a token.

    >>> vocabulary_from_text("ab\\n\\nc\\nab").tokens
    ('ab', 'c')
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be a str, not {type(text).__name__}")
    tokens = list(dict.fromkeys(line for line in text.splitlines() if line))
    if not tokens:
        raise InvalidValueError("no tokens: paste one token per line")
    return Vocabulary(tokens)
