"""Experiments: setups, training recipes and the runners that write ``results/``.

One module per paper's experiment (those that write results have a ``main(argv)``):

* :mod:`.grampa_tables` — GRaMPa Tables 7–8 (``python -m workbench tables`` →
  ``results/tables``); :mod:`.grampa_settings` its 16 tokenisers and their exact laws;
  :mod:`.grampa_paper_tables` the paper's own numbers; :mod:`.grampa_live` notebook 06's
  live row (a multiplexed sample beside its exact statistics); :mod:`.grampa_regularisation`
  Figure 6 (regularisation rate against each sampler's knob); :mod:`.grampa_vocabulary_shape`
  Figures 7 and 9 (token lengths, share of segmentations a vocabulary allows);
  :mod:`.grampa_lattice` Figure 1 made live (notebook 01); :mod:`.grampa_skew` τ, ℓ_min,
  direction and p on one word, Figures 3, 4 and 8 (notebook 02);
  :mod:`.grampa_uniform_laws` Figure 2 and §3.1's laws (notebook 03); :mod:`.grampa_lock`
  App. C and Figure 5 (notebook 04); :mod:`.grampa_rejection` §3.2 / App. A.5, the
  rejection samplers' cost (notebook 05); :mod:`.grampa_rejection_words` App. A.1/B and that
  cost on real words (notebook 07);
* :mod:`.grampa_efficiency` — GRaMPa Figures 10–12, Rényi efficiency against regularisation
  (``python -m workbench experiments`` → ``results/efficiency``); its corpus and tokeniser
  families are :mod:`.grampa_efficiency_setup`;
* :mod:`.laws_compare` — notebook 12: every sampler's exact law on one word side by side,
  and the knobs that give two samplers equal entropy;
* :mod:`.renyi` — Cognetta et al.'s counterexamples, Tables 1–3 in spirit and Theorem 4.1
  on real drops (``results/renyi``);
* :mod:`.batch_bpe` — BatchBPE: batch sizes, serial vs batched order, stop words and the
  frequency cut-off against held-out length;
* :mod:`.greedtok` — GreedTok against BPE and ULM at equal sizes, β(k), the vertex-cover
  reduction, a word's cover steps;
* :mod:`.training` — the training recipes they share (serial / batched BPE, SentencePiece
  ULM, quiet GreedTok).

Corpus recipes (text → lines, words, chunks) live in :mod:`workbench.datasets.corpora`.
Nothing here draws (``workbench.figures`` draws these results); nothing below this
layer imports it. The submodules are imported on demand (``import workbench`` does not).
"""
