"""Serial and batched BPE training against the plain-Python references of naive/bpe.py."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import bpe as naive

from workbench.bpe import BPEExhaustedWarning, train_bpe

MODES = ("nonoverlapping", "overlapping")

# small alphabets make long runs, repeated pairs and ties likely
chunks = st.text(alphabet=st.sampled_from("aab bé€🙂"), min_size=1, max_size=9)
tables = st.dictionaries(chunks, st.integers(1, 7), min_size=1, max_size=12)


def _train(table, n, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BPEExhaustedWarning)
        return train_bpe(table, 256 + n, progress=False, **kw)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=80, deadline=None)
@given(table=tables, n=st.integers(1, 30))
def test_serial_equals_naive(mode, table, n):
    model = _train(table, n, batch=False, pair_counting=mode)
    assert model.merges == naive.train_serial(table, n, mode)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=80, deadline=None)
@given(table=tables, n=st.integers(1, 40), cap=st.integers(1, 3), mbs=st.integers(0, 4))
def test_batched_equals_code_block_1(mode, table, n, cap, mbs):
    model = _train(table, n, batch=True, pair_counting=mode, cap_divisor=cap,
                   max_batch_size=mbs)
    merges, sizes = naive.train_batched(table, n, mode, cap, mbs)
    assert model.merges == merges
    assert [b.size for b in model.batches] == sizes
    assert [m for b in model.batches for m in b.merges] == model.merges


@pytest.mark.parametrize("mode", MODES)
def test_wikipedia_example(mode):
    # aaabdaaabac: aa -> Z, ab -> Y, ZY -> X (Wikipedia's "Byte pair encoding")
    model = train_bpe({"aaabdaaabac": 1}, 259, batch=False, pair_counting=mode, progress=False)
    assert model.merges == [(b"a", b"a"), (b"a", b"b"), (b"aa", b"ab")]
    assert model.tokens("aaabdaaabac") == [b"aaab", b"d", b"aaab", b"a", b"c"]


def test_run_counting_modes_differ():
    # "aaaa" x1 + "ab" x... : a run of 4 holds 2 pairs (non-overlapping) or 3 (overlapping)
    table = {"aaaa": 1, "xy": 3}
    over = train_bpe(table, 257, batch=False, pair_counting="overlapping", progress=False)
    non = train_bpe(table, 257, batch=False, pair_counting="nonoverlapping", progress=False)
    assert over.merges == [(b"a", b"a")]
    assert non.merges == [(b"x", b"y")]


def test_ties_follow_hf_numbering():
    # equal counts: HF numbers bytes by the code point of their byte-level spelling, so the
    # space byte ('Ġ', U+0120) ranks after letters: (a, b) before (Ġ, q)
    model = train_bpe({" q": 3, "ab": 3, "zz": 3}, 259, batch=False, progress=False,
                      pair_counting="overlapping")
    assert model.merges == [(b"a", b"b"), (b"z", b"z"), (b" ", b"q")]


def test_batches_record_sizes_and_searched():
    # a chain abcdefgh makes every later pair of the first batch unsafe (continue-searching
    # still marks them); disjoint chunks batch together
    chain = train_bpe({"abcdefgh": 5}, 256 + 7, progress=False)
    assert chain.batches[0] == (1, 3, ((b"a", b"b"),))
    model = train_bpe({"ab": 5, "cd": 4, "ef": 3, "gh": 2}, 256 + 4, progress=False)
    assert [b.size for b in model.batches] == [2, 1, 1]
    assert all(1 <= b.size <= b.searched for b in model.batches)
