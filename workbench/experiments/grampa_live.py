"""GRaMPa on real text, live (notebook 06): one multiplexed Table 7 row, exact beside sampled.

Bauwens, Kaczér, de Lhoneux, *GRaMPa* (ACL 2025), §5.1–5.2 and Tables 7–8. On a slice of
the shipped Shakespeare text (whitespace-separated words, optionally with the LD1 typos of
§5.1, then P1 + P2 with the ``▁`` marker), every P1 pretoken is tokenised by GRaMPa
(τ, ℓ_min, L2R) with probability ``p`` and by the vocabulary's deterministic tokeniser
otherwise (BPE for ``bpe-8k``, ULM k = 1 for ``ulm-8k``) — the multiplexing of §5.2.

* :func:`compute_live` — one sample of the slice: the Table 7 row
  (:func:`workbench.metrics.segmentation.table7`), m per word and token lengths for the
  histograms, and the *exact* E[m], E[S], regularisation rate against the deterministic
  segmentation and Shannon entropy per word beside their sampled estimates. Exact values mix
  GRaMPa's law (:func:`workbench.grampa.statistics.exact_statistics`) and the deterministic
  segmentation per pretoken with weights ``p`` and ``1 − p``
  (:mod:`workbench.theory.grampa.mixture`); pretokens are independent, so
  E[m] and entropies add over them and P(deterministic) multiplies.

Per-pretoken laws are cached per (vocabulary, τ, ℓ_min), the words and their deterministic
segmentations per (text, vocabulary, typos, seed), the laws of the distinct P1 groups per
(text, vocabulary, typos, seed, τ, ℓ_min) — a ``p`` step mixes them in numpy, computing no law —
and whole results (arrays read-only) per setting, so a slider step back to a seen setting
computes nothing. This module does not
compute the full tables (:mod:`.grampa_tables`) and draws nothing
(:mod:`workbench.figures.real_text_plotly` does).

Example
-------
>>> r = compute_live("To be, or not to be", tau=1.0, ell_min=1, p=1.0, seed=0)
>>> r["words"], r["exact"]["m_mean"] > r["deterministic"]["m_mean"]
(6, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_choice, check_int, check_probability
from ..datasets.corpora import first_words
from ..grampa import Grampa, check_tau
from ..grampa.statistics import exact_statistics
from ..lattice import count_segmentations
from ..metrics.segmentation import table7
from ..pretokenise import Pretokeniser, perturb
from ..theory.grampa.mixture import mix, mixture_entropy
from ..vocab import Vocabulary
from .grampa_settings import Setting
from .grampa_tables import load_vocabularies

__all__ = ["TYPO_RATE", "VOCABULARIES", "compute_live", "text_slice"]

#: Vocabulary choices of the notebook: label → key of
#: :func:`.grampa_tables.load_vocabularies`.
VOCABULARIES = {"ULM (ulm-8k)": "ULM", "BPE (bpe-8k)": "BPE"}
#: LD1 typo rate of the toggle (§5.1).
TYPO_RATE = 0.15


def text_slice(n_words: int = 1500, text: str = "shakespeare") -> str:
    """The first ``n_words`` whitespace-separated words of a shipped text, space-joined
    (:func:`workbench.datasets.corpora.first_words`).

    >>> text_slice(3)
    "ALL'S WELL THAT"
    """
    return first_words(n_words, text)


@cache
def _vocab(key: str) -> Vocabulary:
    return load_vocabularies()[key]


@lru_cache(maxsize=16)
def _grampa_laws(key: str, tau: float, ell_min: int) -> tuple[Grampa, dict]:
    """A Grampa of the setting and its per-piece cache of exact statistics."""
    return Grampa(_vocab(key), tau=tau, ell_min=ell_min, direction="l2r"), {}


@cache
def _deterministic(key: str):
    """The deterministic tokeniser of a vocabulary and its per-piece cache."""
    setting = Setting(key, "BPE") if key == "BPE" else Setting(key, "ULM")
    return setting.sampler(_vocab(key), seed=0), {}


def _det_pieces(key: str, pieces: Sequence[str]) -> list[tuple[str, ...]]:
    sampler, cache_ = _deterministic(key)
    new = [p for p in dict.fromkeys(pieces) if p not in cache_]
    if new:
        for p, seg in zip(new, sampler.tokenize_batch(new)):
            cache_[p] = tuple(seg)
    return [cache_[p] for p in pieces]


def _group_law(key: str, tau: float, ell_min: int, piece: str) -> tuple[float, float, float]:
    """GRaMPa's (entropy, E[m], P(deterministic segmentation)) of one piece, cached."""
    g, cache_ = _grampa_laws(key, tau, ell_min)
    hit = cache_.get(piece)
    if hit is None:
        det = _det_pieces(key, [piece])[0]
        st = exact_statistics(g, piece, reference=list(det))
        hit = cache_[piece] = (st["entropy"], st["E_m"], st["P_reference"])
    return hit


def _words(text: str, typos: bool, seed: int) -> list[list[list[str]]]:
    """Words → P1 groups → P2 pieces, after LD1 typos if asked (their own seed stream)."""
    if typos:
        text = perturb(text, TYPO_RATE, np.random.default_rng([seed, 0]))
    pre = Pretokeniser("sentencepiece")
    return [g for g in (pre.pretokenise(w) for w in text.split()) if g]


def compute_live(text: str, tau: float = 1.0, ell_min: int = 1, p: float = 0.5,
                 vocabulary: str = "ULM", typos: bool = False, seed: int = 0) -> dict:
    """One multiplexed sample of ``text`` and the exact statistics of its law.

    Parameters
    ----------
    text : str
        Raw text (whitespace-separated words).
    tau, ell_min : GRaMPa's temperature and soft minimum length (L2R).
    p : float in [0, 1]
        Multiplexing rate: the chance a P1 pretoken goes to GRaMPa.
    vocabulary : {"ULM", "BPE"} or a label of :data:`VOCABULARIES`
    typos : bool
        Apply LD1 typos (rate :data:`TYPO_RATE`) to the text first.
    seed : int

    Returns
    -------
    dict
        ``row`` (Table 7 of the sample), ``deterministic`` (Table 7 with p = 0), ``m`` and
        ``ell`` (sampled m per word and token lengths), ``m_det`` and ``ell_det``, ``exact``
        (``m_mean``, ``S_mean``, ``RR_det``, ``entropy_mean`` bits per word) and ``sampled``
        (the same but ``entropy_mean``: one sample does not estimate an entropy, so there is
        no value to show), ``words``, ``dropped``.
    """
    key, tau, ell_min, p, seed = _check_live(text, tau, ell_min, p, vocabulary, typos, seed)
    r = _live(text, key, tau, ell_min, p, bool(typos), seed)
    return {k: dict(v) if isinstance(v, dict) else v for k, v in r.items()}


class _Prepared(NamedTuple):
    """What a sample does not depend on (τ, ℓ_min, p), for one (text, vocabulary, typos, seed)."""

    n_words: int                        # words in the text
    kept: tuple                         # the words every piece of which the vocabulary segments
    det_of: dict[str, list[str]]        # each piece's deterministic segmentation
    groups: tuple                       # the distinct P1 groups (tuples of pieces)
    group_ids: np.ndarray               # per P1 group of ``kept``: its index in ``groups``
    word_of_group: np.ndarray           # per P1 group of ``kept``, in order: its word's index
    word_starts: np.ndarray             # index of each word's first P1 group
    det_tokens: np.ndarray              # per distinct group: deterministic tokens
    segs_det: tuple                     # per word: the deterministic token lengths
    chars: np.ndarray                   # per word: its characters (the n of S)
    row_det: dict                       # Table 7 of the deterministic segmentation


@lru_cache(maxsize=8)
def _prepared(text: str, key: str, typos: bool, seed: int) -> _Prepared:
    """:class:`_Prepared` of a text, vocabulary, typo setting and seed, cached."""
    vocab = _vocab(key)
    words = _words(text, typos, seed)
    counts = {q: count_segmentations(q, vocab) for q in {q for w in words for g in w for q in g}}
    kept = tuple(w for w in words if all(counts[q] > 0 for g in w for q in g))
    flat = [q for w in kept for g in w for q in g]
    det_of = dict(zip(flat, _det_pieces(key, flat)))
    index: dict[tuple, int] = {}
    group_ids = np.array([index.setdefault(tuple(g), len(index)) for w in kept for g in w],
                         dtype=np.int64)
    sizes = np.array([len(w) for w in kept], dtype=np.int64)
    segs_det = tuple(tuple(len(t) for g in w for q in g for t in det_of[q]) for w in kept)
    groups = tuple(index)
    return _Prepared(
        len(words), kept, det_of, groups, group_ids,
        np.repeat(np.arange(len(kept)), sizes), np.concatenate([[0], np.cumsum(sizes)[:-1]]),
        np.array([sum(len(det_of[q]) for q in g) for g in groups], dtype=float),
        segs_det, np.array([sum(s) for s in segs_det]), table7(segs_det) if segs_det else {})


@lru_cache(maxsize=64)
def _group_laws(text: str, key: str, typos: bool, seed: int, tau: float, ell_min: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GRaMPa's (entropy, E[m], P(deterministic segmentation)) of each distinct P1 group of
    the prepared text: its pieces are independent, so entropies and E[m] add and
    P(deterministic) multiplies."""
    prep = _prepared(text, key, typos, seed)
    laws = np.ones((len(prep.groups), 3))
    laws[:, :2] = 0.0
    for i, g in enumerate(prep.groups):
        for q in g:
            hq, mq, pq = _group_law(key, tau, ell_min, q)
            laws[i, 0] += hq
            laws[i, 1] += mq
            laws[i, 2] *= pq
    return laws[:, 0], laws[:, 1], laws[:, 2]


@lru_cache(maxsize=64)
def _live(text: str, key: str, tau: float, ell_min: int, p: float, typos: bool,
          seed: int) -> dict:
    """:func:`compute_live` of checked arguments, cached (its arrays read-only): a slider step
    back to a seen setting computes nothing."""
    prep = _prepared(text, key, typos, seed)
    if not prep.kept:
        raise InvalidValueError(f"text has no word the {key} vocabulary can segment "
                                f"({prep.n_words} words found)")
    det_of = prep.det_of
    heads = np.random.default_rng([seed, 1]).random(len(prep.group_ids)) < p
    groups = [prep.groups[i] for i in prep.group_ids]
    stoch = [q for g, h in zip(groups, heads) if h for q in g]
    g_sampler = Grampa(_vocab(key), tau=tau, ell_min=ell_min, direction="l2r",
                       seed=np.random.default_rng([seed, 2]))
    sampled = iter(g_sampler.tokenize_batch(stoch) if stoch else [])
    segs, same = list(prep.segs_det), np.ones(len(prep.kept), dtype=bool)
    k = 0
    for i, w in enumerate(prep.kept):
        if not heads[k:k + len(w)].any():      # every group deterministic: the det lengths
            k += len(w)
            continue
        lengths = []
        for g in w:
            if heads[k]:
                toks = [t for _ in g for t in next(sampled)]
                same[i] &= toks == [t for q in g for t in det_of[q]]
            else:
                toks = [t for q in g for t in det_of[q]]
            lengths += [len(t) for t in toks]
            k += 1
        segs[i] = tuple(lengths)
    # exact: each distinct group's law mixed with its deterministic segmentation, summed
    # (E[m], entropy) or multiplied (P(deterministic)) over the groups of each word
    h_g, m_g, pd_g = _group_laws(text, key, typos, seed, tau, ell_min)
    m_mix, pd_mix = mix(p, m_g, prep.det_tokens), mix(p, pd_g, 1.0)
    h_mix = np.array([mixture_entropy(p, h, d) for h, d in zip(h_g.tolist(), pd_g.tolist())])
    n_kept = len(prep.kept)
    m_exact = np.bincount(prep.word_of_group, m_mix[prep.group_ids], minlength=n_kept)
    h_exact = np.bincount(prep.word_of_group, h_mix[prep.group_ids], minlength=n_kept)
    rr_exact = 1 - np.multiply.reduceat(pd_mix[prep.group_ids], prep.word_starts)
    chars = prep.chars
    s_exact = (m_exact[chars > 1] - 1) / (chars[chars > 1] - 1)
    row = table7(segs)
    arrays = {"m": np.array([len(s) for s in segs]), "ell": np.array([t for s in segs for t in s]),
              "m_det": np.array([len(s) for s in prep.segs_det]),
              "ell_det": np.array([t for s in prep.segs_det for t in s])}
    for array in arrays.values():
        array.flags.writeable = False
    return {
        "row": row, "deterministic": dict(prep.row_det), **arrays,
        "exact": {"m_mean": float(np.mean(m_exact)), "S_mean": float(np.mean(s_exact)),
                  "RR_det": float(np.mean(rr_exact)), "entropy_mean": float(np.mean(h_exact))},
        "sampled": {"m_mean": row["m_mean"], "S_mean": row["S_mean"],
                    "RR_det": 1 - float(np.mean(same))},
        "words": n_kept, "dropped": prep.n_words - n_kept,
        "settings": {"tau": tau, "ell_min": ell_min, "p": p, "vocabulary": key,
                     "typos": bool(typos), "seed": seed},
    }


def _check_live(text: object, tau: float, ell_min: int, p: float, vocabulary: str,
                typos: object, seed: int) -> tuple[str, float, int, float, int]:
    """:func:`compute_live`'s arguments checked: (vocabulary key, τ, ℓ_min, p, seed)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    key = VOCABULARIES.get(vocabulary, vocabulary)
    key = check_choice(key, "vocabulary", ("ULM", "BPE"))
    check_tau(tau)
    tau = float(tau)
    ell_min = check_int(ell_min, "ell_min", minimum=1)
    p = check_probability(p, "p")
    seed = check_int(seed, "seed", minimum=0)
    if not isinstance(typos, (bool, np.bool_)):
        raise ArgumentTypeError(f"typos must be a bool, not {type(typos).__name__}")
    return key, tau, ell_min, p, seed
