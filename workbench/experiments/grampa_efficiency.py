"""Rényi efficiency against regularisation knobs: GRaMPa's τ and p, BPE-dropout, ULM α.

Bauwens et al. (GRaMPa), §6.3 and Figures 10–12, on a shipped text (notebook 11;
``results/efficiency``): E_α (α = 2.5) of the unigram distribution of a tokenised corpus
against GRaMPa's temperature τ (Fig. 10), BPE-dropout's p_d and ULM's α (Fig. 11), and the
multiplexing rate p of GRaMPa (ℓ_min = 2, τ = 1) with deterministic BPE or ULM (Fig. 12).

The corpus and the two tokeniser families (``bpe``, ``ulm``) are
:mod:`.grampa_efficiency_setup`'s :class:`Setup` (re-exported here).

GRaMPa's curves are *exact*: :func:`workbench.grampa.expected_token_counts` gives the expected
unigram counts, which the counts of a sampled corpus converge to, so E_α against τ or p is a
smooth curve. The sampled points beside it tokenise every occurrence of every word
independently (a seed per point); their spread over seeds is the sampling noise the exact
curve does not have. BPE-dropout and ULM are sampled only. Efficiencies divide by
``log |V|`` with ``|V|`` the vocabulary's size (not the observed types: the expected
distribution's support includes tokens no finite sample shows).

Count arrays are cached per setup and knob (the α of E_α only changes the metric, so its
slider recomputes nothing), and so are the figures' data (``compute_*``: a setting seen
before is not computed again; the arrays returned are read-only, shared by the cache).
:func:`main` (``python -m workbench experiments --only efficiency``) writes CSV and a
Markdown summary into ``results/efficiency``; the figures (PNG) are drawn by
:mod:`workbench.figures.efficiency`, which the CLI passes in. This module draws nothing.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from .._core.errors import InvalidValueError
from .._core.io import write_atomic
from .._core.validate import check_int, check_probability, check_real
from ..bpe.model import dropout_chunks
from ..grampa import Grampa, check_tau, expected_token_counts
from ..metrics import renyi_efficiency
from ..segmenters import Multiplexer
from ..theory.grampa.mixture import mix
from ..vocab import Vocabulary
from .grampa_efficiency_setup import KINDS, Setup, make_setup
from .kept import kept, kept_path

__all__ = [
    "ALPHA",
    "COURSE_BPE_SIZE",
    "COURSE_LINES",
    "COURSE_SEEDS",
    "KINDS",
    "Setup",
    "compute_multiplex",
    "compute_regulariser",
    "compute_tau",
    "course_setups",
    "efficiency",
    "expected_counts",
    "main",
    "make_setup",
    "run",
    "sampled_grampa",
    "sampled_multiplexed",
    "sampled_regulariser",
]

ALPHA = 2.5  # the order of E_α in Figures 10–12
#: τ of the sampled points (Fig. 10); the exact curve is dense in −1/τ between them.
TAU_POINTS = (0.5, 1.0, 2.0, 5.0, math.inf, -5.0, -2.0, -1.0, -0.5)
#: BPE-dropout p_d and ULM α of the sampled points (Fig. 11).
REGULARISER_POINTS = {"bpe": (0.0, 0.05, 0.1, 0.2, 0.3, 0.5),
                      "ulm": (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)}
#: multiplexing rates of the sampled points (Fig. 12).
P_POINTS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
REGULARISER_NAME = {"bpe": "BPE-dropout rate p_d", "ulm": "ULM smoothing α (nbest = −1)"}
# Notebook 11's settings: the notebook reads them from here, ``python -m workbench warmup``
# fills their kept samples (:mod:`.course_kept`).
#: Lines of the Shakespeare text (a slice: the notebook runs in seconds).
COURSE_LINES = 4000
#: Vocabulary size of the BPE trained on the slice.
COURSE_BPE_SIZE = 1024
#: Seeds of the sampled points.
COURSE_SEEDS = (0, 1)


def course_setups() -> dict[str, Setup]:
    """Notebook 11's two setups (``bpe``, ``ulm``) at :data:`COURSE_LINES` lines."""
    return {"bpe": make_setup("bpe", max_lines=COURSE_LINES, bpe_size=COURSE_BPE_SIZE),
            "ulm": make_setup("ulm", max_lines=COURSE_LINES)}



def efficiency(counts: np.ndarray, setup: Setup, alpha: float = ALPHA) -> float:
    """E_α of a count array of ``setup`` (``|V|`` = the vocabulary's size)."""
    return renyi_efficiency(counts, alpha, len(setup.vocab))


# --------------------------------------------------------------------------- counts (cached)
def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _frozen_values(data: dict) -> dict:
    """``data`` with its arrays read-only (a cached result is shared by every caller)."""
    for value in data.values():
        if isinstance(value, np.ndarray):
            _frozen(value)
    return data


@lru_cache(maxsize=1024)
def expected_counts(setup: Setup, tau: float, ell_min: int = 1, direction: str = "l2r"
                    ) -> np.ndarray:
    """Exact expected unigram counts of GRaMPa on the corpus (read-only array)."""
    return _frozen(expected_token_counts(setup.table, setup.vocab, tau, ell_min, direction))


@lru_cache(maxsize=512)
def sampled_grampa(setup: Setup, tau: float, ell_min: int, direction: str, seed: int
                   ) -> np.ndarray:
    """Unigram counts of one GRaMPa sample of every occurrence (read-only array)."""
    words = [setup.spelled[i] for i in setup.occurrences.tolist()]
    ids, _ = Grampa(setup.vocab, tau, ell_min, direction, seed=seed).encode_flat(words)
    return _frozen(np.bincount(ids, minlength=setup.size).astype(np.float64))


def _bincount_lists(lists: Sequence[Sequence[int]], size: int) -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64)
    return np.bincount(flat, minlength=size).astype(np.float64)


@lru_cache(maxsize=8)
def _setup_key(setup: Setup) -> bytes:
    """What a setup's samples depend on besides the code (for :func:`.kept.kept_path`)."""
    scores = setup.vocab.scores
    return json.dumps([setup.kind, list(setup.words), setup.counts.tolist(),
                       list(setup.vocab.tokens), setup.vocab.ids.tolist(),
                       None if scores is None else np.asarray(scores).tolist()]).encode()


def _counts_limit(size: int) -> int:
    """The largest ``.npy`` of ``size`` float64 counts (bytes: the data and a header)."""
    return 8 * size + 4096


def _load_counts(raw: bytes, size: int) -> np.ndarray | None:
    """``size`` counts from the bytes of a ``.npy`` (``None``: not such counts, see
    :func:`.kept.kept`)."""
    buffer = io.BytesIO(raw)
    a = np.lib.format.read_array(buffer, allow_pickle=False)
    ok = (isinstance(a, np.ndarray) and buffer.tell() == len(raw) and a.dtype == np.float64
          and a.dtype.isnative and a.shape == (size,)
          and bool(np.all(np.isfinite(a))) and bool(np.all(a >= 0))
          and bool(np.all(a == np.round(a))))
    return a if ok else None


def _save_counts(a: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, a, allow_pickle=False)
    return buffer.getvalue()


@lru_cache(maxsize=512)
def sampled_regulariser(setup: Setup, param: float, seed: int) -> np.ndarray:
    """Unigram counts of BPE-dropout (``param = p_d``) or ULM sampling (``param = α``).

    ULM: SentencePiece's ``nbest_size=-1`` sampling, seeded through its global
    ``set_random_generator_seed`` (it has no per-call seed), on one thread (a batch encoded
    on several threads draws in a thread-dependent order). Kept on disk (:mod:`.kept`):
    a fresh kernel reads what an earlier one sampled.
    """
    path = kept_path(__file__, f"regulariser_{setup.kind}_{float(param)!r}_{int(seed)}",
                     _setup_key(setup), suffix=".npy")
    return _frozen(kept(path, lambda raw: _load_counts(raw, setup.size),
                        lambda: _sampled_regulariser(setup, param, seed), _save_counts,
                        max_bytes=_counts_limit(setup.size)))


def _sampled_regulariser(setup: Setup, param: float, seed: int) -> np.ndarray:
    occ = setup.occurrences.tolist()
    if setup.kind == "bpe":
        ids = dropout_chunks(setup.model, [" " + setup.words[i] for i in occ],
                             check_probability(param, "p_d"), seed)
    else:
        import sentencepiece as spm

        a = check_real(param, "alpha", minimum=0.0, open_minimum=True)
        spm.set_random_generator_seed(int(seed))
        ids = setup.model.encode([setup.words[i] for i in occ], out_type=int,
                                 enable_sampling=True, alpha=a, nbest_size=-1, num_threads=1)
    out = _bincount_lists(ids, setup.size)
    if out.size != setup.size:  # an id outside the vocabulary (e.g. <unk>): not comparable
        raise InvalidValueError(f"the {setup.kind} sampler produced id {out.size - 1}, outside the "
                                "vocabulary's ids")
    return _frozen(out)


@lru_cache(maxsize=512)
def sampled_multiplexed(setup: Setup, p: float, tau: float, ell_min: int, direction: str,
                        seed: int) -> np.ndarray:
    """Unigram counts of Algorithm 3 (GRaMPa with probability ``p``, else deterministic).

    The coins are the :class:`Multiplexer`'s (``seed``), GRaMPa's samples its own
    (``seed + 1``); the heads go through one batched ``encode`` — the tokens
    :meth:`Multiplexer.tokenize_batch` returns for the same seeds, without a list per occurrence.
    """
    occ = setup.occurrences
    mux = Multiplexer(setup.segment, Grampa(setup.vocab, tau, ell_min, direction,
                                            seed=seed + 1), p, seed=seed)
    heads = mux.coins(occ.size)
    out = np.zeros(setup.size)
    if heads.any():
        ids, _ = mux.stochastic.encode_flat([setup.spelled[i] for i in occ[heads].tolist()])
        out += np.bincount(ids, minlength=setup.size)
    tails = np.bincount(occ[~heads], minlength=len(setup.words))
    index = dict(zip(setup.vocab.tokens, setup.vocab.ids.tolist()))
    for w in np.flatnonzero(tails).tolist():
        for t in setup.deterministic[w]:
            out[index[t]] += tails[w]
    return _frozen(out)


# --------------------------------------------------------------------------- Figure 10: τ
def _tau_from_coordinate(x: float) -> float:
    """τ at skew coordinate x = −1/τ (x = 0 is τ = ±∞)."""
    return math.inf if x == 0.0 else -1.0 / x


def compute_tau(setup: Setup, ell_min: int = 1, direction: str = "l2r", alpha: float = ALPHA,
                *, taus: Sequence[float] = TAU_POINTS, seeds: Sequence[int] = (0, 1, 2),
                n_curve: int = 41) -> dict[str, np.ndarray]:
    """Figure 10: E_α against τ — the exact curve, and sampled points per seed.

    The curve is dense in the skew coordinate ``x = −1/τ`` between the smallest and
    largest of ``taus``'s coordinates (τ = ±∞ at x = 0).

    Returns
    -------
    dict
        ``curve_x``, ``curve_tau``, ``curve`` (exact E_α); ``tau``, ``x`` (the points),
        ``exact`` (E_α at them), ``sampled`` (``len(seeds) × len(taus)``), ``seeds``.
    """
    return _tau_data(setup, ell_min, direction, float(alpha), tuple(map(float, taus)),
                     tuple(seeds), n_curve)


@lru_cache(maxsize=2048)
def _tau_data(setup: Setup, ell_min: int, direction: str, alpha: float,
              taus: tuple[float, ...], seeds: tuple[int, ...], n_curve: int
              ) -> dict[str, np.ndarray]:
    xs = np.array([-check_tau(t) for t in taus]) + 0.0
    grid = np.linspace(xs.min(), xs.max(), check_int(n_curve, "n_curve", minimum=2))
    grid = np.union1d(grid, xs)
    curve_tau = [_tau_from_coordinate(float(x)) for x in grid]
    curve = [efficiency(expected_counts(setup, t, ell_min, direction), setup, alpha)
             for t in curve_tau]
    exact = [efficiency(expected_counts(setup, float(t), ell_min, direction), setup, alpha)
             for t in taus]
    sampled = [[efficiency(sampled_grampa(setup, float(t), ell_min, direction, s), setup,
                           alpha) for t in taus] for s in seeds]
    return _frozen_values({"curve_x": grid, "curve_tau": np.array(curve_tau),
                           "curve": np.array(curve), "tau": np.array(taus, dtype=float),
                           "x": xs, "exact": np.array(exact), "sampled": np.array(sampled),
                           "seeds": np.array(seeds)})


# --------------------------------------------------------------------------- Figure 11
def compute_regulariser(setup: Setup, alpha: float = ALPHA, *,
                        params: Sequence[float] | None = None,
                        seeds: Sequence[int] = (0, 1, 2)) -> dict[str, np.ndarray]:
    """Figure 11: E_α of BPE-dropout against p_d (bpe) or ULM sampling against α (ulm).

    Returns ``param``, ``sampled`` (seeds × params), ``deterministic`` (E_α of the
    deterministic tokeniser: p_d = 0, or ULM k = 1), ``grampa_uniform`` (exact E_α of
    GRaMPa τ = 1 over the same vocabulary, for scale) and ``seeds``.
    """
    params = REGULARISER_POINTS[setup.kind] if params is None else tuple(params)
    return _regulariser_data(setup, float(alpha), tuple(map(float, params)), tuple(seeds))


@lru_cache(maxsize=1024)
def _regulariser_data(setup: Setup, alpha: float, params: tuple[float, ...],
                      seeds: tuple[int, ...]) -> dict[str, np.ndarray]:
    sampled = [[efficiency(sampled_regulariser(setup, float(a), s), setup, alpha)
                for a in params] for s in seeds]
    return _frozen_values({
        "param": np.array(params, dtype=float), "sampled": np.array(sampled),
        "deterministic": efficiency(setup.deterministic_counts, setup, alpha),
        "grampa_uniform": efficiency(expected_counts(setup, 1.0), setup, alpha),
        "seeds": np.array(seeds), "kind": setup.kind})


# --------------------------------------------------------------------------- Figure 12: p
def compute_multiplex(setup: Setup, alpha: float = ALPHA, tau: float = 1.0, ell_min: int = 2,
                      direction: str = "l2r", *, ps: Sequence[float] = P_POINTS,
                      seeds: Sequence[int] = (0, 1, 2), n_curve: int = 51
                      ) -> dict[str, np.ndarray]:
    """Figure 12: E_α against the multiplexing rate p (GRaMPa with probability p).

    The expected counts are ``p · E_GRaMPa + (1 − p) · D`` (Algorithm 3 is linear in the
    counts: :func:`workbench.theory.grampa.mixture.mix`), so the exact curve needs GRaMPa's
    expectation once.

    Returns ``curve_p``, ``curve``, ``p``, ``exact``, ``sampled`` (seeds × ps), ``seeds``,
    ``argmax_p`` (the p of the highest exact E_α on the curve).
    """
    return _multiplex_data(setup, float(alpha), float(tau), ell_min, direction,
                           tuple(map(float, ps)), tuple(seeds), n_curve)


@lru_cache(maxsize=4096)
def _multiplex_data(setup: Setup, alpha: float, tau: float, ell_min: int, direction: str,
                    ps: tuple[float, ...], seeds: tuple[int, ...], n_curve: int
                    ) -> dict[str, np.ndarray]:
    grampa = expected_counts(setup, tau, ell_min, direction)
    det = setup.deterministic_counts
    grid = np.union1d(np.linspace(0.0, 1.0, check_int(n_curve, "n_curve", minimum=2)), ps)
    curve = np.array([efficiency(mix(p, grampa, det), setup, alpha) for p in grid])
    exact = np.array([efficiency(mix(p, grampa, det), setup, alpha) for p in ps])
    sampled = [[efficiency(sampled_multiplexed(setup, p, tau, ell_min, direction, s), setup,
                           alpha) for p in ps] for s in seeds]
    return _frozen_values({"curve_p": grid, "curve": curve, "p": np.array(ps, dtype=float),
                           "exact": exact, "sampled": np.array(sampled),
                           "seeds": np.array(seeds),
                           "argmax_p": float(grid[int(np.argmax(curve))]), "kind": setup.kind})


# --------------------------------------------------------------------------- CLI
def _csv_rows(name: str, data: dict, xkey: str, curve_x: str | None) -> list[str]:
    rows = []
    if curve_x is not None:
        rows += [f"{name},exact,{x:.6g},,{y:.6f}" for x, y in zip(data[curve_x], data["curve"])]
    for s, row in zip(data["seeds"].tolist(), data["sampled"]):
        rows += [f"{name},sampled,{x:.6g},{s},{y:.6f}" for x, y in zip(data[xkey], row)]
    return rows


def _tau_text(tau: float) -> str:
    """τ as the summary prints it (as ``workbench.figures.common.tau_label``: ``±∞``, ``−5``)."""
    return "±∞" if math.isinf(tau) else f"{tau:g}".replace("-", "−")


#: What :func:`run` hands to its ``draw`` callback per family: ``(out, sub, kind, fig10,
#: fig11, fig12)`` with ``sub`` "a" (bpe) or "b" (ulm).
Draw = Callable[[Path, str, str, dict, dict, dict], None]


def run(out: str | Path = "results/efficiency", *, text: str = "shakespeare",
        max_lines: int | None = None, bpe_size: int = 8192, alpha: float = ALPHA,
        seeds: Sequence[int] = (0, 1, 2), draw: Draw | None = None,
        progress: bool | None = None) -> list[str]:
    """Compute Figures 10–12 for both families; write ``efficiency.csv`` and ``README.md``.

    Parameters
    ----------
    out : path
        Output directory (created).
    text, max_lines, bpe_size
        As :func:`make_setup`.
    alpha : float
        The order of E_α.
    seeds : sequence of int
        Seeds of the sampled points.
    draw : callable, optional
        Called once per family with the figures' data (the CLI passes
        :func:`workbench.figures.efficiency.save_figures`, which writes the PNGs).
    progress : bool or None
        tqdm bar over the four steps of each family (None: on a terminal only). An
        interruption leaves the earlier ``efficiency.csv`` and ``README.md`` as they were
        (both are written at the end, atomically).

    Returns
    -------
    list of str
        The Markdown summary's lines (also written to ``README.md``).
    """
    alpha = check_real(alpha, "alpha", minimum=0.0)
    seeds = [check_int(s, "seed", minimum=0) for s in seeds]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    expected_token_counts({"ab": 1}, Vocabulary(["a", "b"]))  # warm-up: time kernels, not JIT
    rows = ["figure,kind,x,seed,efficiency"]
    md = [f"# Rényi efficiency against regularisation (GRaMPa §6.3, Figures 10–12) on "
          f"`{text}`", "",
          f"E_α with α = {alpha:g}, |V| = the vocabulary's size. Exact curves from "
          "`workbench.grampa.expected_token_counts`; sampled points tokenise every word "
          f"occurrence (seeds {seeds}). Regenerate: `python -m "
          "workbench experiments --only efficiency`.", ""]
    from tqdm.auto import tqdm

    bar = tqdm(total=4 * len(KINDS), desc="efficiency", unit="step", leave=False,
               disable=None if progress is None else not progress)
    for kind in KINDS:
        bar.set_postfix_str(f"{kind}: setup")
        t0 = time.perf_counter()
        setup = make_setup(kind, text, max_lines, bpe_size)
        t_setup = time.perf_counter() - t0
        t0 = time.perf_counter()
        expected_counts(setup, 1.0)
        t_exact = time.perf_counter() - t0
        bar.update()
        bar.set_postfix_str(f"{kind}: Figure 10")
        fig10 = compute_tau(setup, alpha=alpha, seeds=seeds)
        bar.update()
        bar.set_postfix_str(f"{kind}: Figure 11")
        fig11 = compute_regulariser(setup, alpha, seeds=seeds)
        bar.update()
        bar.set_postfix_str(f"{kind}: Figure 12")
        fig12 = compute_multiplex(setup, alpha, seeds=seeds)
        bar.update()
        sub = "a" if kind == "bpe" else "b"
        if draw is not None:
            draw(out, sub, kind, fig10, fig11, fig12)
        rows += _csv_rows(f"10{sub}", fig10, "tau", "curve_tau")
        rows += _csv_rows(f"11{sub}", fig11, "param", None)
        rows += _csv_rows(f"12{sub}", fig12, "p", "curve_p")
        n_occ = int(setup.counts.sum())
        md += [f"## {kind}: |V| = {len(setup.vocab)}, {len(setup.words):,} distinct words, "
               f"{n_occ:,} occurrences ({setup.dropped} words dropped)", "",
               f"Setup {t_setup:.1f} s; exact expected counts for one τ {t_exact:.3f} s.", "",
               "| τ | " + " | ".join(_tau_text(t) for t in fig10["tau"]) + " |",
               "|---|" + "---|" * len(fig10["tau"]),
               "| exact | " + " | ".join(f"{v:.4f}" for v in fig10["exact"]) + " |",
               "| sampled (mean) | " + " | ".join(f"{v:.4f}" for v in
                                                  fig10["sampled"].mean(0)) + " |",
               "| sampled (max − min) | " + " | ".join(f"{v:.1e}" for v in np.ptp(
                   fig10["sampled"], axis=0)) + " |", "",
               f"Figure 11{sub} ({REGULARISER_NAME[kind]}): "
               + ", ".join(f"{a:g} → {v:.4f}" for a, v in
                           zip(fig11["param"], fig11["sampled"].mean(0)))
               + f"; deterministic {fig11['deterministic']:.4f}; GRaMPa τ = 1 "
               f"{fig11['grampa_uniform']:.4f}.", "",
               f"Figure 12{sub} (ℓ_min = 2, τ = 1): exact E_α at p = 0 … 1: "
               + ", ".join(f"{p:g} → {v:.4f}" for p, v in zip(fig12["p"], fig12["exact"]))
               + f"; maximum at p = {fig12['argmax_p']:.2f}.", ""]
    bar.close()
    write_atomic(out / "efficiency.csv", "\n".join(rows) + "\n")
    write_atomic(out / "README.md", "\n".join(md))
    return md


def main(argv: Sequence[str] | None = None, *, draw: Draw | None = None) -> int:
    """Regenerate Figures 10–12's data into ``--out`` (CSV, README.md; PNGs through ``draw``).

    ``python -m workbench experiments`` passes :func:`workbench.figures.efficiency.save_figures`
    as ``draw``; ``python -m workbench.experiments.grampa_efficiency`` writes no PNG.
    """
    parser = argparse.ArgumentParser(prog="python -m workbench.experiments.grampa_efficiency",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="results/efficiency")
    parser.add_argument("--text", default="shakespeare")
    parser.add_argument("--max-lines", type=int, default=None)
    parser.add_argument("--bpe-size", type=int, default=8192)
    parser.add_argument("--alpha", type=float, default=ALPHA)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    md = run(args.out, text=args.text, max_lines=args.max_lines, bpe_size=args.bpe_size,
             alpha=args.alpha, seeds=args.seeds, draw=draw,
             progress=False if args.no_progress else None)
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
