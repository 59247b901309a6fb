"""Exercises with automatic feedback: a question, an answer box, a checker, a hint and a reveal.

An :class:`Exercise` holds the question (Markdown), the answer (computed by the notebook with
the workbench's own functions, never typed), a checker that turns the student's text into a
:class:`Feedback`, a hint and an explanation. The checkers are pure functions of text and are
tested without widgets:

* :func:`check_number` — an int, a fraction ``5/8``, a decimal ``0.625`` or a percentage
  ``62.5%``; exact answers (``int``, ``Fraction``) must match exactly, float answers within a
  stated tolerance;
* :func:`check_sequence` — an ordered list of numbers or tokens (``1, 1, 2, 4`` or ``G R AM``);
* :func:`check_set` — the same, order ignored;
* :func:`check_choice` — one of a few named options (``yes`` / ``no``, a method's name).

Displayed in a notebook, an exercise is a widget (``ipywidgets``): the answer box and a
**Check** button (Enter works too) call the checker and say whether the answer is right and, if
not, what is off; **Hint** and then **Reveal** are HTML ``<details>`` elements, which open
without a kernel, so they also work on the static site (where Check cannot run).

This module does not compute any answer (the notebook passes it in), draws no figure and
imports nothing of the package beyond its own component.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .._core.errors import ArgumentTypeError, InvalidValueError

__all__ = [
    "Exercise",
    "Feedback",
    "check_choice",
    "check_number",
    "check_sequence",
    "check_set",
    "parse_number",
]


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right or not, and a sentence for the student."""

    correct: bool
    message: str


_NUMBER = re.compile(r"^\s*([-+−]?\s*[\d.]+(?:[eE][-+]?\d+)?)\s*(?:/\s*([\d.]+))?\s*(%?)\s*$")


def parse_number(text: str) -> Fraction:
    """The number written in ``text``, exactly: ``"5/8"``, ``"0.625"``, ``"62.5%"``, ``"-3"``.

    Raises ``ValueError`` for anything else (the checkers turn it into a message).

    >>> parse_number("5/8"), parse_number(" 0.625 "), parse_number("62.5 %"), parse_number("−2")
    (Fraction(5, 8), Fraction(5, 8), Fraction(5, 8), Fraction(-2, 1))
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"an answer is text, not {type(text).__name__}")
    m = _NUMBER.match(re.sub(r"(?<=\d),(?=\d{3}\b)", "", text))  # 32,512: a thousands comma
    if not m:
        raise InvalidValueError(f"{text.strip()!r} is not a number (write e.g. 3, 5/8 or 0.625)")
    value = Fraction(m[1].replace("−", "-").replace(" ", ""))
    if m[2] is not None:
        denominator = Fraction(m[2])
        if denominator == 0:
            raise InvalidValueError("a fraction needs a non-zero denominator")
        value /= denominator
    return value / 100 if m[3] else value


def _show(x: object) -> str:
    return str(x) if not isinstance(x, float) else f"{x:.6g}"


def check_number(text: str, expected: int | float | Fraction, *,
                 tolerance: float = 0.0) -> Feedback:
    """Is ``text`` the number ``expected``?

    ``int`` and ``Fraction`` answers are exact (``0.625`` is accepted for ``5/8``, ``0.62`` is
    not); a ``float`` answer is accepted within ``tolerance`` (absolute), which must then be
    stated by the caller. A wrong answer is told whether it is too large or too small.

    >>> check_number("5/8", Fraction(5, 8)).correct, check_number("0.6", Fraction(5, 8)).message
    (True, 'Not quite: 0.6 is too small.')
    >>> check_number("0.5714", 4 / 7, tolerance=1e-3).correct
    True
    """
    try:
        given = parse_number(text)
    except ValueError as err:
        return Feedback(False, str(err))
    if isinstance(expected, float):
        if not math.isfinite(expected):
            raise InvalidValueError("a float answer must be finite")
        ok = abs(float(given) - expected) <= tolerance
    else:
        ok = given == Fraction(expected)
    if ok:
        return Feedback(True, "Correct.")
    side = "too large" if given > Fraction(expected) else "too small"
    shown = text.strip()
    return Feedback(False, f"Not quite: {shown} is {side}.")


def _items(text: str) -> list[str]:
    """Items of a list typed as ``a, b, c``, ``a b c``, ``a | b | c`` or ``[a, b]``."""
    text = text.strip().strip("[](){}")
    parts = re.split(r"\s*[,|;]\s*|\s+", text)
    return [p.strip("'\"") for p in parts if p.strip("'\"")]


def _same_item(given: str, expected: object) -> bool:
    if isinstance(expected, (int, Fraction)) and not isinstance(expected, bool):
        try:
            return parse_number(given) == Fraction(expected)
        except ValueError:
            return False
    return given == str(expected)


def check_sequence(text: str, expected: Sequence[object]) -> Feedback:
    """Is ``text`` the list ``expected``, in order? Says the first item that differs.

    >>> check_sequence("1, 1, 2, 4, 7", [1, 1, 2, 4, 7]).correct
    True
    >>> check_sequence("1 1 2 3 7", [1, 1, 2, 4, 7]).message
    'Not quite: item 4 should not be 3.'
    >>> check_sequence("1 1", [1, 1, 2]).message
    'Not quite: 2 items given, 3 expected.'
    """
    given = _items(text)
    if len(given) != len(expected):
        return Feedback(False, f"Not quite: {len(given)} items given, {len(expected)} expected.")
    for i, (g, e) in enumerate(zip(given, expected), start=1):
        if not _same_item(g, e):
            return Feedback(False, f"Not quite: item {i} should not be {g}.")
    return Feedback(True, "Correct.")


def check_set(text: str, expected: Sequence[object]) -> Feedback:
    """Is ``text`` the collection ``expected``, order ignored? Says what is missing or extra.

    >>> check_set("at, er", ["er", "at"]).correct
    True
    >>> check_set("er, he", ["er", "at"]).message
    'Not quite: he should not be there, and one item is missing.'
    """
    given = _items(text)
    want = [str(e) for e in expected]
    extra = [g for g in given if not any(_same_item(g, e) for e in expected)]
    missing = len(want) - (len(given) - len(extra))
    if not extra and missing == 0 and len(given) == len(set(given)):
        return Feedback(True, "Correct.")
    parts = []
    if extra:
        parts.append(f"{', '.join(extra)} should not be there")
    if missing > 0:
        parts.append("one item is missing" if missing == 1 else f"{missing} items are missing")
    if not parts:
        parts.append("an item is repeated")
    return Feedback(False, "Not quite: " + ", and ".join(parts) + ".")


def check_choice(text: str, expected: str, options: Sequence[str]) -> Feedback:
    """Is ``text`` the option ``expected`` (case and surrounding spaces ignored)?

    >>> check_choice(" Yes", "yes", ["yes", "no"]).correct
    True
    >>> check_choice("maybe", "no", ["yes", "no"]).message
    'Answer with one of: yes, no.'
    """
    if expected not in options:
        raise InvalidValueError(f"the expected answer {expected!r} is not one of the options "
                                f"{options}")
    given = text.strip().lower()
    lowered = {o.lower(): o for o in options}
    if given not in lowered:
        return Feedback(False, "Answer with one of: " + ", ".join(options) + ".")
    if lowered[given] == expected:
        return Feedback(True, "Correct.")
    return Feedback(False, f"Not quite: it is not {lowered[given]}.")


@dataclass(frozen=True)
class Exercise:
    """A question whose answer the notebook computed, with its checker, hint and explanation.

    Parameters
    ----------
    question : str
        Markdown (inline math with ``$...$`` is left to the front end's MathJax).
    answer : object
        The right answer, computed with the workbench's functions.
    check : callable ``str -> Feedback``
        The checker (one of this module's ``check_*`` bound to ``answer``).
    hint : str
        What to think about, without the answer.
    explanation : str
        The answer and why (shown by *Reveal*).
    answer_text : str
        The answer as a student would type it; it must pass ``check`` (asserted).
    """

    question: str
    answer: object
    check: Callable[[str], Feedback] = field(repr=False)
    hint: str
    explanation: str
    answer_text: str

    def __post_init__(self) -> None:
        for name in ("question", "hint", "explanation", "answer_text"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise InvalidValueError(f"an exercise needs a non-empty {name}")
        verdict = self.check(self.answer_text)
        if not isinstance(verdict, Feedback) or not verdict.correct:
            raise InvalidValueError("the checker rejects the exercise's own answer "
                                    f"{self.answer_text!r}")

    @classmethod
    def number(cls, question: str, answer: int | float | Fraction, *, hint: str,
               explanation: str, tolerance: float = 0.0) -> Exercise:
        """An exercise whose answer is one number (:func:`check_number`)."""
        text = f"{answer:.15g}" if isinstance(answer, float) else str(answer)
        return cls(question, answer, lambda t: check_number(t, answer, tolerance=tolerance),
                   hint, explanation, text)

    @classmethod
    def sequence(cls, question: str, answer: Sequence[object], *, hint: str,
                 explanation: str) -> Exercise:
        """An exercise whose answer is an ordered list (:func:`check_sequence`)."""
        answer = list(answer)
        return cls(question, answer, lambda t: check_sequence(t, answer), hint, explanation,
                   ", ".join(map(str, answer)))

    @classmethod
    def collection(cls, question: str, answer: Sequence[object], *, hint: str,
                   explanation: str) -> Exercise:
        """An exercise whose answer is a set of items, order ignored (:func:`check_set`)."""
        answer = list(answer)
        return cls(question, answer, lambda t: check_set(t, answer), hint, explanation,
                   ", ".join(map(str, answer)))

    @classmethod
    def choice(cls, question: str, answer: str, options: Sequence[str], *, hint: str,
               explanation: str) -> Exercise:
        """An exercise whose answer is one of ``options`` (:func:`check_choice`)."""
        options = list(options)
        return cls(question, answer, lambda t: check_choice(t, answer, options), hint,
                   explanation, answer)

    def widget(self):
        """The exercise as an ``ipywidgets.VBox`` (question, answer box, Check, hint, reveal)."""
        import ipywidgets as widgets

        question = widgets.HTMLMath(value=_markdown_to_html(self.question))
        box = widgets.Text(placeholder="your answer", continuous_update=False,
                           layout=widgets.Layout(width="24em"))
        button = widgets.Button(description="Check", button_style="primary",
                                layout=widgets.Layout(width="7em"))
        verdict = widgets.HTML(value="")

        def run(_=None) -> None:
            fb = self.check(box.value)
            colour = "#1a7f37" if fb.correct else "#b3261e"
            mark = "✔" if fb.correct else "✘"
            verdict.value = (f'<span class="exercise-feedback" style="color:{colour}">'
                             f"{mark} {html.escape(fb.message)}</span>")

        button.on_click(run)
        box.observe(run, names="value")
        reveal = widgets.HTMLMath(value=(
            f"<details><summary><b>Hint</b></summary>{_markdown_to_html(self.hint)}</details>"
            f"<details><summary><b>Reveal the answer</b></summary>"
            f"{_markdown_to_html(self.explanation)}</details>"))
        out = widgets.VBox([question, widgets.HBox([box, button]), verdict, reveal])
        out.add_class("workbench-exercise")
        # for tests that drive the widget (tests/app/test_browser.py finds each
        # displayed exercise, and so its answer, through this)
        out.exercise_parts = {"box": box, "check": button, "verdict": verdict, "exercise": self}
        return out

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget())


def _markdown_to_html(text: str) -> str:
    """The little Markdown an exercise uses: ``**bold**``, ``*italic*``, ```code```, paragraphs;
    ``$...$`` math is left to MathJax."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![*\w])\*([^*\s][^*]*)\*(?!\*)", r"<i>\1</i>", out)
    return "".join(f"<p>{p.strip()}</p>" for p in re.split(r"\n\s*\n", out) if p.strip())
