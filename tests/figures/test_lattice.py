"""workbench.figures.lattice (notebook 01): the drawing, the labels, the panel."""

from __future__ import annotations

from fractions import Fraction

import matplotlib
import pytest

matplotlib.use("Agg")

from hangguard import hang_guard

from workbench import Lattice, Vocabulary, count_segmentations  # noqa: E402
from workbench.datasets import figure1_vocabulary, vocabulary_options  # noqa: E402
from workbench.experiments.grampa_lattice import lattice_view  # noqa: E402
from workbench.figures import lattice as lattice_fig  # noqa: E402
from workbench.figures.common import count_label, fraction_label  # noqa: E402
from workbench.figures.panel import panel_controls  # noqa: E402

FIG1 = figure1_vocabulary()
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

    s = lattice_view("GRAMPA", FIG1, direction="l2r")
    fig = Figure()
    ax = fig.add_subplot()
    assert lattice_fig.draw_lattice(s, ax=ax) is fig
    assert lattice_fig.node_count_labels(ax) == {k: str(x)
                                                 for k, x in enumerate(s.lattice.path_counts)}
    fig.canvas.draw()


def test_draw_shows_errors() -> None:
    fig = lattice_fig.draw_lattice(lattice_view(3, SMALL))
    assert "word must be str" in _texts(fig, "error")["error"]
    fig.canvas.draw()
    # unsegmentable: still drawn
    fig = lattice_fig.draw_lattice(lattice_view("abd", SMALL))
    assert "no segmentation" in fig.axes[0].get_title(loc="left")
    fig.canvas.draw()


def test_draw_degrades_on_a_200_character_word() -> None:
    with hang_guard(0.5, "drawing the lattice of a 200-character word"):
        _draw_a_200_character_word()


def _draw_a_200_character_word() -> None:
    s = lattice_view("x" * 200, Vocabulary.infinite())
    assert s.lattice.count == 2**199 and len(s.lattice.arcs) == 200 * 201 // 2
    fig = lattice_fig.draw_lattice(s)
    fig.canvas.draw()
    assert not _texts(fig, "arc-") and not _texts(fig, "char-")
    labels = lattice_fig.node_count_labels(fig)
    assert 0 in labels and 200 in labels and len(labels) < 60
    assert labels[0] == count_label(2**199) and labels[200] == "1"
    assert "omitted" in fig.axes[0].get_title(loc="left")


def test_draw_long_word_finite_vocabulary_and_odd_characters() -> None:
    word = "ab$c$" * 40  # dollar signs must not be read as mathtext
    vocab = Vocabulary(["a", "b", "$", "c", "ab", "$c", "c$"])
    s = lattice_view(word, vocab)
    assert s.error is None
    lattice_fig.draw_lattice(s).canvas.draw()
    short = lattice_view("ab$c$", vocab)
    fig = lattice_fig.draw_lattice(short)
    fig.canvas.draw()
    assert _texts(fig, "char-")["char-2"] == "$"


def test_draw_empty_word_and_bad_highlight() -> None:
    fig = lattice_fig.draw_lattice(lattice_view("", SMALL))
    assert lattice_fig.node_count_labels(fig) == {0: "1"}
    with pytest.raises(ValueError, match="not an arc"):
        lattice_fig.draw_lattice(Lattice.build("abc", SMALL), highlight=[(2, 9)])


# --------------------------------------------------------------------------- labels
@pytest.mark.parametrize("p,expected", [
    (4 / 7, "4/7"), (Fraction(2, 7), "2/7"), (1 / 7, "1/7"), (1.0, "1"), (0, "0"),
    (0.5, "1/2"), (1 / 3, "1/3"), (0.123456, "0.12"), (1 / 65, "0.02"), (2 / 3 + 1e-6, "0.67"),
])
def test_fraction_label(p, expected) -> None:
    assert fraction_label(p) == expected


def test_fraction_label_max_den_and_types() -> None:
    assert fraction_label(1 / 65, max_den=100) == "1/65"
    assert fraction_label(float("nan")) == "nan"
    with pytest.raises(TypeError):
        fraction_label("1/2")  # type: ignore[arg-type]


@pytest.mark.parametrize("c,expected", [
    (0, "0"), (16, "16"), (999_999, "999999"), (1_000_000, "1.00e+6"), (2**199, "8.03e+59"),
    (9_996_000, "1.00e+7"), (-5, "-5"),
])
def test_count_label(c, expected) -> None:
    assert count_label(c) == expected


# --------------------------------------------------------------------------- widgets
def test_panel_result_equals_direct_call() -> None:
    pytest.importorskip("ipywidgets")
    opts = vocabulary_options({"small": SMALL})
    panel = lattice_fig.lattice_panel(lattice_view, opts, word="GRAMPA", vocabulary="figure-1",
                                      direction="r2l")
    assert panel.result == lattice_view("GRAMPA", FIG1, 1, "r2l")
    controls = panel_controls(panel)
    assert set(controls) == {"word", "vocabulary", "direction", "ell_min"}
    controls["vocabulary"].value = "small"
    controls["word"].value = "abcab"
    controls["direction"].value = "l2r"
    controls["ell_min"].value = 2
    assert panel.result == lattice_view("abcab", SMALL, 2, "l2r")
    shown = lattice_fig.node_count_labels(panel.last_figure)
    assert shown == {k: str(x) for k, x in enumerate(panel.result.lattice.path_counts)}


def test_draw_caps_the_number_of_arcs() -> None:
    s = lattice_view("abcdefgh", Vocabulary.infinite())
    fig = lattice_fig.draw_lattice(s, max_arcs=10)
    assert "26 longest arcs" in fig.axes[0].get_title(loc="left")
    fig.canvas.draw()
