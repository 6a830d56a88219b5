"""The what-if explorer: load a position, edit it, compare every legal move, play on, export.

``build_app(lang="fr")`` returns the page's root widget (``root._whatif`` is the
``WhatIfApp``). A position comes from the gallery (the rulebook's examples and a few
instructive moments), from pasted JSON or from an uploaded file. Edits are applied
to the position file's form and accepted only if ``position_from_dict`` accepts the
result: a refused edit shows the ``PositionError`` message and changes nothing.
The table is drawn from one player's view; moves are compared from the view of the
player to move with the one ranking (``forward.rank_moves``, to the round's end or the
game's), so no estimate uses hidden cards.
"""

from __future__ import annotations

import base64
import concurrent.futures
import random
from html import escape
from typing import Callable

import ipywidgets as W

from ..lessons import gallery
from ..engine.cards import N_, CapitalLuxError
from ..engine.position import MAX_INPUT_BYTES
from ..engine.game import resolve_chance
from ..analysis.charts import forward_move_chart
from ..analysis.forward import EQUIVALENT_POINTS, Estimate, MoveRisk, Ranking, decider, rank_moves
from ..i18n import Translator, format_interval, format_number, format_percent
from ..i18n.sentences import action_sentence, model_name, player_name
from ..engine.notation import Action, CardDrawn, ModifierDrawn, Pick, Play, SaveWithGold
from ..engine.state import PHASES, GameState
from ..engine.views import LogItem, PlayerView, public_step, view
from ..lessons.whatif import (
    PositionError,
    as_dict,
    check,
    edit_gold,
    edit_modifiers,
    edit_last_turns,
    edit_turn,
    edit_zone,
    export_text,
    last_turns_text,
    load_text,
    modifiers_text,
    play_and_continue,
    read_upload,
    table_of_view,
    zone_text,
)
from .advice import move_text
from .base import Label, Page, TextChange, Upload, page_root, tagged
from ..analysis.charts import figure_png
from ..lessons.table import card_html, position_html
from .work import Job, WorkStopped, page_runner

SAMPLES = (20, 50, 200, 1000)
#: The page's first sentence: what a learner opening it can do here.
WHAT_IT_IS_FOR = N_("Set up a table as you like (the rulebook's examples are here), then compare the moves of the "
                    "player to move: every figure comes from what that player can see, never from hidden cards.")
BOTS = ("quick", "random", "rule")
#: The edit fields, each said as a glossary term or a text of the catalogue.
FIELD_LABELS: dict[str, Label] = {
    "hands": lambda t: t.term("hand"), "hometowns": lambda t: t.term("Hometown"),
    "bonus": lambda t: t.term("bonus card"), "capital": lambda t: t.term("Capital"),
    "discards": lambda t: t.term("discard"),
    "modifiers": N_("Modifiers (colour:owner:value, only the owner knows it)"),
    "gold": N_("Gold discs of each player"),
}
HORIZONS = {"round": N_("to the round end"), "game": N_("to the game end")}
TABS = (N_("Load"), N_("Edit"), N_("Analyse and play"), N_("Export"))


def bot_label(t: Translator, kind: str) -> str:
    if kind == "quick":
        return t.gettext("Quick greedy players")
    if kind == "rule":
        return t.gettext("Rule of thumb (slower)")
    return t.gettext("Random players")


def move_label_html(t: Translator, action: Action) -> str:
    """A move with its card drawn as a card (colour, symbol, role and value)."""
    if isinstance(action, Play):
        place = t.term("Capital") if action.to == "capital" else t.term("Hometown")
        return f"{card_html(t, action.card)} → {escape(place)}"
    return escape(move_text(t, action, own=False))



def figure_text(q: Estimate, lang: str, percent: bool = False) -> str:
    """A figure of the ranking: simulated, with its 95% interval in brackets; exact, alone."""
    if not q.is_exact:
        return format_interval(q.mean, q.low, q.high, lang, percent=percent)
    return format_percent(q.value, lang, 0) if percent else format_number(q.value, lang, 1)


def _columns(t: Translator, m: MoveRisk) -> list[tuple[str, Estimate, bool]]:
    """A move's figures with their headings: at the round's end, or at the game's."""
    r = m.risk
    if r.game is None:
        return [(t.gettext("Expected change of your score"), r.score_change, False),
                (t.gettext("Chance of exceeding in any colour"), r.p_exceed_any, True),
                (t.gettext("Chance to be ahead after the round"), r.p_ahead, True)]
    return [(t.gettext("Expected final margin over the best other player"), r.game.margin, False),
            (t.gettext("Expected final score"), r.game.points, False),
            (t.gettext("Chance of exceeding in any colour at this round's end"), r.p_exceed_any, True),
            (t.gettext("Chance of winning"), r.game.p_win, True)]


def moves_table_html(t: Translator, ranking: Ranking) -> str:
    """Every move in the one ranking's order with its figures (95% intervals when simulated):
    the first is marked as the best, the moves as good as it with ≈."""
    moves = ranking.moves
    head = [t.gettext("Move")] + [title for title, _, _ in _columns(t, moves[0])] if moves else []
    rows = []
    for i, m in enumerate(moves):
        tied = 0 < i < ranking.tied
        cells = [("≈ " if tied else "") + move_label_html(t, m.action)]
        cells += [figure_text(q, t.lang, percent) for _, q, percent in _columns(t, m)]
        cls = ' class="cl-you"' if i == 0 else ' class="cl-tied"' if tied else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    header = "".join(f"<th>{escape(h)}</th>" for h in head)
    return f'<table class="cl-table cl-moves"><tr>{header}</tr>{"".join(rows)}</table>'


def ranking_note(t: Translator, seat: int, seed: int, ranking: Ranking, yours: bool = False) -> str:
    """How the figures were found (exact, or on how many seeded games and to which end) and
    what the order and ≈ mean, in whole sentences; ``yours``: the page is seen by ``seat``."""
    model = ranking.moves[0].risk.model if ranking.moves else "random"
    if ranking.games == 0:
        notes = [(t.gettext("Your moves, exact: every hidden card and every decision to the round's end is counted, "
                            "if the others play like the {bot}.") if yours else
                  t.gettext("Player {seat}'s moves, exact: every hidden card and every decision to the round's end "
                            "is counted, if the others play like the {bot}.")).format(seat=seat, bot=model_name(t, model))]
    else:
        notes = [(t.gettext("Your moves, each followed by the same {n} simulated deals (seed {seed}); 95% intervals "
                            "in brackets.") if yours else
                  t.gettext("Player {seat}'s moves, each followed by the same {n} simulated deals (seed {seed}); "
                            "95% intervals in brackets.")).format(seat=seat, n=ranking.games, seed=seed)]
    if ranking.horizon == "game":
        notes.append(t.gettext("Each game is played on to the game's end; the moves are ranked by the expected final "
                               "margin over the best other player."))
    notes.append(t.gettext("The best move comes first. ≈ marks the moves as good as it: no difference of {points} "
                           "points or more can be shown between them.").format(
                               points=format_number(EQUIVALENT_POINTS, t.lang, 1)))
    return " ".join(escape(n) for n in notes)


def _public_action(action: Action, items: list[LogItem]) -> Action | None:
    """What the log may tell of an action (``views.public_step`` decides): no chance outcome,
    and others' picks as picks, not which cards."""
    if isinstance(action, (CardDrawn, ModifierDrawn)):
        return None
    hidden = any(i.kind in ("pick", "save") and i.action is None for i in items)
    return Pick(()) if hidden and isinstance(action, Pick) else action


def _log_line(t: Translator, seat: int, action: Action, me: int, mover: int) -> str:
    """The page's viewer (``me``, the "Seen by" seat) reads the line: their own moves in the
    second person, the others named as the table names them ("Player 1", not "Bot 1"): one
    name per seat on the page. The log tells what the ``mover`` saw: a secret decision of
    another seat stays a secret, told as the mover reads it."""
    secret = seat != mover and isinstance(action, (Pick, SaveWithGold))
    return action_sentence(t, seat, action, mover if secret else me, bots=False)


def phase_label(t: Translator, phase: str) -> str:
    """A phase's name for people, with its code (the position files' word) in brackets."""
    names = {
        "setup_capital": t.gettext("setup: the first card into the Capital"),
        "setup_modifiers": t.gettext("setup: modifiers dealt for the starting player"),
        "deal": t.gettext("dealing for the draft"),
        "draft": t.gettext("choosing cards"),
        "play": t.gettext("playing cards"),
        "scholar": t.gettext("a Scholar's draw"),
        "agent_draw": t.gettext("an Agent's modifier draw"),
        "agent": t.gettext("an Agent places the modifier"),
        "cleric": t.gettext("a Cleric chooses a colour"),
        "gold": t.gettext("round end: decisions on gold"),
        "over": t.gettext("the game is over"),
    }
    return f"{names[phase]} ({phase})"


def _reason(t: Translator, error: Exception) -> str:
    """The refusal in the reader's language (engine errors carry a catalogue text)."""
    return t.refusal(error) if isinstance(error, CapitalLuxError) else str(error)


#: The longest text an edit field takes: a whole zone of 72 cards is about 220 characters.
FIELD_LIMIT = 2048


def check_size(text: str | bytes | memoryview, limit: int) -> None:
    """Refuse, before any parsing, a text or file longer than ``limit``."""
    if len(text) > limit:
        raise PositionError(N_("this is {size} characters long; at most {limit} are accepted"), size=len(text),
                            limit=limit)


#: Why a comparison stopped before its end (over the time allowed), with or without figures to show.
STOPPED = N_("The comparison was stopped: it took longer than the time allowed.")
STOPPED_WITH_FIGURES = N_("The comparison was stopped: it took longer than the time allowed. The figures above "
                          "come from the games played so far, with their intervals.")


class WhatIfApp(Page):
    """The explorer's parts; every handler is a plain method, so tests call them directly."""
    manual = "learner.html#the-what-if-explorer"  # the part of the manual its help link opens

    def __init__(self, lang: str = "en", name: str = "rulebook-bonus", seed: int = 1) -> None:
        super().__init__(lang)
        label = self.labels
        self.state: GameState = gallery.load(name)
        self._shown: tuple[int, int, Ranking, bool] | None = None  # the comparison on show: seat, seed, ranking, chart
        self._stopped: str | None = None  # why it stopped early (a msgid), if it did
        #: The last message when it can be said again in another language (``_say``).
        self._said: tuple[Callable[[Translator], str], bool] | None = None
        self.played = 0
        #: what the log tells since the last move (seat, action as told, the mover who reads it),
        #: kept so that a change of language tells it again in the new one
        self.told: list[tuple[int, Action, int]] = []
        self.own_header(lambda t: f"<h2>{escape(t.gettext('What if? Explore a position'))}</h2>"
                                  f'<p class="cl-note cl-wi-purpose">{escape(t.gettext(WHAT_IT_IS_FOR))}</p>')
        # loading
        self.gallery = label.choice(label(tagged(W.Dropdown(options=list(gallery.NAMES), value=name,
                                                            layout=W.Layout(width="32em")), "cl-wi-gallery"),
                                          N_("Gallery")),
                                    lambda t: [(t.gettext(gallery.TITLES[n]), n) for n in gallery.NAMES])
        self.gallery_button = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-wi-load-gallery"), N_("Load"))
        self.paste = label(tagged(W.Textarea(layout=W.Layout(width="40em", height="6em")), "cl-wi-paste"),
                           N_("Paste a position file (JSON) here"), "placeholder")
        self.paste_button = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-wi-load-paste"),
                                  N_("Load the pasted position"))
        self.upload = label(tagged(W.FileUpload(accept=".json", multiple=False), "cl-wi-upload"),
                            N_("Upload a position"))
        self.message = tagged(W.HTML(), "cl-wi-message")
        # the table
        self.seen_by = label(tagged(W.Dropdown(layout=W.Layout(width="18em")), "cl-wi-seen-by"), N_("Seen by"))
        self.table = tagged(W.HTML(), "cl-wi-table")
        # editing
        self.seat = label(tagged(W.Dropdown(layout=W.Layout(width="12em")), "cl-wi-seat"), N_("Player"))
        self.fields: dict[str, W.Text] = {}
        for key, said in FIELD_LABELS.items():
            field = label(tagged(W.Text(layout=W.Layout(width="40em")), f"cl-wi-{key}"), said)
            field.observe(self._guard_length, names="value")
            self.fields[key] = field
        self.fields["modifiers"].placeholder = "Y:1:+4 B:0:-1"
        self.phase = label.choice(label(tagged(W.Dropdown(options=list(PHASES), layout=W.Layout(width="30em")),
                                               "cl-wi-phase"), N_("Phase")),
                                  lambda t: [(phase_label(t, code), code) for code in PHASES])
        self.last_turns = label(label(tagged(W.Text(layout=W.Layout(width="16em")), "cl-wi-last-turns"),
                                      N_("Last turns")), N_("seats still to play, - for none"), "placeholder")
        self.last_turns.observe(self._guard_length, names="value")
        self.round = label(W.BoundedIntText(min=0, max=3, layout=W.Layout(width="12em")), lambda t: t.term("round"))
        self.current = label(W.BoundedIntText(min=-1, max=3, layout=W.Layout(width="14em")), N_("Player to move"))
        self.starting = label(W.BoundedIntText(min=-1, max=3, layout=W.Layout(width="14em")),
                              lambda t: t.term("starting player"))
        self.apply_button = label(tagged(W.Button(button_style="warning", layout=W.Layout(width="auto")),
                                         "cl-wi-apply"), N_("Apply the changes"))
        # analysis and play
        self.samples = label(tagged(W.Dropdown(options=list(SAMPLES), value=50, layout=W.Layout(width="auto")),
                                    "cl-wi-samples"), N_("Samples"))
        self.seed = label(tagged(W.BoundedIntText(value=seed, min=0, max=10**9, layout=W.Layout(width="14em")),
                                 "cl-wi-seed"), N_("Seed"))
        self.bot = label.choice(label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-wi-bot"), N_("Players")),
                                lambda t: [(bot_label(t, k), k) for k in BOTS], BOTS[0])
        self.horizon = label.choice(
            label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-wi-horizon"), N_("Play on")),
            lambda t: [(t.gettext(text), key) for key, text in HORIZONS.items()], "round")
        self.analyse_button = label(tagged(W.Button(button_style="primary", layout=W.Layout(width="auto")),
                                           "cl-wi-analyse"), N_("Compare every move"))
        self.analysis = tagged(W.HTML(), "cl-wi-analysis")
        self.chart = tagged(W.Image(format="png", layout=W.Layout(max_width="760px", display="none")), "cl-wi-chart")
        # "Compare every move" runs as a job off the main thread: a progress bar, the controls stay live
        self.runner = page_runner()  # shared with the tutor's risk panel: one analysis at a time a page
        self.analysis_job: Job[Ranking] | None = None
        self._analysis_request: object = None
        self.analysis_progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, layout=W.Layout(display="none"))
        self.analysis_progress.add_class("cl-wi-progress")
        self.move = label(tagged(W.Dropdown(layout=W.Layout(width="24em")), "cl-wi-move"), N_("Move"))
        self.play_button = label(tagged(W.Button(button_style="success", layout=W.Layout(width="auto")),
                                        "cl-wi-play"), N_("Play and continue"))
        self.log = tagged(W.HTML(), "cl-wi-log")
        self.export = tagged(W.Textarea(layout=W.Layout(width="40em", height="8em")), "cl-wi-export")
        self.export_button = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-wi-export-button"),
                                   N_("Export the position"))
        self.download = W.HTML()

        self.gallery_button.on_click(lambda _: self.load_gallery(str(self.gallery.value)))
        self.paste_button.on_click(lambda _: self.load_pasted())
        self.upload.observe(lambda change: self.load_upload(change["new"]), names="value")
        self.seen_by.observe(self.heard(self._seen_by_changed), names="value")
        self.seat.observe(self.heard(self._fill_seat_fields), names="value")
        self.apply_button.on_click(lambda _: self.apply_edits())
        self.analyse_button.on_click(lambda _: self.analyse())
        self.play_button.on_click(lambda _: self.play())
        self.export_button.on_click(lambda _: self.export_position())

        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.load_box = W.VBox([W.HBox([self.gallery, self.gallery_button], layout=row),
                                W.HBox([self.paste, self.paste_button], layout=row), self.upload])
        self.edit_box = W.VBox([self.seat, *self.fields.values(),
                                W.HBox([self.round, self.current, self.starting], layout=row),
                                W.HBox([self.phase, self.last_turns], layout=row), self.apply_button])
        self.analyse_box = W.VBox([W.HBox([self.samples, self.seed, self.bot, self.horizon, self.analyse_button,
                                           self.analysis_progress], layout=row), self.analysis, self.chart,
                                   W.HBox([self.move, self.play_button], layout=row), self.log])
        self.export_box = W.VBox([self.export_button, self.export, self.download])
        self.tabs = label(W.Tab([self.load_box, self.edit_box, self.analyse_box, self.export_box]),
                          lambda t: tuple(t.gettext(title) for title in TABS), "titles")
        self.root = page_root("whatif", [self.title, self.language], self.message, self.seen_by, self.table, self.tabs)
        self.relabel()
        self._new_position()
        self.root.add_class("cl-ready")

    def render(self) -> None:
        """The position, its moves, the log of the last play and the comparison shown, in the
        page's language; what the learner chose (the seat seen by, the move) stays chosen."""
        seats = list(range(self.state.players))
        with self.quietly():  # new options must not redraw half-updated parts
            seen_by = self.seen_by.value
            self.seen_by.options = [(player_name(self.t, p, None, bots=False), p) for p in seats]
            self.seen_by.value = seen_by if seen_by in seats else 0
        self._draw_table()
        self._label_moves()
        self._show_log()
        if self._said is not None:  # the last message, in the new language
            self._say(*self._said)
        if self._shown is not None:
            self._show_analysis(*self._shown)
        elif self._stopped is not None:  # stopped before it had any figure
            self.analysis.value = self._stop_note()

    # -- the position shown ------------------------------------------------------------------------
    def _new_position(self) -> None:
        """A position loaded, edited or played: seen by the seat to move, its fields filled in,
        its moves offered, and no comparison of the position before."""
        s = self.state
        seats = list(range(s.players))
        to_move = s.current_player()
        seat = self.seat.value if self.seat.value in seats else 0
        with self.quietly():
            self.seen_by.options = [(str(p), p) for p in seats]  # labelled by ``render``
            self.seen_by.value = to_move if to_move in seats else 0
            self.seat.options = [(str(p), p) for p in seats]
            self.seat.value = seat
        self._fill_fields()
        self.cancel_analysis()
        self._shown, self._stopped = None, None
        self.analysis.value = ""
        self.chart.layout.display = "none"
        self._label_moves(keep=False)
        self.play_button.disabled = not self.move.options
        self.analyse_button.disabled = not (s.legal_actions() if to_move in seats else [])
        self.render()

    @property
    def ranking(self) -> Ranking | None:
        """The comparison on show (its figures so far while it runs), if any."""
        return self._shown[2] if self._shown is not None else None

    @property
    def moves(self) -> list[MoveRisk]:
        """The moves of the comparison on show, best first (none if there is none)."""
        return self._shown[2].moves if self._shown is not None else []

    def _viewer(self) -> int:
        """The seat the page is seen by: "You" on the table, in the log and in the moves."""
        return int(self.seen_by.value) if self.seen_by.value is not None else 0

    def _label_moves(self, keep: bool = True) -> None:
        """The mover's moves, in the second person when the page is seen by the mover
        (``keep``: the chosen move stays chosen)."""
        s, t = self.state, self.t
        mover = s.current_player()
        legal = s.legal_actions() if 0 <= mover < s.players else []
        own = mover == self._viewer()
        options = [(move_text(t, a, own=own), str(a)) for a in legal]  # cards as the table shows them
        if s.is_chance_node():
            options = [(t.gettext("let chance decide (seeded)"), "chance")]
        chosen = self.move.value if keep else None
        self.move.options = options
        values = [value for _, value in options]
        self.move.value = chosen if chosen in values else (values[0] if values else None)

    def _seen_by_changed(self) -> None:
        """Another seat's eyes: the table, the moves and the log name the seats from there."""
        self._draw_table()
        self._label_moves()
        self._show_log()

    def _draw_table(self) -> None:
        self.table.value = position_html(self.t, view(self.state, self._viewer()), self.played)

    def _fill_seat_fields(self) -> None:
        """Another seat chosen: show its zones; the table-wide fields keep what was typed."""
        data = as_dict(self.state)
        seat = int(self.seat.value or 0)
        for key in ("hands", "hometowns", "bonus"):
            self.fields[key].value = zone_text(data, key, seat)

    def _fill_fields(self) -> None:
        data = as_dict(self.state)
        self._fill_seat_fields()
        for key in ("capital", "discards"):
            self.fields[key].value = zone_text(data, key, None)
        self.fields["modifiers"].value = modifiers_text(data)
        self.fields["gold"].value = " ".join(str(g) for g in data["gold"]["players"])
        self.round.value, self.current.value, self.starting.value = (
            data["round"], data["current_player"], data["starting_player"])
        self.phase.value = data["phase"]
        self.last_turns.value = last_turns_text(data)

    def _say(self, text: str | Callable[[Translator], str], error: bool = False) -> None:
        """The page's message; given as a function of the translator, it follows a language switch."""
        self._said = (text, error) if callable(text) else None
        css = "cl-error" if error else "cl-note"
        shown = text(self.t) if callable(text) else text
        self.message.value = f'<div class="{css}" data-error="{int(error)}">{escape(shown)}</div>'

    def _accept(self, state: GameState, note: str | Callable[[Translator], str]) -> None:
        self.state = state
        self.played += 1
        self.told = []
        self.log.value = ""
        self._new_position()
        self._say(note)

    def _guard_length(self, change: TextChange) -> None:
        """An edit field given far too much text gets back the text it had: the kernel neither
        keeps nor sends back megabytes, the learner is told why, and the refusal changes nothing
        (an emptied field would empty the zone at "Apply the changes")."""
        try:
            check_size(change["new"], FIELD_LIMIT)
        except PositionError as error:
            change["owner"].value = change["old"]  # within the limit: it passed this guard
            self._refuse(error)

    def _refuse(self, error: Exception) -> None:
        self._say(self.t.gettext("Refused: {reason}").format(reason=_reason(self.t, error)), error=True)

    # -- loading ------------------------------------------------------------------------------------
    def load_gallery(self, name: str) -> None:
        self.gallery.value = name
        self._accept(gallery.load(name), self.t.gettext("Loaded: {title}").format(
            title=self.t.gettext(gallery.TITLES[name])))

    def load_pasted(self) -> None:
        try:
            check_size(self.paste.value, MAX_INPUT_BYTES)
            state = load_text(self.paste.value)
        except CapitalLuxError as error:
            self._refuse(error)
            return
        self._accept(state, self.t.gettext("Loaded the pasted position."))

    def load_upload(self, value: Upload) -> None:
        if not value:
            return
        try:
            check_size(value[0]["content"], MAX_INPUT_BYTES)  # before any copy of the bytes
            state = read_upload(value)
        except CapitalLuxError as error:
            self._refuse(error)
            return
        self._accept(state, self.t.gettext("Loaded {name}.").format(name=value[0]["name"]))

    def load_view(self, v: PlayerView, title: str, horizon: str | None = None, model: str | None = None) -> None:
        """A moment of a reviewed game, as its player saw it (``table_of_view``: the cards and
        modifiers they could not see are dealt at random from the unseen, not as they were);
        ``title`` names the moment in the page's language. ``horizon`` and ``model``, the
        review's, set the comparison's own so that its figures answer the same question."""
        if horizon in ("round", "game"):
            self.horizon.value = horizon
        if model in BOTS:
            self.bot.value = model
        self._accept(table_of_view(v), self.t.gettext(
            "Opened from your review: {title}. The table is as you saw it then; the cards and modifiers you could "
            "not see are dealt at random from those still unseen, not as they were.").format(title=title))
        self.tabs.selected_index = 2  # "Analyse and play": comparing the moves is why it was opened

    # -- editing --------------------------------------------------------------------------------------
    def apply_edits(self) -> bool:
        """Apply every field to the position; refuse (changing nothing) if it is impossible."""
        seat = int(self.seat.value or 0)
        try:
            for field in (*self.fields.values(), self.last_turns):
                check_size(field.value, FIELD_LIMIT)
            data = as_dict(self.state)
            for key in ("hands", "hometowns", "bonus"):
                data = edit_zone(data, key, seat, self.fields[key].value)
            for key in ("capital", "discards"):
                data = edit_zone(data, key, None, self.fields[key].value)
            data = edit_modifiers(data, self.fields["modifiers"].value)
            try:
                gold = [int(g) for g in self.fields["gold"].value.replace(",", " ").split()]
            except ValueError:
                raise PositionError(N_("{text}: write one whole number per player"),
                                    text=repr(self.fields["gold"].value)) from None
            data = edit_gold(data, gold)
            data = edit_turn(data, int(self.round.value), int(self.current.value), int(self.starting.value),
                             str(self.phase.value))
            data = edit_last_turns(data, self.last_turns.value)
            state = check(data)
        except CapitalLuxError as error:
            self._refuse(error)
            return False
        self._accept(state, self.t.gettext("The changes are applied."))
        return True

    # -- analysis and play ------------------------------------------------------------------------------
    def analyse(self) -> Job[Ranking] | None:
        """Every legal move of the player to move, ranked from their view (``forward.rank_moves``):
        exact when the rest of the round is small, else on the same seeded games for every move.

        A job of the page's ``WorkRunner`` (``wait_analysis`` waits for it): the progress bar
        moves as the games are played, the figures sharpen on the page, and a new position or
        a new request cancels it.
        """
        s = self.state
        if self.analyse_button.disabled:
            return None
        v = view(s, s.current_player())
        samples, seed, bot, horizon = (int(self.samples.value), int(self.seed.value), str(self.bot.value),
                                       str(self.horizon.value))
        mine = self._analysis_request = object()  # set before the job can start: it may finish at once
        self._stopped = None
        self.analysis_progress.value = 0.0
        self.analysis_progress.layout.display = None

        def work(job: Job[Ranking]) -> Ranking:
            so_far: list[Ranking] = []

            def progress(x: float) -> None:
                job.check(x)  # stops the job here once it is cancelled or over its budget
                if self._analysis_request is mine:
                    self.analysis_progress.value = x

            def partial(ranking: Ranking) -> None:  # the figures sharpen while the learner watches
                so_far[:] = [ranking]
                if self._analysis_request is mine:
                    self._show_analysis(v.viewer, seed, ranking, chart=False)

            try:
                # every move on the same ``samples`` games (its own quote on as many fresh ones), a quarter at a time
                ranking = rank_moves(v, bot, "random", seed=seed, games=samples * len(v.legal_actions),
                                     batch=max(1, samples // 4), min_games=samples, horizon=horizon,
                                     progress=progress, should_stop=job.stopping, partial=partial)
            except WorkStopped:  # the ranking's own stop says "cancelled": the job knows whether it was
                if not job.cancelled and self._analysis_request is mine:  # over the time allowed
                    self.analysis_progress.layout.display = "none"
                    self._stopped = (STOPPED_WITH_FIGURES if so_far else STOPPED)
                    if so_far:  # the figures it reached, said to be only those
                        self._show_analysis(v.viewer, seed, so_far[0], chart=False)
                    else:
                        self.analysis.value = self._stop_note()
                raise
            except Exception:
                if self._analysis_request is mine:
                    self.analysis_progress.layout.display = "none"
                    self.analysis.value = '<div class="cl-note">{}</div>'.format(escape(self.t.gettext(
                        "The risk cannot be computed here.")))
                raise
            if self._analysis_request is mine:
                self._show_analysis(v.viewer, seed, ranking)
            return ranking

        self.analysis_job = self.runner.submit(work)
        return self.analysis_job

    def _show_analysis(self, seat: int, seed: int, ranking: Ranking, chart: bool = True) -> None:
        """The comparison's figures (and, once it is done, its chart) in the page's language."""
        t = self.t
        self._shown = (seat, seed, ranking, chart)
        if chart:
            self.chart.value = figure_png(forward_move_chart(ranking.moves, t))
            self.chart.layout.display = ""
            self.analysis_progress.layout.display = "none"
        self.analysis.value = (f'<div class="cl-note">{ranking_note(t, seat, seed, ranking, yours=seat == self._viewer())}</div>'
                               + moves_table_html(t, ranking) + self._stop_note())

    def _stop_note(self) -> str:
        """Why the comparison stopped early, if it did."""
        if self._stopped is None:
            return ""
        return f'<div class="cl-note" data-stopped="budget">{escape(self.t.gettext(self._stopped))}</div>'

    def cancel_analysis(self) -> None:
        self._analysis_request = None
        if self.analysis_job is not None:
            self.analysis_job.cancel()
        self.analysis_progress.layout.display = "none"

    def wait_analysis(self, timeout: float | None = None) -> Ranking | None:
        """The comparison's ranking once it is done; None if it was stopped (for tests and scripts)."""
        if self.analysis_job is None:
            return None
        try:
            return self.analysis_job.result(timeout)
        except (WorkStopped, concurrent.futures.CancelledError):
            return None

    def play(self) -> None:
        """Play the chosen move (or let chance act), then the other seats play with the chosen
        bots until the same seat must decide again."""
        s = self.state
        mover = s.current_player()
        policy = decider(str(self.bot.value))
        seed = int(self.seed.value) + self.played
        if s.is_chance_node():
            new = s.clone()
            resolve_chance(new, random.Random(seed))
            self._accept(new, lambda t: t.gettext("Chance has acted."))
            return
        chosen = next((a for a in s.legal_actions() if str(a) == self.move.value), None)
        if chosen is None:
            return
        own = mover == self._viewer()
        bots = {p: policy for p in range(s.players) if p != mover}
        result = play_and_continue(s, chosen, seed, bots, stop_for=mover)
        told = []
        replay = s.clone()
        for action in result.actions:
            seat = replay.current_player()
            shown = _public_action(action, public_step(replay, action, mover))
            if shown is not None:
                told.append((seat, shown, mover))
        self._accept(result.state, lambda t: t.gettext("Played: {move}").format(move=move_text(t, chosen, own=own)))
        self.told = told
        self._show_log()

    def _show_log(self) -> None:
        me = self._viewer()
        lines = "".join(f"<li>{escape(_log_line(self.t, seat, action, me, mover))}</li>"
                        for seat, action, mover in self.told)
        self.log.value = f'<ol class="cl-log">{lines}</ol>' if self.told else ""

    # -- export ------------------------------------------------------------------------------------------
    def export_position(self) -> str:
        text = export_text(self.state)
        self.export.value = text
        data = base64.b64encode(text.encode()).decode()
        self.download.value = (f'<a download="position.json" href="data:application/json;base64,{data}">'
                               f"{escape(self.t.gettext('Download position.json'))}</a>")
        return text


def build_app(lang: str = "en", name: str = "rulebook-bonus", seed: int = 1) -> W.VBox:
    """The explorer's root widget; ``root._whatif`` is the app."""
    app = WhatIfApp(lang, name, seed)
    app.root._whatif = app
    return app.root
