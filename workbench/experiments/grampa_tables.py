"""Tables 7 and 8 of the GRaMPa paper on the shipped English text, by one command.

Bauwens, Kaczér, de Lhoneux, *GRaMPa* (ACL 2025), §5.2 and Appendix E. One row per
tokeniser setting (:data:`SETTINGS`, the paper's layout): BPE and BPE-dropout 0.1 and
GRaMPa on the BPE vocabulary; ULM k = 1 and k = 64 with α = 0.15 and GRaMPa on the ULM
vocabulary; GRaMPa with τ ∈ {1, 5, −10} × ℓ_min ∈ {1, 2}, L2R, without multiplexing.

* **Words.** The whitespace-separated words of the text in order (`pretokenised_words`), each
  split by P1 + P2 (:class:`workbench.pretokenise.Pretokeniser`, ``▁`` marker) into pieces;
  a word's segmentation is the concatenation of its pieces' segmentations (the pretokeniser
  fixes those boundaries), so ``|s|`` counts the marker. Words some piece of which a
  vocabulary cannot segment are dropped (counted in ``dropped``).
* :func:`table7_rows` — Table 7 over word *tokens*: one sample per occurrence, then
  :func:`workbench.metrics.segmentation.table7` (m and R, S per word; ℓ per token).
* :func:`table8_rows` — Table 8 over word *types* with ``N_V(s) > 1`` (``N_V`` the number
  of segmentations in the vocabulary: the product of the pieces' lattice path counts), ``M``
  samples each, :func:`~workbench.metrics.segmentation.distribution_stats` against the most
  frequent sample as in the paper, in percent.
* **Exact columns** (``*_exact_*``), where the sampler's law is known: GRaMPa by dynamic
  programming over the lattice (:func:`workbench.grampa.statistics.exact_statistics` and a
  max-product pass for the most likely segmentation), ULM from its k-best list, deterministic
  BPE trivially, BPE-dropout by its law under HF ``tokenizers``' semantics (GRaMPa's; only
  for pieces within :data:`~.grampa_settings.HF_MAX_STATES`, the other words counted in
  ``exact_refused`` and left out of the means) and, in ``*_exact_reference_*``, under the
  package's sampler's (the one the sampled columns use). Per word: entropies and E[m] add
  over pieces, the most likely segmentation's probability multiplies. Exact H1/H0 divides by
  ``log2 N_V(s)`` (the limit M → ∞), exact RR is ``1 − P(most likely)``.

``python -m workbench tables`` (:func:`main`) writes ``table7.csv``, ``table8.csv`` and a
``README.md`` into ``results/tables``. The settings and their exact laws:
:mod:`.grampa_settings`; the paper's numbers: :mod:`.grampa_paper_tables`. This module draws
nothing (notebook 06's panels: :mod:`workbench.figures.real_text`) and does not multiplex.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab"], scores=[-1.0, -2.0, -1.0])
>>> vocabs = {"BPE": v, "ULM": v}
>>> s = Setting("ULM", "GRaMPa", tau=1.0, ell_min=1)
>>> row = table7_rows([("ab",), ("abab",)], vocabs, [s], seed=0, progress=False).iloc[0]
>>> float(row["m_exact_mean"])  # E[m] of "ab" is 1.5, of "abab" (4 paths) 3.0
2.25
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.io import write_atomic
from .._core.seeds import as_generator, base_seed
from .._core.validate import check_budget, check_int
from ..datasets.corpora import split_words
from ..lattice import count_segmentations
from ..metrics.segmentation import distribution_stats, table7, table8
from ..pretokenise import Pretokeniser
from ..vocab import Vocabulary
from .grampa_paper_tables import PAPER_TABLE7, PAPER_TABLE8, TABLE7_COLUMNS, TABLE8_COLUMNS
from .grampa_settings import HF_MAX_STATES, SETTINGS, Setting, exact_table8, exact_words

__all__ = [
    "FULL",
    "QUICK",
    "compare_with_paper",
    "load_results",
    "main",
    "pretokenised_words",
    "sample_segmentations",
    "table7_rows",
    "table8_rows",
]

Word = tuple[str, ...]
#: Bytes a sampled batch holds per character (pieces, token strings, lengths).
BYTES_PER_CHAR = 96
#: Largest M of Table 8 accepted.
MAX_SAMPLES = 100_000
#: Sizes of the full run: Table 7 words, words Table 8's types come from, M (as the paper,
#: Table 8 uses the first tenth of Table 7's text).
FULL = {"words": 200_000, "type_words": 20_000, "samples": 100}
#: Sizes of ``--quick`` (seconds).
QUICK = {"words": 2_000, "type_words": 200, "samples": 20}
#: ``results/tables/README.md`` from this line on is hand-written and kept by :func:`main`.
KEEP_MARKER = "<!-- notes below are kept by `python -m workbench tables` -->"


# ------------------------------------------------------------------------------ words
def pretokenised_words(text: str, alphabet: str = "sentencepiece", limit: int | None = None
                       ) -> list[Word]:
    """The whitespace-separated words of ``text`` in order, each as its P1 + P2 pieces.

    :func:`workbench.datasets.corpora.split_words` with
    :meth:`workbench.pretokenise.Pretokeniser.pieces`.

    >>> pretokenised_words("It's 42, Sir.")
    [('▁It', "'s"), ('▁', '4', '2', '▁,'), ('▁Sir', '▁.')]
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    return split_words(text, Pretokeniser(alphabet).pieces, limit)


def _check_words(words: object) -> list[Word]:
    if isinstance(words, str):
        raise ArgumentTypeError("words must be a sequence of words, each a sequence of pieces "
                                "(str)")
    out = []
    for k, w in enumerate(words):  # type: ignore[attr-defined]
        if isinstance(w, str):
            raise ArgumentTypeError(f"word {k} is a str; give each word as a tuple of its pieces")
        w = tuple(w)
        for p in w:
            if not isinstance(p, str):
                raise ArgumentTypeError(f"word {k} has a piece of type {type(p).__name__}, not str")
        if not w or not all(w):
            raise InvalidValueError(f"word {k} must be a non-empty sequence of non-empty pieces")
        out.append(w)
    return out


def _check_inputs(words: object, vocabularies: object, settings: object
                  ) -> tuple[list[Word], dict[str, Vocabulary], list[Setting]]:
    words = _check_words(words)
    if isinstance(settings, Setting):
        settings = [settings]
    settings = list(settings)  # type: ignore[call-overload]
    for s in settings:
        if not isinstance(s, Setting):
            raise ArgumentTypeError(f"settings must be Setting objects, not {type(s).__name__}")
    if not isinstance(vocabularies, Mapping):
        raise ArgumentTypeError("vocabularies must be a mapping {'BPE': Vocabulary, 'ULM': "
                                "Vocabulary}")
    vocabs = {}
    for s in settings:
        v = vocabularies.get(s.vocabulary)
        if not isinstance(v, Vocabulary) or v.is_infinite:
            raise InvalidValueError(f"setting {s.label!r} needs a finite Vocabulary under "
                                    f"vocabularies[{s.vocabulary!r}]")
        vocabs[s.vocabulary] = v
    return words, vocabs, settings


def _piece_counts(words: list[Word], vocab: Vocabulary) -> dict[str, int]:
    """``N_V`` of every distinct piece (lattice path count, ℓ_min = 1)."""
    pieces = {p for w in words for p in w}
    return {p: count_segmentations(p, vocab) for p in sorted(pieces)}


def _segmentable(words: list[Word], vocabs: Mapping[str, Vocabulary]
                 ) -> tuple[list[Word], dict[str, dict[str, int]]]:
    """Words every piece of which every vocabulary segments, and the pieces' counts."""
    counts = {name: _piece_counts(words, v) for name, v in vocabs.items()}
    kept = [w for w in words if all(c[p] > 0 for c in counts.values() for p in w)]
    return kept, counts


# ------------------------------------------------------------------------------ sampling
def _setting_seed(seed: int, setting: Setting, table: int) -> np.random.Generator:
    """The generator of one setting in one table: depends on nothing else."""
    return np.random.default_rng([seed, zlib.crc32(setting.label.encode()), table])


def _as_seed(seed: object) -> int:
    if isinstance(seed, np.random.Generator):
        return int(base_seed(seed))
    if seed is None:
        return int(base_seed(as_generator(None)))
    return check_int(seed, "seed", minimum=0)


def sample_segmentations(sampler: object, words: Sequence[Word], repeats: int = 1
                         ) -> list[tuple[int, ...]]:
    """Token lengths of ``repeats`` samples of each word (word ``k``'s at ``k*repeats + r``).

    One batch through ``sampler.tokenize_batch``; a word's segmentation is its pieces'
    segmentations concatenated.

    >>> from workbench import Vocabulary
    >>> from workbench.samplers import ULMSampler
    >>> u = ULMSampler(Vocabulary(["a", "b", "ab"], scores=[-1.0, -1.0, -1.5]))
    >>> sample_segmentations(u, [("ab", "a"), ("abab",)], repeats=2)
    [(2, 1), (2, 1), (2, 2), (2, 2)]
    """
    repeats = check_int(repeats, "repeats", minimum=1, maximum=MAX_SAMPLES)
    words = _check_words(words)
    n_chars = sum(len(p) for w in words for p in w) * repeats
    check_budget(n_chars * BYTES_PER_CHAR, f"{repeats} samples of {len(words):,} words")
    batch = [p for w in words for _ in range(repeats) for p in w]
    toks = sampler.tokenize_batch(batch)  # type: ignore[attr-defined]
    out: list[tuple[int, ...]] = []
    at = 0
    for w in words:
        for _ in range(repeats):
            lengths: list[int] = []
            for seg in toks[at:at + len(w)]:
                lengths.extend(len(t) for t in seg)
            at += len(w)
            out.append(tuple(lengths))
    return out


# ------------------------------------------------------------------------------ the rows
def _progress(items: list, progress: bool | None, desc: str):
    from tqdm.auto import tqdm

    disable = None if progress is None else not progress  # None: only on a terminal
    return tqdm(items, desc=desc, unit="setting", disable=disable, leave=False)


def _head(setting: Setting) -> dict[str, object]:
    return {"setting": setting.label, "vocabulary": setting.vocabulary,
            "tokeniser": setting.tokeniser, "params": setting.params}


def table7_rows(words: Iterable[Sequence[str]], vocabularies: Mapping[str, Vocabulary],
                settings: Iterable[Setting] = SETTINGS, *, seed: object = 0,
                progress: bool | None = None) -> pd.DataFrame:
    """Table 7: one row per setting, one sample per word token.

    Parameters
    ----------
    words : sequence of words, each a sequence of pieces (`pretokenised_words`)
        Word tokens (repetitions count).
    vocabularies : mapping
        ``{"BPE": Vocabulary, "ULM": Vocabulary}`` (only the keys the settings use).
    settings : iterable of Setting, default :data:`SETTINGS`
    seed : int or numpy.random.Generator
        Each setting samples from its own generator of ``(seed, setting)``.
    progress : bool or None
        tqdm bar over settings (None: on a terminal only).

    Returns
    -------
    pandas.DataFrame
        ``setting, vocabulary, tokeniser, params``, Table 7's columns (:data:`TABLE7_COLUMNS`),
        ``m_exact_mean``, ``S_exact_mean`` (NaN without a known law), ``exact_refused``
        (words whose law was over the budget), ``m_exact_reference_mean``,
        ``S_exact_reference_mean`` (BPE-dropout's reference law), ``words``, ``tokens``,
        ``dropped``.
    """
    words, vocabs, settings = _check_inputs(words, vocabularies, settings)
    seed = _as_seed(seed)
    kept, _ = _segmentable(words, vocabs)
    lengths = [sum(map(len, w)) for w in kept]
    rows = []
    for s in _progress(settings, progress, "Table 7"):
        vocab = vocabs[s.vocabulary]
        segs = sample_segmentations(s.sampler(vocab, _setting_seed(seed, s, 7)), kept)
        row = {**_head(s), **(table7(segs) if segs else _no_words(TABLE7_COLUMNS))}
        for suffix, semantics in _EXACT_SEMANTICS[_is_dropout(s)]:
            exact = exact_words(s, vocab, kept, semantics=semantics)
            e_m = np.array([e[1] for e in exact])
            e_s = np.array([(m - 1) / (n - 1) for (_, m, _), n in zip(exact, lengths) if n > 1])
            row[f"m_exact{suffix}_mean"] = _nanmean(e_m)
            row[f"S_exact{suffix}_mean"] = _nanmean(e_s)
            if not suffix:
                row["exact_refused"] = int(np.isnan(e_m).sum())
        row.update(words=len(kept), tokens=sum(map(len, segs)), dropped=len(words) - len(kept))
        rows.append(row)
    return pd.DataFrame(rows, columns=list(_head(SETTINGS[0])) + list(TABLE7_COLUMNS) + [
        "m_exact_mean", "S_exact_mean", "exact_refused", "m_exact_reference_mean",
        "S_exact_reference_mean", "words", "tokens", "dropped"])


#: Per setting kind (BPE-dropout or not): (column suffix, semantics of the exact law). The
#: unsuffixed exact columns of BPE-dropout are under HF ``tokenizers``' semantics (GRaMPa's);
#: ``*_exact_reference_*`` under the package's sampler's, which the sampled columns use.
_EXACT_SEMANTICS = {False: (("", "reference"),),
                    True: (("", "hf"), ("_reference", "reference"))}


def _is_dropout(setting: Setting) -> bool:
    return setting.tokeniser == "BPE" and setting.dropout > 0


def _nanmean(values: np.ndarray) -> float:
    """Mean over the non-NaN values (NaN if none): words whose law was refused are left out."""
    values = values[~np.isnan(values)]
    return float(values.mean()) if values.size else math.nan


def _no_words(columns: Sequence[str]) -> dict[str, float]:
    """A table row for an empty word set: every statistic NaN (the tables' "no data")."""
    return {c: math.nan for c in columns if c.endswith(("_mean", "_std"))}


def table8_rows(words: Iterable[Sequence[str]], vocabularies: Mapping[str, Vocabulary],
                settings: Iterable[Setting] = SETTINGS, *, samples: int = 100,
                seed: object = 0, progress: bool | None = None) -> pd.DataFrame:
    """Table 8: one row per setting over the distinct words with ``N_V(s) > 1``.

    Parameters
    ----------
    words : sequence of words, each a sequence of pieces
        Repetitions are dropped (word types, first occurrence order).
    vocabularies, settings, seed, progress
        As :func:`table7_rows`.
    samples : int, default 100
        ``M`` samples per word (the paper's M = 100).

    Returns
    -------
    pandas.DataFrame
        Table 8's columns (:data:`TABLE8_COLUMNS`) in percent, ``*_exact_mean`` (percent,
        NaN without a known law), ``exact_refused`` and ``*_exact_reference_mean`` as in
        :func:`table7_rows`, ``words`` (types with ``N_V > 1``), ``M``, ``dropped``.
        ``H1pr_H0pr`` is NaN for deterministic tokenisers (no second segmentation: the
        paper prints 0).
    """
    words, vocabs, settings = _check_inputs(words, vocabularies, settings)
    samples = check_int(samples, "samples", minimum=1, maximum=MAX_SAMPLES)
    seed = _as_seed(seed)
    types = list(dict.fromkeys(words))
    kept, counts = _segmentable(types, vocabs)
    rows = []
    for s in _progress(settings, progress, "Table 8"):
        vocab, c = vocabs[s.vocabulary], counts[s.vocabulary]
        n_seg = [math.prod(c[p] for p in w) for w in kept]
        multi = [w for w, n in zip(kept, n_seg) if n > 1]
        n_multi = [n for n in n_seg if n > 1]
        segs = sample_segmentations(s.sampler(vocab, _setting_seed(seed, s, 8)), multi, samples)
        per_word = [distribution_stats(segs[k * samples:(k + 1) * samples], n)
                    for k, n in enumerate(n_multi)]
        row: dict[str, object] = dict(_head(s))
        for name, value in (table8(per_word) if per_word else
                            _no_words(TABLE8_COLUMNS)).items():
            if name != "words":
                row[name] = 100 * value
        for suffix, semantics in _EXACT_SEMANTICS[_is_dropout(s)]:
            laws = exact_words(s, vocab, multi, semantics=semantics)
            exact = [exact_table8(h, mode, n) for (h, _, mode), n in zip(laws, n_multi)]
            for name in ("H1pr_H0pr_exact", "H1_H0_exact", "RR_exact"):
                vals = np.array([e[name] for e in exact], dtype=float)
                row[f"{name}{suffix}_mean"] = 100 * _nanmean(vals)
            if not suffix:
                row["exact_refused"] = sum(math.isnan(h) for h, _, _ in laws)
        row.update(words=len(multi), M=samples, dropped=len(types) - len(kept))
        rows.append(row)
    return pd.DataFrame(rows, columns=list(_head(SETTINGS[0])) + list(TABLE8_COLUMNS) + [
        "H1pr_H0pr_exact_mean", "H1_H0_exact_mean", "RR_exact_mean", "exact_refused",
        "H1pr_H0pr_exact_reference_mean", "H1_H0_exact_reference_mean",
        "RR_exact_reference_mean", "words", "M", "dropped"])


def compare_with_paper(ours: pd.DataFrame, table: int) -> pd.DataFrame:
    """Ours beside the paper's: for each column of Table ``table`` (7 or 8), ``ours``/``paper``.

    Rows are the settings of ``ours`` that the paper has; means only.
    """
    table = check_int(table, "table", minimum=7, maximum=8)
    paper = PAPER_TABLE7 if table == 7 else PAPER_TABLE8
    columns = [c for c in (TABLE7_COLUMNS if table == 7 else TABLE8_COLUMNS)
               if c.endswith("_mean")]
    rows = []
    for _, r in ours.iterrows():
        if r["setting"] not in paper:
            continue
        out = {"setting": r["setting"]}
        for c in columns:
            out[(c[:-5], "ours")] = r[c]
            out[(c[:-5], "paper")] = paper[r["setting"]][c]
        rows.append(out)
    df = pd.DataFrame(rows).set_index("setting")
    df.columns = pd.MultiIndex.from_tuples(df.columns)
    return df


def load_results(directory: str | Path | None = None) -> dict[str, pd.DataFrame] | None:
    """``results/tables``'s CSVs (``directory``, by default the repository's) and their
    comparison with the paper (:func:`compare_with_paper`), or None if they are absent."""
    from ..datasets import DATA_DIR

    folder = Path(directory) if directory is not None else DATA_DIR.parent / "results" / "tables"
    if not (folder / "table7.csv").is_file() or not (folder / "table8.csv").is_file():
        return None
    t7 = pd.read_csv(folder / "table7.csv")
    t8 = pd.read_csv(folder / "table8.csv")
    return {"table7": t7, "table8": t8, "compare7": compare_with_paper(t7, 7),
            "compare8": compare_with_paper(t8, 8)}


# ------------------------------------------------------------------------------ command
def load_vocabularies() -> dict[str, Vocabulary]:
    """The shipped ``bpe-8k`` and ``ulm-8k`` vocabularies under ``"BPE"`` and ``"ULM"``."""
    from ..datasets import load_vocabulary

    return {"BPE": load_vocabulary("bpe-8k"), "ULM": load_vocabulary("ulm-8k")}


def _write(path: Path, text: str) -> None:
    """Write atomically (``_core.io``): an interrupted run leaves no half file."""
    write_atomic(path, text)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m workbench tables``: Tables 7 and 8 into ``--out`` (CSV + README.md)."""
    parser = argparse.ArgumentParser(prog="python -m workbench tables",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=None, help="output directory (default "
                        "results/tables; results/tables-quick with --quick)")
    parser.add_argument("--quick", action="store_true", help="a small slice (seconds)")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--text", default="shakespeare", help="shipped text (datasets)")
    parser.add_argument("--words", type=int, default=None,
                        help=f"Table 7: first N words (default {FULL['words']:,})")
    parser.add_argument("--type-words", type=int, default=None,
                        help=f"Table 8: types of the first N words (default "
                             f"{FULL['type_words']:,})")
    parser.add_argument("--samples", type=int, default=None,
                        help=f"Table 8: M samples per word (default {FULL['samples']})")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    from ..datasets import load_text

    sizes = dict(QUICK if args.quick else FULL)
    for key in ("words", "type_words", "samples"):
        if getattr(args, key) is not None:
            sizes[key] = getattr(args, key)
    n7 = check_int(sizes["words"], "--words", minimum=1)
    n8 = check_int(sizes["type_words"], "--type-words", minimum=1, maximum=n7)
    m = check_int(sizes["samples"], "--samples", minimum=1, maximum=MAX_SAMPLES)
    seed = check_int(args.seed, "--seed", minimum=0)
    progress = False if args.no_progress else None
    out = Path(args.out or ("results/tables-quick" if args.quick else "results/tables"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    vocabs = load_vocabularies()
    words = pretokenised_words(load_text(args.text), "sentencepiece", limit=n7)
    t7 = table7_rows(words, vocabs, seed=seed, progress=progress)
    t8 = table8_rows(words[:n8], vocabs, samples=m, seed=seed, progress=progress)
    seconds = time.perf_counter() - t0
    _write(out / "table7.csv", t7.to_csv(index=False, float_format="%.6g"))
    _write(out / "table8.csv", t8.to_csv(index=False, float_format="%.6g"))
    command = "python -m workbench tables" + (" --quick" if args.quick else "") + (
        f" --seed {seed}" if seed else "")
    readme = [
        "# GRaMPa Tables 7 and 8 on the shipped English text",
        "",
        f"Command: `{command}` (`workbench/experiments/grampa_tables.py`); "
        f"{time.strftime('%Y-%m-%d')}; {seconds:.0f} s on {os.cpu_count()} cores.",
        "",
        f"Corpus: the first {n7:,} whitespace-separated words of the shipped `{args.text}` "
        f"text, P1 + P2 pretokenised (`▁` marker); {int(t7['words'].iloc[0]):,} kept "
        f"({int(t7['dropped'].iloc[0])} dropped: a piece some vocabulary cannot segment).",
        "Vocabularies: the shipped SentencePiece `bpe-8k` (BPE, BPE-dropout, GRaMPa on BPE) "
        "and `ulm-8k` (ULM, GRaMPa on ULM), 8,192 pieces each (the paper: 32,768, SlimPajama).",
        "",
        f"- `table7.csv`: one sample per word token ({int(t7['tokens'].iloc[0]):,} tokens for "
        "the first row); m and R, S averaged over words, ℓ over tokens; population std.",
        f"- `table8.csv`: the {len(set(words[:n8])):,} distinct words among the first "
        f"{n8:,}, those with N_V(s) > 1 (column `words`), M = {m} samples each; percent; "
        "RR and H1pr against the most frequent sample, as the paper.",
        "- `*_exact_*` columns: the exact law (GRaMPa by DP over the lattice, ULM from its "
        "k-best list, BPE trivially, BPE-dropout under HF `tokenizers`' semantics as GRaMPa "
        "used it, for words whose pieces have at most "
        f"{HF_MAX_STATES} reachable segmentations: the others are counted in `exact_refused`; "
        "`*_exact_reference_*`: BPE-dropout's law under the sampler the sampled columns use); "
        "exact H1/H0 divides by log2 N_V(s) (M → ∞).",
        "- GRaMPa: L2R, no multiplexing; ULM k = 64 samples by the package's k-best Viterbi.",
        "",
        "The paper's numbers: `workbench/experiments/grampa_paper_tables.py`; the comparison: "
        "notebook `06_skew_on_real_text`.",
        "",
    ]
    kept = ""
    if (out / "README.md").is_file():  # hand-written notes after KEEP_MARKER survive a rerun
        old = (out / "README.md").read_text(encoding="utf-8")
        kept = old[old.index(KEEP_MARKER):] if KEEP_MARKER in old else ""
    _write(out / "README.md", "\n".join(readme) + kept)
    print(f"wrote {out / 'table7.csv'}, {out / 'table8.csv'}, {out / 'README.md'} "
          f"in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
