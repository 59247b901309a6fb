"""The array-backed form of a float segmentation law: token ids, offsets, probabilities.

What :meth:`workbench.laws.SegmentationLaw.from_arrays` keeps instead of a dict of token
tuples (a compiled kernel's 10^5-10^6 segmentations): the table itself, each segmentation's
token starts as a bit mask (the spelling and distinctness check), and the law's order
computed by sorts over the arrays. It checks no probability and no budget (the law does,
before it builds one) and derives no summary.

Example
-------
>>> import numpy as np
>>> t = ArrayTable(["a", "b", "ab"], np.array([2, 0, 1]), np.array([0, 1, 3]),
...                np.array([0.75, 0.25]), None)
>>> t.first(2)
[('ab',), ('a', 'b')]
"""

from __future__ import annotations

import numpy as np

from .errors import InvalidValueError

__all__ = ["ArrayTable", "MASK_CHARS", "array_order", "gather", "start_masks"]


def gather(offsets: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(indices into the pieces of ``rows``, in order; their offsets)`` of a ragged array."""
    width = offsets[rows + 1] - offsets[rows]
    new = np.zeros(rows.size + 1, dtype=np.int64)
    np.cumsum(width, out=new[1:])
    return np.repeat(offsets[rows] - new[:-1], width) + np.arange(new[-1]), new


class ArrayTable:
    """An array-backed float law (:meth:`SegmentationLaw.from_arrays`), in the law's order.

    Segmentation ``k`` is the tokens ``labels[i]`` for ``i`` in
    ``pieces[offsets[k]:offsets[k + 1]]``, of probability ``p[k]``; ``masks[k]`` (words of
    at most :data:`MASK_CHARS` characters, else None) has bit ``i`` set where a token
    starts at character ``i``: the segmentation's key for :meth:`SegmentationLaw.probability`.
    """

    __slots__ = ("names", "pieces", "offsets", "width", "p", "masks")

    def __init__(self, labels: list[str], pieces: np.ndarray, offsets: np.ndarray,
                 p: np.ndarray, masks: np.ndarray | None) -> None:
        self.names = np.array(labels, dtype=object)
        self.pieces, self.offsets, self.p, self.masks = pieces, offsets, p, masks
        self.width = np.diff(offsets)

    def tuples(self, rows: np.ndarray) -> list[tuple[str, ...]]:
        """The segmentations ``rows`` as tuples of str (one C-level zip per width)."""
        out: list[tuple[str, ...]] = [()] * rows.size
        width = self.width[rows]
        for w in np.flatnonzero(np.bincount(width)).tolist():
            at = np.flatnonzero(width == w)
            if w == 0:
                continue
            idx = self.offsets[rows[at]][:, None] + np.arange(w)
            for r, t in zip(at.tolist(), zip(*self.names[self.pieces[idx]].T.tolist())):
                out[r] = t
        return out

    def first(self, k: int) -> list[tuple[str, ...]]:
        """The ``k`` most probable segmentations as tuples."""
        return self.tuples(np.arange(min(k, self.p.size)))


#: Words of at most this many characters keep each segmentation's starts as an int64 mask
#: (:class:`ArrayTable`): the distinctness check and :meth:`SegmentationLaw.probability`.
MASK_CHARS = 62


def start_masks(word: str, labels: list[str], pieces: np.ndarray, offsets: np.ndarray
                 ) -> np.ndarray | None:
    """Each segmentation's token starts as a mask (None past :data:`MASK_CHARS`), having
    checked that each spells ``word`` and none comes twice (the latter only with masks)."""
    n = offsets.size - 1  # every (label, start) checked once; rows of len(word) characters
    length = np.array([len(t) for t in labels], dtype=np.int64)[pieces]
    before = np.concatenate(([0], np.cumsum(length)))
    width = np.diff(offsets)
    start = before[:-1] - np.repeat(before[offsets[:-1]], width)
    if ((before[offsets[1:]] - before[offsets[:-1]]) != len(word)).any():
        raise InvalidValueError(f"a segmentation does not spell the word {word!r:.60}")
    for key in np.flatnonzero(np.bincount(pieces * (len(word) + 1) + start)).tolist():
        label, at = divmod(key, len(word) + 1)
        if not word.startswith(labels[label], at):
            raise InvalidValueError(f"a segmentation does not spell the word {word!r:.60}")
    masks = None
    if len(word) <= MASK_CHARS:
        masks = np.zeros(n, dtype=np.int64)
        if n and (width > 0).all():  # a row's starts are distinct: their bits add up
            masks = np.add.reduceat(np.left_shift(np.int64(1), start), offsets[:-1])
        masks_sorted = np.sort(masks)
        if (masks_sorted[1:] == masks_sorted[:-1]).any():
            raise InvalidValueError("a segmentation is listed twice")
    return masks


_REVERSED_BYTES = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint8)


def array_order(labels: list[str], pieces: np.ndarray, offsets: np.ndarray, p: np.ndarray,
                 masks: np.ndarray | None) -> np.ndarray:
    """Rows by decreasing probability, then fewer tokens, then the tokens (str order).

    Two segmentations of one word first differ where one token is a prefix of the other,
    the smaller: the one with a token starting at the lowest start the other lacks. With
    start masks that is one sort key, the masks bit-reversed (descending).
    """
    width = np.diff(offsets)
    if masks is not None:
        rev = _REVERSED_BYTES[masks.view(np.uint8).reshape(-1, 8)[:, ::-1]]
        return np.lexsort((~np.ascontiguousarray(rev).view(np.uint64).ravel(), width, -p))
    order = np.lexsort((width, -p))
    if order.size > 1:  # ties of (probability, width): by the tokens
        m, w = p[order], width[order]
        tie = (m[1:] == m[:-1]) & (w[1:] == w[:-1])
        if tie.any():
            edges = np.flatnonzero(np.diff(np.concatenate(([0], tie.astype(np.int8), [0]))))
            a, b = edges[::2], edges[1::2] + 1  # runs a .. b - 1 of order, one width each
            run = np.repeat(np.arange(a.size), b - a)
            at = np.arange(run.size) - np.repeat(np.cumsum(b - a) - (b - a), b - a) + a[run]
            rows = order[at]
            rank = np.empty(len(labels), dtype=np.int64)  # labels in str order
            rank[sorted(range(len(labels)), key=labels.__getitem__)] = np.arange(len(labels))
            wide = int(width[rows].max())
            table = np.full((rows.size, wide), -1, dtype=np.int64)
            idx, _ = gather(offsets, rows)
            table[np.repeat(np.arange(rows.size), width[rows]),
                  idx - np.repeat(offsets[rows], width[rows])] = rank[pieces[idx]]
            # tuples of one width compare token by token: the run first, then each column
            order[at] = rows[np.lexsort((*table.T[::-1], run))]
    return order
