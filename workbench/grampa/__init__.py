"""GRaMPa: path-counting stochastic segmentation (Bauwens et al., §4, Algorithms 1–3).

A word's walked graph (:mod:`workbench.lattice`) becomes a first-order Markov chain: counting
paths from the construction's start node (Algorithm 1), the arcs into node ``j`` get
probabilities ``c_i / c_j`` (Eq. 2), skewed by power normalisation with exponent ``α = 1/τ``
(Eq. 4). Sampling walks back from the far end (Algorithm 2). ``direction="r2l"`` is the
paper's printed algorithm; ``"l2r"`` (the default, as in the paper's experiments) is its
mirror image: l2r(s, V) = reverse of r2l(reverse(s), reverse(V)).

Modules in reading order: :mod:`.params` (the records kernels take, τ), :mod:`.fused`,
:mod:`.logspace`, :mod:`.many` (the three sampling routes; :mod:`.interpreted`: GRaMPa's
fused and many-sample routes in plain Python, for a process's first small calls),
:mod:`.laws` (exact laws from the arc probability table), :mod:`.sampler` (the public
:class:`Grampa`), :mod:`.expectations` (exact expected unigram counts over a word-count
table). Multiplexing
(Algorithm 3) is :class:`workbench.segmenters.Multiplexer`.

Example
-------
>>> from workbench import Vocabulary
>>> g = Grampa(Vocabulary(["a", "b", "ab"]), seed=0)
>>> g.distribution("ab")
{('a', 'b'): 0.5, ('ab',): 0.5}
"""

from .params import SHORT_WORD, check_tau
from .sampler import MAX_DISTRIBUTION_SIZE, MAX_INFINITE_LENGTH, Grampa, arc_probabilities

#: Names loaded on first access: their module imports numba, which ``Grampa``'s first small
#: samples do without (see :mod:`.interpreted`).
_LAZY = {"expected_efficiency": "expectations", "expected_token_counts": "expectations"}


def __getattr__(name: str):
    if name in _LAZY:
        from . import expectations

        return getattr(expectations, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "MAX_DISTRIBUTION_SIZE",
    "MAX_INFINITE_LENGTH",
    "SHORT_WORD",
    "Grampa",
    "arc_probabilities",
    "check_tau",
    "expected_efficiency",
    "expected_token_counts",
]
