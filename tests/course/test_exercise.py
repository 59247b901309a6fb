"""The exercises' checkers without widgets; the widget's verdict on a wrong, then a right answer."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hangguard import hang_guard

from workbench import ArgumentTypeError, InvalidValueError, WorkbenchError
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
    ("32,512", Fraction(32512)), ("45/2", Fraction(45, 2)), ("1,000,000", Fraction(10**6)),
    ("1,234.5", Fraction(2469, 2)), (".5", Fraction(1, 2)), ("1/0.5", Fraction(2)),
    ("1e999", Fraction(10**999)), ("0e99999999", Fraction(0)),
])
def test_parse_number(text: str, value: Fraction) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["", "five", "1/0", "1/2/3", "2,5", "0,625", ".", "1/",
                                  "1e", "1.2.3", "1,0000", "1e1000", "1e-1000"])
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


# --- issue: the checkers' wrong verdicts, hangs and tracebacks -------------------------------

@pytest.mark.parametrize("text", ["1, 1.0", "1, 2/2", "1, 100%", "2/2 1"])
def test_a_set_counts_one_value_once(text: str) -> None:
    """``1`` and ``1.0`` are one member named twice, not the two members of ``{1, 2}``."""
    fb = check_set(text, [1, 2])
    assert not fb.correct
    assert "are the same number" in fb.message and "one item is missing" in fb.message
    assert check_set("1, 1.0, 2", [1, 2]).message == "Not quite: 1 and 1.0 are the same number."
    assert check_set("2/2, 200%", [1, 2]).correct
    assert check_set("er, er, at", ["er", "at"]).message == "Not quite: er is given twice."
    with pytest.raises(InvalidValueError, match="twice"):
        check_set("1", [1, 1.0])  # the expected set itself must name each member once


def test_a_float_item_is_a_number() -> None:
    """``1/2`` is the float 0.5 in a list as it is in :func:`check_number`."""
    assert check_sequence("1/2", [0.5]).correct
    assert check_sequence("50%, 0.1, 1/3", [0.5, 0.1, 1 / 3]).correct
    assert check_set("1/4 1/2", [0.5, 0.25]).correct
    assert check_sequence("0.51", [0.5]).message == "Not quite: item 1 should not be 0.51."
    assert not check_set("0.5, 0.5", [0.5, 0.25]).correct


def test_a_decimal_comma_is_refused_never_misread() -> None:
    """``0,625`` is neither 625 nor silently 0.625: the student is told to write a point."""
    with pytest.raises(InvalidValueError, match="with a point"):
        parse_number("0,625")
    for expected in (625, Fraction(5, 8), 0.625):
        fb = check_number("0,625", expected, tolerance=1e-9 if expected == 0.625 else 0.0)
        assert not fb.correct and "with a point" in fb.message
    # a thousands comma is read as one, and says so when the answer is then wrong
    assert check_number("1,234", 1234).correct
    fb = check_number("1,234", 1.234, tolerance=1e-9)
    assert not fb.correct and "thousands" in fb.message and "point" in fb.message
    # in a list a comma separates items
    assert check_sequence("0,625", [0, 625]).correct
    assert check_sequence("0,625", [Fraction(5, 8)]).message == "Not quite: 2 items given, 1 " \
                                                                 "expected."


HUGE = {"1e99999999": "1e99999999", "a million nines": "9" * 10**6,
        "1e-99999999": "1e-99999999", "1 over 100000 nines": "1/" + "9" * 100_000,
        "1e1000": "1e1000", "1001 nines": "9" * 1001, "4000 characters": "1" + "0" * 3999 + "x",
        "a million spaces": "-" + " " * 10**6 + "1", "1e-1000 in full": "0." + "0" * 999 + "1"}


@pytest.mark.parametrize("text", list(HUGE.values()), ids=list(HUGE))
def test_a_huge_number_is_refused_at_once(text: str) -> None:
    """Refused without computing 10 ** 99999999 (the probe ran over 60 s)."""
    with hang_guard(0.001, f"refusing {text[:12]}…"):  # quiet: 0.1 ms or less
        fb = check_number(text, Fraction(5, 8))
        with pytest.raises(InvalidValueError):
            parse_number(text)
        for other in (check_sequence(text, [1]), check_set(text, [1]),
                      check_number(text, 0.5, tolerance=1e-3)):
            assert not other.correct
    assert not fb.correct
    assert "digits" in fb.message or "too long" in fb.message or "not a number" in fb.message
    assert len(fb.message) < 200  # the answer is shown cut short


def test_a_number_beyond_float_range_gets_feedback() -> None:
    """``1e400`` against a float answer: a verdict, not an OverflowError."""
    assert check_number("1e400", 4 / 7, tolerance=1e-3).message == "Not quite: 1e400 is too large."
    assert check_number("-1e400", 4 / 7, tolerance=1e-3).message == \
        "Not quite: -1e400 is too small."
    assert check_number("1e-400", 0.0, tolerance=1e-3).correct
    assert check_sequence("1e400", [0.5]).message == "Not quite: item 1 should not be 1e400."
    assert not check_set("1e400 1/2", [0.5]).correct


@pytest.mark.parametrize("check", [
    lambda a: check_number(a, 3), lambda a: check_sequence(a, [3]), lambda a: check_set(a, [3]),
    lambda a: check_choice(a, "3", ["3", "4"]),
], ids=["number", "sequence", "set", "choice"])
def test_an_answer_given_as_a_python_object(check) -> None:
    """A number is read as the number it is; ``None``, a bool or a list get a message."""
    assert check(3).correct and check(Fraction(3)).correct
    assert not check(4).correct
    for answer, words in ((None, "no answer"), (True, "text"), ([3], "text"),
                          (float("nan"), "not a number")):
        fb = check(answer)
        assert not fb.correct and words in fb.message, (answer, fb)


def test_python_numbers_as_answers() -> None:
    assert check_set(3, [3]).correct and check_sequence(3, [3]).correct
    assert check_number(0.1, Fraction(1, 10)).correct      # the float typed as 0.1
    assert check_choice(0.5, "0.5", ["0", "0.5", "1"]).correct
    assert not check_number(10**2000, 1).correct            # refused, not str()-ed
    with pytest.raises(TypeError):
        parse_number(5)  # type: ignore[arg-type]  (the parser itself reads text only)


def test_the_notebooks_mistakes_are_errors() -> None:
    """What the notebook passes in is checked: a package error, never an AttributeError."""
    for call in (lambda: check_number("1", "5/8"), lambda: check_number("1", True),
                 lambda: check_number("1", 1.0, tolerance=-1.0),
                 lambda: check_sequence("1", 1), lambda: check_set("a", "ab"),
                 lambda: check_choice("1", 1, [1, 2])):
        with pytest.raises(WorkbenchError):
            call()
    with pytest.raises(ArgumentTypeError):
        check_sequence("1", None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [".", "..", "1.2.3", "e5", "/", "1/", "−", "%", "1/.", "0,5"])
def test_a_refusal_says_what_is_wrong_in_plain_words(text: str) -> None:
    """Not Python's own messages (\"Invalid literal for Fraction: '.'\")."""
    fb = check_number(text, 1)
    assert not fb.correct
    assert "Fraction" not in fb.message and "literal" not in fb.message.lower()
    assert "not a number" in fb.message or "point" in fb.message
    assert repr(text.strip()) in fb.message  # it quotes what was typed
