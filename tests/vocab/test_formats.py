"""The SentencePiece reader's fast path for the usual piece layout reads what the generic
protobuf decoder reads (``formats._usual_piece`` against ``formats._fields``)."""

from __future__ import annotations

import struct

import pytest

from workbench.datasets import sentencepiece_model_path
from workbench.vocab import formats


def _generic(message: bytes) -> dict:
    return {(f, w): v for f, w, v in formats._fields(message)}


@pytest.mark.parametrize("name", ["ulm-8k", "bpe-8k"])
def test_every_shipped_piece_reads_alike(name):
    raw = sentencepiece_model_path(name).read_bytes()
    seen = 0
    for field, wire, val in formats._fields(raw):
        if (field, wire) != (1, 2):
            continue
        usual = formats._usual_piece(val)
        assert usual is not None  # SentencePiece's own layout
        g = _generic(val)
        assert usual == (g[(1, 2)], g[(2, 5)], g.get((3, 0), formats._SP_NORMAL))
        seen += 1
    assert seen > 8000


def test_other_layouts_take_the_generic_decoder():
    score = struct.pack("<f", -1.5)
    usual = b"\x0a\x02ab\x15" + score
    assert formats._usual_piece(usual) == (b"ab", score, formats._SP_NORMAL)
    assert formats._usual_piece(usual + b"\x18\x04") == (b"ab", score, 4)
    for other in (b"\x15" + score + b"\x0a\x02ab",  # fields in another order
                  usual + b"\x18\x04\x18\x01",  # a field twice
                  usual + b"\x18\x80\x01",  # a two-byte type
                  b"\x0a\x80\x01" + b"a" * 128 + b"\x15" + score,  # a long piece
                  usual[:-1], b"", b"\x0a"):  # truncated
        assert formats._usual_piece(other) is None
