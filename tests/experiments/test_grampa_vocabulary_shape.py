"""workbench.experiments.grampa_vocabulary_shape (GRaMPa Figures 7 and 9, notebook 07) against
enumeration (tests/naive/baselines.py) and closed forms.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from fixtures import SCORES, SMALL, TOKENS, TOL, WORDS  # noqa: E402
from naive import baselines as naive  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.experiments import grampa_vocabulary_shape as vs  # noqa: E402


# --------------------------------------------------------------------------- Figure 7
def test_length_distribution_matches_counting(shipped) -> None:
    for vocab in [SMALL, *shipped.values()]:
        d = vs.token_length_distribution(vocab)
        assert int(d["counts"].sum()) == len(vocab)
        assert math.isclose(float(d["share"].sum()), 1.0, abs_tol=TOL)
        want = naive.length_counts(vocab.tokens)
        got = {int(k): int(c) for k, c in zip(d["lengths"], d["counts"]) if c}
        assert got == want
    d = vs.token_length_distribution(shipped["ulm-8k"], without_marker=True)
    stripped = [t[1:] if t.startswith("\u2581") else t for t in shipped["ulm-8k"].tokens]
    assert {int(k): int(c) for k, c in zip(d["lengths"], d["counts"]) if c} == \
        naive.length_counts(stripped)


def test_length_distribution_errors() -> None:
    with pytest.raises(ValueError, match="infinite"):
        vs.token_length_distribution(Vocabulary.infinite())
    with pytest.raises(TypeError):
        vs.token_length_distribution(SMALL, without_marker=1)
    with pytest.raises(TypeError):
        vs.token_length_distribution(["a", "b"])


# --------------------------------------------------------------------------- Figure 9
def test_segmentation_fraction_matches_enumeration() -> None:
    scores = dict(zip(TOKENS, SCORES))
    sizes = [3, 4, 6, 9]
    r = vs.segmentation_fraction(SMALL, WORDS, sizes)
    assert r["sizes"].tolist() == sizes and r["skipped"] == 0
    for k, size in enumerate(sizes):
        a = [naive.fraction_of_vocab(w, TOKENS, scores, size) for w in WORDS]
        b = [naive.fraction_of_infinite(w, TOKENS, scores, size) for w in WORDS]
        a = [x for x in a if x is not None]
        b = [x for x in b if x is not None]
        assert r["words_a"] == len(a) and r["words_b"] == len(b)
        assert math.isclose(r["relative_to_vocab"][k], np.mean(a), abs_tol=TOL)
        assert math.isclose(r["relative_to_infinite"][k], np.mean(b), abs_tol=TOL)
    assert r["relative_to_vocab"][-1] == pytest.approx(1.0, abs=TOL)  # V' = V
    assert r["relative_to_vocab"][0] == 0.0  # characters only: one segmentation each
    per_word = [naive.fraction_of_infinite(w, TOKENS, scores, 9) for w in WORDS if len(w) > 1]
    assert np.allclose(r["fraction"], per_word, atol=TOL)


def test_segmentation_fraction_closed_forms() -> None:
    # infinite vocabulary: N = 2^(|s|-1), so the fraction is exactly 1
    r = vs.segmentation_fraction(Vocabulary.infinite(), ["ab", "abcdefgh", "x" * 40, "z"])
    assert r["fraction"].tolist() == [1.0, 1.0, 1.0] and r["lengths"].tolist() == [2, 8, 40]
    # a vocabulary holding every substring of the word: also every segmentation
    word = "abcdef"
    full = Vocabulary(sorted({word[i:j] for i in range(6) for j in range(i + 1, 7)}))
    assert vs.segmentation_fraction(full, [word])["fraction"].tolist() == [1.0]
    # an unsegmentable word is skipped; a word V' cannot segment counts as 0
    v = Vocabulary(["a", "bc"], scores=[0.0, -1.0])
    r = vs.segmentation_fraction(v, ["abc", "abd"], [1, 2])
    assert r["skipped"] == 1 and r["relative_to_infinite"].tolist() == [0.0, 0.0]


def test_segmentation_fraction_errors() -> None:
    with pytest.raises(ValueError):
        vs.segmentation_fraction(SMALL, WORDS, [2])  # fewer than the 3 characters
    with pytest.raises(ValueError):
        vs.segmentation_fraction(SMALL, WORDS, [10])
    with pytest.raises(TypeError):
        vs.segmentation_fraction(SMALL, "abc")
    with pytest.raises(ValueError):
        vs.segmentation_fraction(SMALL, [])
