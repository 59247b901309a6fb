"""workbench.figures.lattice (notebook 01): the summary, the drawing, the labels, the panel."""

from __future__ import annotations

import time
from fractions import Fraction

import matplotlib
import pytest

matplotlib.use("Agg")

from workbench import (  # noqa: E402
    Lattice,
    SegmentationError,
    Vocabulary,
    count_segmentations,
    enumerate_segmentations,
)
from workbench.datasets import vocabulary_options  # noqa: E402
from workbench.figures import lattice as lattice_fig  # noqa: E402
from workbench.figures.panel import panel_controls  # noqa: E402

FIG1 = lattice_fig.figure1_vocabulary()
SMALL = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"], name="small")


# --------------------------------------------------------------------------- Figure 1
def test_figure1_vocabulary_matches_caption() -> None:
    lat = Lattice.build("GRAMPA", FIG1, direction="r2l")
    c = lat.path_counts
    assert lat.count == count_segmentations("GRAMPA", FIG1) == 16
    assert sorted(("GRAMPA"[i:j], i) for i, j in lat.arcs if j == 4) == [
        ("AM", 2), ("GRAM", 0), ("M", 3)]
    assert (c[3], c[2], c[0], c[4]) == (4, 2, 1, 7)
    # the pink path of the caption exists
    assert {(4, 5), (5, 6)} <= set(lat.arcs)


# --------------------------------------------------------------------------- summary
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
@pytest.mark.parametrize("ell_min", [1, 2, 3])
@pytest.mark.parametrize("word,vocab", [
    ("GRAMPA", FIG1), ("abcabc", SMALL), ("abca", SMALL), ("abcdefg", Vocabulary.infinite()),
    ("", SMALL),
])
def test_summary_agrees_with_lattice_module(word, vocab, ell_min, direction) -> None:
    s = lattice_fig.lattice_summary(word, vocab, ell_min, direction)
    lat = Lattice.build(word, vocab, ell_min, direction)
    assert s["error"] is None
    assert s["word_in_alphabet"] == word
    assert s["count"] == count_segmentations(word, vocab, ell_min, direction) == lat.count
    assert s["path_counts"] == lat.path_counts
    assert s["arcs"] == lat.arcs
    assert s["segmentations"] == enumerate_segmentations(word, vocab, ell_min=ell_min,
                                                         direction=direction)
    assert (s["ell_min"], s["direction"]) == (ell_min, direction)


def test_summary_lists_only_up_to_max_list() -> None:
    inf = Vocabulary.infinite()
    assert len(lattice_fig.lattice_summary("abcdefg", inf, max_list=64)["segmentations"]) == 64
    s = lattice_fig.lattice_summary("abcdefgh", inf, max_list=64)
    assert s["count"] == 128 and s["segmentations"] is None and s["error"] is None


def test_summary_spells_the_word_in_the_alphabet() -> None:
    gpt2_like = Vocabulary(["Ġ", "h", "i", "Ġh", "hi"], alphabet="byte-level")
    s = lattice_fig.lattice_summary(" hi", gpt2_like)
    assert s["word_in_alphabet"] == "Ġhi"
    assert s["segmentations"] == enumerate_segmentations("Ġhi", gpt2_like)
    sp_like = Vocabulary(["▁", "x", "▁x"], alphabet="sentencepiece")
    assert lattice_fig.lattice_summary(" x", sp_like)["count"] == 2


def test_summary_reports_unsegmentable_words() -> None:
    s = lattice_fig.lattice_summary("abd", SMALL)
    lat = Lattice.build("abd", SMALL)
    with pytest.raises(SegmentationError) as err:
        lat.require_segmentable()
    assert s["error"] == str(err.value)
    assert s["count"] == 0 and s["segmentations"] is None
    assert s["path_counts"] == lat.path_counts and s["arcs"] == lat.arcs


@pytest.mark.parametrize("word,vocab,kwargs,fragment", [
    (3, SMALL, {}, "word must be str"),
    ("ab", ["a", "b"], {}, "vocab must be a workbench.Vocabulary"),
    ("ab", SMALL, {"ell_min": 0}, "ell_min must be >= 1"),
    ("ab", SMALL, {"ell_min": 1.5}, "ell_min must be an int"),
    ("ab", SMALL, {"direction": "up"}, "direction must be"),
    ("ab", SMALL, {"max_list": "many"}, "max_list must be an int"),
])
def test_summary_turns_bad_input_into_an_error(word, vocab, kwargs, fragment) -> None:
    s = lattice_fig.lattice_summary(word, vocab, **kwargs)
    assert fragment in s["error"]
    assert s["count"] == 0 and s["segmentations"] is None


# --------------------------------------------------------------------------- drawing
def _texts(fig, prefix: str) -> dict[str, str]:
    return {t.get_gid(): t.get_text() for ax in fig.axes for t in ax.texts
            if (t.get_gid() or "").startswith(prefix)}


def test_draw_figure1_labels_nodes_with_path_counts() -> None:
    lat = Lattice.build("GRAMPA", FIG1, direction="r2l")
    c = lat.path_counts
    probs = {(i, j): Fraction(c[i], c[j]) for i, j in lat.arcs if j == 4}
    fig = lattice_fig.draw_lattice(lat, arc_probabilities=probs, highlight=[(4, 5), (5, 6)])
    assert lattice_fig.node_count_labels(fig) == dict(enumerate(["1", "1", "2", "4", "7", "9",
                                                                 "16"]))
    assert _texts(fig, "char-") == {f"char-{i}": ch for i, ch in enumerate("GRAMPA")}
    arcs = _texts(fig, "arc-")
    assert len(arcs) == len(lat.arcs)
    assert arcs["arc-3-4"] == "M 4/7" and arcs["arc-2-4"] == "AM 2/7"
    assert arcs["arc-0-4"] == "GRAM 1/7" and arcs["arc-4-5"] == "P"
    fig.canvas.draw()  # renders without error


def test_draw_accepts_a_summary_and_an_axes() -> None:
    from matplotlib.figure import Figure

    s = lattice_fig.lattice_summary("GRAMPA", FIG1, direction="l2r")
    fig = Figure()
    ax = fig.add_subplot()
    assert lattice_fig.draw_lattice(s, ax=ax) is fig
    assert lattice_fig.node_count_labels(ax) == {k: str(x) for k, x in enumerate(s["path_counts"])}
    fig.canvas.draw()


def test_draw_shows_errors() -> None:
    fig = lattice_fig.draw_lattice(lattice_fig.lattice_summary(3, SMALL))
    assert "word must be str" in _texts(fig, "error")["error"]
    fig.canvas.draw()
    # unsegmentable: still drawn
    fig = lattice_fig.draw_lattice(lattice_fig.lattice_summary("abd", SMALL))
    assert "no segmentation" in fig.axes[0].get_title(loc="left")
    fig.canvas.draw()


def test_draw_degrades_on_a_200_character_word() -> None:
    start = time.perf_counter()
    s = lattice_fig.lattice_summary("x" * 200, Vocabulary.infinite())
    assert s["count"] == 2**199 and len(s["arcs"]) == 200 * 201 // 2
    fig = lattice_fig.draw_lattice(s)
    fig.canvas.draw()
    assert not _texts(fig, "arc-") and not _texts(fig, "char-")
    labels = lattice_fig.node_count_labels(fig)
    assert 0 in labels and 200 in labels and len(labels) < 60
    assert labels[0] == lattice_fig.count_label(2**199) and labels[200] == "1"
    assert "omitted" in fig.axes[0].get_title(loc="left")
    assert time.perf_counter() - start < 30


def test_draw_long_word_finite_vocabulary_and_odd_characters() -> None:
    word = "ab$c$" * 40  # dollar signs must not be read as mathtext
    vocab = Vocabulary(["a", "b", "$", "c", "ab", "$c", "c$"])
    s = lattice_fig.lattice_summary(word, vocab)
    assert s["error"] is None
    lattice_fig.draw_lattice(s).canvas.draw()
    short = lattice_fig.lattice_summary("ab$c$", vocab)
    fig = lattice_fig.draw_lattice(short)
    fig.canvas.draw()
    assert _texts(fig, "char-")["char-2"] == "$"


def test_draw_empty_word_and_bad_highlight() -> None:
    fig = lattice_fig.draw_lattice(lattice_fig.lattice_summary("", SMALL))
    assert lattice_fig.node_count_labels(fig) == {0: "1"}
    with pytest.raises(ValueError, match="not an arc"):
        lattice_fig.draw_lattice(Lattice.build("abc", SMALL), highlight=[(2, 9)])


# --------------------------------------------------------------------------- labels
@pytest.mark.parametrize("p,expected", [
    (4 / 7, "4/7"), (Fraction(2, 7), "2/7"), (1 / 7, "1/7"), (1.0, "1"), (0, "0"),
    (0.5, "1/2"), (1 / 3, "1/3"), (0.123456, "0.12"), (1 / 65, "0.02"), (2 / 3 + 1e-6, "0.67"),
])
def test_fraction_label(p, expected) -> None:
    assert lattice_fig.fraction_label(p) == expected


def test_fraction_label_max_den_and_types() -> None:
    assert lattice_fig.fraction_label(1 / 65, max_den=100) == "1/65"
    assert lattice_fig.fraction_label(float("nan")) == "nan"
    with pytest.raises(TypeError):
        lattice_fig.fraction_label("1/2")  # type: ignore[arg-type]


@pytest.mark.parametrize("c,expected", [
    (0, "0"), (16, "16"), (999_999, "999999"), (1_000_000, "1.00e+6"), (2**199, "8.03e+59"),
    (9_996_000, "1.00e+7"), (-5, "-5"),
])
def test_count_label(c, expected) -> None:
    assert lattice_fig.count_label(c) == expected


# --------------------------------------------------------------------------- widgets
def test_panel_result_equals_direct_call() -> None:
    pytest.importorskip("ipywidgets")
    opts = vocabulary_options({"small": SMALL})
    panel = lattice_fig.lattice_panel(opts, word="GRAMPA", vocabulary="figure-1", direction="r2l")
    assert panel.result == lattice_fig.lattice_summary("GRAMPA", FIG1, 1, "r2l")
    controls = panel_controls(panel)
    assert set(controls) == {"word", "vocabulary", "direction", "ell_min"}
    controls["vocabulary"].value = "small"
    controls["word"].value = "abcab"
    controls["direction"].value = "l2r"
    controls["ell_min"].value = 2
    assert panel.result == lattice_fig.lattice_summary("abcab", SMALL, 2, "l2r")
    shown = lattice_fig.node_count_labels(panel.last_figure)
    assert shown == {k: str(x) for k, x in enumerate(panel.result["path_counts"])}


def test_draw_caps_the_number_of_arcs() -> None:
    s = lattice_fig.lattice_summary("abcdefgh", Vocabulary.infinite())
    fig = lattice_fig.draw_lattice(s, max_arcs=10)
    assert "26 longest arcs" in fig.axes[0].get_title(loc="left")
    fig.canvas.draw()
