"""Huge exact integers (segmentation counts) shown and stored without Python's digit cap.

``str()`` of an int past 4,300 digits raises ``ValueError`` (and ``json.loads`` refuses
such an int): these helpers write its order of magnitude, or its exact digits as a string.

This module does not count anything (see :mod:`workbench.lattice`).
"""

from __future__ import annotations

import math

#: Digits Python converts ``int`` ↔ ``str`` by default (``sys.get_int_max_str_digits``), and
#: so the longest integer ``json.loads`` reads back by default.
MAX_STR_DIGITS = 4300
_LIMIT = 10 ** MAX_STR_DIGITS  # the smallest int of more than MAX_STR_DIGITS digits


def about_count(total: int) -> str:
    """``total`` with thousands separators, or its order of magnitude when it is huge.

    >>> about_count(10_946), about_count(2**100)
    ('10,946', 'about 10^30')
    """
    if total.bit_length() < 64:
        return f"{total:,}"
    return f"about 10^{round(log10_int(total))}"


def log10_int(total: int) -> float:
    """``log10(total)`` of a positive int of any size (``math.log10`` takes big ints)."""
    return math.log10(total)


def json_int(total: int) -> int | str:
    """``total`` for a JSON document: the int itself, or its exact digits as a string when it
    has more than :data:`MAX_STR_DIGITS` digits (which ``json.loads`` refuses by default).

    >>> json_int(12), len(json_int(10**5000))
    (12, 5001)
    """
    return total if abs(total) < _LIMIT else exact_digits(total)


def exact_digits(total: int) -> str:
    """The exact decimal digits of ``total`` without Python's int→str cap (divide and conquer
    on powers of 10; each piece is below the cap)."""
    if total < 0:
        return "-" + exact_digits(-total)
    if total < _LIMIT:
        return str(total)
    half = int(log10_int(total)) // 2 + 1
    high, low = divmod(total, 10 ** half)
    return exact_digits(high) + exact_digits(low).rjust(half, "0")
