"""Exercises with automatic feedback: a question, an answer box, a checker, a hint and a reveal.

An :class:`Exercise` holds the question (Markdown), the answer (computed by the notebook with
the workbench's own functions, never typed), a checker that turns the student's text into a
:class:`Feedback`, a hint and an explanation. The checkers are pure functions of text and are
tested without widgets:

* :func:`check_number` — an int, a fraction ``5/8``, a decimal ``0.625`` or a percentage
  ``62.5%``; exact answers (``int``, ``Fraction``) must match exactly, float answers within a
  stated tolerance;
* :func:`check_sequence` — an ordered list of numbers or tokens (``1, 1, 2, 4`` or ``G R AM``);
* :func:`check_set` — the same, order ignored, each member named once;
* :func:`check_choice` — one of a few named options (``yes`` / ``no``, a method's name).

How a number is read (:func:`parse_number`): a decimal is written with a point (``0.625``); a
comma inside a single number only groups thousands (``32,512``, ``1,000,000``), and any other
comma (``0,625``, ``2,5``) is refused with a message saying so, never read as something else.
In a list (:func:`check_sequence`, :func:`check_set`) a comma always separates items, so a
list's numbers are written without thousands commas (``1000, 2000``). A number may have at
most 1000 digits written out in full; a longer one (``1e99999999``) is refused at once.

A checker never raises for what a student typed: a wrong or unreadable answer (text, or a
number given as a Python ``int``, ``Fraction`` or ``float``, which is read as the number it
is) gets a :class:`Feedback` that says what is wrong. A checker raises (an
:class:`~workbench.InvalidValueError` or :class:`~workbench.ArgumentTypeError`) only for the
notebook's own mistakes: an expected answer that is not a number, a NaN, a negative
tolerance, an option list without the expected option.

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
import numbers
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .._core.errors import ArgumentTypeError, InvalidValueError, WorkbenchError

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


#: The most digits a number may have written out in full (its numerator and its denominator
#: each): more than any answer needs, few enough that reading and comparing one is instant.
_MAX_DIGITS = 1000
_LIMIT = 10 ** _MAX_DIGITS
#: A text longer than this is refused before it is matched: a number of _MAX_DIGITS digits,
#: written with thousands commas, a point and an exponent, is far shorter.
_MAX_NUMBER_TEXT = 4 * _MAX_DIGITS
#: A list answer with more items than this (and than expected) is judged by its length alone.
_MAX_ITEMS = 1000


def _unsigned(tag: str) -> str:
    """An unsigned decimal: digits (maybe grouped by commas), a point, an exponent. It starts
    with a digit or a point and a digit, so no two runs of spaces in ``_NUMBER`` can meet
    (which would make a failed match quadratic in the text's length)."""
    return (rf"(?=\.?\d)(?P<{tag}int>\d*(?:,\d+)*)(?:\.(?P<{tag}frac>\d*))?"
            rf"(?:[eE](?P<{tag}esign>[-+]?)(?P<{tag}exp>\d+))?")


_NUMBER = re.compile(r"(?P<sign>[-+]?)\s*" + _unsigned("n")
                     + r"\s*(?:(?P<slash>/)\s*" + _unsigned("d") + r"\s*)?(?P<pct>%?)")

_EXAMPLES = "write e.g. 3, 5/8 or 0.625"


def _short(text: str, width: int = 40) -> str:
    """``text`` as a message shows it: cut to about ``width`` characters."""
    return text if len(text) <= width else f"{text[:width - 10]}… ({len(text)} characters)"


def _too_long(shown: str) -> InvalidValueError:
    return InvalidValueError(f"{shown} has more than {_MAX_DIGITS} digits written out in full: "
                             "too many to check")


def _ungroup(whole: str, shown: str) -> str:
    """The digits of ``whole`` without its thousands commas (``32,512`` → ``32512``); any
    other comma is refused, never read (``0,625`` is neither 625 nor, silently, 0.625)."""
    groups = whole.split(",")
    if (1 <= len(groups[0]) <= 3 and int(groups[0][0]) != 0
            and all(len(g) == 3 for g in groups[1:])):
        return "".join(groups)
    raise InvalidValueError(f"{shown}: write a decimal with a point (0.625, not 0,625); a "
                            "comma in a number only groups thousands (32,512)")


def _decimal(m: re.Match[str], tag: str, shown: str) -> Fraction:
    """The unsigned decimal of group ``tag`` of ``m``, exactly."""
    whole, frac = m[f"{tag}int"], m[f"{tag}frac"] or ""
    if "," in whole:
        whole = _ungroup(whole, shown)
    if len(whole) + len(frac) > _MAX_DIGITS:
        raise _too_long(shown)
    mantissa = int(whole + frac)
    if mantissa == 0:
        return Fraction(0)  # whatever the exponent
    shift = -len(frac)
    if m[f"{tag}exp"] is not None:
        exponent = m[f"{tag}exp"].lstrip("0") or "0"
        # past 2 * _MAX_DIGITS the value has more than _MAX_DIGITS digits written out in
        # full, whatever the mantissa: refused before 10 ** exponent is computed
        if len(exponent) > 5 or int(exponent) > 2 * _MAX_DIGITS:
            raise _too_long(shown)
        shift += -int(exponent) if m[f"{tag}esign"] == "-" else int(exponent)
    return Fraction(mantissa * 10 ** shift) if shift >= 0 else Fraction(mantissa, 10 ** -shift)


def parse_number(text: str) -> Fraction:
    """The number written in ``text``, exactly: ``"5/8"``, ``"0.625"``, ``"62.5%"``, ``"-3"``.

    Parameters
    ----------
    text : str
        An integer or a decimal (``0.625``, ``.5``, ``6.25e-1``), or a fraction of two of
        them (``5/8``, ``1/0.5``), with an optional sign (``-``, ``+`` or ``−``) and an
        optional ``%``. A decimal is written with a point; a comma only groups thousands
        (``32,512``, ``1,234.5``: a first group of one to three digits, not ``0``, then groups
        of three). Spaces around the parts are ignored.

    Returns
    -------
    Fraction
        The value, exactly (``0.1`` is ``1/10``, not the float nearest to it).

    Raises
    ------
    InvalidValueError
        (a ``ValueError``) for anything else, with a message for the student that says what
        is wrong (the checkers show it): not a number, a comma that does not group thousands
        (``0,625``, ``2,5``: a decimal comma is refused, never read as 625), a zero
        denominator, or a number with more than 1000 digits written out in full
        (``1e99999999``, refused at once, without computing it).
    ArgumentTypeError
        If ``text`` is not a ``str``.

    >>> parse_number("5/8"), parse_number(" 0.625 "), parse_number("62.5 %"), parse_number("−2")
    (Fraction(5, 8), Fraction(5, 8), Fraction(5, 8), Fraction(-2, 1))
    >>> parse_number("0,625")
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: '0,625': write a decimal with a point (0.625, not 0,625); a \
comma in a number only groups thousands (32,512)
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"an answer is text, not {type(text).__name__}")
    stripped = text.strip()
    shown = repr(_short(stripped))
    if not stripped:
        raise InvalidValueError(f"the answer is empty ({_EXAMPLES})")
    if len(stripped) > _MAX_NUMBER_TEXT:
        raise InvalidValueError(f"{shown} is too long to be a number here")
    m = _NUMBER.fullmatch(stripped.replace("−", "-"))
    if not m:
        raise InvalidValueError(f"{shown} is not a number ({_EXAMPLES})")
    value = _decimal(m, "n", shown)
    if m["slash"]:
        denominator = _decimal(m, "d", shown)
        if denominator == 0:
            raise InvalidValueError(f"{shown}: a fraction needs a non-zero denominator")
        value /= denominator
    if m["sign"] == "-":
        value = -value
    if m["pct"]:
        value /= 100
    if abs(value.numerator) >= _LIMIT or value.denominator >= _LIMIT:
        raise _too_long(shown)
    return value


def _show(x: object) -> str:
    return str(x) if not isinstance(x, float) else f"{x:.6g}"


def _answer_text(answer: object) -> str:
    """What a student gave, as text: a ``str`` as it is, a Python number as the number it is
    (``3``, ``5/8``; a float as its shortest decimal, ``0.1``). Refuses anything else."""
    if isinstance(answer, str):
        return answer
    if isinstance(answer, numbers.Real) and not isinstance(answer, bool):
        if isinstance(answer, numbers.Rational):
            num, den = ((int(answer), 1) if isinstance(answer, numbers.Integral)
                        else (int(answer.numerator), int(answer.denominator)))
            if abs(num) >= _LIMIT or den >= _LIMIT:
                raise _too_long("that number")
            return str(num) if den == 1 else f"{num}/{den}"
        value = float(answer)
        if math.isfinite(value):
            return repr(value)
        raise InvalidValueError(f"{value!r} is not a number you can give as an answer")
    if answer is None:
        raise ArgumentTypeError("there is no answer to check: type the answer as text")
    raise ArgumentTypeError(f"an answer is typed as text, not given as a {type(answer).__name__}")


def _expected_number(expected: object) -> Fraction | float:
    """The expected answer of a number exercise: exact (``Fraction``) or a finite float."""
    if isinstance(expected, bool) or not isinstance(expected, numbers.Real):
        raise ArgumentTypeError("the expected answer must be an int, a Fraction or a float, "
                                f"not {type(expected).__name__}")
    if isinstance(expected, numbers.Integral):
        return Fraction(int(expected))
    if isinstance(expected, numbers.Rational):
        return Fraction(int(expected.numerator), int(expected.denominator))
    value = float(expected)
    if not math.isfinite(value):
        raise InvalidValueError("a float answer must be finite")
    return value


def _to_float(value: Fraction) -> float:
    """``float(value)``, or an infinity of its sign when it is beyond a float's range."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _matches(given: Fraction, expected: Fraction | float, tolerance: float = 0.0) -> bool:
    """Is the number ``given`` the answer ``expected``? Exactly for a ``Fraction``; for a float,
    within ``tolerance`` (``0``: ``given`` rounds to that float, so ``0.1`` is ``0.1``)."""
    if isinstance(expected, float):
        return abs(_to_float(given) - expected) <= tolerance
    return given == expected


def check_number(text: str, expected: int | float | Fraction, *,
                 tolerance: float = 0.0) -> Feedback:
    """Is ``text`` the number ``expected``?

    ``int`` and ``Fraction`` answers are exact (``0.625`` is accepted for ``5/8``, ``0.62`` is
    not); a ``float`` answer is accepted within ``tolerance`` (absolute), which must then be
    stated by the caller. A wrong answer is told whether it is too large or too small; an
    unreadable one what is wrong with it (see :func:`parse_number`: a decimal comma, say).

    Parameters
    ----------
    text : str
        The student's answer (a Python number is read as the number it is).
    expected : int, float or Fraction
        The right answer; a float must be finite.
    tolerance : float
        For a float ``expected``: the largest absolute difference accepted (``>= 0``).

    Returns
    -------
    Feedback
        Never an exception for what the student typed.

    Raises
    ------
    ArgumentTypeError, InvalidValueError
        If ``expected`` is not a finite number, or ``tolerance`` is negative or NaN.

    >>> check_number("5/8", Fraction(5, 8)).correct, check_number("0.6", Fraction(5, 8)).message
    (True, 'Not quite: 0.6 is too small.')
    >>> check_number("0.5714", 4 / 7, tolerance=1e-3).correct
    True
    """
    want = _expected_number(expected)
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real):
        raise ArgumentTypeError(f"tolerance must be a number, not {type(tolerance).__name__}")
    if not tolerance >= 0:
        raise InvalidValueError(f"tolerance must be >= 0, got {tolerance!r}")
    try:  # an int past the floats (10**400) is an infinite tolerance
        float(tolerance)
    except OverflowError:
        tolerance = math.inf
    try:
        text = _answer_text(text)
        given = parse_number(text)
    except WorkbenchError as err:
        return Feedback(False, str(err))
    if _matches(given, want, float(tolerance)):
        return Feedback(True, "Correct.")
    side = "too large" if given > Fraction(want) else "too small"
    shown = _short(text.strip())
    note = ""
    if "," in shown:
        note = (" (the comma was read as grouping thousands: write a decimal with a point, "
                "e.g. 0.625)")
    return Feedback(False, f"Not quite: {shown} is {side}{note}.")


def _items(text: str) -> list[str]:
    """Items of a list typed as ``a, b, c``, ``a b c``, ``a | b | c`` or ``[a, b]``."""
    text = text.strip().strip("[](){}")
    parts = re.split(r"\s*[,|;]\s*|\s+", text)
    return [p.strip("'\"") for p in parts if p.strip("'\"")]


def _expected_items(expected: object) -> list[Fraction | float | str]:
    """The expected items: a number as a ``Fraction`` (exact) or a float, anything else as the
    text that names it (``str(item)``)."""
    if isinstance(expected, str) or not isinstance(expected, Iterable):
        raise ArgumentTypeError("the expected answer must be a list of items, not "
                                f"{type(expected).__name__}")
    return [_expected_number(e)
            if isinstance(e, numbers.Real) and not isinstance(e, bool) else str(e)
            for e in expected]


class _Reader:
    """Reads each item of a list answer once, and compares it with an expected item."""

    def __init__(self) -> None:
        self._values: dict[str, Fraction | None] = {}

    def value(self, item: str) -> Fraction | None:
        """The number ``item`` names, or ``None`` if it is not one."""
        if item not in self._values:
            try:
                self._values[item] = parse_number(item)
            except InvalidValueError:
                self._values[item] = None
        return self._values[item]

    def same(self, item: str, expected: Fraction | float | str) -> bool:
        if isinstance(expected, str):
            return item == expected
        value = self.value(item)
        return value is not None and _matches(value, expected)


def _list_answer(text: object) -> list[str] | Feedback:
    """The items of a list answer, or the :class:`Feedback` that refuses it."""
    try:
        return _items(_answer_text(text))
    except WorkbenchError as err:
        return Feedback(False, str(err))


def check_sequence(text: str, expected: Sequence[object]) -> Feedback:
    """Is ``text`` the list ``expected``, in order? Says the first item that differs.

    Items are separated by commas, spaces, ``|`` or ``;`` (so a number in a list has no
    thousands comma: ``1,000`` is the two items 1 and 0). A number item matches an ``int`` or
    ``Fraction`` exactly (``1/2``, ``0.5`` and ``50%`` are all ``Fraction(1, 2)``) and a float
    when it rounds to it (``1/2`` is ``0.5``); any other item matches its text, ``str(item)``.

    Parameters
    ----------
    text : str
        The student's answer (a Python number is read as a list of one number).
    expected : sequence
        The right items, in order.

    Returns
    -------
    Feedback
        Never an exception for what the student typed.

    >>> check_sequence("1, 1, 2, 4, 7", [1, 1, 2, 4, 7]).correct
    True
    >>> check_sequence("1 1 2 3 7", [1, 1, 2, 4, 7]).message
    'Not quite: item 4 should not be 3.'
    >>> check_sequence("1 1", [1, 1, 2]).message
    'Not quite: 2 items given, 3 expected.'
    """
    want = _expected_items(expected)
    given = _list_answer(text)
    if isinstance(given, Feedback):
        return given
    if len(given) != len(want):
        return Feedback(False, f"Not quite: {len(given)} items given, {len(want)} expected.")
    reader = _Reader()
    for i, (g, e) in enumerate(zip(given, want), start=1):
        if not reader.same(g, e):
            return Feedback(False, f"Not quite: item {i} should not be {_short(g)}.")
    return Feedback(True, "Correct.")


def _listed(texts: list[str], most: int = 5) -> str:
    shown = [_short(t) for t in texts[:most]]
    return ", ".join(shown) + (f" and {len(texts) - most} more" if len(texts) > most else "")


def check_set(text: str, expected: Sequence[object]) -> Feedback:
    """Is ``text`` the collection ``expected``, order ignored? Says what is missing or extra.

    Items are read as by :func:`check_sequence`. A set names each member once: two items of
    one value (``1`` and ``1.0``, ``1`` and ``2/2``, ``er`` twice) are one member named twice,
    which the feedback points out, so ``1, 1.0`` is not the set ``{1, 2}``.

    Parameters
    ----------
    text : str
        The student's answer (a Python number is read as a set of one number).
    expected : sequence
        The right members, each once.

    Returns
    -------
    Feedback
        Never an exception for what the student typed.

    Raises
    ------
    InvalidValueError
        If ``expected`` names one member twice (``[1, 1.0]``).

    >>> check_set("at, er", ["er", "at"]).correct
    True
    >>> check_set("er, he", ["er", "at"]).message
    'Not quite: he should not be there, and one item is missing.'
    >>> check_set("1, 2/2", [1, 2]).message
    'Not quite: 1 and 2/2 are the same number, and one item is missing.'
    """
    want = _expected_items(expected)
    keys = [Fraction(e) if isinstance(e, float) else e for e in want]
    if len(set(keys)) != len(keys):
        raise InvalidValueError(f"the expected set {list(expected)!r} names a member twice")
    given = _list_answer(text)
    if isinstance(given, Feedback):
        return given
    if len(given) > max(_MAX_ITEMS, len(want)):
        return Feedback(False, f"Not quite: {len(given)} items given, {len(want)} expected.")
    reader = _Reader()
    named: dict[int, list[str]] = {}  # expected member -> the items that name it
    extra: list[str] = []
    for g in given:
        i = next((i for i, e in enumerate(want) if reader.same(g, e)), None)
        if i is None:
            extra.append(g)
        else:
            named.setdefault(i, []).append(g)
    missing = len(want) - len(named)
    if not extra and missing == 0 and all(len(v) == 1 for v in named.values()):
        return Feedback(True, "Correct.")
    parts = []
    if extra:
        parts.append(f"{_listed(extra)} should not be there")
    for i, items in sorted(named.items()):
        distinct = list(dict.fromkeys(items))
        if len(distinct) > 1:
            kind = "item" if isinstance(want[i], str) else "number"
            parts.append(f"{' and '.join(_short(t) for t in distinct)} are the same {kind}")
        elif len(items) > 1:
            times = "twice" if len(items) == 2 else f"{len(items)} times"
            parts.append(f"{_short(items[0])} is given {times}")
    if missing > 0:
        parts.append("one item is missing" if missing == 1 else f"{missing} items are missing")
    return Feedback(False, "Not quite: " + ", and ".join(parts) + ".")


def check_choice(text: str, expected: str, options: Sequence[str]) -> Feedback:
    """Is ``text`` the option ``expected`` (case and surrounding spaces ignored)?

    Parameters
    ----------
    text : str
        The student's answer (a Python number is read as its text: ``0.5`` as ``"0.5"``).
    expected : str
        The right option, one of ``options``.
    options : sequence of str
        The options the student chooses from.

    Returns
    -------
    Feedback
        Never an exception for what the student typed.

    Raises
    ------
    ArgumentTypeError, InvalidValueError
        If an option is not a ``str``, or ``expected`` is not one of them.

    >>> check_choice(" Yes", "yes", ["yes", "no"]).correct
    True
    >>> check_choice("maybe", "no", ["yes", "no"]).message
    'Answer with one of: yes, no.'
    """
    options = list(options)
    if not all(isinstance(o, str) for o in options):
        raise ArgumentTypeError(f"the options must be text, got {options!r}")
    if expected not in options:
        raise InvalidValueError(f"the expected answer {expected!r} is not one of the options "
                                f"{options}")
    try:
        given = _answer_text(text).strip().lower()
    except WorkbenchError as err:
        return Feedback(False, str(err))
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
