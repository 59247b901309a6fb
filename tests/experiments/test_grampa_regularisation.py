"""workbench.experiments.grampa_regularisation (GRaMPa Figure 6, notebook 07) against enumeration
(tests/naive/grampa.py, tests/naive/samplers.py).
"""

from __future__ import annotations

import json
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
    # the paper: ≈ 0.11 for p_d = 0.1 (§5.2, Figure 6); ≈ 0.5 for ULM α = 0.15, k = 64 (§5.2);
    # wide margins: the corpus and vocabulary size differ
    assert 0.03 <= curves["bpe-dropout"]["rate"][0] <= 0.25
    assert 0.2 <= curves["ulm"]["exact"][0] <= 0.7
    assert curves["grampa"]["exact"][0] > curves["ulm"]["exact"][0]


# ------------------------------------------------------------------ exact BPE-dropout rate
#: The exact rates at p_d = 0.1 on Figure 6's 200 words (bpe-8k), pinned to this precision.
PIN = 5e-4


@pytest.mark.slow
def test_exact_dropout_rate_reproduces_the_papers_point(shipped) -> None:
    from workbench.datasets import load_vocabulary
    from workbench.datasets.corpora import letter_words

    v = load_vocabulary("bpe-8k")
    words = letter_words(200, v)
    hf = bl.exact_dropout_rate(v, words, 0.1, semantics="hf")
    ref = bl.exact_dropout_rate(v, words, 0.1, semantics="reference")
    assert (hf.words, hf.distinct, hf.refused, ref.refused) == (200, 143, 0, 0)
    # HF tokenizers' semantics (the paper's) against the package's reference sampler
    assert hf.rate == pytest.approx(0.1261, abs=PIN)
    assert ref.rate == pytest.approx(0.2303, abs=PIN)
    assert abs(hf.rate - bl.PAPER_DROPOUT_RATE) < 0.02 < abs(ref.rate - bl.PAPER_DROPOUT_RATE)
    # the sampled curve uses the reference sampler: its exact rate is inside 4 standard errors
    sampled = bl.regularisation_rate("bpe-dropout", v, words, [0.1], n_samples=25, seed=1)
    se = math.sqrt(ref.rate * (1 - ref.rate) / 5000)
    assert abs(sampled["rate"][0] - ref.rate) < 4 * se


def test_exact_dropout_rate_small_cases_and_errors() -> None:
    v = Vocabulary(["a", "b", "ab"], scores=[0.0, 0.0, -1.0])
    r = bl.exact_dropout_rate(v, ["ab", "a", "ab"], 0.5, semantics="reference")
    assert (r.rate, r.words, r.distinct, r.refused) == (pytest.approx(1 / 3), 3, 2, 0)
    assert bl.exact_dropout_rate(v, ["ab"], 0.0).rate == 0.0
    assert bl.exact_dropout_rate(v, ["ab"], 1.0).rate == 1.0
    with pytest.raises(ValueError, match="semantics"):
        bl.exact_dropout_rate(v, ["ab"], 0.1, semantics="nope")
    with pytest.raises(ValueError):
        bl.exact_dropout_rate(v, ["ab"], 1.5)
    with pytest.raises(ValueError):
        bl.exact_dropout_rate(v, [], 0.1)


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


def test_figure6_is_kept_on_disk(tmp_path, monkeypatch) -> None:
    """A fresh process reads the curves an earlier one wrote (equal, NaNs included); a
    damaged file is computed and written again; the caller gets its own arrays."""
    from workbench.experiments import kept

    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    small = {"ulm": [0.15], "bpe-dropout": [0.0, 0.1]}
    first = bl.figure6(n_words=20, n_samples=2, seed=1, values=small)
    (path,) = tmp_path.glob("kept_grampa_regularisation_figure6_*.json")
    first["ulm"]["rate"][0] = -1.0                  # the caller's copy, not the kept one
    monkeypatch.setattr(kept, "_MEMO", {})
    monkeypatch.setattr(bl, "regularisation_rate", lambda *a, **k: pytest.fail("computed again"))
    again = bl.figure6(n_words=20, n_samples=2, seed=1, values=small)
    monkeypatch.undo()
    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    path.write_text(path.read_text()[:30], encoding="utf-8")
    fresh = bl.figure6(n_words=20, n_samples=2, seed=1, values=small)
    assert set(again) == set(fresh) == {"ulm", "bpe-dropout"}
    for f, c in fresh.items():
        assert c.keys() == again[f].keys()
        for k, v in c.items():
            if isinstance(v, np.ndarray):
                assert np.array_equal(v, again[f][k], equal_nan=True), (f, k)
            else:
                assert v == again[f][k], (f, k)
    assert again["ulm"]["rate"][0] >= 0 and np.isnan(fresh["bpe-dropout"]["exact"]).all()
    assert path.read_text().endswith("}")


def _kept_figure6(tmp_path, monkeypatch):
    """(Figure 6's small curves, their kept file, the list of computations after), the
    memory emptied."""
    from workbench.experiments import kept

    monkeypatch.setattr(kept, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(kept, "_MEMO", {})
    first = bl.figure6(n_words=20, n_samples=2, seed=1, values={"ulm": [0.15]})
    (path,) = tmp_path.glob("kept_grampa_regularisation_figure6_*.json")
    monkeypatch.setattr(kept, "_MEMO", {})
    computed: list[str] = []
    rate = bl.regularisation_rate
    monkeypatch.setattr(bl, "regularisation_rate",
                        lambda family, *a, **k: computed.append(family) or rate(family, *a, **k))
    return first, path, computed


def _same_curves(a, b) -> bool:
    return a.keys() == b.keys() and all(
        a[f].keys() == b[f].keys() and all(
            np.array_equal(v, b[f][k], equal_nan=True) if isinstance(v, np.ndarray)
            else v == b[f][k] for k, v in a[f].items()) for f in a)


def test_figure6_kept_file_with_an_edited_rate_is_computed_again(tmp_path, monkeypatch):
    """A well-formed edit (a rate in [0, 1] replaced) fails the check."""
    import re

    first, path, computed = _kept_figure6(tmp_path, monkeypatch)
    text = path.read_text(encoding="utf-8")
    old = re.search(r'"rate": \[([^,\]]+)', text)
    new = "0.5" if float(old[1]) != 0.5 else "0.25"
    path.write_text(text[:old.start(1)] + new + text[old.end(1):], encoding="utf-8")
    again = bl.figure6(n_words=20, n_samples=2, seed=1, values={"ulm": [0.15]})
    assert computed == ["ulm"] and _same_curves(again, first)


@pytest.mark.parametrize("payload", [b"null", b"[]", b"5", b"[" * 100_000, b"{" * 100_000,
                                     b'{"format": 1, "curves": {}}',
                                     b'{"format": 1, "curves": {"ulm": 5}}',
                                     b'{"format": 1, "curves": {"ulm": {"rate": [1]}}}'])
def test_figure6_kept_file_that_is_not_the_curves_is_computed_again(tmp_path, monkeypatch,
                                                                    payload):
    """Bare (no header) and with a valid header (the loader refuses it)."""
    from workbench.experiments import kept

    first, path, computed = _kept_figure6(tmp_path, monkeypatch)
    for headed in (False, True):
        path.write_bytes(kept._header(path, payload) + payload if headed else payload)
        monkeypatch.setattr(kept, "_MEMO", {})
        again = bl.figure6(n_words=20, n_samples=2, seed=1, values={"ulm": [0.15]})
        assert _same_curves(again, first)
    assert computed == ["ulm", "ulm"]


def test_figure6_kept_file_of_other_curves_is_computed_again(tmp_path, monkeypatch):
    """The loader checks what the header cannot: the curves of the arguments asked for."""
    from workbench.experiments import kept

    first, path, computed = _kept_figure6(tmp_path, monkeypatch)
    doc = json.loads(kept._read(path, kept.MAX_BYTES))
    for edit in ({"seed": 2}, {"n_samples": 3}, {"values": [0.2]}, {"family": "grampa"},
                 {"rate": [1.5]}, {"exact": ["0.5"]}, {"words": True}, {"extra": 1}):
        curves = {**doc["curves"]["ulm"], **edit}
        payload = json.dumps({"format": 1, "curves": {"ulm": curves}}).encode()
        path.write_bytes(kept._header(path, payload) + payload)
        monkeypatch.setattr(kept, "_MEMO", {})
        assert _same_curves(bl.figure6(n_words=20, n_samples=2, seed=1,
                                       values={"ulm": [0.15]}), first), edit
    assert computed == ["ulm"] * 8
