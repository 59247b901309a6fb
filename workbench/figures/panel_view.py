"""What an interactive panel shows, as widgets updated in place (UI only).

* :class:`PanelView` — one widget per item a panel's ``draw`` returned, updated step by
  step (a PNG replaced, a plotly graph changed by ``Plotly.react``, an unchanged item
  untouched), never by clearing and re-rendering the panel's whole output;
* :func:`render_outputs` — display bundles of what ``draw`` returned, rendered at once;
* :func:`widgets_drawn_live` — whether a live front end (JupyterLab, Voilà) draws the
  widgets, or they are only stored (nbconvert).

This module binds no control and runs no ``compute`` or ``draw`` (that is
:mod:`workbench.figures.panel`); the in-place plotly widget is
:mod:`workbench.figures.plotly_view`. ipywidgets, IPython, plotly and matplotlib are
imported only when a view is made or a figure rendered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["PanelView", "render_outputs", "widgets_drawn_live"]

_GLYPH_WARNING = r"Glyph \d+ .*missing from"


def render_outputs(items: Any) -> list[tuple[dict, dict]]:
    """Display bundles ``(data, metadata)`` of what ``draw`` returned, rendered now.

    Everything is formatted (matplotlib figures to PNG, plotly figures to their JSON,
    frames to HTML) before anything is shown, so a panel can swap its output in one go.
    matplotlib's missing-glyph warnings (emoji in a word) are silenced here: a box is
    drawn instead of the glyph and the reader sees no warning.
    """
    import warnings

    from matplotlib.figure import Figure

    bundles = []
    for item in (items.values() if isinstance(items, Mapping) else [items]):
        if item is None:
            continue
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=_GLYPH_WARNING)
            if isinstance(item, Figure):
                data, meta = _png_bundle(item)
            elif hasattr(item, "to_plotly_json"):  # not format_display_data: it would
                data, meta = _plotly_bundle(item)  # display plotly figures right away
            else:
                data, meta = _format_display_data(item)
        _close_pyplot(item)
        bundles.append((data, meta))
    return bundles


def _png_bundle(fig: Any) -> tuple[dict, dict]:
    """A matplotlib figure as a PNG display bundle (what the inline backend shows).

    The bundle is kept on the figure (``fig.workbench_png``), so a ``draw`` function that
    returns the same, unchanged figure object again (e.g. one that does not depend on the
    slider moved) costs no second rendering. Do not change a figure after showing it.
    """
    import base64
    import io
    import struct

    cached = getattr(fig, "workbench_png", None)
    if cached is not None:
        return cached
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    raw = buf.getvalue()
    width, height = struct.unpack(">II", raw[16:24])
    bundle = ({"image/png": base64.b64encode(raw).decode("ascii"), "text/plain": repr(fig)},
              {"image/png": {"width": width, "height": height}})
    fig.workbench_png = bundle
    return bundle


def _plotly_bundle(fig: Any) -> tuple[dict, dict]:
    """A plotly figure as the display bundle of plotly's mime renderer (what JupyterLab's
    plotly extension draws and ``make site`` turns into HTML), whatever
    ``plotly.io.renderers.default`` is.

    The bundle is made here, as plotly's ``plotly_mimetype`` renderer (without a config)
    makes it, not by that renderer: ``plotly.io.renderers`` imports nbformat, and with it
    jsonschema, whose format checkers take seconds to import (a kernel without a live
    front end, e.g. nbconvert's, pays that on its first figure).
    """
    import json

    import plotly.io as pio

    figure = json.loads(pio.to_json(fig, validate=False, remove_uids=False))
    return ({"application/vnd.plotly.v1+json": figure,
             "text/plain": f"<plotly figure: {len(fig.data)} traces>"}, {})


def _format_display_data(item: Any) -> tuple[dict, dict]:
    """IPython's display bundle of ``item``, by the running shell's formatter, or by a
    formatter of its own in a plain Python process (a script, pytest).

    Not ``IPython.core.formatters.format_display_data``: outside a shell it makes one
    (``InteractiveShell.instance()``), which puts its user module in
    ``sys.modules["__main__"]`` (``multiprocessing`` and Dask then fail) and stays.
    """
    from IPython import get_ipython
    from IPython.core.formatters import DisplayFormatter

    shell = get_ipython()
    formatter = shell.display_formatter if shell is not None else DisplayFormatter()
    return formatter.format(item)


def _publish(data: dict, meta: dict) -> None:
    """Publish a display bundle (into the ``Output`` widget being entered), or, in a plain
    Python process, print its text as ``IPython.display.display`` does there (not
    ``publish_display_data``: it would make a shell, see :func:`_format_display_data`)."""
    from IPython import get_ipython
    from IPython.display import publish_display_data

    if get_ipython() is None:
        print(data.get("text/plain", ""))
    else:
        publish_display_data(data, meta)


def _close_pyplot(item: Any) -> None:
    """Close a pyplot-managed figure so the inline backend does not show it twice."""
    from matplotlib.figure import Figure

    if isinstance(item, Figure):
        import matplotlib.pyplot as plt

        if plt.fignum_exists(getattr(item, "number", -1)):
            plt.close(item)


def _bundle_height(data: dict, meta: dict) -> int:
    """A generous pixel height estimate of one rendered output (for ``min_height``)."""
    png = meta.get("image/png", {}) if isinstance(meta.get("image/png"), dict) else {}
    if "height" in png:
        return int(png["height"]) + 10
    if "image/png" in data:
        import base64
        import struct

        raw = data["image/png"]
        raw = base64.b64decode(raw) if isinstance(raw, str) else raw
        return struct.unpack(">I", raw[20:24])[0] // (2 if meta.get("retina") else 1) + 10
    if "application/vnd.plotly.v1+json" in data:
        layout = data["application/vnd.plotly.v1+json"].get("layout", {})
        return int(layout.get("height") or 450) + 10
    return 200


class PanelView:
    """What a panel shows, as widgets updated in place (one slot per item ``draw`` returned).

    Text printed by ``draw`` goes to a ``<pre>`` above the items. A matplotlib figure is a
    PNG in an ``HTML`` widget whose value is replaced; a table (anything with an HTML form)
    an ``HTML`` widget; anything else an ``Output`` of its own. A plotly figure is an
    ``Output`` that first shows plotly's mime bundle (what JupyterLab, Voilà and a static
    page draw); when the figure changes, a :class:`~workbench.figures.plotly_view.PlotlyView`
    takes its place and every later change only updates that view's figure
    (``Plotly.react``: the graph is changed, not drawn anew). Not the view from the start:
    what a panel shows first is what ``make site`` stores, and a static page's widget
    manager cannot load anywidget; the price is one slower step, the first change. Where
    a live front end draws the widgets (:func:`widgets_drawn_live`: JupyterLab, Voilà), the
    slot starts as the view. An item that is the same object as the one shown before in its
    slot (``draw`` returned a cached figure: it does not depend on the control moved) is not
    touched. A slot whose kind changes (a sketch instead of a graph) gets a new widget.
    Plotly figures are updated after the other items: the page redraws a graph as its
    message arrives, and what is sent after it waits for that.
    """

    def __init__(self) -> None:
        import ipywidgets

        self.text = ipywidgets.HTML(value="", layout=ipywidgets.Layout(display="none"))
        self.text.add_class("workbench-text")
        self.children: tuple[Any, ...] = ()
        self.slots: list[dict[str, Any]] = []

    @property
    def widgets(self) -> dict[str, Any]:
        """The item widgets by the names ``draw`` gave them (``"figure"`` for a single one)."""
        return {slot["name"]: slot["widget"] for slot in self.slots}

    def show(self, shown: Any, text: str) -> int:
        """Update the widgets to ``draw``'s output and printed text; return an estimate of
        the height (px). :attr:`children` are the widgets to display, in order."""
        import html
        import warnings

        self.text.value = f"<pre>{html.escape(text.rstrip(chr(10)))}</pre>" if text else ""
        self.text.layout.display = None if text else "none"
        items = [(n, i) for n, i in (list(shown.items()) if isinstance(shown, Mapping)
                                      else [("figure", shown)]) if i is not None]
        kinds = [_kind(item) for _, item in items]
        # plotly figures last: the page redraws a changed one (Plotly.react) as its message
        # arrives, and a text or table sent after it would wait for that
        order = sorted(range(len(items)), key=lambda k: kinds[k] == "plotly")
        slots: list[dict[str, Any]] = [{}] * len(items)
        height = 22 * text.count("\n")
        for index in order:
            (name, item), kind = items[index], kinds[index]
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=_GLYPH_WARNING)
                old = self.slots[index] if index < len(self.slots) else None
                if old is not None and old["kind"] == kind and old["item"] is item:
                    slot = old
                elif old is not None and old["kind"] == kind:
                    slot = {**old, "name": name, "item": item, **_update(kind, old, item)}
                else:
                    slot = {"name": name, "kind": kind, "item": item, **_create(kind, item)}
            _close_pyplot(item)
            slots[index] = slot
            height += slot["height"]
        self.slots = slots
        self.children = (self.text, *(slot["widget"] for slot in slots))
        return height


def _kind(item: Any) -> str:
    from matplotlib.figure import Figure
    from plotly.basedatatypes import BaseFigure

    if isinstance(item, Figure):
        return "matplotlib"
    if isinstance(item, BaseFigure):
        return "plotly"
    return "other"


def _png_html(item: Any) -> tuple[str, int]:
    """A matplotlib figure as an ``<img>`` (its PNG inline, at the size the inline backend
    shows) and its height in pixels."""
    data, meta = _png_bundle(item)
    size = meta["image/png"]
    return (f'<img src="data:image/png;base64,{data["image/png"]}" width="{size["width"]}" '
            f'height="{size["height"]}" alt="figure">', int(size["height"]) + 10)


def widgets_drawn_live() -> bool:
    """Whether this kernel's widgets will be drawn by a live front end (JupyterLab,
    Notebook 7, Voilà), not only stored (nbconvert: ``make site``).

    True when the kernel was started for a Jupyter server session (the server sets
    ``JPY_SESSION_NAME``), by Voilà (it sets ``VOILA_PREHEAT``, pre-heated or not), or a
    front end has opened ipywidgets' control comm (``Widget._control_comm``, None until then).
    """
    import os

    from ipywidgets import Widget

    return (any(name in os.environ for name in ("JPY_SESSION_NAME", "VOILA_PREHEAT"))
            or Widget._control_comm is not None)


def _create(kind: str, item: Any) -> dict[str, Any]:
    """A new slot's widget for ``item`` (and what :func:`_update` needs to update it)."""
    import ipywidgets

    if kind == "plotly":
        from IPython.display import display

        from .plotly_view import PlotlyView, figure_json

        view = PlotlyView(item) if widgets_drawn_live() else None
        slot = {"widget": ipywidgets.Output(), "view": view, "json": figure_json(item),
                "height": int(item.layout.height or 450) + 10}
        with slot["widget"]:
            if view is not None:
                display(view)
            else:
                _publish(*_plotly_bundle(item))
    elif kind == "matplotlib":
        value, height = _png_html(item)
        slot = {"widget": ipywidgets.HTML(value=value), "height": height}
    else:
        slot = _other_slot(item, None)
    slot["widget"].add_class("workbench-item")
    slot["widget"].add_class(f"workbench-{kind}")
    return slot


def _update(kind: str, slot: dict[str, Any], item: Any) -> dict[str, Any]:
    """The changes to ``slot`` (its widget updated in place) for showing ``item``."""
    if kind == "plotly":
        from .plotly_view import PlotlyView, figure_json

        new, view = figure_json(item), slot["view"]
        if new != slot["json"]:
            if view is None:  # the first change: the in-place view replaces the bundle
                from IPython.display import display

                view = PlotlyView()
                view.figure = new
                slot["widget"].clear_output(wait=True)
                with slot["widget"]:
                    display(view)
            else:
                view.figure = new
        return {"json": new, "view": view, "height": int(item.layout.height or 450) + 10}
    if kind == "matplotlib":
        value, height = _png_html(item)
        if slot["widget"].value != value:
            slot["widget"].value = value
        return {"height": height}
    return _other_slot(item, slot["widget"])


def _other_slot(item: Any, widget: Any) -> dict[str, Any]:
    """A table as an ``HTML`` widget; anything else in an ``Output`` (``widget`` reused when
    it is of the right class)."""
    import ipywidgets

    data, meta = _format_display_data(item)
    if "text/html" in data:
        if not isinstance(widget, ipywidgets.HTML):
            widget = ipywidgets.HTML()
        if widget.value != data["text/html"]:
            widget.value = data["text/html"]
    else:
        if not isinstance(widget, ipywidgets.Output):
            widget = ipywidgets.Output()
        widget.clear_output(wait=True)
        with widget:
            _publish(data, meta)
    return {"widget": widget, "height": _bundle_height(data, meta)}
