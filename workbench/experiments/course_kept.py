"""The course's kept results: the calls of notebooks 07, 09 and 11 that the warm-up fills.

Their results are kept on disk (:mod:`.kept`); a notebook's first visit after an install or
a code change would compute them (Figure 6's
curves in 07, the trained GreedTok/BPE/ULM results in 09, Figure 11's sampled corpora in
11). :data:`FILLS` makes the same calls with the same arguments: the settings are named once,
in the module of each experiment (``grampa_regularisation.COURSE_FIGURE6``,
``greedtok.COURSE_*``, ``grampa_efficiency.COURSE_*`` and ``course_setups``), and the
notebooks read them from there (``tests/experiments/test_course_kept.py`` checks the
notebooks' source). ``python -m workbench warmup`` runs :data:`FILLS` once after installing
(:func:`workbench.warmup.fill_kept`), so a student's first visit reads the files.

This module computes nothing of its own, catches nothing (the warm-up reports a failed fill;
a result computed but not written is a :class:`~.kept.KeptWriteWarning`, not a failure: the
notebook computes it on its first visit) and removes no file
(:func:`workbench._core.cachedir.prune` does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["FILLS", "Fill"]


@dataclass(frozen=True)
class Fill:
    """One notebook's kept results: ``run()`` makes its calls (reading or writing the files)."""

    notebook: str
    what: str
    run: Callable[[], None]


def _figure6() -> None:
    from . import grampa_regularisation as regularisation

    regularisation.figure6(*regularisation.COURSE_FIGURE6)


def _greedtok_text() -> None:
    from ..datasets.corpora import greedtok_text_chunk_counts
    from . import greedtok as GT

    counts = greedtok_text_chunk_counts(GT.COURSE_CHARS)
    GT.compute_tokens_per_word(counts, GT.COURSE_KS)
    GT.compute_token_sets(counts, GT.COURSE_K)


def _greedtok_un() -> None:
    from ..datasets import load_counts
    from . import greedtok as GT

    GT.trained_greedtok(load_counts("un"), GT.COURSE_UN_K)


def _figure11() -> None:
    from . import grampa_efficiency as GE

    for setup in GE.course_setups().values():
        GE.compute_regulariser(setup, GE.ALPHA, seeds=GE.COURSE_SEEDS)


#: The course's kept results, in notebook order.
FILLS = (
    Fill("07", "Figure 6's curves", _figure6),
    Fill("09", "GreedTok, BPE and ULM trained on the Shakespeare chunks", _greedtok_text),
    Fill("09", "GreedTok trained on the UN counts", _greedtok_un),
    Fill("11", "Figure 11's BPE-dropout and ULM samples", _figure11),
)
