"""Whatever a student types, each checker gives a verdict and the parser a value that round-trips.

One property over the free-text parsers and checkers (:func:`parse_number`,
:func:`check_number`, :func:`check_sequence`, :func:`check_set`, :func:`check_choice`): for any
string, ``parse_number`` either refuses it with the package's own error (a message in plain
words) or returns a value that, written out (``str``) and read again, is the same value and
that the checkers accept; every checker returns a :class:`Feedback`, never raises an internal
exception (``AttributeError``, ``OverflowError``, ``ZeroDivisionError``, ``RecursionError``,
``MemoryError``, …: any of them fails the test), and a "not quite" says what is wrong without
Python's own words.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import InvalidValueError
from workbench.course import (
    Feedback,
    check_choice,
    check_number,
    check_sequence,
    check_set,
    parse_number,
)

#: Pieces of numbers and of lists, and the limits: huge exponents, too many digits, a decimal
#: comma, a Unicode minus and digit, list separators and brackets.
FRAGMENTS = ["0", "1", "5", "9", "12", "000", "625", ".", ",", "e", "E", "-", "+", "−", "/",
             "%", " ", "e400", "e-400", "e2001", "e99999999", "9" * 1001, "0" * 999, "٣",
             "x", "[", "]", "|", ";", "'", "yes", "NaN", "inf", "_", "\t"]
NUMBERISH = st.lists(st.sampled_from(FRAGMENTS), max_size=10).map("".join)

#: Words that would mean an internal message reached the student.
INTERNAL = ("Fraction", "literal", "Traceback", "Error", "NoneType", "int()", "float()")


def _plain(message: str) -> bool:
    return bool(message.strip()) and not any(w in message for w in INTERNAL)


def _verdicts(text: str) -> list[Feedback]:
    return [check_number(text, Fraction(5, 8)), check_number(text, 4 / 7, tolerance=1e-3),
            check_number(text, 0), check_sequence(text, [1, "G", 0.5]),
            check_set(text, [1, 2, "er"]), check_choice(text, "yes", ["yes", "no"])]


@settings(derandomize=True, database=None, max_examples=600, deadline=None)
@given(text=st.one_of(st.text(max_size=30), NUMBERISH))
def test_any_text_is_refused_in_plain_words_or_read_so_that_it_round_trips(text: str) -> None:
    try:
        value = parse_number(text)
    except InvalidValueError as err:
        assert _plain(str(err)), str(err)
        assert not check_number(text, 1).correct
    else:
        written = str(value)
        assert parse_number(written) == value                       # the round trip
        assert check_number(text, value).correct and check_number(written, value).correct
        assert check_sequence(written, [value]).correct and check_set(written, [value]).correct
    for fb in _verdicts(text):
        assert isinstance(fb, Feedback) and isinstance(fb.correct, bool)
        assert fb.correct or _plain(fb.message), (text, fb)
