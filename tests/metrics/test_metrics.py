"""Agreement with the ``tokenization-scorer`` package (Zouhar et al.), where it is right.

Skipped unless the package is installed (it is not a dependency of the workbench; install
it with ``pip install tokenization-scorer``). Texts are whitespace-tokenised lines.
"""

from __future__ import annotations

import math
import random

import pytest

from workbench.metrics import (
    percentile_frequency,
    renyi_efficiency,
    renyi_entropy,
    sequence_length,
    shannon_entropy,
    unigram_counts,
)

ts = pytest.importorskip("tokenization_scorer")

REL_TOL = 1e-10  # the scorer sums probabilities in float64 with np.log2 (no compensation)


def _text(seed: int, n_lines: int = 40, types: int = 30) -> tuple[str, list[list[str]]]:
    rng = random.Random(seed)
    weights = [1 / (r + 1) for r in range(types)]
    lines = [rng.choices([f"t{i}" for i in range(types)], weights, k=rng.randint(1, 12))
             for _ in range(n_lines)]
    return "\n".join(" ".join(line) for line in lines), lines


def _score(text: str, metric: str, capsys, **kw) -> float:
    value = ts.score(text, metric=metric, **kw)
    capsys.readouterr()  # the package prints progress bars and notes to stderr
    return float(value)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scorer(seed, capsys):
    text, lines = _text(seed)
    counts = unigram_counts(lines)
    for power in (0.5, 2.0, 2.5, 3.0):
        assert math.isclose(renyi_efficiency(counts, power),
                            _score(text, "renyi", capsys, power=power), rel_tol=REL_TOL)
        assert math.isclose(renyi_entropy(counts, power),
                            _score(text, "renyi_entropy", capsys, power=power), rel_tol=REL_TOL)
        assert math.isclose(renyi_efficiency(counts, power, vocab_size=1000),
                            _score(text, "renyi", capsys, power=power, vocab=1000),
                            rel_tol=REL_TOL)
    assert math.isclose(shannon_entropy(counts), _score(text, "shannon_entropy", capsys),
                        rel_tol=REL_TOL)
    assert math.isclose(renyi_efficiency(counts, 1.0), _score(text, "shannon", capsys),
                        rel_tol=REL_TOL)
    assert math.isclose(percentile_frequency(counts), _score(text, "percentile_freq", capsys),
                        rel_tol=REL_TOL)
    # the scorer's sequence length is negated ("higher is better")
    assert math.isclose(sequence_length(lines), -_score(text, "seq_len", capsys),
                        rel_tol=REL_TOL)


@pytest.mark.filterwarnings("ignore:divide by zero")
def test_scorer_renyi_at_power_one_is_broken(capsys):
    """``score(metric="renyi", power=1.0)`` returns 0.0 for every text: its ``_renyi_efficiency``
    builds the distribution from a generator and then hands the *exhausted* generator to
    ``_shannon_efficiency`` (|V| = 0, an empty sum over log2 0). The right value is the Shannon
    efficiency, which the scorer computes correctly under ``metric="shannon"``."""
    text, lines = _text(0)
    counts = unigram_counts(lines)
    broken = _score(text, "renyi", capsys, power=1.0)
    right = renyi_efficiency(counts, 1.0)
    assert broken == 0.0 and right > 0.5
    assert math.isclose(right, _score(text, "shannon", capsys), rel_tol=REL_TOL)
    assert _score(text, "renyi_entropy", capsys, power=1.0) == 0.0  # same bug
    # and near 1 the scorer's textbook formula cancels; ours stays on Shannon
    near = _score(text, "renyi", capsys, power=1 + 1e-13)
    assert abs(near - right) > 1e-6 > 1e-12 > abs(renyi_efficiency(counts, 1 + 1e-13) - right)


def test_scorer_percentile_small_vocab_differs(capsys):
    """For fewer than 6 types the scorer clips its upper rank to |V|-1 (and widens an empty
    window); we keep the plain window ``[⌊0.03|V|⌋, ⌊0.83|V|⌋)``."""
    text = "a a a b b c"
    assert percentile_frequency({"a": 3, "b": 2, "c": 1}) == 5 / 6  # ranks 0, 1
    assert math.isclose(_score(text, "percentile_freq", capsys), 5 / 6)
    text = "a a a b"  # 2 types: our window [0, 1) holds 3/4; the scorer's is also [0, 1)
    assert percentile_frequency({"a": 3, "b": 1}) == 0.75
    assert math.isclose(_score(text, "percentile_freq", capsys), 0.75)
    text = "a"  # 1 type: our window [0, 0) is empty; the scorer widens it to [0, 0) -> 0
    assert percentile_frequency({"a": 1}) == 0.0
