"""Pure functions and plots behind ``notebooks/08_batch_bpe.ipynb`` (BatchBPE).

``compute_*`` functions take plain data and return plain data (lists, dicts); ``plot_*``
functions draw one matplotlib axes from those results. Everything runs on the shipped text
(:mod:`workbench.datasets`) in about a second. The notebook's slider panel is
:func:`compute_stop_cutoff` drawn by :func:`plot_stop_cutoff`.

This module does not train anything itself beyond calling :func:`workbench.bpe.train_bpe`,
and does not read ``shared/data``.

Example
-------
>>> from workbench.bpe import BPEModel
>>> m = BPEModel([(b"a", b"b")])
>>> colour_tokens(m, ["abc"])[:44]
'<span style="background:#e6f2ff;padding:0 1p'
"""

from __future__ import annotations

import html
from collections import Counter

from .._core.validate import check_int
from ..bpe import BPEModel, split_text, train_bpe

_COLOURS = ("#e6f2ff", "#ffe6cc", "#e6ffe6", "#ffe6f2", "#f2e6ff", "#ffffcc")


def compute_table(text: str) -> dict[str, int]:
    """Chunk→count table of ``text`` under the GPT-4 pattern.

    >>> compute_table("a a a")
    {'a': 1, ' a': 2}
    """
    return dict(Counter(split_text(text)))


def compute_batch_sizes(model: BPEModel) -> list[int]:
    """Merges made by each batch, in order.

    >>> from workbench.bpe import Batch
    >>> compute_batch_sizes(BPEModel([(b"a", b"b")], batches=[Batch(1, 1, ((b"a", b"b"),))]))
    [1]
    """
    return [b.size for b in model.batches]


def compute_merge_order(batched: BPEModel, serial: BPEModel) -> list[int | None]:
    """For each merge of ``batched`` (in order), its position in ``serial`` (None if absent).

    >>> compute_merge_order(BPEModel([(b"a", b"b"), (b"c", b"d")]),
    ...                     BPEModel([(b"c", b"d"), (b"x", b"y")]))
    [None, 0]
    """
    where = {m: k for k, m in enumerate(serial.merges)}
    return [where.get(m) for m in batched.merges]


def encoded_length(model: BPEModel, text: str) -> int:
    """Number of tokens of ``text``.

    >>> encoded_length(BPEModel([(b"a", b"b")]), "abab")
    2
    """
    return len(model.encode(text))


def compute_length_change(table: dict[str, int], held_out: str, vocab_size: int,
                          stop_list_size: int = 0, freq_cutoff: int = 1) -> float:
    """Percent change of the held-out encoded length against ``stop_list_size=0,
    freq_cutoff=1`` (the paper's Figures 4–5, on our data).

    >>> compute_length_change({"ab": 3, "cd": 1}, "ab cd", 257)
    0.0
    """
    base = encoded_length(train_bpe(table, vocab_size, progress=False), held_out)
    model = train_bpe(table, vocab_size, stop_list_size=stop_list_size,
                      freq_cutoff=freq_cutoff, progress=False)
    return 100.0 * (encoded_length(model, held_out) - base) / base


def compute_stop_cutoff(table: dict[str, int], held_out: str, vocab_size: int,
                        stop_list_size: int = 0, freq_cutoff: int = 1,
                        base_length: int | None = None) -> dict:
    """One setting of the stop list and the frequency cut-off against ``(0, 1)`` (§2.1–2.2).

    Trains on ``table`` with ``stop_list_size`` and ``freq_cutoff`` and encodes ``held_out``.
    ``base_length`` is the held-out length under ``(0, 1)`` at the same ``vocab_size``
    (computed when None; pass it to skip the second training when a slider moves).

    Returns
    -------
    dict
        ``stop_list_size``, ``freq_cutoff``, ``chunks_kept`` (chunks seen at least
        ``freq_cutoff`` times, stop words included), ``stop_words`` (the chunks kept out of
        merging, most common first), ``base_length``, ``length`` and ``change_percent``.

    >>> r = compute_stop_cutoff({" ab": 3, " cd": 2, "ab": 1}, " ab cd ab", 258, 1, 2)
    >>> r["stop_words"], r["chunks_kept"], r["base_length"], r["length"], r["change_percent"]
    ([' ab'], 2, 5, 4, -20.0)
    """
    stop_list_size = check_int(stop_list_size, "stop_list_size", minimum=0)
    freq_cutoff = check_int(freq_cutoff, "freq_cutoff", minimum=1)
    if base_length is None:
        base_length = encoded_length(train_bpe(table, vocab_size, progress=False), held_out)
    base_length = check_int(base_length, "base_length", minimum=1)
    model = train_bpe(table, vocab_size, stop_list_size=stop_list_size,
                      freq_cutoff=freq_cutoff, progress=False)
    length = encoded_length(model, held_out)
    return {"stop_list_size": stop_list_size, "freq_cutoff": freq_cutoff,
            "chunks_kept": sum(c >= freq_cutoff for c in table.values()),
            "stop_words": [w.decode("utf-8", errors="replace") if isinstance(w, bytes) else w
                           for w in model.stop_words],
            "base_length": base_length, "length": length,
            "change_percent": 100.0 * (length - base_length) / base_length}


def compute_token_lengths(model: BPEModel) -> dict[int, int]:
    """Histogram of merge-made token lengths in bytes.

    >>> compute_token_lengths(BPEModel([(b"a", b"b"), (b"ab", b"c")]))
    {2: 1, 3: 1}
    """
    return dict(sorted(Counter(len(a + b) for a, b in model.merges).items()))


def colour_tokens(model: BPEModel, words: list[str]) -> str:
    """HTML with each word's tokens on alternating background colours (Tiktokenizer style)."""
    spans = []
    for word in words:
        for k, tok in enumerate(model.tokens(word)):
            text = html.escape(tok.decode("utf-8", errors="replace")).replace(" ", "&nbsp;")
            spans.append(f'<span style="background:{_COLOURS[k % len(_COLOURS)]};'
                         f'padding:0 1px;margin:0 1px;font-family:monospace">{text}</span>')
        spans.append("<br>")
    return "".join(spans)


def plot_batch_sizes(sizes: list[int], ax, label: str = "batched") -> None:
    """Batch size against the number of merges made before the batch."""
    done = [sum(sizes[:k]) for k in range(len(sizes))]
    ax.plot(done, sizes, marker=".", label=label)
    ax.set_xlabel("merges made before the batch")
    ax.set_ylabel("merges in the batch")
    ax.set_title("BatchBPE batch sizes (§3.5)")


def plot_merge_order(order: list[int | None], ax) -> None:
    """Position of each batched merge in the serial merge list (missing ones marked)."""
    xs = [k for k, v in enumerate(order) if v is not None]
    ys = [v for v in order if v is not None]
    ax.scatter(xs, ys, s=2)
    missing = [k for k, v in enumerate(order) if v is None]
    ax.scatter(missing, [0] * len(missing), marker="x", color="red",
               label=f"not in serial ({len(missing)})")
    ax.set_xlabel("batched merge rank")
    ax.set_ylabel("serial merge rank")
    ax.legend()


def plot_stop_cutoff(result: dict):
    """Held-out encoded length under ``(0, 1)`` and under the chosen setting (bars with gid
    ``encoded-length``), the percent change in the title; returns the figure.

    The stop words (at most 12) are printed above the figure.
    """
    import matplotlib.pyplot as plt

    stop, cut = result["stop_list_size"], result["freq_cutoff"]
    words = result["stop_words"]
    shown = ", ".join(repr(w) for w in words[:12]) + (" …" if len(words) > 12 else "")
    print(f"{result['chunks_kept']:,} chunks kept by freq_cutoff={cut}; "
          f"stop words ({len(words)}): {shown or 'none'}")
    fig, ax = plt.subplots(figsize=(4.8, 3))
    labels = ["(0, 1)", f"({stop}, {cut})"]
    bars = ax.bar(labels, [result["base_length"], result["length"]],
                  color=["#868e96", "#4c6ef5"], width=0.6)
    for bar in bars:
        bar.set_gid("encoded-length")
    ax.bar_label(bars, fmt="{:,.0f}", padding=2, fontsize=8)
    ax.set_ylim(0, 1.15 * max(result["base_length"], result["length"]))
    ax.set_ylabel("tokens in the held-out text")
    ax.set_xlabel("(stop_list_size, freq_cutoff)")
    ax.set_title(f"encoded length {result['change_percent']:+.3f}% against (0, 1)")
    fig.tight_layout()
    return fig


def plot_token_lengths(hist: dict[int, int], ax) -> None:
    """Bar chart of token lengths in bytes."""
    ax.bar(list(hist), list(hist.values()))
    ax.set_xlabel("token length (bytes)")
    ax.set_ylabel("tokens")
