"""The four papers the workbench implements, cited in one place.

:data:`PAPERS` holds each paper's full reference (authors, title, venue, year, identifiers);
:func:`cite` writes it as Markdown for a notebook's first cell, a figure caption or the
README. The notebooks' first cells carry the same text statically (a test checks that each
cites a paper); ``python -m workbench figures`` writes its captions with :func:`cite`.

This module holds references only: it computes and draws nothing, and it reads no file.
Where a paper's text (``shared/papers/``) does not print its venue or identifier, the entry
takes them from the paper's public listing (ACL Anthology, arXiv, NeurIPS).

Example
-------
>>> cite("grampa", "§4.3").startswith("Thomas Bauwens, David Kaczér, Miryam de Lhoneux")
True
>>> sorted(PAPERS)
['batchbpe', 'counterexamples', 'grampa', 'greedtok']
"""

from __future__ import annotations

from dataclasses import dataclass

from .._core.errors import UnknownNameError

__all__ = ["PAPERS", "Paper", "cite"]


@dataclass(frozen=True)
class Paper:
    """One paper: who, what, where, when and how to find it."""

    key: str
    authors: str
    title: str
    venue: str
    year: int
    ids: str
    short: str

    def markdown(self) -> str:
        """The full reference as one Markdown line (title in italics)."""
        return f"{self.authors}. *{self.title}*. {self.venue}, {self.year}. {self.ids}."


PAPERS: dict[str, Paper] = {
    "grampa": Paper(
        key="grampa",
        authors="Thomas Bauwens, David Kaczér, Miryam de Lhoneux",
        title="GRaMPa: Subword Regularisation by Skewing Uniform Segmentation Distributions "
              "with an Efficient Path-counting Markov Model",
        venue="Proceedings of the 63rd Annual Meeting of the Association for Computational "
              "Linguistics (ACL 2025, Volume 1: Long Papers), pages 24228–24257",
        year=2025,
        ids="ACL Anthology 2025.acl-long.1180, doi:10.18653/v1/2025.acl-long.1180",
        short="GRaMPa (Bauwens et al., ACL 2025)",
    ),
    "batchbpe": Paper(
        key="batchbpe",
        authors="Alexander P. Morgan",
        title="Batching BPE Tokenization Merges",
        venue="arXiv preprint",
        year=2024,
        ids="arXiv:2408.04653",
        short="BatchBPE (Morgan, 2024)",
    ),
    "greedtok": Paper(
        key="greedtok",
        authors="Jia Peng Lim, Shawn Tan, Davin Choo, Hady W. Lauw",
        title="A Partition Cover Approach to Tokenization",
        venue="Advances in Neural Information Processing Systems (NeurIPS 2025)",
        year=2025,
        ids="arXiv:2501.06246",
        short="GreedTok (Lim et al., NeurIPS 2025)",
    ),
    "counterexamples": Paper(
        key="counterexamples",
        authors="Marco Cognetta, Vilém Zouhar, Sangwhan Moon, Naoaki Okazaki",
        title="Two Counterexamples to Tokenization and the Noiseless Channel",
        venue="Proceedings of the 2024 Joint International Conference on Computational "
              "Linguistics, Language Resources and Evaluation (LREC-COLING 2024), "
              "pages 16897–16906",
        year=2024,
        ids="arXiv:2402.14614",
        short="Rényi counterexamples (Cognetta et al., LREC-COLING 2024)",
    ),
}
"""The papers by key: ``grampa``, ``batchbpe``, ``greedtok``, ``counterexamples``."""


def cite(key: str, section: str | None = None) -> str:
    """The Markdown citation of paper ``key``, optionally followed by the sections used.

    Parameters
    ----------
    key : str
        One of :data:`PAPERS`.
    section : str, optional
        E.g. ``"§4.3, Figure 8"``; appended as ``"— §4.3, Figure 8"``.

    Raises
    ------
    KeyError
        If ``key`` is not a paper, naming the valid keys.

    >>> cite("batchbpe", "§3").endswith("2024. arXiv:2408.04653. — §3")
    True
    """
    if key not in PAPERS:
        raise UnknownNameError(f"unknown paper {key!r}; valid keys: {', '.join(PAPERS)}")
    text = PAPERS[key].markdown()
    return f"{text} — {section}" if section else text
