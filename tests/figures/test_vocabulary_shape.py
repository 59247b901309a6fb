"""workbench.figures.vocabulary_shape: Figures 7 and 9 drawn (token lengths, log-fractions).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")


from fixtures import SMALL  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.experiments.grampa_vocabulary_shape import token_length_distribution  # noqa: E402
from workbench.figures import vocabulary_shape as vs  # noqa: E402
from workbench.figures.common import figure_data  # noqa: E402


def test_length_axis_keeps_the_bulk_and_says_what_is_cut() -> None:
    """Issue 21: one very long token does not stretch Figure 7's axis; the cut is said."""
    from itertools import product

    short = ["".join(p) for n in (1, 2, 3) for p in product("abcdefg", repeat=n)]  # 399 types
    long_tail = Vocabulary(short + ["ab" * 40], name="tail")
    dists = [token_length_distribution(SMALL), token_length_distribution(long_tail)]
    fig = vs.plot_length_distributions(dists)
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    assert high < 10 and low < 1  # lengths 1–3 in view, not the 80-character token
    assert "tail 1" in ax.get_title() and "longest 80" in ax.get_title()
    assert figure_data(fig)["lengths-1"].tolist() == dists[1]["share"].tolist()  # still drawn
