"""The tutor's page: a language picker, the chapters and free play, built by ``build_app``."""

from __future__ import annotations

import logging
from html import escape
from typing import Any, Callable
from urllib.parse import parse_qs

import ipywidgets as W

from ..engine.views import PlayerView
from ..i18n import Translator, normalize_language, translator
from .base import embed, label_picker, language_picker, page_root, tagged
from . import keep
from .chapters import ChapterView, chapters
from .panel import GamePanel
from .reviewpanel import ReviewPanel
from .session import Session, available_bot_kinds

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
        self.players = tagged(W.Dropdown(options=[2, 3, 4], value=players, layout=W.Layout(width="auto")), "cl-players")
        self.kinds = available_bot_kinds()
        self.strength = tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-strength")
        # Text, not a number field: a drawn seed has more digits than a browser's numbers keep.
        self.seed = tagged(W.Text(value="", layout=W.Layout(width="22em")), "cl-seed")
        self.seed_message = W.HTML()
        self._shown_seed = ""  # what the page put in the field: left as it is, it asks for a new seed
        self.new_game = W.Button(button_style="success", layout=W.Layout(width="auto"))
        self.new_game.add_class("cl-new-game")
        self.new_game.on_click(lambda _: self.start())
        self.settings = W.HBox([self.players, self.strength, self.seed, self.new_game, self.seed_message],
                               layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self._relabel(bot_kind if bot_kind in self.kinds else self.kinds[0])
        self.panel = GamePanel(t, Session.new(players, seed, self.strength.value))
        # Keeping the game across a reload (see ``keep``): the browser holds only the token.
        self.token = ""
        self.tag = W.HTML()
        self.token_in = tagged(W.Text(layout=W.Layout(display="none")), "cl-resume-token")
        self.token_in.observe(lambda change: self._offered(str(change["new"])), names="value")
        self.offer_text = W.HTML()
        self.resume_button = W.Button(button_style="info", layout=W.Layout(width="auto"))
        self.resume_button.add_class("cl-resume")
        self.resume_button.on_click(lambda _: self.resume())
        self.offer = W.VBox([self.offer_text, self.resume_button], layout=W.Layout(display="none"))
        self.offer.add_class("cl-resume-offer")
        self._kept: tuple[str, dict[str, Any]] | None = None
        self._cannot_keep = False  # the last attempt to keep the game failed: the page says so
        self.on_resume: list[Callable[[], None]] = []
        self.panel.on_move.append(lambda panel, action: self.keep())
        self.panel.on_move.append(lambda panel, _action: self._show_seed())
        self.panel.on_undo.append(lambda panel: self.keep())
        self.review = ReviewPanel()  # offered once the game is over
        self.panel.on_move.append(lambda panel, _action: self.review.show(self.t, panel.session))
        self.panel.on_undo.append(lambda panel: self.review.show(self.t, panel.session))
        self._show_seed()
        self.box = tagged(W.VBox([self.intro, self.settings, self.panel.box, self.review.box, self.token_in, self.tag]),
                          "cl-freeplay")

    def _relabel(self, kind: str) -> None:
        t = self.t
        self.intro.value = (
            f'<div class="cl-note">{t.gettext("Play a whole game of three rounds against bots. The bots are named Bot 1, Bot 2 and so on, in seat order after you.")}'
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
        self.review.show(self.t, self.panel.session)
        self._show_seed()
        self.keep()

    def _show_seed(self) -> None:
        """The game's seed, once it may be known: at the end, or at once if the learner chose it."""
        session = self.panel.session
        if session.seed_visible() and not self._shown_seed:
            self._shown_seed = self.seed.value = str(session.seed)

    # -- keeping the game -------------------------------------------------------------
    def keep(self) -> None:
        """Write the game where a reloaded page of this browser can find it again."""
        try:
            self.token = self.token or keep.new_token()
            keep.save(self.token, self.panel.session)
        except (keep.SavesError, OSError) as error:
            LOG.error("the free game could not be kept: %s", error)
            self._cannot_keep = True
            self.tag.value = self._cannot_keep_html()
            return
        self._cannot_keep = False
        over = self.panel.session.is_over()
        self.tag.value = f'<span class="cl-save-tag" data-cl-save="{"" if over else self.token}"></span>'

    def _cannot_keep_html(self) -> str:
        # the learner is told; the server's path and the reason go to its log, not to the page
        sorry = self.t.gettext("This game cannot be kept if the page is reloaded: the server cannot store saved "
                               "games. Your teacher can find why in the server's log.")
        return f'<div class="cl-note cl-cannot-keep" role="status">{escape(sorry)}</div>'

    def _offered(self, token: str) -> None:
        try:
            data = keep.load(token)
        except keep.SavesError as error:
            LOG.error("a kept game could not be looked for: %s", error)
            return
        if data is None or self.panel.session.moves:  # nothing kept, or a game is already under way
            return
        self._kept = (token, data)
        self.offer.layout.display = None

    def resume(self) -> None:
        if self._kept is None:
            return
        token, data = self._kept
        try:
            session = keep.resume(data)
        except Exception:
            LOG.exception("a kept game could not be resumed")
            sorry = self.t.gettext("Sorry, that game cannot be resumed; a new one is ready below.")
            self.offer_text.value = f'<div class="cl-error">{escape(sorry)}</div>'
            self.resume_button.layout.display = "none"
            self._kept = None
            return
        self.token, self._kept = token, None
        self.players.value = session.game.players
        if session.bot_kind in self.kinds:
            self.strength.value = session.bot_kind
        self.panel.set_session(session)
        self.review.show(self.t, session)
        self.seed.value = self._shown_seed = ""
        self._show_seed()
        self.offer.layout.display = "none"
        for listener in self.on_resume:
            listener()

    def set_language(self, t: Translator) -> None:
        self.t = t
        self._relabel(self.strength.value)
        self.panel.set_language(t)
        self.review.show(t, self.panel.session)
        self.offer_text.value = keep.offer_html(t.lang)
        self.resume_button.description = t.gettext("Resume my game")
        if self._cannot_keep:
            self.tag.value = self._cannot_keep_html()


class TutorApp:
    """Holds the page's parts so that the language can change without losing any game."""

    def __init__(self, lang: str, players: int, seed: int | None, bot_kind: str, opening: str = "setup") -> None:
        self.t = translator(lang)
        t = self.t
        self.title = W.HTML()
        self.language = language_picker(t, self.set_language)
        # Chapters are built when first opened: the page is ready sooner with fewer widgets.
        self.chapter_list = chapters()
        self.chapter_views: dict[int, ChapterView] = {}
        self.slots = [W.VBox() for _ in self.chapter_list]
        self.free_play = FreePlay(t, players, seed, bot_kind)
        # The two other apps (also notebooks of their own), reached from here, built when opened.
        # Until then each tab holds its heading and a loading line: the first opening imports the
        # analysis (a second or more), and a tab must never open blank.
        self.loading = {name: tagged(W.HTML(), "cl-loading") for name in ("exercises", "whatif")}
        self.extra_slots = {name: W.VBox([placeholder]) for name, placeholder in self.loading.items()}
        self.extras: dict[str, Any] = {}
        self.tabs = W.Tab(children=[*self.slots, self.free_play.box, *self.extra_slots.values()])
        # A newcomer starts at the start; a link that sets up a game (or says open=free) opens it.
        self.tabs.selected_index = len(self.slots) if opening == "free" else 0
        self.tabs.add_class("cl-tabs")
        self.tabs.observe(lambda change: self.open_chapter(change["new"]), names="selected_index")
        # The page script's liveness check: it writes a number into ``ping``; the kernel echoes it.
        self.ping = tagged(W.Text(layout=W.Layout(display="none")), "cl-ping")
        self.pong = W.HTML()
        self.ping.observe(lambda change: self._pong(str(change["new"])), names="value")
        self.root = page_root("tutor-page", [self.title, self.language], self.free_play.offer, self.tabs,
                              self.ping, self.pong)
        self.free_play.set_language(t)
        self.free_play.on_resume.append(lambda: setattr(self.tabs, "selected_index", len(self.slots)))
        self.free_play.review.open_position = self.open_in_whatif  # the review's key moments open here
        self._label()
        self.open_chapter(self.tabs.selected_index)
        self.root.add_class("cl-tutor-ready")  # browser tests wait for this

    def _pong(self, value: str) -> None:
        if value.isdigit() and len(value) <= 16:  # the page's clock in milliseconds, nothing else
            self.pong.value = f'<span data-cl-pong="{value}"></span>'

    def _label(self) -> None:
        t = self.t
        self.title.value = f"<h2 style='margin:4px 12px 4px 0'>{t.gettext('Capital Lux Tutor')}</h2>"
        label_picker(self.language, t)
        titles = [t.gettext(c.title) for c in self.chapter_list] + [t.gettext("Free play")]
        titles += [t.gettext("Probability exercises"), t.gettext("What if…")]
        for i, title in enumerate(titles):
            self.tabs.set_title(i, title)
        headings = {"exercises": t.gettext("Probability exercises"), "whatif": t.gettext("What if? Explore a position")}
        for name, placeholder in self.loading.items():
            placeholder.value = (f'<div role="status"><h2>{escape(headings[name])}</h2><p class="cl-note">'
                                 f'{escape(t.gettext("Loading this page, one moment please…"))}</p></div>')

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
            self.extras[name] = app
            self.extra_slots[name].children = (embed(app),)  # the tutor's own picker drives it
        return self.extras[name]

    def open_in_whatif(self, v: PlayerView, title: str, horizon: str | None = None, model: str | None = None) -> None:
        """Show the what-if explorer's tab with the table of ``v`` (a moment of the review, as
        the learner saw it), compared to the review's horizon with its opponent model."""
        self.open_extra("whatif").load_view(v, title, horizon, model)
        self.tabs.selected_index = len(self.slots) + 1 + list(self.extra_slots).index("whatif")

    def set_language(self, lang: str) -> None:
        self.t = translator(lang)
        self._label()
        for app in self.extras.values():
            app.set_language(self.t.lang)
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

    The page opens on the first chapter, or on free play with ``open=free`` or when the
    link sets up a free game (players, seed or bots).

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
    opening = found.get("open", [""])[0]
    if opening in ("free", "setup"):
        options["opening"] = opening
    elif any(key in options for key in ("players", "seed", "bot_kind")):
        options["opening"] = "free"  # the link sets up a free game: show it
    return options


def friendly_error(lang: str = "en") -> W.HTML:
    """What the page shows if the tutor cannot start: a sentence, never a traceback."""
    LOG.exception("the tutor could not start")
    t = translator(lang)
    text = t.gettext("Sorry, the tutor could not start. Please reload the page; if it happens again, "
                     "tell us what you did.")
    return W.HTML(f'<div class="cl-error" style="font:16px sans-serif">{escape(text)}</div>')


def build_app(
    lang: str = "en", players: int = 3, seed: int | None = None, bot_kind: str = "rule", opening: str = "setup"
) -> W.VBox:
    """The tutor's root widget, open on the first chapter (``opening="free"``: on free play).
    ``seed=None`` draws a secret seed for the free game."""
    app = TutorApp(lang, players, seed, bot_kind, opening)
    app.root._tutor = app  # tests and the notebook reach the parts through the root
    return app.root
