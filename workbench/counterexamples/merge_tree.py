"""The BPE model contract check and each token's merge: ``z = [x, y]`` as token ids.

The contract is :class:`workbench.interfaces.MergeModel`: ``.merges`` (ordered ``(left:
bytes, right: bytes)`` pairs), ``.vocab`` (id → bytes, a mapping or a sequence indexed by
id), ``.encode(text) -> list[int]``, ``.encode_chunks(chunks) -> list[list[int]]``,
``.decode(ids) -> str`` and ``.tokens(text) -> list[bytes]`` (as ``workbench.bpe.BPEModel``
does); :func:`check_bpe_model` refuses anything else. :class:`MergeTree` reads the merges
once: a token is *merged* if some merge produces its bytes (the first such merge is its
merge), otherwise *atomic* (a base byte, or a whole-chunk stop word that no merge builds).

This module does not encode text.

Example
-------
>>> class M:  # a minimal contract model over the alphabet {a, b}
...     merges = [(b"a", b"b"), (b"ab", b"b")]
...     vocab = {0: b"a", 1: b"b", 2: b"ab", 3: b"abb"}
...     def encode(self, text): raise NotImplementedError
...     encode_chunks = decode = tokens = encode
>>> tree = MergeTree(M())
>>> tree.parts(3), tree.parts(0), tree.is_merged(2)
((2, 1), None, True)
"""

from __future__ import annotations

from collections.abc import Mapping

from .._core.errors import ArgumentTypeError, InvalidValueError
from ..interfaces import MergeModel

__all__ = ["MergeTree", "check_bpe_model", "vocab_dict"]


def check_bpe_model(model: object) -> MergeModel:
    """Return ``model`` if it is a :class:`workbench.interfaces.MergeModel`, else ``TypeError``.

    >>> check_bpe_model(object())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.ArgumentTypeError: model must have .merges, ... (the BPE contract, ...), not a object
    """
    if not isinstance(model, MergeModel):
        raise ArgumentTypeError(
            "model must have .merges, .vocab, .encode, .encode_chunks, .decode, .tokens (the BPE "
            f"contract, workbench.interfaces.MergeModel), not a {type(model).__name__}")
    return model


def vocab_dict(vocab: object) -> dict[int, bytes]:
    """``vocab`` (a mapping id → bytes or a sequence indexed by id) as a dict.

    >>> vocab_dict([b"a", b"b"])
    {0: b'a', 1: b'b'}
    """
    items = vocab.items() if isinstance(vocab, Mapping) else enumerate(vocab)
    out = {}
    for i, b in items:
        if not isinstance(b, (bytes, bytearray)):
            raise ArgumentTypeError(f"vocab[{i}] must be bytes, not {type(b).__name__}")
        out[int(i)] = bytes(b)
    return out


class MergeTree:
    """Each merged token's two parts, as ids of the model's vocabulary.

    Parameters
    ----------
    model : MergeModel

    Attributes
    ----------
    vocab : dict[int, bytes]
        The model's vocabulary.
    id_of : dict[bytes, int]
        Bytes → the smallest id spelling them.
    """

    def __init__(self, model: object) -> None:
        check_bpe_model(model)
        self.vocab = vocab_dict(model.vocab)
        self.id_of: dict[bytes, int] = {}
        for i in sorted(self.vocab):
            self.id_of.setdefault(self.vocab[i], i)
        self._parts: dict[int, tuple[int, int]] = {}
        for rank, (left, right) in enumerate(model.merges):
            try:
                z, x, y = self.id_of[left + right], self.id_of[left], self.id_of[right]
            except KeyError as err:
                raise InvalidValueError(f"merge {rank} ({left!r}, {right!r}): {err.args[0]!r} is "
                                        "not in the vocabulary") from None
            self._parts.setdefault(z, (x, y))

    def parts(self, token: int) -> tuple[int, int] | None:
        """``(x, y)`` if ``token = [x, y]`` was made by a merge, else None (atomic)."""
        return self._parts.get(token)

    def is_merged(self, token: int) -> bool:
        """True iff some merge builds ``token`` (the paper's *non-atomic*)."""
        return token in self._parts

    def merged_ids(self) -> list[int]:
        """Every merged token id, ascending."""
        return sorted(self._parts)
