"""Figures behind the notebooks: one module per notebook, each with ``plot_*`` functions.

Each ``plot_*`` takes data and returns a figure. Notebooks import :mod:`workbench.experiments`
(or the domain) for data and this subpackage for plots; a panel takes its compute function
as an argument (``lattice_panel(lattice_view, …)``, ``skew_widget(skew_summary, …)``). What
a figures module may import is an allow-list (``tests/figures/test_figures.py``: plotting
libraries, numpy, siblings, and from the package only classes, constants and a few named
functions); no figures module re-exports a computation.

* :mod:`.common` — colours, the one :func:`~.common.tau_label`, the lattice labels,
  :func:`~.common.figure_data`;
* :mod:`.lint` — the figure linter (:func:`~.lint.readability_problems`) the tests call;
* :mod:`.start_here` — notebook 00 (reading order, recorded run times, the three α's);
* :mod:`.lattice` — notebook 01 (Figure 1: the lattice drawn, the panel);
* :mod:`.lattice_plotly` — the lattice as a plotly figure, hover on arcs and nodes;
* :mod:`.skew_plots` — notebook 02's matplotlib figures (Figures 3, 4, 8; the data are
  :mod:`workbench.experiments.grampa_skew`'s);
* :mod:`.skew_plotly` — Figures 4/8 as a plotly figure, hover and the current τ;
* :mod:`.skew_widget` — notebook 02's panel (the widget);
* :mod:`.uniform_laws` — notebook 03 (Figure 2, Eq. 27/28 errors);
* :mod:`.uniform_laws_plotly` — notebook 03's slider panel in plotly;
* :mod:`.lock_keys` — notebook 04 (LOCK order, Figure 5);
* :mod:`.rejection_cost` — notebook 05 (rejection samplers against GRaMPa's single pass);
* :mod:`.real_text` — notebook 06 (live Table 7 row on the shipped text, exact beside sampled);
  :mod:`.real_text_plotly` — its slider panel in plotly;
* :mod:`.baselines`, :mod:`.vocabulary_shape`, :mod:`.rejection_words` — notebook 07 (word
  pools and Figure 6; Figures 7 and 9; App. A.1/B and rejection cost on real words);
  :mod:`.baselines_plotly` — notebook 07's five slider panels in plotly;
* :mod:`.batch_bpe`, :mod:`.partition_cover`, :mod:`.renyi`, :mod:`.efficiency` — notebooks
  08–11; :mod:`.batch_bpe_plotly`, :mod:`.partition_cover_plotly`, :mod:`.renyi_plotly` —
  the slider panels of notebooks 08–10 in plotly; :mod:`.papers`, :mod:`.paper_figures` —
  citations and ``python -m workbench figures``.

Setups, training and the runners writing ``results/`` (GRaMPa Tables 7–8, Figures 10–12,
the Rényi tables, GreedTok's comparisons) and the notebooks' computations with their
argument checks (``experiments.grampa_lattice``, ``grampa_skew``, ``grampa_uniform_laws``,
``grampa_lock``, ``grampa_rejection``, …) are :mod:`workbench.experiments`; the figure
modules draw their results.

The widgets binding them are :mod:`.panel` (UI only: it imports none of the notebook
modules, they import it; :mod:`.panel_neighbours` warms a panel's caches for one step of each
control); the statistics they report are :mod:`workbench.stats`. Nothing
in the package imports this subpackage; notebooks, the CLI and tests do. The notebook
modules import matplotlib (:mod:`.panel` only when it renders); ``import workbench`` does not.
"""
