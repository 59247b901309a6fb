"""BatchBPE (Morgan 2024): chunk counting, serial and batched BPE training, the model.

Submodules: :mod:`~workbench.bpe.pattern` (GPT-4 split pattern).
"""
