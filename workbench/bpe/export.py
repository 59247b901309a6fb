"""Export a :class:`~workbench.bpe.model.BPEModel` as a HuggingFace ``tokenizer.json``.

The file uses only stock ``tokenizers`` components: pre-tokenizer ``Split`` on the model's
pattern (GPT-4, GPT-2 or the user regex; ``Isolated``) followed by ``ByteLevel`` without its
own regex, a ``BPE`` model whose vocabulary is spelled in GPT-2's byte-level alphabet with
this model's ids, a ``ByteLevel`` decoder, one *added token* per stop word (``normalized:
false``) and one per special token (``special: true``). HF ignores the ``id``
written with an added token: it takes the id of the model-vocabulary entry spelled like the
token's text, or else a new one at the end. So each stop word is also written into the model
vocabulary, spelled as its raw text (``" the"``, with a real space, which byte-level merges can
never produce), with its own id.

Known difference: HF matches added tokens anywhere in the text before splitting, while the
model matches a stop word only as a whole chunk. Texts in which every occurrence of a stop
word's string is a whole GPT-4 chunk (``" the"`` in ``"of the cat"``, not in ``" theory"``)
encode to the same ids (tested); others do not. A ``tokenizer.json`` vocabulary maps each
string to one id, so two cases are refused with ``ValueError``: two merges that made the same
bytes, and a stop word whose raw text is also the byte-level spelling of a token (``","`` is
byte 0x2C's spelling; ``"the"`` is that of the merged token ``the``) — train such models with
a stop list of chunks holding a space, newline or a character outside the byte-level
alphabet, or use the model itself. HF compiles the pattern with Oniguruma, not :mod:`regex`:
the GPT-4 and GPT-2 patterns give the same chunks (tested); a user regex must be valid in
both. HF matches special tokens in the text (the model's ``encode`` never produces them).

A :class:`~workbench.greedtok.GreedTokModel` is written as the equal BPE when its ranked
tokens are BPE-consistent (:meth:`BPEModel.from_greedtok`); otherwise no HF model type
reproduces Alg. 4 and :class:`~workbench.bpe.interop.NotExpressibleError` says why
(save it with ``GreedTokModel.save``; ``Vocabulary.load`` reads that file).

This module does not need ``tokenizers`` to write the file (only to load it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.io import check_output_path, write_atomic
from ..greedtok import GreedTokModel
from .bytelevel import to_bytelevel
from .model import BPEModel


def to_hf_json(model: BPEModel | GreedTokModel, *, pattern: str | None = None) -> dict:
    """The ``tokenizer.json`` document of ``model`` (a dict; see :func:`export_hf`).

    ``pattern`` is the split of a GreedTok model (default ``"gpt4"``); a BPE model has its
    own (``pattern`` must then be ``None``).

    >>> doc = to_hf_json(BPEModel([(b" ", b"t")], stop_words=[" the"]))
    >>> doc["model"]["vocab"]["Ġt"], doc["model"]["vocab"][" the"], doc["added_tokens"][0]["id"]
    (257, 256, 256)
    """
    if isinstance(model, GreedTokModel):
        model = BPEModel.from_greedtok(model, pattern="gpt4" if pattern is None else pattern)
    elif not isinstance(model, BPEModel):
        raise ArgumentTypeError("model must be a BPEModel or a GreedTokModel, not "
                                f"{type(model).__name__}")
    elif pattern is not None:
        raise InvalidValueError("pattern is only for GreedTok models; a BPEModel has its own "
                                f"({model.pattern!r:.40})")
    skip = set(model._stop_ids.values()) | set(model.special_tokens.values())
    vocab: dict[str, int] = {}
    for i, tok in model.vocab.items():
        if i in skip:
            continue
        key = to_bytelevel(tok)
        if key in vocab:
            raise InvalidValueError(f"two tokens (ids {vocab[key]} and {i}) are both {tok!r}; a "
                                    "tokenizer.json vocabulary cannot hold duplicates")
        vocab[key] = i
    clash = [w for w in model.stop_words if w in vocab]
    if clash:
        raise InvalidValueError(f"stop word(s) {clash[:5]!r} are spelled like byte-level tokens of "
                                "the vocabulary; HF would give them those tokens' ids (see "
                                "workbench.bpe.export)")
    clash = [w for w in model.special_tokens if w in vocab]
    if clash:
        raise InvalidValueError(f"special token(s) {clash[:5]!r} are spelled like byte-level "
                                "tokens of the vocabulary; HF would give them those tokens' ids")
    added = []
    for w, i in [*model._stop_ids.items(), *model.special_tokens.items()]:
        vocab[w] = i
        added.append({"id": i, "content": w, "single_word": False, "lstrip": False,
                      "rstrip": False, "normalized": False,
                      "special": w in model.special_tokens})
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": model.pattern_regex}, "behavior": "Isolated",
             "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
             "use_regex": False}]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                    "use_regex": False},
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab,
                  "merges": [[to_bytelevel(a), to_bytelevel(b)] for a, b in model.merges]},
    }


def export_hf(model: BPEModel | GreedTokModel, path: str | os.PathLike, *,
              pattern: str | None = None) -> Path:
    """Write ``model`` as a HuggingFace ``tokenizer.json`` at ``path``; return the path.

    Load it with ``tokenizers.Tokenizer.from_file(path)``. Raises ``ValueError`` if two
    merges of the model made the same bytes (see the module docstring), and
    :class:`~workbench.bpe.interop.NotExpressibleError` (a ``ValueError``) for a GreedTok
    model no HF model type reproduces; ``pattern`` is a GreedTok model's split.
    """
    check_output_path(path, "path")  # before any work
    doc = to_hf_json(model, pattern=pattern)
    return write_atomic(path, json.dumps(doc, ensure_ascii=False), name="path")
