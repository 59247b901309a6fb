"""BatchBPE (Morgan 2024): serial and batched byte-level BPE training and the trained model.

Public names: :func:`train_bpe` (chunk→count table → :class:`BPEModel`), :class:`BPEModel`
(encode, decode, dropout, save/load, :meth:`~BPEModel.to_vocabulary`), :func:`export_hf`
(HuggingFace ``tokenizer.json``, also for BPE-consistent GreedTok models),
:data:`GPT4_PATTERN`, :data:`GPT2_PATTERN` and :func:`split_text`; peer formats (GPT-2's
files, ``tiktoken``) through :meth:`BPEModel.from_gpt2`, :meth:`BPEModel.from_tiktoken` and
:meth:`BPEModel.to_tiktoken`, refused with :class:`NotExpressibleError` when a format cannot
hold a model exactly.

Modules: ``pattern`` (GPT-4 split), ``bytelevel`` (GPT-2 byte alphabet), ``train``
(validation, stop words, cut-off), ``_kernels`` and ``_pairpool`` (numba training),
``model``, ``_encode`` (numba encoder), ``interpreted`` (a process's first small encode in
plain Python), ``split_patterns`` (named patterns, user regexes), ``interop`` (GPT-2,
tiktoken, GreedTok), ``export`` (HF). Chunk counting from text is ``counting``. Importing the
package loads no numba: the trainer, the sampler and the exporter load on first access (PEP 562).

Example
-------
>>> from workbench.bpe import train_bpe
>>> m = train_bpe({" low": 5, " lower": 2, " newest": 6, " widest": 3}, 262, progress=False)
>>> m.tokens(" lowest")
[b' low', b'est']
"""

import importlib

from .interop import NotExpressibleError
from .model import Batch, BPEModel, dropout_chunks
from .modelfile import BPEModelFormatError
from .pattern import GPT2_PATTERN, GPT4_PATTERN, split_text

#: Names loaded on first access: their modules import numba (the trainer's kernels) or
#: other packages (the sampler, the exporter), which a first encode does without.
_LAZY = {"BPEExhaustedWarning": "train", "train_bpe": "train", "BPESampler": "sampler",
         "merges_from_vocabulary": "sampler", "export_hf": "export", "to_hf_json": "export"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["BPEExhaustedWarning", "BPEModel", "BPEModelFormatError", "BPESampler", "Batch",
           "GPT2_PATTERN", "GPT4_PATTERN", "NotExpressibleError", "dropout_chunks", "export_hf",
           "merges_from_vocabulary", "split_text", "to_hf_json", "train_bpe"]
