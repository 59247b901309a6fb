"""The exercises' checkers without widgets; the widget's verdict on a wrong, then a right answer."""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench.course import (
    Exercise,
    check_choice,
    check_number,
    check_sequence,
    check_set,
    parse_number,
)


@pytest.mark.parametrize("text, value", [
    ("5/8", Fraction(5, 8)), ("0.625", Fraction(5, 8)), ("62.5%", Fraction(5, 8)),
    (" 16 ", Fraction(16)), ("−3", Fraction(-3)), ("1e-3", Fraction(1, 1000)),
    ("32,512", Fraction(32512)), ("45/2", Fraction(45, 2)),
])
def test_parse_number(text: str, value: Fraction) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["", "five", "1/0", "1/2/3", "2,5"])
def test_parse_number_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_number(text)
    assert not check_number(text, 1).correct  # the checker says so instead of raising


def test_parse_number_wants_text() -> None:
    with pytest.raises(TypeError):
        parse_number(5)  # type: ignore[arg-type]


def test_check_number_exact_and_tolerant() -> None:
    assert check_number("5/8", Fraction(5, 8)).correct
    assert check_number("0.625", Fraction(5, 8)).correct
    assert not check_number("0.62", Fraction(5, 8)).correct      # exact answers are exact
    assert check_number("0.62", Fraction(5, 8)).message == "Not quite: 0.62 is too small."
    assert check_number("3", 2).message == "Not quite: 3 is too large."
    assert check_number("4/7", 4 / 7, tolerance=1e-12).correct
    assert not check_number("0.57", 4 / 7, tolerance=1e-3).correct
    with pytest.raises(ValueError):
        check_number("1", float("nan"))


def test_check_sequence() -> None:
    assert check_sequence("[1, 1, 2, 4, 7, 9, 16]", [1, 1, 2, 4, 7, 9, 16]).correct
    assert check_sequence("1 1 2 4", [1, 1, 2, 4]).correct
    assert check_sequence("G | RA | M", ["G", "RA", "M"]).correct
    assert check_sequence("1 2 1", [1, 1, 2]).message == "Not quite: item 2 should not be 2."
    assert not check_sequence("1 1 2", [1, 1, 2, 4]).correct


def test_check_set() -> None:
    assert check_set("at, er", ["er", "at"]).correct
    assert not check_set("er", ["er", "at"]).correct
    assert not check_set("er, er, at", ["er", "at"]).correct
    assert check_set("er, at, he", ["er", "at"]).message == "Not quite: he should not be there."


def test_check_choice() -> None:
    assert check_choice("NO ", "no", ["yes", "no"]).correct
    assert check_choice("yes", "no", ["yes", "no"]).message == "Not quite: it is not yes."
    with pytest.raises(ValueError):
        check_choice("yes", "maybe", ["yes", "no"])


def _exercise() -> Exercise:
    return Exercise(question="P(ℓ = 1 | n = 3)?", answer=Fraction(5, 8),
                    check=lambda t: check_number(t, Fraction(5, 8)),
                    hint="Eq. 16 counts the tokens.", explanation="5 of 8 tokens.",
                    answer_text="5/8")


def test_an_exercise_must_accept_its_own_answer() -> None:
    assert _exercise().check("0.625").correct
    with pytest.raises(ValueError, match="rejects"):
        Exercise(question="q", answer=1, check=lambda t: check_number(t, 1), hint="h",
                 explanation="e", answer_text="2")
    with pytest.raises(ValueError, match="non-empty hint"):
        Exercise(question="q", answer=1, check=lambda t: check_number(t, 1), hint=" ",
                 explanation="e", answer_text="1")


def test_the_widget_says_wrong_then_right() -> None:
    pytest.importorskip("ipywidgets")
    exercise = _exercise()
    box = exercise.widget()
    parts = box.exercise_parts
    assert parts["exercise"] is exercise
    parts["box"].value = "1/2"                 # Enter in the box checks
    assert "Not quite" in parts["verdict"].value and "too small" in parts["verdict"].value
    parts["box"].value = "5/8"
    parts["check"].click()                     # and so does the button
    assert "Correct." in parts["verdict"].value
    html = box.children[-1].value              # hint, then reveal, as <details>
    assert html.index("Hint") < html.index("Reveal") and "5 of 8 tokens." in html


def test_the_factories_bind_checker_and_answer_text() -> None:
    ex = Exercise.number("q", Fraction(45, 2), hint="h", explanation="e")
    assert ex.answer_text == "45/2" and ex.check("22.5").correct and not ex.check("22").correct
    ex = Exercise.number("q", 4 / 7, hint="h", explanation="e", tolerance=1e-9)
    assert ex.check("4/7").correct and not ex.check("0.571").correct
    ex = Exercise.sequence("q", [1, 1, 2, 4, 7], hint="h", explanation="e")
    assert ex.answer_text == "1, 1, 2, 4, 7" and not ex.check("1, 2, 1, 4, 7").correct
    ex = Exercise.collection("q", ["er", "at"], hint="h", explanation="e")
    assert ex.check("at er").correct and not ex.check("er").correct
    ex = Exercise.choice("q", "no", ["yes", "no"], hint="h", explanation="e")
    assert ex.check("No").correct and not ex.check("yes").correct
