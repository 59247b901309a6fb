"""workbench.experiments.batch_bpe: notebook 08's stop-word / cut-off data
(:func:`compute_stop_cutoff`) against direct training."""

from __future__ import annotations

import math

import pytest

from workbench.bpe import train_bpe
from workbench.datasets import load_text
from workbench.experiments import batch_bpe as BB  # noqa: E402


@pytest.fixture(scope="module")
def data():
    table = BB.compute_table(load_text("shakespeare")[:60_000])
    return table, load_text("brown")[:5_000]


@pytest.mark.parametrize("stop,cut", [(0, 1), (5, 1), (0, 3), (10, 2)])
def test_stop_cutoff_is_the_direct_training(data, stop, cut) -> None:
    table, held_out = data
    got = BB.compute_stop_cutoff(table, held_out, 400, stop, cut)
    model = train_bpe(table, 400, stop_list_size=stop, freq_cutoff=cut, progress=False)
    base = len(train_bpe(table, 400, progress=False).encode(held_out))
    assert got["length"] == len(model.encode(held_out)) and got["base_length"] == base
    assert got["change_percent"] == 100.0 * (got["length"] - base) / base
    assert math.isclose(got["change_percent"],
                        BB.compute_length_change(table, held_out, 400, stop, cut), rel_tol=1e-12)
    assert got["chunks_kept"] == sum(c >= cut for c in table.values())
    assert len(got["stop_words"]) == stop
    assert got == BB.compute_stop_cutoff(table, held_out, 400, stop, cut, base)  # base passed
    if (stop, cut) == (0, 1):
        assert got["change_percent"] == 0.0


def test_stop_words_are_the_most_common_chunks(data) -> None:
    """BatchBPE's rule (issue 19): of the 2X most common chunks, the first X with more than
    one character (and, ours, not spelled alike in the byte-level alphabet)."""
    table, held_out = data
    got = BB.compute_stop_cutoff(table, held_out, 300, 3, 1)
    ranked = [w for w, _ in sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))[:6]]
    printable = {chr(c) for c in range(33, 127)} | {chr(c) for c in range(161, 256)} - {"\xad"}
    expected = [w for w in ranked if len(w) > 1 and not set(w) <= printable][:3]
    assert got["stop_words"] == expected and "," not in expected


@pytest.mark.parametrize("kwargs,error", [
    ({"stop_list_size": -1}, ValueError), ({"freq_cutoff": 0}, ValueError),
    ({"stop_list_size": 1.5}, TypeError), ({"base_length": 0}, ValueError),
])
def test_stop_cutoff_refuses_bad_arguments(kwargs, error) -> None:
    with pytest.raises(error):
        BB.compute_stop_cutoff({"ab": 2}, "ab", 257, **kwargs)
