"""Huge exact counts are shown and stored without Python's 4,300-digit int→str cap
(issue 42: ``repr`` of a long word's law and ``count --json`` failed on it)."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import pytest

from workbench._core.bigint import MAX_STR_DIGITS, about_count, exact_digits, json_int

CASES = [0, 7, -12, 10**4299, 10**4300 - 1, 10**4300, 7**20000 + 12345, -(3**30000), 10**50000]
IDS = [f"case{i}" for i in range(len(CASES))]  # no repr of a huge int in a test id


@contextmanager
def _no_cap():
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.parametrize("n", CASES, ids=IDS)
def test_exact_digits_are_str_of_the_int(n):
    got = exact_digits(n)  # under the default cap
    with _no_cap():
        assert got == str(n)


@pytest.mark.parametrize("n", CASES, ids=IDS)
def test_json_int_reads_back_with_json_defaults(n):
    back = json.loads(json.dumps(json_int(n)))
    if abs(n) < 10**MAX_STR_DIGITS:  # at most 4,300 digits: the int itself
        assert back == n and type(back) is int
    else:
        assert back == exact_digits(n)


def test_about_count():
    assert about_count(10_946) == "10,946"
    assert about_count(2**100) == "about 10^30"
    assert about_count(10**50000) == "about 10^50000"
