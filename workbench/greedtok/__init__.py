"""GreedTok: tokenisation as partition cover (the GreedTok paper, ``shared/papers/002``).

* :func:`train_greedtok` — greedy token selection (App. D.1) → :class:`GreedTokModel`;
* :class:`GreedTokModel` — the exact encoder (App. D.2, Alg. 4), decoding, save/load, a
  :class:`workbench.Vocabulary` of its tokens;
* :func:`train_greedwmc`, :func:`beta_curve` — the weighted-max-coverage relaxation and β;
* :func:`partition`, :func:`corpus_cover`, :func:`find_modularity_witness` — the exact
  objective and Table 1's witnesses that it is neither sub- nor supermodular;
* :func:`vertex_cover_instance`, :func:`check_reduction`, :func:`verify_all_graphs` —
  Theorem 1 (NP-hardness) checked by brute force.

Modules in reading order: ``objective``, ``candidates`` (corpus as flat bytes, candidate
index), ``encoder``, ``training``, ``relaxation``, ``reduction``.
"""

from .encoder import GreedTokModel
from .objective import (
    ModularityWitness,
    corpus_cost,
    corpus_cover,
    cover,
    find_modularity_witness,
    partition,
    segment,
)
from .reduction import (
    VertexCoverInstance,
    all_graphs,
    check_reduction,
    has_vertex_cover,
    optimum,
    verify_all_graphs,
    vertex_cover_instance,
)
from .relaxation import BetaCurve, WMCResult, beta_curve, train_greedwmc
from .training import TrainingRun, train_greedtok, train_greedtok_run

__all__ = [
    "BetaCurve",
    "GreedTokModel",
    "ModularityWitness",
    "TrainingRun",
    "VertexCoverInstance",
    "WMCResult",
    "all_graphs",
    "beta_curve",
    "check_reduction",
    "corpus_cost",
    "corpus_cover",
    "cover",
    "find_modularity_witness",
    "has_vertex_cover",
    "optimum",
    "partition",
    "segment",
    "train_greedtok",
    "train_greedtok_run",
    "train_greedwmc",
    "verify_all_graphs",
    "vertex_cover_instance",
]
