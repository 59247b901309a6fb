"""``verify(only=...)``: which checks run (on stand-in checks, so nothing is computed)."""

from __future__ import annotations

import pytest

from workbench.checks import registry


@pytest.fixture
def ran(monkeypatch):
    calls: list[str] = []
    names = ["LOCK kernel", "LOCK parts", "BatchBPE Code Block 1", "Eq. 22 GRaMPa",
             "GreedTok Thm 1"]
    monkeypatch.setattr(registry, "CHECKS", {
        name: ("numeric", lambda name=name: calls.append(name) or []) for name in names})
    return calls


@pytest.mark.parametrize("only,expected", [
    ("LOCK", ["LOCK kernel", "LOCK parts"]),           # not "Code Block 1"
    ("lock", ["LOCK kernel", "LOCK parts"]),           # case-insensitive
    ("block", ["BatchBPE Code Block 1"]),
    ("Eq. 22", ["Eq. 22 GRaMPa"]),
    ("Greed", ["GreedTok Thm 1"]),                     # a word's start is enough
    ("Tok", []),                                       # not inside a word
    (None, ["LOCK kernel", "LOCK parts", "BatchBPE Code Block 1", "Eq. 22 GRaMPa",
            "GreedTok Thm 1"]),
])
def test_only_selects_checks_by_a_word_start(ran, only, expected):
    registry.verify(only=only)
    assert ran == expected
