"""Experiments for the Rényi counterexamples (Cognetta et al. 2024; notebook 10, ``results/renyi``).

Cognetta et al. (2024), §5, in spirit on the shipped text (no translation models): train our
BPE (:func:`.training.train_serial_bpe`) at several vocabulary sizes, then measure Rényi
efficiency (α = 2.5, 3), percentile frequency (PCT) and sequence length (SEQ, tokens per line)
for the baseline, RANDOM-DROP (N, k) and DUPLICATION (N, k) — Tables 1–3's columns without
BLEU — and Theorem 4.1 on real drops.

Corpus handling: the text is split into lines (:func:`workbench.datasets.corpora.text_lines`),
each line into GPT-4 chunks (:func:`gpt4_chunk_counts`); every distinct chunk is encoded
once and weighted by its count, so unigram counts and SEQ are exact for the whole text.
RANDOM-DROP is applied to each chunk's encoding (it is deterministic). For DUPLICATION the
unigram counts of a duplicated token's ``k`` copies are drawn as one multinomial over its
``n`` occurrences — the same law as ``n`` independent uniform choices (Eq. 16), without
re-encoding; SEQ is unchanged by construction.

Pure ``compute_*`` functions (parameters in, data out); :func:`main` writes CSV and
Markdown files::

    python -m workbench.experiments.renyi --out results/renyi --vocab-sizes 1024 2048 4096

This module draws nothing (:mod:`workbench.figures.renyi` does).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._core.errors import InvalidValueError
from .._core.io import write_atomic
from .._core.validate import check_real
from ..bpe import BPEModel, split_text
from ..counterexamples import DuplicationBPE, MergeTree, RandomDropBPE
from ..datasets.corpora import split_chunk_counts, text_lines
from ..metrics import percentile_frequency, renyi_efficiency, shannon_entropy
from ..theory.renyi import random_drop_condition, random_drop_counts
from .training import train_serial_bpe

__all__ = [
    "ALPHAS",
    "EncodedCorpus",
    "compute_condition_grid",
    "compute_counterexample_table",
    "compute_live_table",
    "compute_real_drops",
    "default_settings",
    "duplication_unigram",
    "encode_corpus",
    "gpt4_chunk_counts",
    "main",
    "metrics_row",
    "summarise",
    "train_baseline",
]

ALPHAS = (2.5, 3.0)


@dataclass(frozen=True)
class EncodedCorpus:
    """Distinct chunks of a corpus, their counts and one model's encoding of each."""

    chunks: tuple[str, ...]
    counts: np.ndarray  # int64, one per chunk
    encodings: tuple[tuple[int, ...], ...]
    n_lines: int

    def unigram(self, transform=None) -> Counter:
        """Token id → count over the corpus, after ``transform(ids)`` of each chunk if given."""
        out: Counter = Counter()
        for c, ids in zip(self.counts.tolist(), self.encodings):
            for t in (transform(ids) if transform is not None else ids):
                out[t] += c
        return out


def gpt4_chunk_counts(lines: Sequence[str]) -> dict[str, int]:
    """GPT-4 chunk → count over ``lines`` (:func:`workbench.bpe.split_text` per line).

    >>> gpt4_chunk_counts(["to be", "to"])
    {'to': 2, ' be': 1}
    """
    return split_chunk_counts(lines, split_text)


def train_baseline(chunks: dict[str, int], vocab_size: int) -> BPEModel:
    """Our serial BPE on the chunk table (the baseline tokeniser)."""
    return train_serial_bpe(chunks, vocab_size)


def encode_corpus(model: BPEModel, chunks: dict[str, int], n_lines: int) -> EncodedCorpus:
    """Encode every distinct chunk once with ``model.encode_chunks``."""
    keys = tuple(chunks)
    enc = model.encode_chunks(list(keys))
    return EncodedCorpus(keys, np.fromiter(chunks.values(), dtype=np.int64, count=len(keys)),
                         tuple(tuple(e) for e in enc), n_lines)


def metrics_row(counts: dict, n_lines: int, alphas: Sequence[float] = ALPHAS) -> dict:
    """Efficiencies (observed |V|, as ``tokenization-scorer``), PCT, SEQ, H and |V|."""
    values = np.array([v for v in counts.values() if v > 0], dtype=np.float64)
    row = {f"eff_{a:g}": renyi_efficiency(values, a) for a in alphas}
    row.update(pct=percentile_frequency(values), seq=float(values.sum()) / n_lines,
               shannon_bits=shannon_entropy(values), types=int(values.size))
    return row


def duplication_unigram(dup: DuplicationBPE, base: Counter, seed: int) -> Counter:
    """Unigram counts under DUPLICATION: each duplicated token's count split multinomially."""
    rng = np.random.default_rng(seed)
    out = Counter(base)
    for t in dup.duplicated:
        n = out.pop(t, 0)
        for copy, m in zip(dup.copies[t], rng.multinomial(n, [1 / dup.k] * dup.k).tolist()):
            if m:
                out[copy] = m
    return out


def default_settings(vocab_size: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Tables 1–2's (N, k) scaled to the vocabulary: the paper's 4k baseline used
    N ∈ {2k, |V|}, k ∈ {500, 1k} (drop) and N ∈ {100, 500}, k ∈ {3, 5} (duplication). Drop
    settings are fractions of the ``|V| − 256`` merged tokens (the bytes are atomic).

    >>> default_settings(1280)
    ([(512, 128), (1024, 128), (512, 256), (1024, 256)], [(32, 3), (32, 5), (160, 3), (160, 5)])
    """
    v, m = vocab_size, max(vocab_size - 256, 8)
    drop = [(m // 2, m // 8), (m, m // 8), (m // 2, m // 4), (m, m // 4)]
    dup = [(max(1, v // 40), 3), (max(1, v // 40), 5), (v // 8, 3), (v // 8, 5)]
    return drop, dup


def compute_counterexample_table(lines: Sequence[str], vocab_sizes: Sequence[int], *,
                                 seeds: Sequence[int] = (0, 1, 2), progress: bool | None = None,
                                 settings=default_settings):
    """Tables 1–3 in spirit: one row per (vocabulary, tokeniser, N, k, seed).

    Returns a ``pandas.DataFrame`` with columns ``vocab_size, tokenizer, N, k, seed`` and those
    of :func:`metrics_row`.
    """
    import pandas as pd
    from tqdm.auto import tqdm

    chunks = gpt4_chunk_counts(lines)
    rows = []
    disable = None if progress is None else not progress
    for v in tqdm(vocab_sizes, disable=disable, desc="vocabularies"):
        model = train_baseline(chunks, v)
        enc = encode_corpus(model, chunks, len(lines))
        base = enc.unigram()
        rows.append(dict(vocab_size=v, tokenizer="baseline", N=None, k=None, seed=None,
                         **metrics_row(base, enc.n_lines)))
        drop, dup = settings(v)
        for n_top, k in drop:
            for s in seeds:
                rd = RandomDropBPE(model, base, n_top, k, seed=s)
                counts = enc.unigram(lambda ids, rd=rd: rd.decompose_ids(ids))
                rows.append(dict(vocab_size=v, tokenizer="random-drop", N=n_top, k=k, seed=s,
                                 **metrics_row(counts, enc.n_lines)))
        for n_top, k in dup:
            for s in seeds:
                d = DuplicationBPE(model, base, n_top, k, seed=s)
                rows.append(dict(vocab_size=v, tokenizer="duplication", N=n_top, k=k, seed=s,
                                 **metrics_row(duplication_unigram(d, base, s), enc.n_lines)))
    return pd.DataFrame(rows)


def summarise(table):
    """Mean over seeds per (vocabulary, tokeniser, N, k), with the baseline's values beside."""
    cols = [c for c in table.columns if c.startswith("eff_")] + ["pct", "seq"]
    keys = ["vocab_size", "tokenizer", "N", "k"]
    mean = table.fillna({"N": -1, "k": -1}).groupby(keys, sort=False)[cols].mean().reset_index()
    return mean.replace({"N": {-1: None}, "k": {-1: None}})


def compute_live_table(model, enc: EncodedCorpus, n_top: int, k: int, alpha: float,
                       seed: int = 0):
    """Notebook 10's table: baseline, RANDOM-DROP(N, k) and DUPLICATION(N, k) side by side.

    RANDOM-DROP needs ``k <= min(N, merged tokens)`` and DUPLICATION ``k >= 2``; a setting
    that is not allowed gives a row of NaNs. Columns: ``H_α`` (bits), ``Eff_α``, PCT, SEQ, |V|.
    """
    import pandas as pd

    from ..metrics import renyi_entropy

    base = enc.unigram()
    tables = {"baseline": base}
    try:
        rd = RandomDropBPE(model, base, n_top, k, seed=seed)
        tables["random-drop"] = enc.unigram(rd.decompose_ids)
    except ValueError:
        tables["random-drop"] = None
    try:
        d = DuplicationBPE(model, base, n_top, k, seed=seed)
        tables["duplication"] = duplication_unigram(d, base, seed)
    except ValueError:
        tables["duplication"] = None
    rows = []
    for name, counts in tables.items():
        if counts is None:
            rows.append({"tokenizer": name})
            continue
        values = np.array([v for v in counts.values() if v > 0], dtype=np.float64)
        rows.append({"tokenizer": name, f"H_{alpha:g}": renyi_entropy(values, alpha),
                     f"Eff_{alpha:g}": renyi_efficiency(values, alpha),
                     "PCT": percentile_frequency(values),
                     "SEQ": float(values.sum()) / enc.n_lines, "|V| observed": values.size})
    return pd.DataFrame(rows).set_index("tokenizer")


def compute_real_drops(model, enc: EncodedCorpus, n_top: int, alphas: Sequence[float] = ALPHAS,
                       n_retokenised: int = 5):
    """Theorem 4.1 on the ``n_top`` most frequent merged tokens, one drop at a time.

    For each ``x = [y, z]``: the condition (Eq. 15) and the actual ``ΔH_α`` of the drop. The
    count model of :func:`~workbench.theory.renyi.random_drop_counts` is checked against a real
    re-tokenisation (:class:`RandomDropBPE` with ``D = {x}``) on the first ``n_retokenised``.

    Returns
    -------
    (DataFrame, dict)
        One row per (x, α); summary counts over those (x, α) pairs: rises, condition holds,
        both, holds without a rise; and model mismatches over the re-tokenised drops.
    """
    import pandas as pd

    from ..metrics import renyi_entropy

    tree = MergeTree(model)
    base = enc.unigram()
    counts = {t: base.get(t, 0) for t in tree.vocab}
    ranked = sorted(tree.merged_ids(), key=lambda t: (-counts[t], t))[:n_top]
    rows, mismatches = [], 0
    h0 = {a: renyi_entropy(counts, a) for a in alphas}
    for i, x in enumerate(ranked):
        y, z = tree.parts(x)
        after = random_drop_counts(counts, x, y, z)
        if i < n_retokenised:
            rd = RandomDropBPE(model, {x: 1}, 1, 1, seed=0)
            real = enc.unigram(rd.decompose_ids)
            mismatches += any(real.get(t, 0) != after.get(t, 0) for t in set(real) | set(after))
        for a in alphas:
            rows.append(dict(x=tree.vocab[x], y=tree.vocab[y], z=tree.vocab[z], c_x=counts[x],
                             c_y=counts[y], c_z=counts[z], alpha=a,
                             condition=random_drop_condition(counts, x, y, z, a),
                             delta_h=renyi_entropy(after, a) - h0[a]))
    df = pd.DataFrame(rows)
    rises = df.delta_h > 0
    summary = dict(drops=len(ranked), pairs=len(df), rises=int(rises.sum()),
                   holds=int(df.condition.sum()),
                   holds_and_rises=int((df.condition & rises).sum()),
                   holds_without_rise=int((df.condition & ~rises).sum()),
                   model_mismatches=mismatches, retokenised=min(n_retokenised, len(ranked)))
    return df, summary


def compute_condition_grid(background: Sequence[float], cx: Sequence[float],
                           cy: Sequence[float], cz: float, alpha: float):
    """Theorem 4.1 over a grid: rows ``c(x)``, columns ``c(y)``, a fixed ``c(z)``.

    ``background`` are the counts of the other tokens. Returns ``(condition, delta_h)`` arrays
    of shape ``(len(cx), len(cy))``: Eq. 15 and the actual ``ΔH_α`` (bits) of the drop, which
    moves ``c(x)`` onto ``y`` and ``z`` (``T → T + c(x)``). Computed on whole arrays, from
    ``Σ c^α`` and ``T`` before and after, with the counts scaled by their maximum
    (the same numbers as :func:`~workbench.theory.renyi.random_drop_condition` and
    :func:`~workbench.metrics.renyi_entropy` point by point; the tests compare them).

    >>> cond, delta = compute_condition_grid([10.0, 10.0], [1.0, 100.0], [1.0, 100.0], 1.0, 2.0)
    >>> cond.tolist(), (delta > 0).tolist()  # H_2 rises unless y is the most common token
    ([[True, False], [True, False]], [[True, False], [True, False]])
    """
    a = check_real(alpha, "alpha", minimum=1.0, open_minimum=True)
    bg = _counts_array(background, "background")
    x = _counts_array(cx, "cx")[:, None]
    y = _counts_array(cy, "cy")[None, :]
    z = check_real(cz, "cz", minimum=0.0)
    scale = max(float(bg.max(initial=0.0)), float(x.max(initial=0.0)),
                float(y.max(initial=0.0)), z) or 1.0
    bg, x, y, z = bg / scale, x / scale, y / scale, z / scale
    rest = float(np.sum(bg ** a))
    total = float(bg.sum()) + x + y + z
    power = rest + x ** a + y ** a + z ** a
    after = rest + (x + y) ** a + (x + z) ** a
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = (np.log2(after / (total + x) ** a) - np.log2(power / total ** a)) / (1.0 - a)
        gain = ((x + y) ** a + (x + z) ** a - x ** a - y ** a - z ** a) / power
        cond = (1.0 + x / total) ** a > 1.0 + gain
    return cond, delta


def _counts_array(values: Sequence[float], name: str) -> np.ndarray:
    """Finite counts ``>= 0`` as a float array (at least one)."""
    arr = np.asarray(values, dtype=np.float64).ravel()
    if arr.size == 0 or not np.isfinite(arr).all() or (arr < 0).any():
        raise InvalidValueError(f"{name} must be a non-empty sequence of finite counts >= 0")
    return arr


def _markdown(frame) -> str:
    """A pipe table (no ``tabulate`` dependency); floats with 4 decimals."""
    def cell(v):
        if v is None or (isinstance(v, float) and np.isnan(v)):
            return ""
        if isinstance(v, float):
            return f"{v:.4f}" if not v.is_integer() or abs(v) < 1 else f"{v:g}"
        return str(v)

    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the experiment tables into ``--out`` (CSV + a Markdown summary)."""
    parser = argparse.ArgumentParser(prog="python -m workbench.experiments.renyi",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="results/renyi")
    parser.add_argument("--text", default="shakespeare")
    parser.add_argument("--vocab-sizes", type=int, nargs="+", default=[1024, 2048, 4096])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--max-lines", type=int, default=None)
    parser.add_argument("--drops", type=int, default=200, help="real drops for Thm 4.1")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = text_lines(args.text, args.max_lines)
    table = compute_counterexample_table(lines, args.vocab_sizes, seeds=args.seeds)
    write_atomic(out / "counterexamples.csv", table.to_csv(index=False))
    summary = summarise(table)
    write_atomic(out / "counterexamples_mean.csv", summary.to_csv(index=False))
    chunks = gpt4_chunk_counts(lines)
    v = args.vocab_sizes[0]
    model = train_baseline(chunks, v)
    enc = encode_corpus(model, chunks, len(lines))
    drops, stats = compute_real_drops(model, enc, args.drops)
    write_atomic(out / f"thm41_real_drops_{v}.csv", drops.to_csv(index=False))
    md = [f"# Rényi counterexamples on `{args.text}` ({len(lines)} lines)", "",
          "Means over seeds " + str(args.seeds) + "; efficiency with observed |V|.", "",
          _markdown(summary), "",
          f"## Theorem 4.1 on the {stats['drops']} most frequent merged tokens (|V| = {v})", "",
          f"{stats}", ""]
    write_atomic(out / "README.md", "\n".join(md))
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
