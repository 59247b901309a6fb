"""GreedTok training: equal to the exhaustive plain-Python reference, the invariant, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import greedtok as naive

from workbench.datasets import load_counts
from workbench.greedtok import GreedTokModel, train_greedtok, train_greedtok_run
from workbench.greedtok.candidates import WORD_BYTES_MAX

corpora = st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=9),
                          st.integers(1, 5), min_size=1, max_size=6)
mixed = st.dictionaries(st.text(alphabet="ab é", min_size=1, max_size=7),
                        st.integers(1, 3), min_size=1, max_size=5)


def quiet_train(counts, k, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return train_greedtok_run(counts, k, progress=False, **kw)


def weighted_tokens(model, counts):
    return sum(c * len(model.segment(w)) for w, c in counts.items())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora, st.integers(1, 10), st.integers(2, 6))
def test_equals_exhaustive_reference(counts, k, max_len):
    run = quiet_train(counts, k, max_token_length=max_len)
    tokens, gains, state = naive.greedtok(counts, k, max_len)
    assert run.model.tokens == tokens
    assert run.model.gains == gains
    for w in counts:  # encoder == training-time segmentation == the reference's
        assert run.model.segment(w) == naive.segmentation(w.encode(), state[w.encode()])


@settings(max_examples=40, deadline=None)
@given(mixed, st.integers(1, 8), st.integers(1, 3))
def test_multibyte_and_min_word_count(counts, k, min_count):
    run = quiet_train(counts, k, max_token_length=4, min_word_count=min_count)
    tokens, gains, _ = naive.greedtok(counts, k, 4, min_count)
    assert (run.model.tokens, run.model.gains) == (tokens, gains)


@settings(max_examples=60, deadline=None)
@given(corpora, st.integers(0, 12))
def test_invariant_gains_are_saved_tokens(counts, k):
    model = quiet_train(counts, k).model
    total_bytes = sum(c * len(w.encode()) for w, c in counts.items())
    assert sum(model.gains) == total_bytes - weighted_tokens(model, counts)


def test_paper_overlap_example_counts_aya_once():
    # App. D.1: in "ayaya" the token "aya" covers one of its two overlapping occurrences
    model = train_greedtok({"ayaya": 1, "xaya": 1}, 1, max_token_length=3, progress=False)
    assert model.tokens == [b"aya"] and model.gains == [2 + 2]
    assert model.segment("ayaya") == [b"aya", b"y", b"a"]


def test_ties_prefer_shorter_then_smaller_bytes():
    assert train_greedtok({"ba": 1, "ab": 1}, 1, progress=False).tokens == [b"ab"]
    # "abc" and "xy" both gain 2: the shorter wins although "abc" sorts first
    assert train_greedtok({"abc": 1, "xy": 2}, 1, progress=False).tokens == [b"xy"]
    # the order of the table never matters
    a = train_greedtok({"xyxy": 2, "yxz": 3, "zz": 1}, 3, progress=False)
    b = train_greedtok({"zz": 1, "yxz": 3, "xyxy": 2}, 3, progress=False)
    assert (a.tokens, a.gains) == (b.tokens, b.gains)


def test_stops_early_with_a_warning_when_candidates_run_out():
    with pytest.warns(UserWarning, match="no candidate token"):
        model = train_greedtok({"abc": 1}, 10, progress=False)
    assert model.tokens == [b"abc"] and model.gains == [2]
    with pytest.warns(UserWarning):  # nothing longer than one byte: no candidate at all
        assert train_greedtok({"a": 3, "b": 1}, 2, progress=False).tokens == []


def test_k_zero_and_min_word_count_drops_words():
    assert train_greedtok({"ab": 1}, 0, progress=False).tokens == []
    model = train_greedtok({"ab": 1, "cd": 5}, 1, min_word_count=2, progress=False)
    assert model.tokens == [b"cd"] and model.stats["words"] == 1


@pytest.mark.parametrize("counts, error", [
    ({}, ValueError),  # empty corpus
    ({"ab": 0}, ValueError),
    ({"ab": -2}, ValueError),
    ({"ab": 1.5}, TypeError),
    ({"ab": True}, TypeError),
    ({"ab": "3"}, TypeError),
    ({"\ud800x": 1}, ValueError),  # not encodable as UTF-8
])
def test_bad_counts(counts, error):
    with pytest.raises(error):
        train_greedtok(counts, 3, progress=False)


def test_bad_arguments_and_too_long_words():
    with pytest.raises(ValueError, match="at most"):
        train_greedtok({"a" * (WORD_BYTES_MAX + 1): 1}, 1, progress=False)
    with pytest.raises(TypeError):
        train_greedtok({"ab": 1}, 2.0, progress=False)
    with pytest.raises(ValueError):
        train_greedtok({"ab": 1}, -1, progress=False)
    with pytest.raises(ValueError):
        train_greedtok({"ab": 1}, 1, max_token_length=1, progress=False)
    with pytest.raises(ValueError, match="8 bits"):
        train_greedtok({"ab": 1}, 1, max_token_length=256, progress=False)
    with pytest.raises(ValueError):
        train_greedtok({"ab": 1}, 1, min_word_count=0, progress=False)


def test_reads_a_tsv_path(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("hello\t3\nhelp\t2\n", encoding="utf-8")
    model = train_greedtok(path, 2, progress=False)
    assert model.tokens == train_greedtok({"hello": 3, "help": 2}, 2, progress=False).tokens


def training_starts(run):
    """Token start positions (in the flat corpus) of the training-time segmentation."""
    corpus, marks = run.corpus, run.marks
    start = np.ones(corpus.buf.shape[0], dtype=bool)
    start[1:] = marks[:-1] == 0
    start[corpus.woff[:-1]] = True
    return np.flatnonzero(start)


def test_real_table_invariant_and_encoder_consistency():
    un = load_counts("un")  # its 20,000 most frequent words: ~1 s (all 105,505 take ~1 min)
    counts = dict(sorted(un.items(), key=lambda kv: -kv[1])[:20_000])
    run = train_greedtok_run(counts, 300, progress=False)
    model = run.model
    ids, offsets = model.encode_ids(list(counts))
    lengths = np.array([1] * 256 + [len(t) for t in model.tokens])[ids]
    enc_starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    np.testing.assert_array_equal(enc_starts, training_starts(run))  # every training word
    weights = np.array(list(counts.values()), dtype=np.int64)
    total_tokens = int(np.dot(np.diff(offsets), weights))
    total_bytes = sum(len(w.encode()) * c for w, c in counts.items())
    assert sum(model.gains) == total_bytes - total_tokens
    assert model.tokens[:4] == [b" the", b"tion", b" of", b" and"]


def test_model_round_trip(tmp_path):
    model = train_greedtok({"banana": 3, "bandana": 2}, 2, progress=False)
    model.save(tmp_path / "m.json")
    back = GreedTokModel.load(tmp_path / "m.json")
    assert (back.tokens, back.gains) == (model.tokens, model.gains)
