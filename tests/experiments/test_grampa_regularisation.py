"""workbench.experiments.grampa_regularisation (GRaMPa Figure 6, notebook 07) against enumeration
(tests/naive/grampa.py, tests/naive/samplers.py).
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from fixtures import SCORES, SMALL, TOKENS, TOL, WORDS  # noqa: E402
from naive import baselines as naive  # noqa: E402
from naive import grampa as naive_grampa  # noqa: E402
from naive import samplers as naive_samplers  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.experiments import grampa_regularisation as bl  # noqa: E402


# --------------------------------------------------------------------------- Figure 6
def test_deterministic_samplers_have_rate_zero() -> None:
    for family in ("bpe-dropout", "maxmatch-dropout"):
        r = bl.regularisation_rate(family, SMALL, WORDS, [0.0], n_samples=5, seed=1)
        assert r["rate"].tolist() == [0.0] and r["high"].tolist() == [0.0]
    # MaxMatch-dropout at q = 1 takes single characters wherever a longer match exists
    r = bl.regularisation_rate("maxmatch-dropout", SMALL, ["abc"], [1.0], n_samples=3)
    assert r["rate"].tolist() == [1.0]


def test_grampa_exact_rate_matches_enumeration() -> None:
    vocab_set = set(TOKENS)
    taus = [1.0, 5.0, -10.0, math.inf, 0.5]
    r = bl.regularisation_rate("grampa", SMALL, WORDS, taus, n_samples=400, seed=3)
    ref = [naive_samplers.kbest(w, dict(zip(TOKENS, SCORES)), 1)[0][1] for w in WORDS]
    n = len(WORDS) * 400
    for k, tau in enumerate(taus):
        law = [naive_grampa.segmentation_distribution(w, vocab_set, tau) for w in WORDS]
        want = np.mean([1.0 - d.get(s, 0.0) for d, s in zip(law, ref)])
        assert math.isclose(r["exact"][k], want, abs_tol=TOL), tau
        # sampled against exact: 4 standard errors of a mean of n draws in [0, 1]
        assert abs(r["rate"][k] - want) <= 4 * math.sqrt(0.25 / n), tau


def test_ulm_exact_rate_matches_enumeration() -> None:
    scores = dict(zip(TOKENS, SCORES))
    alphas = [0.0, 0.3, 2.0]
    r = bl.regularisation_rate("ulm", SMALL, WORDS, alphas, n_samples=400, seed=5)
    n = len(WORDS) * 400
    for k, alpha in enumerate(alphas):
        want = np.mean([naive.ulm_regularisation_rate(w, scores, bl.ULM_NBEST, alpha)
                        for w in WORDS])
        assert math.isclose(r["exact"][k], want, abs_tol=TOL)
        assert abs(r["rate"][k] - want) <= 4 * math.sqrt(0.25 / n)
    assert r["exact"][0] > r["exact"][1] > r["exact"][2]  # smoothing α concentrates


def test_regularisation_rate_is_seeded() -> None:
    a = bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [0.3, 0.6], n_samples=20, seed=7)
    b = bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [0.3, 0.6], n_samples=20, seed=7)
    c = bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [0.6], n_samples=20, seed=7)
    assert a["rate"].tolist() == b["rate"].tolist()
    g = [bl.regularisation_rate("grampa", SMALL, WORDS * 5, [1.0], n_samples=20, seed=s)["rate"]
         for s in (0, 1)]
    assert g[0][0] != g[1][0]  # a different seed gives different samples
    assert c["values"].tolist() == [0.6] and 0 <= c["rate"][0] <= 1


def test_regularisation_rate_errors() -> None:
    with pytest.raises(ValueError, match="family"):
        bl.regularisation_rate("bpe", SMALL, WORDS)
    with pytest.raises(ValueError, match="finite"):
        bl.regularisation_rate("grampa", Vocabulary.infinite(), WORDS)
    with pytest.raises(TypeError):
        bl.regularisation_rate("ulm", SMALL, "abc")
    with pytest.raises(ValueError):
        bl.regularisation_rate("ulm", SMALL, [])
    with pytest.raises(ValueError):
        bl.regularisation_rate("bpe-dropout", SMALL, WORDS, [1.5])
    with pytest.raises(ValueError):
        bl.regularisation_rate("ulm", SMALL, WORDS, [-0.1])
    with pytest.raises(ValueError):
        bl.regularisation_rate("ulm", SMALL, WORDS, [0.1], n_samples=0)
    with pytest.raises(ValueError):
        bl.regularisation_rate("grampa", SMALL, WORDS, [1.0], reference="grampa")


@pytest.mark.slow
def test_figure6_on_shipped_data_is_in_the_papers_range(shipped) -> None:
    curves = bl.figure6(n_words=100, n_samples=4, seed=0,
                        values={"bpe-dropout": [0.1], "ulm": [0.15], "grampa": [1.0]})
    # the paper: ≈ 0.11 for p_d = 0.1 (Figure 6a); ≈ 0.5 for ULM α = 0.15, k = 64 (§5.1);
    # wide margins: the corpus and vocabulary size differ
    assert 0.03 <= curves["bpe-dropout"]["rate"][0] <= 0.25
    assert 0.2 <= curves["ulm"]["exact"][0] <= 0.7
    assert curves["grampa"]["exact"][0] > curves["ulm"]["exact"][0]


def test_regularisation_point_is_figure6s_point_cached() -> None:
    """One point is regularisation_rate's at that value on figure 6's words, with examples;
    a second call is served from the cache (read-only arrays), bad values are refused."""
    from workbench.datasets import load_vocabulary
    from workbench.datasets.corpora import letter_words
    from workbench.experiments.grampa_regularisation import (
        regularisation_point,
        regularisation_rate,
    )

    point = regularisation_point("bpe-dropout", 0.3, n_words=20, n_samples=2, seed=1)
    vocab = load_vocabulary("bpe-8k")
    direct = regularisation_rate("bpe-dropout", vocab, letter_words(20, vocab), [0.3],
                                 n_samples=2, seed=1)
    assert point["rate"].tolist() == direct["rate"].tolist()
    assert len(point["examples"]) == 6 and all(len(draws) == 3 for *_, draws in point["examples"])
    again = regularisation_point("bpe-dropout", 0.3, n_words=20, n_samples=2, seed=1)
    assert again["rate"] is point["rate"] and not point["rate"].flags.writeable
    with pytest.raises(ValueError):
        regularisation_point("bpe-dropout", 1.5)
    with pytest.raises(ValueError):
        regularisation_point("gpt", 0.1)
