"""A notebook's conclusions: numbered, non-empty, shown as Markdown."""

from __future__ import annotations

import pytest

from workbench.course import conclusions


def test_conclusions_are_numbered_markdown() -> None:
    c = conclusions("GRAMPA has 16 segmentations.", "Each   has\nprobability 1/16.")
    assert c._repr_markdown_() == "1. GRAMPA has 16 segmentations.\n2. Each has probability 1/16."


@pytest.mark.parametrize("bad", [(), ("",), ("fine", "  ")])
def test_conclusions_refuse_empty(bad: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        conclusions(*bad)
