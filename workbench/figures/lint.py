"""The figure linter: what makes a notebook figure hard to read, one sentence per problem.

:func:`readability_problems` checks a matplotlib figure (drawn once, off screen, to measure
text) or a plotly figure for empty axes, hidden series, missing legends, overlapping labels
and bars whose value axis does not start at zero. :data:`GUIDE` and :data:`ZOOMED` are the
two marks it honours (a guide is not a data series; a zoomed value axis is deliberate).
The tests of every notebook's figures call it; :mod:`.common` re-exports it.

This module draws nothing, checks no argument (beyond the figure's type) and does not fix a
figure: it only names what is wrong with it.

Example
-------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots()
>>> _ = ax.plot([0, 1], [0, 1], label="data")
>>> readability_problems(fig)
[]
>>> plt.close(fig)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import Collection, PathCollection
from matplotlib.container import BarContainer
from matplotlib.figure import FigureBase
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle, StepPatch
from matplotlib.path import Path as MplPath
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from .._core.errors import ArgumentTypeError

__all__ = ["GUIDE", "ZOOMED", "readability_problems"]

GUIDE = "guide"
"""The ``gid`` (or gid prefix) of a guide: a separator, grid or reference mark that is not a
data series. :func:`readability_problems` neither asks a guide for a legend entry nor
counts it as visible data."""

ZOOMED = "zoomed"
"""The word that marks a bar chart's value axis as deliberately not starting at 0: put it in
the axis title or in the value axis' label (``"share (zoomed)"``)."""

_MIN_PX = 2.0  # a series narrower or lower than this many pixels is not seen


def readability_problems(fig: Any) -> list[str]:
    """What makes ``fig`` hard to read at its current size, one sentence per problem.

    Checked on a matplotlib figure (drawn once, off screen, to measure text):

    * **empty axis** — an axis (turned on, not a colour bar) whose data series draw nothing
      inside its limits, or whose every series is hidden (all its mass in bars narrower than
      2 px, e.g. one bin under the y-axis, or zero-height bars);
    * **hidden series** — one data series of an axis that draws nothing visible while its
      values are not all zero;
    * **missing legend** — an axis with two or more data series where a series has no label,
      or its label is neither in a legend (the axis' or the figure's) nor written as a text
      on the axis;
    * **overlapping tick labels** — two tick labels of one axis whose rendered extents
      intersect;
    * **bars off zero** — bars (``ax.bar``, ``ax.hist``, filled ``ax.stairs``) on a linear
      value axis whose limits exclude 0, unless the axis is marked :data:`ZOOMED`;
    * **overlapping texts** — two texts of the figure (``ax.text``, annotations, titles,
      ``fig.text``) whose rendered extents intersect.

    Guides (artists whose gid starts with :data:`GUIDE`; plotly traces whose ``meta`` is
    :data:`GUIDE`) are not data series; an artist whose gid is ``"<g>/<part>"`` (a band,
    the points of a line) belongs to the series whose gid is ``g``. Diagrams (plotly axes
    whose x and y axes are both hidden) need no legend. Axes turned off (diagrams, message
    panels) are checked for overlapping texts only; a twin axis (``ax.twiny()``: no data,
    laid exactly over another axis) only for its ticks.

    A plotly figure is checked without a renderer: empty traces, two or more traces on one
    pair of axes where a trace is neither in a shown legend nor keyed by an annotation
    whose ``name`` is the trace's name or ``legendgroup`` (a direct label), bars whose
    value range excludes 0 (unless the title says :data:`ZOOMED`) and log axes with no
    explicit ``tickvals`` or ``dtick`` (plotly's default log ticks ``2, 5`` read as
    ambiguous). Overlapping texts are not measured for plotly.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or plotly.graph_objects.Figure

    Returns
    -------
    list of str
        Empty when nothing was found.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(3, 2)); ax = fig.subplots()
    >>> _ = ax.plot([0, 1], [0, 1], label="a"); _ = ax.plot([0, 1], [1, 0]); _ = ax.legend()
    >>> readability_problems(fig)
    ['axis 0: 2 series but no legend entry for an unlabelled Line2D']
    """
    if isinstance(fig, FigureBase):
        return _once(_mpl_problems(fig))
    import plotly.graph_objects as go

    if isinstance(fig, go.Figure):
        return _once(_plotly_problems(fig))
    raise ArgumentTypeError(f"fig must be a matplotlib or plotly figure, not {type(fig).__name__}")


def _once(problems: list[str]) -> list[str]:
    """Each problem once, in order, with ``(× k)`` when it was found ``k > 1`` times."""
    counts: dict[str, int] = {}
    for p in problems:
        counts[p] = counts.get(p, 0) + 1
    return [p if k == 1 else f"{p} (× {k})" for p, k in counts.items()]


def _is_guide(artist: Any) -> bool:
    gid = artist.get_gid()
    return isinstance(gid, str) and gid.startswith(GUIDE)


def _label(artist: Any) -> str:
    label = artist.get_label()
    return "" if not isinstance(label, str) or label.startswith("_") else label


def _series(ax: Axes) -> list[tuple[Any, list[Any]]]:
    """The data series of ``ax``: (the artist carrying the label, the artists drawing it)."""
    series: list[tuple[Any, list[Any]]] = []
    owned: set[int] = set()
    for container in ax.containers:
        parts = [a for a in container.get_children() if a is not None]
        owned.update(id(a) for a in parts)
        if parts and not all(_is_guide(a) for a in parts):
            series.append((container, parts))
    parts_of: dict[str, list[Any]] = {}
    for artist in [*ax.lines, *ax.patches, *ax.collections, *ax.images]:
        if id(artist) in owned or _is_guide(artist) or not artist.get_visible():
            continue
        gid = artist.get_gid()
        if isinstance(gid, str) and "/" in gid:  # "<series gid>/band": part of that series
            parts_of.setdefault(gid.split("/", 1)[0], []).append(artist)
            continue
        series.append((artist, [artist]))
    by_gid = {parts[0].get_gid(): parts for _, parts in series if parts[0].get_gid()}
    for parent, extra in parts_of.items():
        if parent in by_gid:
            by_gid[parent].extend(extra)
        else:
            series.append((extra[0], extra))
    return series


def _pixel_box(ax: Axes) -> Bbox:
    box = ax.get_window_extent()
    return Bbox.from_extents(box.x0 + 0.5, box.y0 + 0.5, box.x1 - 0.5, box.y1 - 0.5)


def _nonzero(artist: Any) -> bool:
    if isinstance(artist, StepPatch):
        return bool(np.any(np.nan_to_num(np.asarray(artist.get_data().values, float)) != 0))
    if isinstance(artist, Rectangle):
        return artist.get_width() != 0 and artist.get_height() != 0
    return True


def _visible(artist: Any, box: Bbox) -> bool:
    """Whether ``artist`` draws at least ``_MIN_PX`` inside ``box`` (display pixels)."""
    if isinstance(artist, StepPatch):  # the non-zero steps, not the whole outline
        return _step_visible(artist, box)
    if isinstance(artist, Patch):
        if not _nonzero(artist):
            return False
        cut = Bbox.intersection(artist.get_window_extent(), box)
        return cut is not None and cut.width >= _MIN_PX and cut.height >= _MIN_PX
    if isinstance(artist, Line2D):
        return _line_visible(artist, box)
    if isinstance(artist, Collection):
        return _collection_visible(artist, box)
    return True  # images and anything else drawn: trusted


def _step_visible(artist: StepPatch, box: Bbox) -> bool:
    """A step histogram's non-zero steps span at least ``_MIN_PX`` inside ``box``."""
    data = artist.get_data()
    values = np.nan_to_num(np.asarray(data.values, float))
    edges = np.asarray(data.edges, float)
    baseline = data.baseline if data.baseline is not None else 0.0
    vertical = artist.orientation == "vertical"
    keep = values != (0.0 if data.baseline is None else np.asarray(baseline, float))
    if not artist.get_fill() and data.baseline is None:
        keep = np.isfinite(values)
    width = 0.0
    transform = artist.get_transform()
    for lo, hi, v in zip(edges[:-1][keep], edges[1:][keep], values[keep]):
        base = float(np.max(baseline)) if np.ndim(baseline) else float(baseline)
        if not np.isfinite(base):
            base = v
        corners = [(lo, base), (hi, v)] if vertical else [(base, lo), (v, hi)]
        (x0, y0), (x1, y1) = transform.transform(corners)
        part = Bbox.from_extents(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        if not artist.get_fill():  # a line: its length counts, it has no thickness
            part = Bbox.from_extents(part.x0, part.y0 - 1, part.x1, part.y1 + 1)
        cut = Bbox.intersection(part, box)
        if cut is not None and (cut.height if vertical else cut.width) >= 1:
            width += cut.width if vertical else cut.height
    return width >= _MIN_PX


def _line_visible(artist: Line2D, box: Bbox) -> bool:
    """A line crosses ``box``, or one of its markers lies inside it."""
    path = artist.get_transform().transform_path(artist.get_path())
    finite = path.vertices[np.all(np.isfinite(path.vertices), axis=1)]
    if finite.size == 0:
        return False
    if artist.get_marker() not in (None, "", "None", " ", "none"):
        inside = ((finite[:, 0] >= box.x0) & (finite[:, 0] <= box.x1)
                  & (finite[:, 1] >= box.y0) & (finite[:, 1] <= box.y1))
        if inside.any():
            return True
    return len(finite) > 1 and MplPath(finite).intersects_bbox(box, filled=False)


def _collection_visible(artist: Collection, box: Bbox) -> bool:
    """A collection's paths (without offsets) cross ``box``, or an offset point lies in it."""
    offsets = np.asarray(artist.get_offsets(), float)
    if len(artist.get_paths()) and (offsets.size == 0 or (
            offsets.shape[0] == 1 and not isinstance(artist, PathCollection))):
        for path in artist.get_paths():
            disp = artist.get_transform().transform_path(path)
            if len(disp.vertices) and disp.intersects_bbox(box, filled=True):
                return True
        return False
    if offsets.size == 0:
        return False
    pts = artist.get_offset_transform().transform(offsets)
    inside = ((pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1)
              & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1))
    return bool(inside.any())


def _overlaps(boxes: list[tuple[str, Bbox]], slack: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes intersect by more than ``slack`` pixels both ways."""
    if len(boxes) < 2:
        return []
    ext = np.array([[b.x0, b.y0, b.x1, b.y1] for _, b in boxes], dtype=float)
    w = np.minimum(ext[:, None, 2], ext[None, :, 2]) - np.maximum(ext[:, None, 0], ext[None, :, 0])
    h = np.minimum(ext[:, None, 3], ext[None, :, 3]) - np.maximum(ext[:, None, 1], ext[None, :, 1])
    i, j = np.nonzero(np.triu((w > slack) & (h > slack), k=1))
    return [(boxes[a][0], boxes[b][0]) for a, b in zip(i.tolist(), j.tolist())]


def _tick_boxes(axis: Any) -> list[tuple[str, Bbox]]:
    lo, hi = sorted(axis.get_view_interval())
    boxes = []
    for ticks in (axis.get_major_ticks(), axis.get_minor_ticks()):
        for tick in ticks:
            if not (lo - 1e-9 * abs(hi - lo) <= tick.get_loc() <= hi + 1e-9 * abs(hi - lo)):
                continue
            for label in (tick.label1, tick.label2):
                if label.get_visible() and label.get_text().strip():
                    boxes.append((label.get_text(), label.get_window_extent()))
    return boxes


def _mpl_problems(fig: FigureBase) -> list[str]:
    fig.draw_without_rendering()  # lays out the figure so that text extents are final
    problems: list[str] = []
    texts: list[tuple[str, Bbox]] = []
    fig_box = fig.bbox
    for t in fig.texts:  # fig.suptitle is one of them
        if t.get_visible() and t.get_text().strip():
            texts.append((t.get_text(), t.get_window_extent()))
    for k, ax in enumerate(fig.axes):
        if not ax.get_visible() or ax.get_label() == "<colorbar>":
            continue
        name = f"axis {k}" + (f" ({ax.get_title()!r})" if ax.get_title() else "")
        for t in [c for c in ax.get_children() if isinstance(c, Text)]:  # titles, texts
            if t.get_visible() and t.get_text().strip():
                box = t.get_window_extent()
                if Bbox.intersection(box, fig_box) is not None:
                    texts.append((t.get_text(), box))
        if not ax.axison:
            continue
        series = _series(ax)
        problems += _series_problems(fig, ax, name, series)
        if len(series) >= 2:
            problems += _legend_problems(fig, ax, name, series)
        for axis_name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            for a, b in _overlaps(_tick_boxes(axis)):
                problems.append(f"{name}: {axis_name} tick labels {a!r} and {b!r} overlap")
        problems.extend(_bars_off_zero(ax, name))
    for a, b in _overlaps(texts):
        problems.append(f"texts {a!r} and {b!r} overlap")
    return problems


def _series_problems(fig: FigureBase, ax: Axes, name: str,
                     series: list[tuple[Any, list[Any]]]) -> list[str]:
    """An axis with no visible data (a twin axis without series aside), or a series of
    non-zero values that draws nothing visible."""
    box = _pixel_box(ax)
    shown = [any(_visible(a, box) for a in parts) for _, parts in series]
    twin = not series and any(
        other is not ax and np.allclose(other.get_position().bounds, ax.get_position().bounds)
        for other in fig.axes)
    if twin:
        return []
    if not any(shown):
        return [f"{name}: no visible data inside its limits"]
    problems = []
    for (owner, parts), seen in zip(series, shown):
        if not seen and any(_nonzero(a) for a in parts):
            what = _label(owner) or parts[0].get_gid() or type(owner).__name__
            problems.append(f"{name}: series {what!r} draws nothing visible "
                            f"(all of it outside the limits or under an axis)")
    return problems


def _legend_problems(fig: FigureBase, ax: Axes, name: str,
                     series: list[tuple[Any, list[Any]]]) -> list[str]:
    """Series without a label, or whose label is neither in a legend nor written."""
    legend_texts = {t.get_text() for leg in [ax.get_legend(), *fig.legends]
                    if leg is not None for t in leg.get_texts()}
    written = {t.get_text().strip() for t in ax.texts}
    problems = []
    for owner, _ in series:
        label = _label(owner)
        if not label:
            problems.append(f"{name}: {len(series)} series but no legend entry for "
                            f"an unlabelled {type(owner).__name__}")
        elif label not in legend_texts and label not in written:
            problems.append(f"{name}: series {label!r} is not in a legend")
    return problems


def _bars_off_zero(ax: Axes, name: str) -> list[str]:
    orientations = set()
    for container in ax.containers:
        if isinstance(container, BarContainer) and not all(map(_is_guide, container)):
            orientations.add(container.orientation or "vertical")
    for patch in ax.patches:
        if isinstance(patch, StepPatch) and patch.get_fill() and not _is_guide(patch):
            orientations.add(patch.orientation)
    problems = []
    for orientation in sorted(orientations):
        axis = ax.yaxis if orientation == "vertical" else ax.xaxis
        if axis.get_scale() != "linear":
            continue
        marks = (ax.get_title(), axis.get_label().get_text())
        if any(ZOOMED in m.lower() for m in marks):
            continue
        lo, hi = sorted(axis.get_view_interval())
        if not lo <= 0 <= hi:
            problems.append(f"{name}: bars on a value axis from {lo:g} to {hi:g}, not from 0 "
                            f"(start at 0 or mark the axis {ZOOMED!r})")
    return problems


def _plotly_problems(fig: Any) -> list[str]:
    problems: list[str] = []
    layout = fig.layout
    title = (layout.title.text or "") if layout.title else ""
    keyed = {a.name for a in layout.annotations if a.name and a.text}
    by_axes: dict[tuple[str, str], list[Any]] = {}
    for trace in fig.data:
        if trace.meta == GUIDE or trace.visible is False:
            continue
        xaxis = trace.xaxis if "xaxis" in trace else None
        yaxis = trace.yaxis if "yaxis" in trace else None
        by_axes.setdefault((xaxis or "x", yaxis or "y"), []).append(trace)
        values = trace.y if "y" in trace and trace.y is not None else trace.x
        vals = np.asarray(values if values is not None else [], dtype=float).ravel()
        if not np.any(np.isfinite(vals)):
            problems.append(f"trace {trace.name or trace.type!r} has no finite data")
    for (xa, ya), traces in by_axes.items():
        diagram = (layout["xaxis" + xa[1:]].visible is False
                   and layout["yaxis" + ya[1:]].visible is False)
        if len(traces) >= 2 and not diagram:
            for trace in traces:
                in_legend = (layout.showlegend is not False and bool(trace.name)
                             and trace.showlegend is not False)
                group = trace.legendgroup if "legendgroup" in trace else None
                if not (in_legend or trace.name in keyed or group in keyed):
                    problems.append(f"axes {xa}/{ya}: {len(traces)} traces but trace "
                                    f"{trace.name or trace.type!r} has no legend entry")
        for trace in traces:
            if trace.type == "bar":
                value_axis = layout[("xaxis" if trace.orientation == "h" else "yaxis")
                                    + (xa if trace.orientation == "h" else ya)[1:]]
                rng = value_axis.range
                if (value_axis.type in (None, "-", "linear") and rng is not None
                        and not min(rng) <= 0 <= max(rng) and ZOOMED not in title.lower()):
                    problems.append(f"axes {xa}/{ya}: bars on a value range {list(rng)}, "
                                    f"not from 0")
    for key in layout:
        if key.startswith(("xaxis", "yaxis")):
            axis = layout[key]
            if axis.type == "log" and axis.tickvals is None and axis.dtick is None:
                problems.append(f"{key}: log axis with plotly's default ticks (set tickvals "
                                f"or dtick)")
    return problems
