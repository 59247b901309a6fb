"""GreedTok experiments (partition cover, Lim et al. 2025; notebook 09).

* :func:`compute_tokens_per_word` — tokens per word of GreedTok, BPE and ULM at equal
  vocabulary sizes (256 bytes + k) on a chunk→count table; :func:`compute_token_sets` and
  :func:`compute_overlap` — how much their token sets share;
* :func:`compute_beta` — β(k) = GreedTok / GreedWMC;
* :func:`compute_reduction` — Theorem 1 on a small named graph (:data:`GRAPHS`);
* :func:`compute_cover_steps` — one word's cover marks after each token that changes it;
* :func:`cover_demo_words` — frequent lower-case words whose cover takes several steps.

The three methods are the recipes of :mod:`.training`: GreedTok
(:func:`~.training.train_greedtok_quietly`), our batched BPE
(:func:`~.training.train_batched_bpe`) and SentencePiece's unigram trainer with byte fallback
and ``256 + k + 3`` pieces (:func:`~.training.train_ulm`). The corpus of the notebook is the
shipped Shakespeare text cut into GreedTok's space-prefixed chunks
(:func:`workbench.datasets.corpora.greedtok_text_chunk_counts`).

Trained results are kept on disk (:mod:`.kept`; the notebook opens in seconds the second
time): each method's tokens and chunk lengths per (method, k, count table), and
:func:`trained_greedtok`'s model, one JSON document each (after the kept file's checked
header line; a file that fails a check is trained again).

This module draws nothing (:mod:`workbench.figures.partition_cover` does).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import check_int
from ..greedtok import (
    GreedTokModel,
    beta_curve,
    has_vertex_cover,
    optimum,
    segment,
    vertex_cover_instance,
)
from ..greedtok.candidates import TOKEN_BYTES_MAX
from ..greedtok.encoder import FORMAT as GREEDTOK_FORMAT
from .kept import kept, kept_path
from .training import train_batched_bpe, train_greedtok_quietly, train_ulm

__all__ = [
    "COURSE_CHARS",
    "COURSE_K",
    "COURSE_KS",
    "COURSE_UN_K",
    "GRAPHS",
    "METHODS",
    "CoverStep",
    "ReductionResult",
    "compute_beta",
    "compute_cover_steps",
    "compute_overlap",
    "compute_reduction",
    "compute_token_sets",
    "compute_tokens_per_word",
    "cover_demo_words",
    "reduction_agrees",
    "trained_greedtok",
]

METHODS = ("GreedTok", "BPE", "ULM")

# Notebook 09's settings: the notebook reads them from here, ``python -m workbench warmup``
# fills their kept results (:mod:`.course_kept`).
#: Characters of the Shakespeare chunk table (``greedtok_text_chunk_counts``).
COURSE_CHARS = 300_000
#: GreedTok's k for the model, the cover steps and the token sets.
COURSE_K = 400
#: The k of the tokens-per-word comparison.
COURSE_KS = (100, 200, 400, 800)
#: GreedTok's k on the UN counts (``load_counts("un")``).
COURSE_UN_K = 1000

#: Small graphs for the reduction widget (edge lists over vertices 0..n-1).
GRAPHS: dict[str, list[tuple[int, int]]] = {
    "path P5": [(0, 1), (1, 2), (2, 3), (3, 4)],
    "star K1,4": [(0, 1), (0, 2), (0, 3), (0, 4)],
    "triangle K3": [(0, 1), (1, 2), (0, 2)],
    "square C4": [(0, 1), (1, 2), (2, 3), (0, 3)],
    "pentagon C5": [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)],
    "K4": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
    "bull": [(0, 1), (1, 2), (0, 2), (1, 3), (2, 4)],
    "Petersen": [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (0, 5), (1, 6), (2, 7), (3, 8),
                 (4, 9), (5, 7), (7, 9), (6, 9), (6, 8), (5, 8)],
}


# --------------------------------------------------------------------------- the methods
def _greedtok(counts: Mapping[str, int], k: int) -> tuple[set[bytes], list[int]]:
    model = train_greedtok_quietly(counts, k)
    _, offsets = model.encode_ids(list(counts))
    return set(model.tokens), np.diff(offsets).tolist()


def _bpe(counts: Mapping[str, int], k: int) -> tuple[set[bytes], list[int]]:
    model = train_batched_bpe(counts, 256 + k)
    lengths = [len(ids) for ids in model.encode_chunks(list(counts))]
    return {t for t in model.vocab.values() if len(t) > 1}, lengths


def _ulm(counts: Mapping[str, int], k: int) -> tuple[set[bytes], list[int]]:
    sp = train_ulm(counts, k)
    lengths = [len(p) for p in sp.encode(list(counts))]
    tokens = set()
    for i in range(sp.get_piece_size()):
        if sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i):
            continue
        raw = sp.id_to_piece(i).replace("\u2581", " ").encode("utf-8")
        if len(raw) > 1:
            tokens.add(raw)
    return tokens, lengths


_TRAINERS = {"GreedTok": _greedtok, "BPE": _bpe, "ULM": _ulm}

# --------------------------------------------------------------------------- kept on disk
def _store_path(kind: str, counts: Mapping[str, int], k: int) -> Path:
    """The file of ``kind``'s result on ``counts`` at ``k`` (:func:`.kept.kept_path`)."""
    return kept_path(__file__, f"{kind.lower()}_{k}", json.dumps(list(counts.items())).encode())


def _result_limit(counts: Mapping[str, int], k: int) -> int:
    """The largest JSON a method's result on ``counts`` at ``k`` can be (bytes, generous):
    a length per chunk, at most ``k`` (+ a few) tokens no longer than the longest chunk."""
    longest = max([TOKEN_BYTES_MAX, *(len(c.encode("utf-8", "surrogatepass")) for c in counts)])
    return (1 << 20) + 24 * len(counts) + (k + 512) * (2 * longest + 8)


def _load_result(raw: bytes, n_chunks: int) -> tuple[set[bytes], list[int]] | None:
    """A method's result from its kept JSON (``None``: not one; see :func:`.kept.kept`)."""
    doc = json.loads(raw)
    if not isinstance(doc, dict) or set(doc) != {"format", "tokens", "lengths"}:
        return None
    tokens, lengths = doc["tokens"], doc["lengths"]
    if (type(doc["format"]) is not int or doc["format"] != 1 or not isinstance(tokens, list)
            or not isinstance(lengths, list) or len(lengths) != n_chunks
            or not all(isinstance(t, str) for t in tokens)
            or not all(type(n) is int and n >= 0 for n in lengths)):
        return None
    try:
        token_set = {bytes.fromhex(t) for t in tokens}
    except ValueError:
        return None
    if len(token_set) != len(tokens) or any(len(t) < 2 for t in token_set):
        return None
    return token_set, lengths


def _save_result(result: tuple[set[bytes], list[int]]) -> bytes:
    tokens, lengths = result
    doc = {"format": 1, "tokens": sorted(t.hex() for t in tokens),
           "lengths": list(lengths)}
    return json.dumps(doc).encode()


def _trained(method: str, counts: Mapping[str, int], k: int) -> tuple[set[bytes], list[int]]:
    """``_TRAINERS[method](counts, k)``, kept on disk (see the module's docstring)."""
    return kept(_store_path(method, counts, k),
                lambda raw: _load_result(raw, len(counts)),
                lambda: _TRAINERS[method](counts, k), _save_result,
                max_bytes=_result_limit(counts, k))


#: The keys of a kept GreedTok model (those of :meth:`GreedTokModel.save`'s file).
_MODEL_KEYS = {"format", "version", "max_token_length", "pattern", "tokens", "gains", "stats"}


def _model_limit(k: int) -> int:
    """The largest JSON a GreedTok model of at most ``k`` tokens can be (bytes, generous)."""
    return (1 << 20) + k * (2 * TOKEN_BYTES_MAX + 64)


def _save_model(model: GreedTokModel) -> bytes:
    """The model as :meth:`GreedTokModel.save` writes it."""
    doc = {"format": GREEDTOK_FORMAT, "version": 1, "max_token_length": model.max_token_length,
           "pattern": model.pattern, "tokens": [t.hex() for t in model.tokens],
           "gains": model.gains, "stats": model.stats}
    return json.dumps(doc, indent=1).encode()


def _load_model(raw: bytes, k: int) -> GreedTokModel | None:
    """A model of at most ``k`` tokens, with gains, from :func:`_save_model`'s bytes
    (``None``: not one; see :func:`.kept.kept`)."""
    doc = json.loads(raw)
    if not isinstance(doc, dict) or set(doc) != _MODEL_KEYS:
        return None
    tokens, gains = doc["tokens"], doc["gains"]
    if (doc["format"] != GREEDTOK_FORMAT or type(doc["version"]) is not int
            or doc["version"] != 1 or type(doc["max_token_length"]) is not int
            or not isinstance(doc["pattern"], str) or not isinstance(doc["stats"], dict)
            or not isinstance(tokens, list) or not isinstance(gains, list)
            or not len(tokens) == len(gains) <= k
            or not all(isinstance(t, str) for t in tokens)
            or not all(type(g) is int and g >= 0 for g in gains)):
        return None
    try:
        return GreedTokModel([bytes.fromhex(t) for t in tokens], gains=gains,
                             max_token_length=doc["max_token_length"], stats=doc["stats"],
                             pattern=doc["pattern"])
    except ValueError:  # a token or pattern the model refuses (its errors are ValueErrors)
        return None


def trained_greedtok(counts: Mapping[str, int], k: int) -> GreedTokModel:
    """GreedTok with ``k`` tokens on a chunk → count table (quiet), kept on disk (see above)."""
    k = check_int(k, "k", minimum=1)
    return kept(_store_path("GreedTok-model", counts, k), lambda raw: _load_model(raw, k),
                lambda: train_greedtok_quietly(counts, k), _save_model,
                max_bytes=_model_limit(k))


def compute_token_sets(counts: Mapping[str, int], k: int,
                       methods: Sequence[str] = METHODS) -> dict[str, set[bytes]]:
    """Each method's multi-byte tokens (as UTF-8 ``bytes``) at vocabulary size 256 + k."""
    return {m: _trained(m, counts, k)[0] for m in methods}


def compute_tokens_per_word(counts: Mapping[str, int], ks: Sequence[int],
                            methods: Sequence[str] = METHODS) -> dict[str, list[float]]:
    """Count-weighted tokens per chunk of each method for each ``k`` (vocabulary 256 + k)."""
    weights = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
    out: dict[str, list[float]] = {m: [] for m in methods}
    for k in ks:
        for m in methods:
            _, lengths = _trained(m, counts, k)
            out[m].append(float(np.dot(lengths, weights) / weights.sum()))
    return out


def compute_overlap(sets: Mapping[str, set]) -> dict[str, int]:
    """Sizes of every pairwise and the triple intersection, keyed ``"A ∩ B"``.

    >>> compute_overlap({"A": {1, 2}, "B": {2, 3}, "C": {2}})
    {'A': 2, 'B': 2, 'C': 1, 'A ∩ B': 1, 'A ∩ C': 1, 'B ∩ C': 1, 'A ∩ B ∩ C': 1}
    """
    names = list(sets)
    out = {n: len(sets[n]) for n in names}
    for r in range(2, len(names) + 1):
        for group in combinations(names, r):
            out[" ∩ ".join(group)] = len(set.intersection(*(sets[g] for g in group)))
    return out


def compute_beta(counts: Mapping[str, int], k: int):
    """β(k) for k = 1…K (see :func:`workbench.greedtok.beta_curve`)."""
    return beta_curve(counts, k, progress=False)


# --------------------------------------------------------------------------- reduction
@dataclass
class ReductionResult:
    """Theorem 1 on one graph at the minimum vertex-cover size ``k``."""

    name: str
    edges: list[tuple[int, int]]
    n_vertices: int
    k: int  # minimum vertex cover size
    tokens: tuple[str, ...]  # an optimal token set of size <= k
    cost: int  # its total cost (= 3|E|)
    cost_below: int | None  # optimum with k - 1 tokens (> 3|E|)
    segmentations: dict[str, list[str]]  # word -> best segmentation with ``tokens``
    letters: list[str]


def compute_reduction(name: str) -> ReductionResult:
    """The instance of graph ``name`` (:data:`GRAPHS`), solved exhaustively at the smallest
    ``k`` reaching ``3|E|``, and one below."""
    if name not in GRAPHS:
        raise InvalidValueError(f"unknown graph {name!r}; choose one of {', '.join(GRAPHS)}")
    edges = GRAPHS[name]
    n = 1 + max(max(e) for e in edges)
    for k in range(n + 1):
        inst = vertex_cover_instance(edges, k, vertices=range(n))
        cost, chosen = optimum(inst)
        if cost == 3 * len(inst.edges):
            break
    below = optimum(vertex_cover_instance(edges, k - 1, vertices=range(n)))[0] if k else None
    segs = {w: segment(w, set(chosen)) for w in inst.counts}
    return ReductionResult(name, list(inst.edges), n, k, chosen, cost, below, segs,
                           inst.letters)


def reduction_agrees(result: ReductionResult) -> bool:
    """The reduction's claim on ``result``: reachable at k, a cover of size k, none at k-1."""
    ok = has_vertex_cover(result.edges, result.k, vertices=range(result.n_vertices))
    if result.k:
        ok &= not has_vertex_cover(result.edges, result.k - 1,
                                   vertices=range(result.n_vertices))
        ok &= result.cost_below > 3 * len(result.edges)
    return ok and result.cost == 3 * len(result.edges)


# --------------------------------------------------------------------------- cover steps
@dataclass
class CoverStep:
    """The word's state after the token of rank ``rank`` (``-1``: before any token)."""

    rank: int
    token: bytes | None
    pieces: list[bytes]
    marks: list[int]  # one per adjacent byte pair: 1 = inside a token


def compute_cover_steps(model: GreedTokModel, word: str) -> list[CoverStep]:
    """The word's segmentation after each token (in rank order) that changes it.

    Encoding with the first ``r + 1`` tokens gives the state after training step ``r``
    (Alg. 4 replays training), so this is the word's cover as training proceeds.
    """
    raw = word.encode("utf-8")
    steps = [CoverStep(-1, None, [bytes([b]) for b in raw], [0] * (len(raw) - 1))]
    for r, tok in enumerate(model.tokens):
        if tok not in raw:
            continue
        pieces = GreedTokModel(model.tokens[:r + 1]).segment(word)
        if pieces != steps[-1].pieces:
            marks = []
            for p in pieces:
                marks += [1] * (len(p) - 1) + [0]
            steps.append(CoverStep(r, tok, pieces, marks[:-1]))
    return steps


def cover_demo_words(model: GreedTokModel, counts: Mapping[str, int], n: int = 40,
                     min_bytes: int = 9, min_steps: int = 4) -> list[str]:
    """The ``n`` most frequent words of ``counts`` worth watching being covered.

    A word qualifies when it is lower-case letters (after an optional leading space: no
    speaker names in capitals, no proper names that become one token), has at least
    ``min_bytes`` bytes, ends in at least two tokens under ``model`` and changes at least
    ``min_steps`` times during training (:func:`compute_cover_steps`, the start excluded).
    Ties in count keep the order of ``counts``.

    >>> m = GreedTokModel([b"ab", b"cd", b"abcd"])
    >>> cover_demo_words(m, {" abcdabcdx": 2, "ABCDABCDX": 5}, min_steps=2)
    [' abcdabcdx']
    """
    n = check_int(n, "n", minimum=1)
    min_bytes = check_int(min_bytes, "min_bytes", minimum=1)
    min_steps = check_int(min_steps, "min_steps", minimum=0)
    candidates = [w for w, _ in sorted(counts.items(), key=lambda kv: -kv[1])
                  if (w[1:] if w.startswith(" ") else w).isalpha()
                  and (w[1:] if w.startswith(" ") else w).islower()
                  and len(w.encode()) >= min_bytes]
    # one batched encode for the token counts (a call per word costs the parallel launch)
    _, offsets = model.encode_ids(candidates)
    words: list[str] = []
    for word, n_tokens in zip(candidates, np.diff(offsets).tolist()):
        if n_tokens < 2 or len(compute_cover_steps(model, word)) - 1 < min_steps:
            continue
        words.append(word)
        if len(words) == n:
            break
    return words
