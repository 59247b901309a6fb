"""Notebook 08's slider panel: :func:`compute_stop_cutoff` and :func:`plot_stop_cutoff`."""

from __future__ import annotations

import math

import pytest

from workbench.bpe import train_bpe
from workbench.datasets import load_text
from workbench.figures import batch_bpe as fig
from workbench.figures.common import figure_data


@pytest.fixture(scope="module")
def data():
    table = fig.compute_table(load_text("shakespeare")[:60_000])
    return table, load_text("brown")[:5_000]


@pytest.mark.parametrize("stop,cut", [(0, 1), (5, 1), (0, 3), (10, 2)])
def test_stop_cutoff_is_the_direct_training(data, stop, cut) -> None:
    table, held_out = data
    got = fig.compute_stop_cutoff(table, held_out, 400, stop, cut)
    model = train_bpe(table, 400, stop_list_size=stop, freq_cutoff=cut, progress=False)
    base = len(train_bpe(table, 400, progress=False).encode(held_out))
    assert got["length"] == len(model.encode(held_out)) and got["base_length"] == base
    assert got["change_percent"] == 100.0 * (got["length"] - base) / base
    assert math.isclose(got["change_percent"],
                        fig.compute_length_change(table, held_out, 400, stop, cut), rel_tol=1e-12)
    assert got["chunks_kept"] == sum(c >= cut for c in table.values())
    assert len(got["stop_words"]) == stop
    assert got == fig.compute_stop_cutoff(table, held_out, 400, stop, cut, base)  # base passed
    if (stop, cut) == (0, 1):
        assert got["change_percent"] == 0.0


def test_stop_words_are_the_most_common_chunks(data) -> None:
    """BatchBPE's rule (issue 19): of the 2X most common chunks, the first X with more than
    one character (and, ours, not spelled alike in the byte-level alphabet)."""
    table, held_out = data
    got = fig.compute_stop_cutoff(table, held_out, 300, 3, 1)
    ranked = [w for w, _ in sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))[:6]]
    printable = {chr(c) for c in range(33, 127)} | {chr(c) for c in range(161, 256)} - {"\xad"}
    expected = [w for w in ranked if len(w) > 1 and not set(w) <= printable][:3]
    assert got["stop_words"] == expected and "," not in expected


def test_plot_stop_cutoff_shows_both_lengths(data, capsys) -> None:
    table, held_out = data
    got = fig.compute_stop_cutoff(table, held_out, 300, 4, 2)
    figure = fig.plot_stop_cutoff(got)
    assert figure_data(figure)["encoded-length"].tolist() == [got["base_length"], got["length"]]
    assert f"{got['change_percent']:+.3f}%" in figure.axes[0].get_title()
    assert repr(got["stop_words"][0]) in capsys.readouterr().out


@pytest.mark.parametrize("kwargs,error", [
    ({"stop_list_size": -1}, ValueError), ({"freq_cutoff": 0}, ValueError),
    ({"stop_list_size": 1.5}, TypeError), ({"base_length": 0}, ValueError),
])
def test_stop_cutoff_refuses_bad_arguments(kwargs, error) -> None:
    with pytest.raises(error):
        fig.compute_stop_cutoff({"ab": 2}, "ab", 257, **kwargs)


def test_plot_stop_cutoff_shows_the_change_around_zero(data, capsys) -> None:
    """Issue 21: a change of a percent or two is visible (its own axis around zero)."""
    table, held_out = data
    got = fig.compute_stop_cutoff(table, held_out, 300, 4, 2)
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
