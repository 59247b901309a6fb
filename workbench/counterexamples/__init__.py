"""The two counterexamples of Cognetta et al. (2024) to the Rényi-efficiency hypothesis.

Cognetta, Zouhar, Moon, Okazaki, *Two Counterexamples to Tokenization and the Noiseless
Channel* (LREC-COLING 2024, arXiv:2402.14614), §4. Both wrap any BPE-like model satisfying
:class:`workbench.interfaces.MergeModel` (``.merges``, ``.vocab``, ``.encode``,
``.encode_chunks``, ``.decode``, ``.tokens``; :class:`workbench.bpe.BPEModel` is one) and
satisfy it themselves:

* :mod:`~workbench.counterexamples.merge_tree` — which merge made each token; the contract check;
* :mod:`~workbench.counterexamples.ranking` — tokens ranked by their frequency in a corpus;
* :mod:`~workbench.counterexamples.random_drop` — :class:`RandomDropBPE` (§4.1, Eqs. 4–5);
* :mod:`~workbench.counterexamples.duplication` — :class:`DuplicationBPE` (§4.2, Eqs. 16–17).

The theorems about them live in :mod:`workbench.theory.renyi`; the metrics in
:mod:`workbench.metrics`.
"""

from .duplication import DuplicationBPE
from .merge_tree import MergeTree, check_bpe_model
from .random_drop import RandomDropBPE
from .ranking import token_frequencies, top_tokens

__all__ = [
    "DuplicationBPE",
    "MergeTree",
    "RandomDropBPE",
    "check_bpe_model",
    "token_frequencies",
    "top_tokens",
]
