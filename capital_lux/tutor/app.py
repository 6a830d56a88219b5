"""The tutor's page: a language picker, the chapters and free play, built by ``build_app``."""

from __future__ import annotations

import logging
from html import escape
from typing import TYPE_CHECKING, Callable, TypedDict
from urllib.parse import parse_qs

import ipywidgets as W

from ..engine.views import PlayerView
from ..i18n import Translator, translator
from ..engine.cards import N_
from .base import Page, embed, language_from_query, page_root, tagged
from . import keep
from .chapters import ChapterView, chapters
from .panel import GamePanel
from .reviewpanel import ReviewPanel
from .session import Session, available_bot_kinds, bot_kind_label

if TYPE_CHECKING:
    from .exercises_app import ExercisesApp
    from .whatif_app import WhatIfApp

LOG = logging.getLogger("capital_lux.tutor")


class FreePlay(Page):
    """A whole game against 1-3 bots: settings, then the game panel."""

    def __init__(self, t: Translator, players: int, seed: int | None, bot_kind: str) -> None:
        super().__init__(t)
        label = self.labels
        self.intro = label(W.HTML(), lambda t: f'<div class="cl-note">{t.gettext("Play a whole game of three rounds against bots. The bots are named Bot 1, Bot 2 and so on, in seat order after you.")}'
                                               "</div>", "value")
        self.players = label(tagged(W.Dropdown(options=[2, 3, 4], value=players, layout=W.Layout(width="auto")),
                                    "cl-players"), N_("Players"))
        self.kinds = available_bot_kinds()
        self.strength = label.choice(label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-strength"), N_("Bots")),
                                     lambda t: [(bot_kind_label(t, k), k) for k in self.kinds],
                                     bot_kind if bot_kind in self.kinds else self.kinds[0])
        # Text, not a number field: a drawn seed has more digits than a browser's numbers keep.
        self.seed = label(label(tagged(W.Text(value="", layout=W.Layout(width="22em")), "cl-seed"), N_("Seed")),
                          N_("new and secret"), "placeholder")
        self.seed_message = W.HTML()
        self._shown_seed = ""  # what the page put in the field: left as it is, it asks for a new seed
        self.new_game = label(tagged(W.Button(button_style="success", layout=W.Layout(width="auto")), "cl-new-game"),
                              N_("New game"))
        self.new_game.on_click(lambda _: self.start())
        self.settings = W.HBox([self.players, self.strength, self.seed, self.new_game, self.seed_message],
                               layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.relabel()  # the settings first: the game starts with the strength chosen
        self.panel = GamePanel(t, Session.new(players, seed, self.strength.value))
        # Keeping the game across a reload (see ``keep``): the browser holds only the token.
        self.token = ""
        self.tag = W.HTML()
        self.token_in = tagged(W.Text(layout=W.Layout(display="none")), "cl-resume-token")
        self.token_in.observe(lambda change: self._offered(str(change["new"])), names="value")
        self.offer_text = label(W.HTML(), lambda t: keep.offer_html(t.lang), "value")
        self.resume_button = label(tagged(W.Button(button_style="info", layout=W.Layout(width="auto")), "cl-resume"),
                                   N_("Resume my game"))
        self.resume_button.on_click(lambda _: self.resume())
        self.offer = tagged(W.VBox([self.offer_text, self.resume_button], layout=W.Layout(display="none")),
                            "cl-resume-offer")
        self._kept: tuple[str, keep.Kept] | None = None
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
        return keep.cannot_keep_html(self.t.lang)

    def _offered(self, token: str) -> None:
        self._kept = keep.offered(token, "", bool(self.panel.session.moves), self.offer) or self._kept

    def resume(self) -> None:
        if self._kept is None:
            return
        token, data = self._kept
        session = self.guard(lambda: keep.resume(data), N_("Sorry, that game cannot be resumed; a new one is ready below."),
                             self._cannot_resume, "a kept game could not be resumed")
        if session is None:
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

    def _cannot_resume(self, sorry: str) -> None:
        self.offer_text.value = f'<div class="cl-error">{escape(self.t.gettext(sorry))}</div>'
        self.resume_button.layout.display = "none"
        self._kept = None

    def render(self) -> None:
        self.panel.set_language(self.t)
        self.review.show(self.t, self.panel.session)
        if self._cannot_keep:
            self.tag.value = self._cannot_keep_html()


class TutorApp(Page):
    """Holds the page's parts so that the language can change without losing any game."""
    manual = "learner.html#the-tutors-pages"  # the part of the manual its help link opens

    def __init__(self, lang: str, players: int, seed: int | None, bot_kind: str, opening: str = "setup") -> None:
        super().__init__(lang)
        t, label = self.t, self.labels
        self.own_header(lambda t: f"<h2 style='margin:4px 12px 4px 0'>{t.gettext('Capital Lux Tutor')}</h2>")
        # Chapters are built when first opened: the page is ready sooner with fewer widgets.
        self.chapter_list = chapters()
        self.chapter_views: dict[int, ChapterView] = {}
        self.slots = [W.VBox() for _ in self.chapter_list]
        self.free_play = FreePlay(t, players, seed, bot_kind)
        # The two other apps (also notebooks of their own), reached from here, built when opened.
        # Until then each tab holds its heading and a loading line: the first opening imports the
        # analysis (a second or more), and a tab must never open blank.
        self.loading = {name: label(tagged(W.HTML(), "cl-loading"), loading_html(heading), "value")
                        for name, heading in LOADING.items()}
        self.extra_slots = {name: W.VBox([placeholder]) for name, placeholder in self.loading.items()}
        self.extras: dict[str, ExercisesApp | WhatIfApp] = {}
        self.tabs = label(W.Tab(children=[*self.slots, self.free_play.box, *self.extra_slots.values()]),
                          lambda t: tuple(t.gettext(title) for title in self._tab_titles()), "titles")
        # A newcomer starts at the start; a link that sets up a game (or says open=free) opens it.
        self.tabs.selected_index = len(self.slots) if opening == "free" else 0
        self.tabs.add_class("cl-tabs")
        self.tabs.observe(lambda change: self.open_chapter(change["new"]), names="selected_index")
        self.alive = keep.Liveness()  # the page script's check that this kernel still knows the page
        self.root = page_root("tutor-page", [self.title, self.language], self.free_play.offer, self.tabs,
                              *self.alive.widgets)
        self.free_play.set_language(t)
        self.free_play.on_resume.append(lambda: setattr(self.tabs, "selected_index", len(self.slots)))
        self.free_play.review.open_position = self.open_in_whatif  # the review's key moments open here
        self.relabel()
        self.open_chapter(self.tabs.selected_index)
        self.root.add_class("cl-tutor-ready")  # browser tests wait for this

    def _tab_titles(self) -> list[str]:
        return [c.title for c in self.chapter_list] + [N_("Free play"), N_("Probability exercises"), N_("What if…")]

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

    def open_extra(self, name: str) -> ExercisesApp | WhatIfApp:
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
        from .whatif_app import WhatIfApp

        app = self.open_extra("whatif")
        assert isinstance(app, WhatIfApp)
        app.load_view(v, title, horizon, model)
        self.tabs.selected_index = len(self.slots) + 1 + list(self.extra_slots).index("whatif")

    def render(self) -> None:
        """Every part built so far, in the page's language."""
        for app in self.extras.values():
            app.set_language(self.t.lang)
        for chapter in self.chapter_views.values():
            chapter.set_language(self.t)
        self.free_play.set_language(self.t)


#: The two pages built when first opened: the heading of each one's tab until then.
LOADING = {"exercises": N_("Probability exercises"), "whatif": N_("What if? Explore a position")}


def loading_html(heading: str) -> Callable[[Translator], str]:
    """A tab whose page is being built: its heading and a loading line, never blank."""
    return lambda t: (f'<div role="status"><h2>{escape(t.gettext(heading))}</h2><p class="cl-note">'
                      f'{escape(t.gettext("Loading this page, one moment please…"))}</p></div>')


class AppOptions(TypedDict, total=False):
    """``build_app``'s arguments, as a page's query gives them."""

    lang: str
    players: int
    seed: int
    bot_kind: str
    opening: str


def options_from_query(query: str) -> AppOptions:
    """``build_app`` arguments from a page's query: ``?lang=fr&players=4&seed=7&bots=random``.

    The page opens on the first chapter, or on free play with ``open=free`` or when the
    link sets up a free game (players, seed or bots).

    Anything missing or unreadable keeps its default, so a bad link still opens the tutor.
    """
    found = parse_qs(query)
    options: AppOptions = {"lang": language_from_query(query)}
    players, seed = found.get("players", [""])[0], found.get("seed", [""])[0]
    if players.isdigit() and 2 <= int(players) <= 4:
        options["players"] = int(players)
    if seed.isdigit() and 0 <= int(seed) <= 10**9:
        options["seed"] = int(seed)
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
