"""workbench.figures.batch_bpe: notebook 08's figures (:func:`plot_stop_cutoff`, batch sizes)."""

from __future__ import annotations

import pytest

from workbench.datasets import load_text
from workbench.experiments import batch_bpe as BB  # noqa: E402
from workbench.figures import batch_bpe as fig
from workbench.figures.common import figure_data


@pytest.fixture(scope="module")
def data():
    table = BB.compute_table(load_text("shakespeare")[:60_000])
    return table, load_text("brown")[:5_000]


def test_plot_stop_cutoff_shows_both_lengths(data, capsys) -> None:
    table, held_out = data
    got = BB.compute_stop_cutoff(table, held_out, 300, 4, 2)
    figure = fig.plot_stop_cutoff(got)
    assert figure_data(figure)["encoded-length"].tolist() == [got["base_length"], got["length"]]
    assert f"{got['change_percent']:+.3f}%" in figure.axes[0].get_title()
    assert repr(got["stop_words"][0]) in capsys.readouterr().out


def test_plot_stop_cutoff_shows_the_change_around_zero(data, capsys) -> None:
    """Issue 21: a change of a percent or two is visible (its own axis around zero)."""
    table, held_out = data
    got = BB.compute_stop_cutoff(table, held_out, 300, 4, 2)
    figure = fig.plot_stop_cutoff(got)
    assert figure_data(figure)["length-change"].tolist() == [got["change_percent"]]
    low, high = figure.axes[1].get_ylim()
    assert low < 0 < high and low <= got["change_percent"] <= high
    assert (high - low) / 2 <= max(2.0, 1.3 * abs(got["change_percent"])) + 1e-9  # not squashed
    assert figure.axes[0].get_ylim()[0] == 0.0  # the lengths' bars start at zero


def test_describe_batch_sizes_states_the_figure() -> None:
    sizes = [3, 5, 9, 7, 8, 4, 2, 1, 1]
    text = fig.describe_batch_sizes(sizes)
    assert text.startswith("9 batches make 40 merges.")
    assert "The largest batch (9 merges) starts after 20 % of the merges." in text  # 8 / 40
    assert "The last batches have 7, 8, 4, 2, 1, 1 merges" in text
