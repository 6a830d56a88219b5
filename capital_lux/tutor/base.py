"""What the three pages share: a language picker, a root box with the page's style, and
embedding one page in another (the tutor shows the exercises and the what-if explorer).

A page has ``language`` (its picker), ``root`` and ``set_language(code)``, which relabels
every part in place so nothing the learner did is lost.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence, TypeVar

import ipywidgets as W

from ..i18n import LANGUAGE_NAMES, LANGUAGES, Translator
from ..lessons.table import CSS

ROW = {"flex_flow": "row wrap", "align_items": "center"}

Widget = TypeVar("Widget", bound=W.DOMWidget)


def tagged(widget: Widget, css_class: str) -> Widget:
    """``widget`` with a CSS class, the handle the page's style and the browser tests use."""
    widget.add_class(css_class)
    return widget


class Page(Protocol):
    language: W.Dropdown
    root: W.VBox

    def set_language(self, lang: str) -> None: ...


def language_picker(t: Translator, on_change: Callable[[str], None]) -> W.Dropdown:
    """The language dropdown (each language in its own name); ``on_change`` gets the code."""
    picker = W.Dropdown(options=[(LANGUAGE_NAMES[code], code) for code in LANGUAGES], value=t.lang,
                        layout=W.Layout(width="auto"))
    picker.add_class("cl-language")
    picker.observe(lambda change: on_change(str(change["new"])), names="value")
    label_picker(picker, t)
    return picker


def label_picker(picker: W.Dropdown, t: Translator) -> None:
    picker.description = t.gettext("Language")


def page_root(kind: str, header: Sequence[W.Widget], *parts: W.Widget) -> W.VBox:
    """The page's root: its style, a header row (title, picker, …), then its parts."""
    root = W.VBox([W.HTML(CSS), W.HBox(list(header), layout=W.Layout(**ROW)), *parts])
    root.add_class("cl-tutor")
    root.add_class(f"cl-{kind}")
    return root


def embed(page: Page) -> W.VBox:
    """A page shown inside another: its own picker leaves the page (the host's drives it
    through ``set_language``)."""
    page.language.layout.display = "none"
    return page.root
