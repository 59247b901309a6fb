"""workbench.figures.renyi: notebook 10's tables and bars drawn (small slices of the shipped text).
"""

from __future__ import annotations

import ast

import numpy as np

from workbench.experiments import renyi as R
from workbench.figures import renyi as F


def test_live_table_plot(renyi_small):
    from workbench.figures.common import figure_data

    *_, model, enc = renyi_small
    table = R.compute_live_table(model, enc, 20, 4, 3.0)
    shown = F.plot_live_table(table)
    assert shown["table"].equals(table.round(4))
    assert figure_data(shown["efficiency"])["efficiency"].tolist() == table["Eff_3"].tolist()
    bad = F.plot_live_table(R.compute_live_table(model, enc, 2, 5, 3.0))  # random-drop refused
    assert figure_data(bad["efficiency"])["efficiency"][1] == 0.0
    assert "not allowed" in [t.get_text() for t in bad["efficiency"].axes[0].texts]


def test_live_table_readable_view_and_sentence(renyi_small):
    """Issue 21: bars from zero with the change beside them; no NaN shown; the sentence says
    which counterexample raises Eff_α and which lowers it."""
    from workbench.figures.common import figure_data

    *_, model, enc = renyi_small
    table = R.compute_live_table(model, enc, 20, 4, 3.0)
    shown = F.plot_live_table(table, readable=True)
    ax, ax2 = shown["efficiency"].axes
    assert ax.get_ylim()[0] == 0.0
    change = figure_data(shown["efficiency"])["efficiency-change"]
    assert np.allclose(change, table["Eff_3"].to_numpy()[1:] - table.loc["baseline", "Eff_3"])
    text = F.describe_live_table(table)
    for name, label in (("random-drop", "RANDOM-DROP"), ("duplication", "DUPLICATION")):
        up = table.loc[name, "Eff_3"] > table.loc["baseline", "Eff_3"]
        assert f"{label} **{'raises' if up else 'lowers'}**" in text
    bad = F.plot_live_table(R.compute_live_table(model, enc, 2, 5, 3.0), readable=True)
    assert (bad["table"].loc["random-drop"] == "not allowed").all()
    assert not bad["table"].isna().any().any()
    refused = R.compute_live_table(model, enc, 2, 5, 3.0)
    assert "RANDOM-DROP is not allowed" in F.describe_live_table(refused)


def test_readable_drops_shows_text_not_bytes(renyi_small):
    *_, model, enc = renyi_small
    drops, _ = R.compute_real_drops(model, enc, 3)
    shown = F.readable_drops(drops)
    for col in ("x", "y", "z"):
        assert [ast.literal_eval(s).encode() for s in shown[col]] == list(drops[col])
        assert not any(s.startswith("b'") for s in shown[col])
