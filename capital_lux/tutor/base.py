"""The skeleton every page is built on, and what the pages share.

A page (``Page``) is built once, then only relabelled and redrawn:

- **build**: ``__init__`` makes the widgets, and writes each fixed label into the page's
  one table of labels (``self.labels``) as it makes the widget: an English msgid, or a
  function of the translator for a label with a glossary term, options or markup;
- **relabel**: ``relabel()`` says the whole table in the page's language in one loop
  (choices keep what is chosen, quietly: relabelling is not the learner choosing);
- **render**: ``render()`` draws what the page shows of its state, in the page's language;
- **one guard**: ``guard(work, sorry, say)`` runs a click's work; a failure shows the
  page's short sentence in the reader's language, never a traceback (that goes to the
  server's log).

``set_language(code or translator)`` is relabel then render: every part is said in the new
language in place, so nothing the learner did is lost. A page shown on its own has a
title and a language picker (``own_header``), and ``root``; one page shows another with
``embed`` (the tutor shows the exercises and the what-if explorer).

A page names the part of the manual that explains it (``manual = "learner.html#the-review"``,
a page and a heading's anchor); its title then carries a help link there (``help_link``).
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Protocol, Sequence, TypedDict, TypeVar, Union
from urllib.parse import parse_qs

import ipywidgets as W

from ..engine.cards import N_
from ..i18n import LANGUAGE_NAMES, LANGUAGES, Translator, normalize_language, translator
from ..lessons.table import CSS

if TYPE_CHECKING:  # the explorer's module is not one the first screen imports
    from ..lessons.whatif import UploadedFile

LOG = logging.getLogger("capital_lux.tutor")
ROW = {"flex_flow": "row wrap", "align_items": "center"}

Widget = TypeVar("Widget", bound=W.DOMWidget)
Result = TypeVar("Result")
Chooser = TypeVar("Chooser", W.Dropdown, W.SelectMultiple, W.ToggleButtons)
#: A label: an English msgid (marked ``N_``), or the label made from the translator.
Label = Union[str, Callable[[Translator], object]]


#: A ``FileUpload``'s value: the files the browser sent (none, or one: the pages take one).
Upload = Sequence["UploadedFile"]


class TextChange(TypedDict):
    """What ``observe`` hands a text field's handler."""

    owner: W.Text
    old: str
    new: str


def tagged(widget: Widget, css_class: str) -> Widget:
    """``widget`` with a CSS class, the handle the page's style and the browser tests use."""
    widget.add_class(css_class)
    return widget


class Choice:
    """A choice whose options are labels (``options(t)``: (label, value) pairs): relabelled,
    it keeps the value chosen (``fallback`` when none is)."""

    def __init__(self, widget: W.Dropdown | W.SelectMultiple | W.ToggleButtons,
                 options: Callable[[Translator], Sequence[tuple[str, object]]], fallback: object = None) -> None:
        self.widget, self.options, self.fallback = widget, options, fallback

    def relabel(self, t: Translator) -> None:
        chosen = self.widget.value if self.widget.value is not None else self.fallback
        self.widget.options = self.options(t)
        if chosen is not None:
            self.widget.value = chosen


class Labels:
    """A page's one table of labels: each widget's attribute and what it says."""

    def __init__(self) -> None:
        self.rows: list[tuple[W.Widget, str, Label]] = []
        self.choices: list[Choice] = []

    def __call__(self, widget: Widget, label: Label, attribute: str = "description") -> Widget:
        """``widget``, its ``attribute`` said as ``label`` in every language from now on."""
        self.rows.append((widget, attribute, label))
        return widget

    def choice(self, widget: Chooser, options: Callable[[Translator], Sequence[tuple[str, object]]],
               fallback: object = None) -> Chooser:
        """``widget``'s options said in every language, keeping the value chosen (else ``fallback``)."""
        self.choices.append(Choice(widget, options, fallback))
        return widget

    def say(self, t: Translator) -> None:
        for widget, attribute, label in self.rows:
            setattr(widget, attribute, t.gettext(label) if isinstance(label, str) else label(t))
        for choice in self.choices:
            choice.relabel(t)


def guarded(work: Callable[[], Result], failed: Callable[[], None], what: str) -> Result | None:
    """The one guard: what ``work`` returns, or None after ``failed()`` if it raised (the
    traceback goes to the server's log as ``what``, never to the page)."""
    try:
        return work()
    except Exception:  # a friendly message for the reader, the details for the server log
        LOG.exception(what)
        failed()
        return None


def as_translator(language: str | Translator) -> Translator:
    return language if isinstance(language, Translator) else translator(language)


class Page:
    """The skeleton of a page: build, relabel from one table of labels, render, one guard."""

    #: The manual's page and heading that explain this page (``"teacher.html#the-teachers-page"``).
    manual = ""

    def __init__(self, language: str | Translator) -> None:
        self.t = as_translator(language)
        self.labels = Labels()
        self._quiet = False

    # -- the skeleton ------------------------------------------------------------------------
    def relabel(self) -> None:
        """Every label of the table in the page's language (a page adds those it draws itself)."""
        with self.quietly():
            self.labels.say(self.t)

    def render(self) -> None:
        """What the page shows of its state, drawn again in its language (nothing, by default)."""

    def set_language(self, language: str | Translator) -> None:
        """The page in another language, in place: nothing the learner did is lost."""
        self.t = as_translator(language)
        self.relabel()
        self.render()

    def guard(self, work: Callable[[], Result], sorry: str, say: Callable[[str], None],
              what: str = "tutor action failed") -> Result | None:
        """What ``work`` returns; if it fails, None, the page's ``say`` shows the msgid ``sorry``
        (in the reader's language: kept as a msgid where the page says it again in another),
        and the details go to the server's log as ``what``."""
        return guarded(work, lambda: say(sorry), what)

    # -- its parts ---------------------------------------------------------------------------
    @contextmanager
    def quietly(self) -> Iterator[None]:
        """Widgets set by the page, not by the learner: ``heard`` handlers do not run."""
        before, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = before

    def heard(self, handler: Callable[[], None]) -> Callable[[object], None]:
        """``handler`` for a widget's change made by the learner (not while the page is quiet)."""
        return lambda change: None if self._quiet else handler()

    def own_header(self, title: Label) -> W.HTML:
        """A page shown on its own: its title (said from ``title``), with the link to its part of
        the manual, and its language picker."""
        def said(t: Translator) -> str:
            return f"{t.gettext(title) if isinstance(title, str) else title(t)}{help_link(self.manual, t)}"
        self.title = self.labels(W.HTML(), said, "value")
        self.language = self.labels(language_picker(self.t, self.set_language), LANGUAGE_LABEL)
        return self.title


#: The picker's label.
LANGUAGE_LABEL = N_("Language")


class Shown(Protocol):
    language: W.Dropdown
    root: W.VBox

    def set_language(self, language: str | Translator) -> None: ...


#: Where the help links lead: a copy of the manual at this address (a school's own site), else
#: the manual the class server serves at ``/manual/`` once ``make docs`` has built it.
MANUAL_VARIABLE = "CAPITAL_LUX_MANUAL"
#: The manual ``make docs`` builds beside the package (its French guides under ``fr/``).
BUILT_MANUAL = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"
#: Where the class server serves it, from a page at ``…/voila/render/NAME.ipynb`` or at the root.
SERVED_MANUAL = "../../manual/"
#: The guides translated (``docs/locale``), and each guide's link text.
TRANSLATED_GUIDES = {"fr": ("learner", "teacher")}
GUIDE_LINKS = {"learner": N_("Help: the learner’s guide"), "teacher": N_("Help: the teacher’s guide"),
               "capitol": N_("Help: Capitol’s rules and rulings")}


def manual_url(section: str, lang: str) -> str | None:
    """The address of ``section`` (``"learner.html#the-review"``) in the manual, in ``lang``
    where that guide is translated; None where there is no manual to link to.

    >>> os.environ[MANUAL_VARIABLE] = "https://docs.example.org/capital-lux/"
    >>> manual_url("teacher.html#exports", "fr"), manual_url("teacher.html#exports", "es")
    ('https://docs.example.org/capital-lux/fr/teacher.html#exports', 'https://docs.example.org/capital-lux/teacher.html#exports')
    >>> del os.environ[MANUAL_VARIABLE]
    """
    base = os.environ.get(MANUAL_VARIABLE, "").strip()
    if not base:
        if not (BUILT_MANUAL / "index.html").exists():
            return None
        base = SERVED_MANUAL
    guide = section.split(".html", 1)[0]
    translated = guide in TRANSLATED_GUIDES.get(lang, ())
    return f"{base.rstrip('/')}/{lang + '/' if translated else ''}{section}"


def help_link(section: str, t: Translator) -> str:
    """The page's help link (HTML, opening in a tab of its own), or nothing."""
    url = manual_url(section, t.lang) if section else None
    if url is None:
        return ""
    text = GUIDE_LINKS.get(section.split(".html", 1)[0], GUIDE_LINKS["learner"])
    return (f"<a class='cl-manual-link' href='{escape(url)}' target='_blank' rel='noopener' "
            f"style='text-decoration:underline'>{escape(t.gettext(text))}</a>")  # a link by its line, not colour alone


def language_from_query(query: str, default: str = "en") -> str:
    """``lang=fr`` in a URL query string (Voila's ``QUERY_STRING``); the default otherwise."""
    values = parse_qs(query).get("lang", [])
    code = normalize_language(values[0]) if values else None
    return code or default


def language_picker(t: Translator, on_change: Callable[[str], None]) -> W.Dropdown:
    """The language dropdown (each language in its own name); ``on_change`` gets the code."""
    picker = W.Dropdown(options=[(LANGUAGE_NAMES[code], code) for code in LANGUAGES], value=t.lang,
                        layout=W.Layout(width="auto"))
    picker.add_class("cl-language")
    picker.observe(lambda change: on_change(str(change["new"])), names="value")
    picker.description = t.gettext(LANGUAGE_LABEL)
    return picker


def page_root(kind: str, header: Sequence[W.Widget], *parts: W.Widget) -> W.VBox:
    """The page's root: its style, a header row (title, picker, …), then its parts."""
    root = W.VBox([W.HTML(CSS), W.HBox(list(header), layout=W.Layout(**ROW)), *parts])
    root.add_class("cl-tutor")
    root.add_class(f"cl-{kind}")
    return root


def embed(page: Shown) -> W.VBox:
    """A page shown inside another: its own picker leaves the page (the host's drives it
    through ``set_language``)."""
    page.language.layout.display = "none"
    return page.root
