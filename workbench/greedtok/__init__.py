"""GreedTok: tokenisation as partition cover (the GreedTok paper, ``shared/papers/002``).

* :func:`train_greedtok` — greedy token selection (App. D.1) → :class:`GreedTokModel`;
* :class:`GreedTokModel` — the exact encoder (App. D.2, Alg. 4), decoding, save/load, a
  :class:`workbench.Vocabulary` of its tokens;

Modules in reading order: ``candidates`` (corpus as flat bytes, candidate index), ``encoder``,
``training``.
"""

from .encoder import GreedTokModel
from .training import train_greedtok, train_greedtok_run

__all__ = ["GreedTokModel", "train_greedtok", "train_greedtok_run"]
