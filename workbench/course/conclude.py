"""A notebook's closing section: its conclusions, each a sentence formatted from computed values.

:func:`conclusions` takes the sentences a notebook's last teaching cell formats from its own
objects (counts, probabilities, measured means) and shows them as a numbered Markdown list, so
no conclusion is typed by hand and none can drift from what the notebook computed.

This module computes nothing and checks nothing: the notebook computes the values, its
*Checks* section asserts them.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._core.errors import InvalidValueError

__all__ = ["Conclusions", "conclusions"]


class Conclusions:
    """Numbered conclusions, displayed as Markdown (``_repr_markdown_``) or plain text."""

    def __init__(self, sentences: Iterable[str]) -> None:
        items = list(sentences)
        if not items:
            raise InvalidValueError("a notebook concludes at least one thing")
        for s in items:
            if not isinstance(s, str) or not s.strip():
                raise InvalidValueError("every conclusion is a non-empty sentence")
        self.sentences = [" ".join(s.split()) for s in items]

    def _repr_markdown_(self) -> str:
        return "\n".join(f"{i}. {s}" for i, s in enumerate(self.sentences, start=1))

    def __repr__(self) -> str:
        return "\n".join(f"{i}. {s}" for i, s in enumerate(self.sentences, start=1))


def conclusions(*sentences: str) -> Conclusions:
    """The notebook's conclusions, one formatted sentence each.

    >>> print(conclusions(f"GRAMPA has {16} segmentations.", "Each has probability 1/16."))
    1. GRAMPA has 16 segmentations.
    2. Each has probability 1/16.
    """
    return Conclusions(sentences)
