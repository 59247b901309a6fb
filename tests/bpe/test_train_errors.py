"""Bad input to train_bpe: clear errors before any work, a warning when pairs run out."""

from __future__ import annotations

import warnings

import pytest

from workbench._core.validate import BudgetError
from workbench.bpe import BPEExhaustedWarning, train_bpe
from workbench.bpe import train as train_module
from workbench.bpe.train import select_chunks
from workbench.counts import CountsFormatError


def test_vocab_size_below_bytes_and_stop_words():
    with pytest.raises(ValueError, match="vocab_size must be >= 256"):
        train_bpe({"ab": 1}, 255)
    with pytest.raises(ValueError, match="vocab_size must be >= 259"):
        train_bpe({"ab": 1, "cd": 2, "ef": 3}, 258, stop_list_size=3)
    with pytest.raises(TypeError, match="vocab_size must be an int"):
        train_bpe({"ab": 1}, 300.0)


def test_empty_corpus(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        train_bpe({}, 300)
    empty = tmp_path / "empty.tsv"
    empty.write_text("")
    with pytest.raises(ValueError, match="empty corpus"):
        train_bpe(empty, 300)


def test_running_out_of_pairs_warns_and_stops():
    # BatchBPE's reference loops forever on train("ab ab", 300)
    for batch in (True, False):
        with pytest.warns(BPEExhaustedWarning, match="ran out of pairs after 2 merges"):
            m = train_bpe({"ab": 2, " ab": 1}, 300, batch=batch, progress=False)
        assert m.merges == [(b"a", b"b"), (b" ", b"ab")]
    with pytest.warns(BPEExhaustedWarning, match="after 1 merges"):
        m = train_bpe({"a": 5, "é": 2}, 300, progress=False)  # "é" is two bytes: one pair
    assert m.merges == [(b"\xc3", b"\xa9")]
    with pytest.warns(BPEExhaustedWarning, match="no chunk of two or more bytes"):
        train_bpe({"a": 5, "b": 2}, 300, progress=False)


def test_exact_size_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = train_bpe({"abc": 3}, 258, progress=False)
    assert len(m) == 258


@pytest.mark.parametrize("table,exc,msg", [
    ({"ab": 0}, ValueError, "must be positive"),
    ({"ab": -3}, ValueError, "must be positive"),
    ({"ab": 2.0}, TypeError, "must be an int"),
    ({"ab": True}, TypeError, "must be an int"),
    ({b"ab": 1}, TypeError, "must be a str"),
    ({"": 1}, ValueError, "empty string"),
])
def test_bad_counts(table, exc, msg):
    with pytest.raises(exc, match=msg):
        train_bpe(table, 300)


def test_malformed_tsv_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text(" the\t5\n of\tfive\n", encoding="utf-8")
    with pytest.raises(CountsFormatError, match=r"bad.tsv, line 2"):
        train_bpe(bad, 300)


def test_lone_surrogate_chunk():
    with pytest.raises(ValueError, match="lone surrogate"):
        train_bpe({"a\udc80b": 2, "ab": 1}, 300, progress=False)


def test_budget_error_before_allocating(monkeypatch):
    monkeypatch.setattr(train_module, "MEMORY_BUDGET", 10_000)
    with pytest.raises(BudgetError, match="BPE training state"):
        train_bpe({"x" * 200: 1}, 300, progress=False)


@pytest.mark.parametrize("kw,exc", [
    ({"pair_counting": "both"}, ValueError), ({"cap_divisor": 0}, ValueError),
    ({"max_batch_size": -1}, ValueError), ({"freq_cutoff": 0}, ValueError),
    ({"stop_list_size": -1}, ValueError), ({"batch": 1}, TypeError),
    ({"progress": "yes"}, TypeError), ({"freq_cutoff": 100}, ValueError),
    ({"stop_list_size": 5}, ValueError),
])
def test_bad_arguments(kw, exc):
    with pytest.raises(exc):
        train_bpe({"ab": 3, "cd": 1}, 600, **kw)


def test_stop_words_and_cutoff():
    stop, kept = select_chunks({" the": 9, " a": 9, "x": 1, "yz": 3, "q": 2}, 2, 2)
    assert stop == [" a", " the"] and kept == {"yz": 3, "q": 2}
    m = train_bpe({" the": 50, " theory": 2, "rare": 1}, 260, stop_list_size=1, freq_cutoff=2,
                  progress=False)
    assert m.stop_words == [" the"] and m.encode(" the") == [256]
    assert all(b"rare" not in a + b for a, b in m.merges)
    assert m.vocab[257] == m.merges[0][0] + m.merges[0][1]
