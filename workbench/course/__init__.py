"""The course's teaching helpers: exercises with automatic feedback, and computed conclusions.

* :mod:`~workbench.course.exercise` — :class:`Exercise` (question, answer box, checker, hint,
  reveal) and the pure checkers ``check_number``, ``check_sequence``, ``check_set``,
  ``check_choice``;
* :mod:`~workbench.course.conclude` — :func:`conclusions`, a notebook's closing sentences;
* :mod:`~workbench.course.kernelpoll` — the kernel client every Voilà, ``make site`` and the
  notebook tests run the course with (not imported here: it needs ``jupyter_client``).

Rank 6, a sibling of ``figures`` and ``checks``: it may use every computing layer, and neither
a plot nor a verdict (an exercise's answer is computed by the notebook with the workbench's
own functions and passed in). It computes no answer itself.
"""

from .conclude import Conclusions, conclusions
from .exercise import (
    Exercise,
    Feedback,
    check_choice,
    check_number,
    check_sequence,
    check_set,
    parse_number,
)

__all__ = [
    "Conclusions",
    "Exercise",
    "Feedback",
    "check_choice",
    "check_number",
    "check_sequence",
    "check_set",
    "conclusions",
    "parse_number",
]
