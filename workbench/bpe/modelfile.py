"""The JSON file of a BPE model: what :meth:`BPEModel.save` writes and ``load`` reads.

One document: ``format`` and ``version``, the split ``pattern``, training ``params``,
``stop_words`` as text, ``merges`` as pairs of tokens spelled in GPT-2's byte-level alphabet,
``merge_symbols`` (the merges as id pairs), ``batches`` as ``[size, searched]`` pairs,
``special_tokens`` and, for a model whose ids are not ``0..n-1``, ``ids``. Version 1 files
(without a pattern, ids or special tokens) load with the GPT-4 pattern.

Every malformed part is refused naming the file and its JSON path (through
:func:`workbench._core.jsonfile.read_json`). This module builds no model itself: the reader
takes the constructor (``build``) and calls it on what it read, so the model's own checks
run, with their errors blamed on the file.

Example
-------
>>> import json
>>> doc = json.loads(model_json(pattern="gpt4", params={}, stop_words=[" the"],
...                             merges=[(b"a", b"b")], merge_symbols=[[97, 98]],
...                             batches=[(1, 1)], special_tokens={}, ids=None))
>>> doc["format"], doc["version"], doc["merges"], "ids" in doc
('workbench-bpe', 2, [['a', 'b']], False)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from .._core.errors import InvalidValueError, public
from .._core.jsonfile import read_json
from .bytelevel import from_bytelevel, to_bytelevel

FORMAT = "workbench-bpe"
#: Version written by :func:`model_json` (2 added ``pattern``, ``ids``,
#: ``special_tokens``); :func:`read_model` reads versions 1 and 2.
FORMAT_VERSION = 2

M = TypeVar("M")


@public
class BPEModelFormatError(InvalidValueError):
    """A malformed model file; the message names the file."""


def model_json(*, pattern: str, params: dict | None, stop_words: Sequence[str],
               merges: Sequence[tuple[bytes, bytes]], merge_symbols: Any,
               batches: Sequence[tuple[int, int]], special_tokens: dict[str, int],
               ids: Any = None) -> str:
    """The model file's text (``ids`` only when they are not ``0..n-1``)."""
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "pattern": pattern,
        "params": params,
        "stop_words": list(stop_words),
        "merges": [[to_bytelevel(a), to_bytelevel(b)] for a, b in merges],
        "merge_symbols": np.asarray(merge_symbols).tolist(),
        "batches": [[size, searched] for size, searched in batches],
        "special_tokens": special_tokens,
    }
    if ids is not None:
        doc["ids"] = np.asarray(ids).tolist()
    return json.dumps(doc, ensure_ascii=False, indent=0)


def read_model(path: str | os.PathLike, build: Callable[..., M]
               ) -> tuple[M, list[tuple[int, int]]]:
    """``(build(merges, stop_words, params=…, merge_symbols=…, pattern=…, ids=…,
    special_tokens=…), batches)`` from the file at ``path``.

    ``batches`` are ``(size, searched)`` pairs whose sizes together cover at most the
    merges. Raises :class:`BPEModelFormatError` naming the file and the JSON path.
    """
    root = read_json(path, what="BPE model", error=BPEModelFormatError)
    if root.get("format", None).value != FORMAT:
        root.fail(f"is not a {FORMAT} file (no \"format\": \"{FORMAT}\")")
    version = root.get("version", 1)
    if version.value not in (1, FORMAT_VERSION) or type(version.value) is not int:
        version.fail(f"= {version.value!r:.20}: format version {version.value!r:.20} is "
                     f"not supported (this code reads 1..{FORMAT_VERSION})")
    merges = []
    for m in root.get("merges").list():
        with m.blame():
            merges.append(tuple(from_bytelevel(x.str()) for x in m.list(length=2)))
    stop = [w.str() for w in root.get("stop_words").list()]
    params = root.get("params", None).optional()
    symbols = root.get("merge_symbols", None).optional()
    if symbols is not None:
        symbols = [tuple(x.int(minimum=0) for x in pair.list(length=2))
                   for pair in symbols.list()]
    ids = root.get("ids", None).optional()
    if ids is not None:
        ids = [i.int(minimum=0) for i in ids.list()]
    specials = root.get("special_tokens", None).optional()
    if specials is not None:
        specials = {k: v.int(minimum=0) for k, v in specials.items()}
    pattern = root.get("pattern", "gpt4")
    with root.blame():
        model = build(merges, stop, params=None if params is None else params.dict(),
                      merge_symbols=symbols, pattern=pattern.str(), ids=ids,
                      special_tokens=specials)
    batches = []
    first = 0
    for b in root.get("batches", []).list():
        size, searched = (x.int(minimum=0) for x in b.list(length=2))
        if first + size > len(merges):
            b.fail(f"holds merges {first}..{first + size - 1}, but the model has "
                   f"{len(merges)}")
        batches.append((size, searched))
        first += size
    return model, batches
