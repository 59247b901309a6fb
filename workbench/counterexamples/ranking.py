"""Tokens ranked by how often a model emits them on a corpus (the paper's "top N").

Ties in frequency are broken by the smaller token id, so the ranking is deterministic.

This module does not modify models.

Example
-------
>>> top_tokens({5: 3, 2: 3, 9: 10, 4: 0}, 3)
[9, 2, 5]
>>> top_tokens({5: 3, 2: 3, 9: 10}, 2, among=[5, 2])
[2, 5]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from .._core.errors import ArgumentTypeError
from .._core.validate import check_int
from .merge_tree import check_bpe_model

__all__ = ["token_frequencies", "top_tokens"]


def token_frequencies(model: object, texts: Iterable[str], *, progress: bool | None = None
                      ) -> dict[int, int]:
    """Unigram counts of token ids over ``model.encode(text)`` for every text.

    Parameters
    ----------
    model : MergeModel
    texts : iterable of str
        Lines or documents.
    progress : bool, optional
        tqdm bar (None: shown when stderr is a terminal).
    """
    check_bpe_model(model)
    from tqdm.auto import tqdm

    counts: Counter = Counter()
    disable = None if progress is None else not progress  # None: auto (tty only)
    for text in tqdm(texts, disable=disable, desc="counting tokens", leave=False):
        if not isinstance(text, str):
            raise ArgumentTypeError(f"every text must be a str, not {type(text).__name__}")
        counts.update(model.encode(text))
    return dict(counts)


def top_tokens(frequencies: Mapping[int, int], n: int, *,
               among: Iterable[int] | None = None) -> list[int]:
    """The ``n`` most frequent token ids (ties: smaller id first), optionally only ``among``.

    Ids of ``among`` missing from ``frequencies`` count as 0. ``n`` larger than the pool
    returns the whole pool.
    """
    n = check_int(n, "n", minimum=0)
    if not isinstance(frequencies, Mapping):
        raise ArgumentTypeError("frequencies must be a mapping id -> count, not "
                                f"{type(frequencies).__name__}")
    pool = set(frequencies) if among is None else {int(i) for i in among}
    return sorted(pool, key=lambda i: (-frequencies.get(i, 0), i))[:n]
