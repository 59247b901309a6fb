"""Figures behind the notebooks: one module per notebook, each with pure ``compute_*``
functions (parameters in, data out) and ``plot_*`` functions (data in, figure out).

Nothing in the package imports this subpackage; only notebooks, the CLI and tests do.
"""
