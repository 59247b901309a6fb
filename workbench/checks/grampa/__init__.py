"""The GRaMPa paper's claims (Bauwens et al.) checked against the real code, by concept.

Importing this subpackage registers, in this order (the order of ``verify``'s table):

* :mod:`.algorithms` — Algorithms 1–2: :class:`workbench.grampa.Grampa`'s samples are
  uniform under the infinite vocabulary (statistical);
* :mod:`.laws` — uniform-sampling laws (Eqs. 11–36), symbolically, by enumeration and on
  random lattices;
* :mod:`.lock` — LOCK keys (App. C): bijection, order, batch kernel, Algorithms 4–5;
* :mod:`.rejection` — rejection costs (Eqs. 43–47) and the samplers of
  :mod:`workbench.samplers.rejection`.

The closed forms themselves are in :mod:`workbench.theory.grampa`; :mod:`._enumerate` lists
every composition of small ``n`` for the exhaustive checks.
"""

from . import algorithms, laws, lock, rejection  # noqa: F401  (each registers its checks)
from .algorithms import check_grampa_uniform

__all__ = ["check_grampa_uniform"]
