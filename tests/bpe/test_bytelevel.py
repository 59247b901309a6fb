"""GPT-2's byte-level alphabet: the tables and the batched inverse."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.bpe.bytelevel import (
    BYTE_TO_CHAR,
    CHAR_TO_BYTE,
    HF_BYTE_RANK,
    from_bytelevel,
    from_bytelevel_many,
    to_bytelevel,
)


def test_tables():
    assert len(set(BYTE_TO_CHAR)) == 256 and CHAR_TO_BYTE[BYTE_TO_CHAR[32]] == 32
    assert BYTE_TO_CHAR[32] == "Ġ" and BYTE_TO_CHAR[ord("a")] == "a"
    order = sorted(range(256), key=lambda b: ord(BYTE_TO_CHAR[b]))
    assert [order.index(b) for b in range(256)] == list(HF_BYTE_RANK)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.binary(max_size=12), max_size=6))
def test_many_is_the_one_by_one_inverse(raw):
    spelled = [to_bytelevel(b) for b in raw]
    assert from_bytelevel_many(spelled) == [from_bytelevel(s) for s in spelled] == raw


@pytest.mark.parametrize("bad", [" ", "a b", "\n", "\x7f", "\xad", "Ȁ", "😀", "\udc80"])
def test_many_refuses_what_one_by_one_refuses(bad):
    with pytest.raises(ValueError) as one:
        from_bytelevel(bad)
    with pytest.raises(ValueError) as many:
        from_bytelevel_many(["ok", "Ġx", bad, "y"])
    assert str(many.value) == str(one.value)
