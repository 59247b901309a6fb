"""Closed forms of the GRaMPa paper (Bauwens et al.), one module per concept, in reading order.

* :mod:`.laws` — uniform-sampling laws under the infinite vocabulary (§3.1, App. A.3–A.4):
  ``m``, ``ℓ`` (``M(ℓ, n)``), ``R``, ``S``; Eqs. 11–36;
* :mod:`.rejection` — the expected cost of bit and Markov rejection sampling (§3.2, App. A.5,
  Eqs. 43–47);
* :mod:`.combinatorics` — partitions (Algorithm 4) and multiset ranks (Algorithm 5);
* :mod:`.lock` — bit keys and length-ordered composition keys, LOCKs (App. C);
* :mod:`.mixture` — Algorithm 3's mixture ``p · L + (1 − p) · δ_d`` (§4.6): linear
  quantities, entropy, the law.

Every public name is re-exported by :mod:`workbench.theory`. This subpackage does not sample
(:mod:`workbench.grampa`, :mod:`workbench.samplers`) and does not check its claims against
the code (:mod:`workbench.checks.grampa`).
"""
