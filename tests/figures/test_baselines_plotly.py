"""workbench.figures.baselines_plotly: notebook 07's panels in plotly draw what the
matplotlib figures draw (same data under the same names) and are readable."""

from __future__ import annotations

import math

import matplotlib
import numpy as np

matplotlib.use("Agg")

from fixtures import SMALL, WORDS  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.datasets import load_vocabulary  # noqa: E402
from workbench.datasets.corpora import letter_words  # noqa: E402
from workbench.experiments import grampa_rejection_words as rw  # noqa: E402
from workbench.experiments import grampa_vocabulary_shape as shape  # noqa: E402
from workbench.experiments.grampa_regularisation import regularisation_rate  # noqa: E402
from workbench.figures import baselines, rejection_words, vocabulary_shape  # noqa: E402
from workbench.figures import baselines_plotly as bp  # noqa: E402
from workbench.figures.common import figure_data, readability_problems  # noqa: E402


def _same(plotly_fig, mpl_fig, names) -> None:
    got, want = figure_data(plotly_fig), figure_data(mpl_fig)
    for name in names:
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)
    assert readability_problems(plotly_fig) == []


def test_regularisation_rates() -> None:
    curves = {f: regularisation_rate(f, SMALL, WORDS, vals, n_samples=3)
              for f, vals in (("ulm", [0.0, 1.0]), ("grampa", [1.0, -2.0, math.inf]))}
    point = {"family": "grampa", "values": np.array([-2.0]), "rate": np.array([0.25])}
    _same(bp.plotly_regularisation_rates(curves, point),
          baselines.plot_regularisation_rates(curves, point),
          ["rr-ulm", "rr-exact-ulm", "rr-grampa", "rr-exact-grampa", "rr-point"])
    one = {"grampa": curves["grampa"]}
    assert "rr-point" not in figure_data(bp.plotly_regularisation_rates(one))


def test_vocabulary_shape() -> None:
    dists = [shape.token_length_distribution(SMALL),
             shape.token_length_distribution(SMALL, without_marker=True)]
    _same(bp.plotly_length_distributions(dists), vocabulary_shape.plot_length_distributions(dists),
          ["lengths-0", "lengths-1"])
    results = [shape.segmentation_fraction(v, letter_words(40, v))
               for v in (load_vocabulary("ulm-8k"), Vocabulary.infinite())]
    names = [f"fraction-{p}-{k}" for p in ("words", "mean") for k in (0, 1)]
    _same(bp.plotly_segmentation_fraction(results),
          vocabulary_shape.plot_segmentation_fraction(results), names)
    got = figure_data(bp.plotly_segmentation_fraction(results))
    assert got["fraction-a-0"].tolist() == list(results[0]["relative_to_vocab"])


def test_rejection_words() -> None:
    demo = rw.unigram_demo("abcab", SMALL, n_samples=500, seed=0)
    _same(bp.plotly_unigram_demo(demo, top=5), rejection_words.plot_unigram_demo(demo, top=5),
          ["joint", "markov", "sampled"])
    table = rw.rejection_cost_words(SMALL, range(2, 6), 2, 5, seed=0, trial_budget=2_000)
    names = [f"{k}-{n}" for k in ("expected", "expected-max", "measured")
             for n in rw.REJECTION_SAMPLERS] + ["grampa"]
    _same(bp.plotly_rejection_words(table), rejection_words.plot_rejection_words(table), names)
