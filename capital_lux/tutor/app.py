"""The tutor's page: a language picker, the chapters and free play, built by ``build_app``."""

from __future__ import annotations

import logging
from html import escape
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as W

from ..i18n import LANGUAGE_NAMES, LANGUAGES, Translator, normalize_language, translator
from .chapters import ChapterView, chapters
from .panel import GamePanel
from .session import Session, available_bot_kinds
from .table import CSS

LOG = logging.getLogger("capital_lux.tutor")


def bot_kind_label(t: Translator, kind: str) -> str:
    if kind == "rule":
        return t.gettext("Rule of thumb (a sensible beginner)")
    if kind == "search":
        return t.gettext("Search (strong, slower)")
    return t.gettext("Random (plays any legal move)")


class FreePlay:
    """A whole game against 1-3 bots: settings, then the game panel."""

    def __init__(self, t: Translator, players: int, seed: int | None, bot_kind: str) -> None:
        self.t = t
        self.intro = W.HTML()
        self.players = W.Dropdown(options=[2, 3, 4], value=players, layout=W.Layout(width="auto"))
        self.players.add_class("cl-players")
        self.kinds = available_bot_kinds()
        self.strength = W.Dropdown(layout=W.Layout(width="auto"))
        self.strength.add_class("cl-strength")
        # Text, not a number field: a drawn seed has more digits than a browser's numbers keep.
        self.seed = W.Text(value="", layout=W.Layout(width="22em"))
        self.seed.add_class("cl-seed")
        self.seed_message = W.HTML()
        self._shown_seed = ""  # what the page put in the field: left as it is, it asks for a new seed
        self.new_game = W.Button(button_style="success", icon="play", layout=W.Layout(width="auto"))
        self.new_game.add_class("cl-new-game")
        self.new_game.on_click(lambda _: self.start())
        self.settings = W.HBox([self.players, self.strength, self.seed, self.new_game, self.seed_message],
                               layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self._relabel(bot_kind if bot_kind in self.kinds else self.kinds[0])
        self.panel = GamePanel(t, Session.new(players, seed, self.strength.value))
        self.panel.on_move.append(lambda panel, _action: self._show_seed())
        self._show_seed()
        self.box = W.VBox([self.intro, self.settings, self.panel.box])
        self.box.add_class("cl-freeplay")

    def _relabel(self, kind: str) -> None:
        t = self.t
        self.intro.value = (
            f'<div class="cl-note">{t.gettext("Play a whole game of three rounds against bots. You sit in seat 0.")}'
            "</div>"
        )
        self.players.description = t.gettext("Players")
        self.strength.description = t.gettext("Bots")
        self.seed.description = t.gettext("Seed")
        self.seed.placeholder = t.gettext("new and secret")
        self.new_game.description = t.gettext("New game")
        self.strength.options = [(bot_kind_label(t, k), k) for k in self.kinds]
        self.strength.value = kind

    def start(self) -> None:
        """A new game: with the seed the learner typed, else with a new secret one."""
        text = self.seed.value.strip()
        seed: int | None = None
        if text and text != self._shown_seed:
            if not (text.isascii() and text.isdigit() and len(text) <= 40):
                self.seed_message.value = '<span class="cl-error">{}</span>'.format(escape(self.t.gettext(
                    "A seed is a whole number of at most 40 digits; leave the field empty for a new game.")))
                return
            seed = int(text)
        self.seed_message.value = ""
        self.seed.value = ""
        self._shown_seed = ""
        self.panel.set_session(Session.new(int(self.players.value), seed, self.strength.value))
        self._show_seed()

    def _show_seed(self) -> None:
        """The game's seed, once it may be known: at the end, or at once if the learner chose it."""
        session = self.panel.session
        if session.seed_visible() and not self._shown_seed:
            self._shown_seed = self.seed.value = str(session.seed)

    def set_language(self, t: Translator) -> None:
        self.t = t
        self._relabel(self.strength.value)
        self.panel.set_language(t)


class TutorApp:
    """Holds the page's parts so that the language can change without losing any game."""

    def __init__(self, lang: str, players: int, seed: int | None, bot_kind: str) -> None:
        self.t = translator(lang)
        t = self.t
        self.title = W.HTML()
        self.language = W.Dropdown(
            options=[(LANGUAGE_NAMES[code], code) for code in LANGUAGES], value=t.lang, layout=W.Layout(width="auto")
        )
        self.language.add_class("cl-language")
        self.language.observe(lambda change: self.set_language(change["new"]), names="value")
        # Chapters are built when first opened: the page is ready sooner with fewer widgets.
        self.chapter_list = chapters()
        self.chapter_views: dict[int, ChapterView] = {}
        self.slots = [W.VBox() for _ in self.chapter_list]
        self.free_play = FreePlay(t, players, seed, bot_kind)
        # The two other apps (also notebooks of their own), reached from here, built when opened.
        self.extra_slots = {"exercises": W.VBox(), "whatif": W.VBox()}
        self.extras: dict[str, Any] = {}
        self.tabs = W.Tab(children=[*self.slots, self.free_play.box, *self.extra_slots.values()])
        self.tabs.selected_index = len(self.slots)  # free play first; the chapters are one click away
        self.tabs.add_class("cl-tabs")
        self.tabs.observe(lambda change: self.open_chapter(change["new"]), names="selected_index")
        style = W.HTML(CSS)
        self.root = W.VBox([style, W.HBox([self.title, self.language]), self.tabs])
        self.root.add_class("cl-tutor")
        self._label()
        self.root.add_class("cl-tutor-ready")  # browser tests wait for this

    def _label(self) -> None:
        t = self.t
        self.title.value = f"<h2 style='margin:4px 12px 4px 0'>{t.gettext('Capital Lux Tutor')}</h2>"
        self.language.description = t.gettext("Language")
        titles = [c.title(t) for c in self.chapter_list] + [t.gettext("Free play")]
        titles += [t.gettext("Probability exercises"), t.gettext("What if…")]
        for i, title in enumerate(titles):
            self.tabs.set_title(i, title)

    def open_chapter(self, index: int | None) -> ChapterView | None:
        """The chapter at tab ``index``, built on first use (None for the other tabs)."""
        extra = None if index is None else index - len(self.chapter_list) - 1
        if extra is not None and 0 <= extra < len(self.extra_slots):
            self.open_extra(list(self.extra_slots)[extra])
        if index is None or not 0 <= index < len(self.chapter_list):
            return None
        if index not in self.chapter_views:
            view = ChapterView(self.t, self.chapter_list[index])
            self.chapter_views[index] = view
            self.slots[index].children = (view.box,)
        return self.chapter_views[index]

    def open_extra(self, name: str) -> Any:
        """The probability exercises or the what-if explorer, built on first use."""
        if name not in self.extras:
            from .exercises_app import ExercisesApp
            from .whatif_app import WhatIfApp

            app = ExercisesApp(self.t.lang) if name == "exercises" else WhatIfApp(self.t.lang)
            app.language.layout.display = "none"  # the tutor's own picker drives it
            self.extras[name] = app
            self.extra_slots[name].children = (app.root,)
        return self.extras[name]

    def set_language(self, lang: str) -> None:
        self.t = translator(lang)
        self._label()
        for app in self.extras.values():
            app.language.value = self.t.lang
        for chapter in self.chapter_views.values():
            chapter.set_language(self.t)
        self.free_play.set_language(self.t)


def language_from_query(query: str, default: str = "en") -> str:
    """``lang=fr`` in a URL query string (Voila's ``QUERY_STRING``); the default otherwise."""
    values = parse_qs(query).get("lang", [])
    code = normalize_language(values[0]) if values else None
    return code or default


def options_from_query(query: str) -> dict[str, Any]:
    """``build_app`` arguments from a page's query: ``?lang=fr&players=4&seed=7&bots=random``.

    Anything missing or unreadable keeps its default, so a bad link still opens the tutor.
    """
    found = parse_qs(query)
    options: dict[str, Any] = {"lang": language_from_query(query)}
    for key, low, high in (("players", 2, 4), ("seed", 0, 10**9)):
        text = found.get(key, [""])[0]
        if text.isdigit() and low <= int(text) <= high:
            options[key] = int(text)
    bots = found.get("bots", [""])[0]
    if bots in available_bot_kinds():
        options["bot_kind"] = bots
    return options


def friendly_error(lang: str = "en") -> W.HTML:
    """What the page shows if the tutor cannot start: a sentence, never a traceback."""
    LOG.exception("the tutor could not start")
    t = translator(lang)
    text = t.gettext("Sorry, the tutor could not start. Please reload the page; if it happens again, "
                     "tell us what you did.")
    return W.HTML(f'<div class="cl-error" style="font:16px sans-serif">{escape(text)}</div>')


def build_app(
    lang: str = "en", players: int = 3, seed: int | None = None, bot_kind: str = "rule"
) -> W.VBox:
    """The tutor's root widget. ``seed=None`` draws a secret seed for the free game."""
    app = TutorApp(lang, players, seed, bot_kind)
    app.root._tutor = app  # tests and the notebook reach the parts through the root
    return app.root
