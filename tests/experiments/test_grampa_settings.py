"""Exact BPE-dropout columns of Tables 7–8 (:func:`exact_words`): hand-computed laws, HF's
semantics against the reference, the state budget, the cache, errors."""

from __future__ import annotations

import math

import pytest

from workbench import Vocabulary
from workbench.experiments import grampa_settings as S
from workbench.experiments.grampa_settings import Setting, exact_words

#: Float agreement with hand-computed laws (sums of a few logs).
EXACT = 1e-12


def _h(*probs: float) -> float:
    return -sum(p * math.log2(p) for p in probs if p > 0)


@pytest.fixture
def vocab():
    # merges by score: a+b first, then ab+c (b+c is not a merge)
    return Vocabulary(["a", "b", "c", "ab", "abc"], scores=[0.0, 0.0, 0.0, -1.0, -2.0])


@pytest.mark.parametrize("semantics", S.BPE_LAW_SEMANTICS)
def test_two_piece_word_adds_entropies_and_multiplies_modes(vocab, semantics):
    s = Setting("BPE", "BPE", dropout=0.25)
    (h, e_m, mode), = exact_words(s, vocab, [("ab", "c")], semantics=semantics)
    # "ab": merged with 3/4, else (a, b); "c": one segmentation
    assert h == pytest.approx(_h(0.75, 0.25), abs=EXACT)
    assert e_m == pytest.approx(0.75 * 1 + 0.25 * 2 + 1, abs=EXACT)
    assert mode == pytest.approx(0.75, abs=EXACT)


def test_hf_equals_reference_without_stale_entries(vocab):
    # "abc" under the reference: a+b merges w.p. 3/4, then ab+c w.p. 3/4 -> abc 9/16,
    # (ab, c) 3/16, (a, b, c) 1/4. Under HF the queue holds (ab)@0 only; a dropped coin
    # stops the word (nothing stale to give another draw), so the law is the same here.
    s = Setting("BPE", "BPE", dropout=0.25)
    ref, hf = (exact_words(s, vocab, [("abc",)], semantics=m)[0] for m in ("reference", "hf"))
    assert ref[0] == pytest.approx(_h(9 / 16, 3 / 16, 1 / 4), abs=EXACT)
    assert ref[1] == pytest.approx(9 / 16 + 2 * 3 / 16 + 3 / 4, abs=EXACT)
    assert hf == pytest.approx(ref, abs=EXACT)


def test_hf_and_reference_differ_on_a_real_piece():
    from workbench.datasets import load_vocabulary

    v = load_vocabulary("bpe-8k")
    s = Setting("BPE", "BPE", dropout=0.1)
    hf, ref = (exact_words(s, v, [("▁the",)], semantics=m)[0] for m in ("hf", "reference"))
    # HF's stale heap entries give dropped pairs another draw: more mass on the mode
    assert 0.9 < hf[2] <= 1 and ref[2] < hf[2] and ref[0] > hf[0] > 0


def test_budget_refuses_per_piece_with_nan(vocab):
    s = Setting("BPE", "BPE", dropout=0.5)
    # "abc" reaches 3 segmentations, "ab" 2: max_states=2 refuses the first only
    out = exact_words(s, vocab, [("abc",), ("ab",), ("ab", "abc")], max_states=2)
    assert [math.isnan(r[0]) for r in out] == [True, False, True]
    assert out[1] == pytest.approx((1.0, 1.5, 0.5), abs=EXACT)
    # the reference semantics ignores max_states (its own budget is far larger)
    ref = exact_words(s, vocab, [("abc",)], semantics="reference", max_states=2)
    assert not math.isnan(ref[0][0])


def test_other_settings_ignore_semantics(vocab):
    g = Setting("ULM", "GRaMPa", tau=1.0)
    assert exact_words(g, vocab, [("abc",)], semantics="hf") == exact_words(
        g, vocab, [("abc",)], semantics="reference")
    det = Setting("BPE", "BPE")
    assert exact_words(det, vocab, [("abc",)], max_states=1) == [(0.0, 1.0, 1.0)]


def test_piece_laws_are_cached(vocab, monkeypatch):
    s = Setting("BPE", "BPE", dropout=0.3)
    first = exact_words(s, vocab, [("abc",)], semantics="reference")
    monkeypatch.setattr(S, "exact_piece", lambda *a: pytest.fail("recomputed"))
    assert exact_words(s, vocab, [("abc", "abc")], semantics="reference")[0] == pytest.approx(
        (2 * first[0][0], 2 * first[0][1], first[0][2] ** 2))


def test_errors(vocab):
    s = Setting("BPE", "BPE", dropout=0.1)
    with pytest.raises(ValueError, match="semantics"):
        exact_words(s, vocab, [("ab",)], semantics="sentencepiece")
    with pytest.raises(ValueError, match="max_states"):
        exact_words(s, vocab, [("ab",)], max_states=0)
    with pytest.raises(TypeError):
        exact_words(s, vocab, [("ab",)], max_states=1.5)
