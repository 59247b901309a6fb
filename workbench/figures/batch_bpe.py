"""Notebook 08's figures (BatchBPE): batch sizes, merge order, stop words / cut-off, lengths.

Batch sizes, merge order, stop words / cut-off, token lengths, and tokens coloured in HTML.

The data come from :mod:`workbench.experiments.batch_bpe` (``compute_*``, which train
through :func:`workbench.bpe.train_bpe`), which the notebook imports; this module only
draws (``plot_*``, :func:`colour_tokens`). The notebook's slider panel is
``compute_stop_cutoff`` drawn by :func:`plot_stop_cutoff`.

Example
-------
>>> from workbench.bpe import BPEModel
>>> m = BPEModel([(b"a", b"b")])
>>> colour_tokens(m, ["abc"])[:44]
'<span style="background:#e6f2ff;padding:0 1p'
"""

from __future__ import annotations

import html

from ..bpe import BPEModel
from .common import GUIDE

__all__ = [
    "colour_tokens",
    "describe_batch_sizes",
    "plot_batch_sizes",
    "plot_merge_order",
    "plot_stop_cutoff",
    "plot_token_lengths",
]

_COLOURS = ("#e6f2ff", "#ffe6cc", "#e6ffe6", "#ffe6f2", "#f2e6ff", "#ffffcc")


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
    ax.scatter(xs, ys, s=2, label="batched merge at its serial rank")
    missing = [k for k, v in enumerate(order) if v is None]
    ax.scatter(missing, [0] * len(missing), marker="x", color="red",
               label=f"not in serial ({len(missing)})")
    ax.set_xlabel("batched merge rank")
    ax.set_ylabel("serial merge rank")
    ax.legend()


def plot_stop_cutoff(result: dict):
    """Held-out encoded length under ``(0, 1)`` and under the chosen setting (left: bars from
    zero, gid ``encoded-length``) and the percent change between them (right: one bar, gid
    ``length-change``, on an axis around zero, so a change of a percent is visible); returns
    the figure.

    The stop words (at most 12) are printed above the figure.
    """
    import matplotlib.pyplot as plt

    stop, cut = result["stop_list_size"], result["freq_cutoff"]
    words = result["stop_words"]
    shown = ", ".join(repr(w) for w in words[:12]) + (" …" if len(words) > 12 else "")
    print(f"{result['chunks_kept']:,} chunks kept by freq_cutoff={cut}; "
          f"stop words ({len(words)}): {shown or 'none'}")
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(7.5, 3), width_ratios=(2, 1))
    labels = ["(0, 1)\nbaseline", f"({stop}, {cut})\nchosen"]
    bars = ax.bar(labels, [result["base_length"], result["length"]],
                  color=["#868e96", "#4c6ef5"], width=0.6)
    for bar in bars:
        bar.set_gid("encoded-length")
    ax.bar_label(bars, fmt="{:,.0f}", padding=2, fontsize=8)
    ax.set_ylim(0, 1.15 * max(result["base_length"], result["length"]))
    ax.set_ylabel("tokens in the held-out text")
    ax.set_xlabel("(stop_list_size, freq_cutoff)")
    change = result["change_percent"]
    ax.set_title(f"encoded length {change:+.3f}% against (0, 1)", fontsize=9)
    colour = "#e8590c" if change > 0 else "#2b8a3e"
    ax2.vlines([0.0], [0.0], [change], color=colour, lw=6, gid=f"{GUIDE}-stem")
    ax2.plot([0.0], [change], marker="D", markersize=7, color=colour, linestyle="none",
             gid="length-change")
    ax2.annotate(f"{change:+.2f} %", (0.0, change), xytext=(8, 0), textcoords="offset points",
                 ha="left", va="center", fontsize=8)
    ax2.set_xlim(-0.5, 0.8)
    ax2.set_xticks([0.0], [labels[1]])
    lim = max(2.0, 1.3 * abs(change))
    ax2.set_ylim(-lim, lim)
    ax2.axhline(0.0, color="black", lw=0.8, gid=f"{GUIDE}-zero")
    ax2.set_ylabel("change against (0, 1), %")
    ax2.set_title("the change", fontsize=9)
    fig.tight_layout()
    return fig


def describe_batch_sizes(sizes: list[int]) -> str:
    """Markdown stating where the largest batch falls and how the last batches shrink,
    computed from ``sizes`` (what notebook 08's prose says about its figure).

    >>> describe_batch_sizes([1, 4, 2, 1])[:52]
    '4 batches make 8 merges. The largest batch (4 merges'
    """
    total = sum(sizes)
    biggest = max(sizes)
    start = sizes.index(biggest)
    before = sum(sizes[:start])
    tail = sizes[-6:]
    return (f"{len(sizes)} batches make {total:,} merges. The largest batch ({biggest} merges) "
            f"starts after {100 * before / total:.0f} % of the merges. The last batches have "
            f"{', '.join(map(str, tail))} merges: near the end the cap `remaining // cap_divisor` "
            f"(here `remaining // 2`) binds, so each batch is at most half of what is left.")


def plot_token_lengths(hist: dict[int, int], ax) -> None:
    """Bar chart of token lengths in bytes."""
    ax.bar(list(hist), list(hist.values()))
    ax.set_xlabel("token length (bytes)")
    ax.set_ylabel("tokens")
