"""Figures behind notebook 09 (GreedTok, partition cover): pure ``compute_*`` and ``plot_*``.

* :func:`compute_tokens_per_word` — tokens per word of GreedTok, BPE and ULM at equal
  vocabulary sizes (256 bytes + k) on a chunk→count table; :func:`compute_token_sets` and
  :func:`compute_overlap` — how much their token sets share;
* :func:`compute_beta` — β(k) = GreedTok / GreedWMC;
* :func:`compute_reduction` — Theorem 1 on a small named graph (:data:`GRAPHS`);
* :func:`compute_cover_steps` — one word's cover marks after each token that changes it.

BPE is :func:`workbench.bpe.train_bpe` where that subpackage exists, else HuggingFace
``tokenizers`` (byte-level, fed each chunk ``count`` times); ULM is SentencePiece's unigram
trainer with byte fallback and ``256 + k + 3`` pieces. The corpus of the notebook is the
shipped Shakespeare text cut into space-prefixed chunks (:func:`shakespeare_counts`).

Nothing in the package imports this module.
"""

from __future__ import annotations

import os
import re
import tempfile
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..greedtok import (
    GreedTokModel,
    beta_curve,
    has_vertex_cover,
    optimum,
    segment,
    train_greedtok,
    vertex_cover_instance,
)

METHODS = ("GreedTok", "BPE", "ULM")
_CHUNK = re.compile(r" ?[^\W\d_]+| ?\d+| ?[^\w\s]+|\s+(?!\S)|\s+")

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


# --------------------------------------------------------------------------- corpus
def chunk_counts(text: str) -> dict[str, int]:
    """Chunk → count of ``text`` cut into space-prefixed letter runs, digit runs and symbols.

    Whitespace other than the single leading space is dropped (as in the paper's
    space-delimited words).

    >>> chunk_counts("To be, or not to be")
    {'To': 1, ' be': 2, ',': 1, ' or': 1, ' not': 1, ' to': 1}
    """
    counts = Counter(c for c in _CHUNK.findall(text) if not c.isspace())
    return dict(counts)


def shakespeare_counts(max_chars: int | None = 1_000_000) -> dict[str, int]:
    """:func:`chunk_counts` of the shipped Shakespeare text (its first ``max_chars``)."""
    from ..datasets import load_text

    text = load_text("shakespeare")
    return chunk_counts(text if max_chars is None else text[:max_chars])


# --------------------------------------------------------------------------- the methods
def _greedtok(counts: Mapping[str, int], k: int) -> tuple[set[bytes], list[int]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = train_greedtok(counts, k, progress=False)
    _, offsets = model.encode_ids(list(counts))
    return set(model.tokens), np.diff(offsets).tolist()


def _bpe(counts: Mapping[str, int], k: int) -> tuple[set[bytes], list[int]]:
    try:
        from ..bpe import train_bpe
    except ImportError:
        train_bpe = None
    if train_bpe is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = train_bpe(dict(counts), 256 + k, progress=False)
        lengths = [len(ids) for ids in model.encode_chunks(list(counts))]
        return {t for t in model.vocab.values() if len(t) > 1}, lengths
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from ..greedtok.encoder import byte_alphabet

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    trainer = trainers.BpeTrainer(vocab_size=256 + k, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator((w for w, c in counts.items() for _ in range(c)), trainer)
    lengths = [len(e.ids) for e in tok.encode_batch(list(counts), add_special_tokens=False)]
    back = {ch: b for b, ch in enumerate(byte_alphabet())}
    tokens = {bytes(back[ch] for ch in t) for t in tok.get_vocab() if len(t) > 1}
    return tokens, lengths


def train_ulm(counts: Mapping[str, int], k: int, num_threads: int = 1) -> Any:
    """A SentencePiece unigram model with 256 bytes + ``k`` pieces, trained on a count table.

    Byte fallback, identity normalisation, no dummy prefix, pieces of at most 16 characters;
    words holding a tab or newline are left out (the TSV input cannot carry them).
    Returns the loaded ``sentencepiece.SentencePieceProcessor``.
    """
    import sentencepiece as spm

    kept = {w: c for w, c in counts.items() if "\t" not in w and "\n" not in w}
    with tempfile.TemporaryDirectory() as tmp:
        tsv = os.path.join(tmp, "counts.tsv")
        with open(tsv, "w", encoding="utf-8") as fh:
            fh.writelines(f"{w}\t{c}\n" for w, c in kept.items())
        prefix = os.path.join(tmp, "ulm")
        spm.SentencePieceTrainer.train(
            input=tsv, input_format="tsv", model_prefix=prefix, model_type="unigram",
            vocab_size=256 + k + 3, byte_fallback=True, character_coverage=1.0,
            add_dummy_prefix=False, normalization_rule_name="identity",
            max_sentencepiece_length=16, minloglevel=2, num_threads=num_threads)
        return spm.SentencePieceProcessor(model_file=prefix + ".model")


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


def compute_token_sets(counts: Mapping[str, int], k: int,
                       methods: Sequence[str] = METHODS) -> dict[str, set[bytes]]:
    """Each method's multi-byte tokens (as UTF-8 ``bytes``) at vocabulary size 256 + k."""
    return {m: _TRAINERS[m](counts, k)[0] for m in methods}


def compute_tokens_per_word(counts: Mapping[str, int], ks: Sequence[int],
                            methods: Sequence[str] = METHODS) -> dict[str, list[float]]:
    """Count-weighted tokens per chunk of each method for each ``k`` (vocabulary 256 + k)."""
    weights = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
    out: dict[str, list[float]] = {m: [] for m in methods}
    for k in ks:
        for m in methods:
            _, lengths = _TRAINERS[m](counts, k)
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
        raise ValueError(f"unknown graph {name!r}; choose one of {', '.join(GRAPHS)}")
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
        pieces = GreedTokModel(model.tokens[:r + 1]).encode(word)
        if pieces != steps[-1].pieces:
            marks = []
            for p in pieces:
                marks += [1] * (len(p) - 1) + [0]
            steps.append(CoverStep(r, tok, pieces, marks[:-1]))
    return steps


# --------------------------------------------------------------------------- plots
def plot_tokens_per_word(ks: Sequence[int], tpw: Mapping[str, Sequence[float]]):
    """Tokens per word against k, one line per method."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for m, ys in tpw.items():
        ax.plot(ks, ys, marker="o", label=m)
    ax.set_xscale("log")
    ax.set_xlabel("k (vocabulary = 256 bytes + k)")
    ax.set_ylabel("tokens per word")
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


def plot_beta(curve):
    """β(k) and both objectives."""
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.5))
    a1.plot(curve.k, curve.greedtok, label="GreedTok")
    a1.plot(curve.k, curve.greedwmc, label="GreedWMC (relaxation)")
    a1.set_xlabel("k")
    a1.set_ylabel("covered pairs (count-weighted)")
    a1.legend()
    a2.plot(curve.k, curve.beta)
    a2.axhline(1.0, color="grey", lw=0.8)
    a2.set_xlabel("k")
    a2.set_ylabel("β = GreedTok / GreedWMC")
    for a in (a1, a2):
        a.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def plot_reduction(result: ReductionResult):
    """The graph on a circle, chosen vertices (tokens ``$v$``) filled, edge words segmented."""
    import matplotlib.pyplot as plt

    n = result.n_vertices
    angle = 2 * np.pi * np.arange(n) / n + np.pi / 2
    xy = np.c_[np.cos(angle), np.sin(angle)]
    chosen = {t[1] for t in result.tokens}
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    for u, v in result.edges:
        ax.plot(*xy[[u, v]].T, color="grey", lw=1.2, zorder=1)
        word = f"${result.letters[u]}${result.letters[v]}$"
        mid = (xy[u] + xy[v]) / 2
        ax.text(*mid, "|".join(result.segmentations[word]), fontsize=8, ha="center",
                va="center", bbox={"fc": "white", "ec": "none", "alpha": 0.8})
    for i in range(n):
        on = result.letters[i] in chosen
        ax.scatter(*xy[i], s=500, color="tab:orange" if on else "white", ec="black", zorder=2)
        ax.text(*xy[i], result.letters[i], ha="center", va="center", zorder=3)
    ax.set_title(f"{result.name}: k = {result.k}, tokens {', '.join(result.tokens)}\n"
                 f"cost {result.cost} = 3|E|; with k - 1: {result.cost_below}", fontsize=9)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def plot_cover_steps(steps: Sequence[CoverStep]):
    """One row per step: the pair marks (filled = inside a token) and the segmentation."""
    import matplotlib.pyplot as plt

    n_pairs = len(steps[0].marks)
    fig, ax = plt.subplots(figsize=(1.2 + 0.45 * max(n_pairs, 1) + 3, 0.5 + 0.4 * len(steps)))
    grid = np.array([s.marks for s in steps], dtype=float).reshape(len(steps), n_pairs)
    ax.imshow(grid, cmap="Oranges", vmin=0, vmax=1.4, aspect="auto")
    labels = ["start" if s.token is None else f"#{s.rank} {s.token.decode(errors='replace')!r}"
              for s in steps]
    ax.set_yticks(range(len(steps)), labels, fontsize=8)
    ax.set_xticks(range(n_pairs), [f"{p}" for p in range(n_pairs)], fontsize=7)
    ax.set_xlabel("pair position")
    for row, s in enumerate(steps):
        text = "|".join(p.decode(errors="replace") for p in s.pieces)
        ax.text(n_pairs - 0.3, row, "  " + text, va="center", fontsize=8)
    fig.tight_layout()
    return fig


def plot_overlap(overlap: Mapping[str, int]):
    """Bar chart of the token-set sizes and their intersections."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar(range(len(overlap)), list(overlap.values()), color="tab:blue")
    ax.set_xticks(range(len(overlap)), list(overlap), rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("multi-byte tokens")
    fig.tight_layout()
    return fig
