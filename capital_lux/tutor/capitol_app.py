"""Capitol's page: a whole game against the bots, taught by playing it.

``build_app(lang="fr", players=3, seed=1, bots="rule")`` returns the page's root widget
(``root._capitol`` is the ``CapitolApp``). The learner sits at seat 0; the bots play the
other seats as soon as it is their turn. The page names the phase and says what it is
for, draws the board in words (a district's colour is written, never shown by colour
alone), offers every legal move in words beside its notation, and takes a move typed in
the notation: an illegal one is refused with the rules' own sentence and changes nothing.
The page lists the cards of the hand that cannot be played with their action now, and
where each permit cannot go, each with the rules' reason. During an
auction, the chance that the bid wins is drawn beside it, exact or simulated (with its
interval and sample count), from what the learner can see.

Everything shown comes from the learner's view (``capitol.views``); the state, with the
bots' hands and the seed, stays in the kernel.

A reload resumes the game as the Capital Lux tutor's does (``tutor.keep``): after each of the
learner's moves the settings, the seed and the learner's moves are written on the server
under a random token; the browser keeps only the token (under a key of its own,
``STORAGE_KEY``), hands it back to the next page, which offers to resume; the same seed and
moves replay the same game, the bots' moves included.
"""

from __future__ import annotations

import logging
import random
from html import escape
from typing import Callable, TypedDict
from urllib.parse import parse_qs

import ipywidgets as W

from ..analysis.capitol_auction import Chance, bid_chance_chart, bid_chances
from ..analysis.charts import figure_png
from ..capitol.bots import BOT_KINDS, Bot, RandomBot, RuleOfThumbBot, make_bot
from ..capitol.components import (COLOURS, DISTRICTS, FLOOR_KIND, MAX_PLAYERS, MIN_PLAYERS, PILES, ROOF_KIND,
                                  SMALL_SQUARES, colour_of)
from ..capitol.notation import Action, Bid, parse_action
from ..capitol.rules import apply, card_refusal, placement_refusal
from ..capitol.state import BID, BUILD, District, State, new_game
from ..capitol.texts import large_text, move_text, phase_lesson, phase_text
from ..capitol.views import PlayerView, view
from ..engine.cards import N_
from ..engine.errors import CapitalLuxError, PositionError
from ..i18n import Translator, format_exact, format_interval, format_list, format_number, sentences
from ..i18n.sentences import LEARNER, TERMINAL
from . import keep
from .base import ROW, Page, language_from_query, page_root, tagged

__all__ = ["CapitolApp", "STORAGE_KEY", "build_app", "options_from_query", "page_script"]

LOG = logging.getLogger("capital_lux.tutor")
#: Where the browser keeps the token of its Capitol game: apart from the Capital Lux tutor's.
STORAGE_KEY = "capital-lux-capitol-game"

YOU = 0
#: The districts' colours on the board, pale enough for black text; the name is always written too.
FILL = {"B": "#cfe0f3", "P": "#f8dbe8", "M": "#e2d6ef"}
#: How the board writes a roof type beside its word.
ROOF_SIGN = {"r": "◠", "t": "△"}

CSS = """<style>
.cl-capitol .cl-capitol-board table{border-collapse:collapse}
.cl-capitol .cl-capitol-board td{border:1px solid #555;padding:4px 8px;vertical-align:top;font:13px sans-serif;
 min-width:180px}
.cl-capitol .cl-capitol-refused{color:#8a1c1c;font:14px sans-serif}
.cl-capitol .cl-capitol-note{font:14px sans-serif}
</style>"""

Say = Callable[[Translator], str]


def colour_text(t: Translator, colour: str) -> str:
    if colour == "B":
        return t.pgettext("capitol", "blue")
    if colour == "P":
        return t.pgettext("capitol", "pink")
    return t.pgettext("capitol", "mauve")


def building_text(t: Translator, who: str, storeys: int, roof: str) -> str:
    if roof == "r":
        return t.ngettext("{player}: {storeys} storey, round roof {sign}",
                          "{player}: {storeys} storeys, round roof {sign}",
                          storeys).format(player=who, storeys=storeys, sign=ROOF_SIGN[roof])
    return t.ngettext("{player}: {storeys} storey, triangular roof {sign}",
                      "{player}: {storeys} storeys, triangular roof {sign}",
                      storeys).format(player=who, storeys=storeys, sign=ROOF_SIGN[roof])


def district_html(t: Translator, board: District, players: int) -> str:
    """One district in words: its colour, roof type, buildings, fountains and squares."""
    name = t.gettext("District {district} ({colour})").format(district=board.name,
                                                              colour=colour_text(t, colour_of(board.name)))
    lines = [f"<b>{escape(name)}</b>"]
    if board.roof == "r":
        lines.append(t.gettext("Round roofs only {sign}").format(sign=ROOF_SIGN["r"]))
    elif board.roof == "t":
        lines.append(t.gettext("Triangular roofs only {sign}").format(sign=ROOF_SIGN["t"]))
    else:
        lines.append(t.gettext("No building yet: the first sets the roof type and has one storey."))
    lines += [building_text(t, sentences.player_name(t, owner, YOU, LEARNER), storeys, roof)
              for owner, storeys, roof in board.buildings]
    lines.append(t.gettext("Free small squares: {free} of {total}. Fountains: {fountains}.").format(
        free=board.free_small, total=SMALL_SQUARES[board.name], fountains=board.all_fountains))
    lines.append(t.gettext("Large square: {piece}.").format(piece=large_text(t, board.large) or
                                                              t.gettext("free")))
    return "<br>".join(line if line.startswith("<b>") else escape(line) for line in lines)


def board_html(t: Translator, v: PlayerView, moves: int) -> str:
    """The nine districts, a row per colour; ``data-move`` counts the moves played (the tests wait on it)."""
    rows = []
    for colour in COLOURS:
        cells = "".join(f'<td style="background:{FILL[colour]}">{district_html(t, board, v.players)}</td>'
                        for board in v.board if colour_of(board.name) == colour)
        rows.append(f"<tr>{cells}</tr>")
    return f'<div class="cl-capitol-table" data-move="{moves}"><table>{"".join(rows)}</table></div>'


def seat_lines(t: Translator, v: PlayerView) -> list[str]:
    """The learner's hand and buildings, the piles' tops, and what the others show of theirs."""
    me = v.seat
    tops = {pile: str(top) if top else "-" for pile, top in zip(PILES, v.pile_tops)}
    lines = [
        t.gettext("Scores: {scores}.").format(scores=", ".join(map(str, v.scores))),
        t.gettext("Your hand: {cards}. Cards in each hand: {sizes}.").format(
            cards=" ".join(map(str, v.hand)) or "-", sizes=", ".join(map(str, v.hand_sizes))),
        t.gettext("Your buildings under construction: {unfinished}; finished: {finished}; roofs left: "
                  "{rounds} round, {triangles} triangular.").format(
            unfinished=" ".join(map(str, v.unfinished[me])) or "-",
            finished=" ".join(f"{h}{r}" for h, r in v.finished[me]) or "-",
            rounds=v.roofs_left[me][0], triangles=v.roofs_left[me][1]),
        t.gettext("Top of the piles: roofs {roof}, floors {floor}, permits {permit}.").format(**tops),
    ]
    for p in range(v.players):
        if p != me:
            lines.append(t.ngettext("{player}: {cards} card in hand; under construction {unfinished}; finished "
                                    "{finished}.", "{player}: {cards} cards in hand; under construction {unfinished}; "
                                    "finished {finished}.", v.hand_sizes[p]).format(
                player=sentences.player_name(t, p, me, LEARNER), cards=v.hand_sizes[p],
                unfinished=" ".join(map(str, v.unfinished[p])) or "-",
                finished=" ".join(f"{h}{r}" for h, r in v.finished[p]) or "-"))
    return lines


def why_not_lines(t: Translator, state: State, v: PlayerView) -> list[str]:
    """Each card of the learner's hand that cannot be played with its action now, with the rules'
    reason; then, for each permit colour held and each finished building, the districts of that
    colour it may not go to, with the reason."""
    lines = []
    for card in sorted(set(v.hand)):
        error = card_refusal(state, card)
        if error is not None:
            lines.append(t.gettext("{card}: {reason}").format(card=str(card), reason=t.refusal(error)))
    colours = sorted({card.kind for card in v.hand if card.kind not in (FLOOR_KIND, ROOF_KIND)})
    for colour in colours:
        for storeys, roof in sorted(set(v.finished[v.seat])):
            for district in DISTRICTS:
                if colour_of(district) == colour:
                    error = placement_refusal(state, storeys, roof, district)
                    if error is not None:
                        lines.append(t.gettext("{building} in {district}: {reason}").format(
                            building=f"{storeys}{roof}", district=district, reason=t.refusal(error)))
    return lines


class CapitolApp(Page):
    """A game of Capitol against bots: the learner at seat 0, bots at the others."""

    manual = "capitol.html#the-tutor-page"  # the part of the manual its help link opens

    def __init__(self, lang: str | Translator = "en", players: int = 3, seed: int | None = None,
                 bots: str = "rule", samples: int = 400) -> None:
        super().__init__(lang)
        self.samples = samples
        self.own_header(lambda t: f"<h2>{escape(t.gettext('Capitol: learn the game by playing it'))}</h2>")
        intro = self.labels(tagged(W.HTML(), "cl-capitol-intro"), lambda t: "<p>" + escape(t.gettext(
            "You build a city against the bots over four rounds: construction, an auction for each piece, "
            "the scoring of every district, then the draw. Each move you may play is listed; type another to "
            "hear why the rules refuse it.")) + "</p>", "value")
        self.players_pick = self.labels.choice(tagged(W.Dropdown(value=None, layout=W.Layout(width="auto")),
                                                      "cl-capitol-players"),
                                               lambda t: [(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)], players)
        self.labels(self.players_pick, N_("Players"))
        self.bots_pick = self.labels.choice(tagged(W.Dropdown(value=None, layout=W.Layout(width="auto")),
                                                   "cl-capitol-bots"),
                                            lambda t: [(t.gettext("rule-of-thumb bots"), RuleOfThumbBot.name),
                                                       (t.gettext("random bots"), RandomBot.name)], bots)
        self.labels(self.bots_pick, N_("Opponents"))
        self.new_game = self.labels(tagged(W.Button(), "cl-capitol-new"), N_("New game"))
        self.new_game.on_click(lambda _: self.guard(self.start_new, N_("The page could not do that."),
                                                    self._say_error))
        self.phase = tagged(W.HTML(), "cl-capitol-phase")
        self.lesson = tagged(W.HTML(), "cl-capitol-lesson")
        self.board = tagged(W.HTML(), "cl-capitol-board")
        self.seat_info = tagged(W.HTML(), "cl-capitol-seat")
        self.moves = tagged(W.Dropdown(layout=W.Layout(width="560px")), "cl-capitol-moves")
        self.labels(self.moves, N_("Your moves"))
        self.play_button = self.labels(tagged(W.Button(button_style="primary"), "cl-capitol-play"),
                                       N_("Play this move"))
        self.play_button.on_click(lambda _: self.guard(self.play_chosen, N_("The page could not do that."),
                                                       self._say_error))
        self.typed = self.labels(tagged(W.Text(layout=W.Layout(width="260px")), "cl-capitol-typed"),
                                 N_("Type a move"))
        self.labels(self.typed, N_("for example B4 1t B2"), "placeholder")
        self.try_typed = self.labels(tagged(W.Button(), "cl-capitol-try"), N_("Try this move"))
        self.try_typed.on_click(lambda _: self.guard(self.play_typed, N_("The page could not do that."),
                                                     self._say_error))
        self.message = tagged(W.HTML(), "cl-capitol-message")
        self.why_not = tagged(W.HTML(), "cl-capitol-why-not")
        self.chance = tagged(W.HTML(), "cl-capitol-chance")
        self.chart = tagged(W.Image(format="png", layout=W.Layout(max_width="440px", display="none")),
                            "cl-capitol-chart")
        self.log = tagged(W.HTML(), "cl-capitol-log")
        # Keeping the game across a reload (``keep``): the browser holds only the token.
        self.token = ""
        self.script: list[str] = []  # the learner's moves, in the notation: with the seed, the whole game
        self.tag = W.HTML()
        self.token_in = tagged(W.Text(layout=W.Layout(display="none")), "cl-resume-token")
        self.token_in.observe(lambda change: self._offered(str(change["new"])), names="value")
        self.offer_text = self.labels(W.HTML(), lambda t: keep.offer_html(t.lang, "capitol"), "value")
        self.resume_button = self.labels(tagged(W.Button(button_style="info"), "cl-resume"), N_("Resume my game"))
        self.resume_button.on_click(lambda _: self.resume())
        self.offer = tagged(W.VBox([self.offer_text, self.resume_button], layout=W.Layout(display="none")),
                            "cl-resume-offer")
        self._kept: tuple[str, keep.Kept] | None = None
        # The page script's liveness check: it writes a number into ``ping``; the kernel echoes it.
        self.alive = keep.Liveness()
        setup = W.HBox([self.players_pick, self.bots_pick, self.new_game], layout=W.Layout(**ROW))
        choose = W.VBox([W.HBox([self.moves, self.play_button], layout=W.Layout(**ROW)),
                         W.HBox([self.typed, self.try_typed], layout=W.Layout(**ROW)), self.message])
        auction = W.HBox([self.chart, self.chance], layout=W.Layout(**ROW))
        self.root = page_root("capitol", [self.title, self.language], W.HTML(CSS), self.offer, intro, setup,
                              self.phase, self.lesson, choose, auction, self.board, self.seat_info, self.why_not,
                              self.log, self.token_in, self.tag, *self.alive.widgets)
        self.relabel()
        self._said: Say = lambda t: ""
        self._chances: tuple[int, list[tuple[Bid, Chance]]] | None = None
        self.start(seed)
        self.root.add_class("cl-ready")

    # -- the game ------------------------------------------------------------------------------
    def start(self, seed: int | None) -> None:
        """A new game with the players and bots chosen; ``seed`` None: a fresh one, kept in the kernel."""
        players = int(self.players_pick.value or 3)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.state = new_game(players, self.seed)
        self.bots: list[Bot] = [make_bot(str(self.bots_pick.value or "rule")) for _ in range(players)]
        self.rng = random.Random(self.seed)
        self.seen = self.seen_auctions = self.seen_scorings = 0
        self._said = lambda t: ""
        self.script = []
        self._bots_play()
        self.render()

    def start_new(self) -> None:
        """*New game*: a fresh secret seed, kept at once (a reload resumes the new game, not the old)."""
        self.start(None)
        self.keep()

    def _bots_play(self) -> None:
        """The bots move until it is the learner's turn or the game is over."""
        while not self.state.is_terminal() and self.state.current != YOU:
            seat = self.state.current
            self.state = apply(self.state, self.bots[seat].choose(view(self.state, seat), self.rng))

    def play(self, action: Action) -> None:
        """The learner's move, then the bots'; an illegal move raises and changes nothing."""
        self.state = apply(self.state, action)
        self._bots_play()

    def play_chosen(self) -> None:
        if self.moves.value is None:
            return
        self._play_text(str(self.moves.value))

    def play_typed(self) -> None:
        self._play_text(self.typed.value)

    def _play_text(self, text: str) -> None:
        try:
            action = parse_action(text)
            before, auctions, scorings = len(self.state.history), len(self.state.auctions), len(self.state.round_scores)
            self.play(action)
        except CapitalLuxError as error:
            self._said = lambda t: t.refusal(error)
            self._show_message(refused=True)
            return
        self.seen, self.seen_auctions, self.seen_scorings = before, auctions, scorings
        self.script.append(str(action))
        self.keep()
        self.typed.value = ""
        self._said = lambda t: t.gettext("You played {move}.").format(move=str(action))
        self.render()

    # -- keeping the game -----------------------------------------------------------------------
    def keep(self) -> None:
        """Write the game where a reloaded page of this browser finds it again; say so if it cannot be."""
        data: keep.Kept = {"game": "capitol", "players": self.state.players, "seed": self.seed,
                           "bots": str(self.bots_pick.value or "rule"), "script": list(self.script),
                           "over": self.state.is_terminal()}
        try:
            self.token = self.token or keep.new_token()
            keep.write(self.token, data)
        except (keep.SavesError, OSError) as error:
            LOG.error("the Capitol game could not be kept: %s", error)
            self.tag.value = keep.cannot_keep_html(self.t.lang)
            return
        token = "" if self.state.is_terminal() else self.token
        self.tag.value = f'<span class="cl-save-tag" data-cl-save="{token}"></span>'

    def _offered(self, token: str) -> None:
        """The token a reloaded page hands back: offer to resume its game, unless one is under way."""
        self._kept = keep.offered(token, "capitol", bool(self.script), self.offer) or self._kept

    def resume(self) -> None:
        """The kept game replayed: its settings, seed and the learner's moves (the bots' follow)."""
        if self._kept is None:
            return
        (token, data), self._kept = self._kept, None
        self.offer.layout.display = "none"

        def replay() -> None:
            players, bots = int(data["players"]), str(data["bots"])
            if not MIN_PLAYERS <= players <= MAX_PLAYERS:
                raise PositionError(N_("A Capitol record needs \"players\": 2, 3 or 4."))
            if bots not in BOT_KINDS:
                raise PositionError(N_("{name} is not a Capitol bot: choose random, rule or search"), name=repr(bots))
            with self.quietly():
                self.players_pick.value, self.bots_pick.value = players, bots
            self.start(int(data["seed"]))
            for text in data["script"]:
                self.play(parse_action(text))  # refused if it does not fit: nothing is resumed
                self.script.append(text)
            self.seen, self.seen_auctions, self.seen_scorings = (len(self.state.history), len(self.state.auctions),
                                                                 len(self.state.round_scores))
            self.token = token
            self._said = lambda t: t.gettext("Your game is resumed where you left it.")
            self.render()

        self.guard(replay, N_("Sorry, that game cannot be resumed; a new one is ready below."), self._cannot_resume)

    def _cannot_resume(self, msgid: str) -> None:
        self.start(None)
        self._say_error(msgid)

    # -- drawing -------------------------------------------------------------------------------
    def render(self) -> None:
        t, v = self.t, view(self.state, YOU)
        self.phase.value = f"<h3>{escape(phase_text(t, v.phase, v.round, v.piece, v.current, YOU, TERMINAL))}</h3>"
        self.lesson.value = f'<p class="cl-capitol-note">{escape(phase_lesson(t, v.phase))}</p>'
        self.seat_info.value = "<br>".join(escape(line) for line in seat_lines(t, v))
        with self.quietly():
            chosen = self.moves.value if self.moves.value in {str(a) for a in v.legal_actions} else None
            self.moves.options = [(move_text(t, a, v.pile_tops), str(a)) for a in v.legal_actions]
            if v.legal_actions:  # a move is always shown chosen: the one kept across a relabel, else the first
                self.moves.value = chosen or str(v.legal_actions[0])
        self.play_button.disabled = not v.legal_actions
        self._draw_why_not(t, v)
        self._draw_chance(t, v)
        self._draw_log(t, v)
        self._show_message(refused=False)
        # last: the board's move count tells a watcher that the rest is drawn
        self.board.value = board_html(t, v, len(self.state.history))

    def _show_message(self, refused: bool) -> None:
        text = self._said(self.t)
        if self.state.is_terminal():
            winners = format_list([sentences.player_name(self.t, p, YOU, LEARNER) for p in self.state.winners()],
                                  self.t.lang)
            text = (text + " " if text else "") + self.t.gettext(
                "The game is over. Scores: {scores}. Highest score: {winners}.").format(
                scores=", ".join(map(str, self.state.scores)), winners=winners)
        css = "cl-capitol-refused" if refused else "cl-capitol-note"
        self.message.value = f'<p class="{css}">{escape(text)}</p>' if text else ""

    def _say_error(self, msgid: str) -> None:
        self.message.value = f'<p class="cl-capitol-refused">{escape(self.t.gettext(msgid))}</p>'

    def _draw_why_not(self, t: Translator, v: PlayerView) -> None:
        lines = why_not_lines(t, self.state, v) if v.phase == BUILD and v.to_move else []
        if not lines:
            self.why_not.value = ""
            return
        items = "".join(f"<li>{escape(line)}</li>" for line in lines)
        self.why_not.value = (f"<details><summary>{escape(t.gettext('The cards you cannot play now, and why'))}"
                              f"</summary><ul>{items}</ul></details>")

    def _draw_chance(self, t: Translator, v: PlayerView) -> None:
        if v.phase != BID or not v.to_move:
            self.chart.layout.display = "none"
            self.chance.value = ""
            return
        key = len(self.state.history)
        if self._chances is None or self._chances[0] != key:
            self._chances = (key, bid_chances(v, self.seed + key, samples=self.samples))
        chances = self._chances[1]
        mine, chance = chances[0]
        self.chart.value = figure_png(bid_chance_chart(chances, t))
        self.chart.layout.display = ""
        bid_text = " ".join(map(str, mine.cards))
        if not bid_text:
            text = t.gettext("With no card above your STOP card, your bid cannot win. The chart shows the chance of "
                             "a bid with one of your cards, if the others bid like the rule-of-thumb bot.")
        elif chance.exact is not None:
            text = t.gettext("Chance that your bid {bid} wins: {chance}, exact: counted over every deal of the cards "
                             "you cannot see, if the others bid like the rule-of-thumb bot.").format(
                bid=bid_text, chance=format_exact(chance.exact, t.lang, percent=True))
        else:
            text = t.gettext("Chance that your bid {bid} wins: {chance}, simulated over {samples} deals of the cards "
                             "you cannot see (95% interval), if the others bid like the rule-of-thumb bot.").format(
                bid=bid_text, samples=format_number(chance.samples, t.lang),
                chance=format_interval(chance.estimate, chance.low, chance.high, t.lang,
                                       percent=True))
        notes = [text, *self._model_notes(t, v, all(c.fitted for _, c in chances))]
        self.chance.value = "".join(f'<p class="cl-capitol-note">{escape(note)}</p>' for note in notes)

    def _model_notes(self, t: Translator, v: PlayerView, fitted: bool) -> list[str]:
        """What the chance's model reads of the others (``fitted``: their STOP piles fit it), and where it stops."""
        notes = []
        if any(v.offered[p] for p in range(v.players) if p != v.seat):
            notes.append(t.gettext(
                "It counts only the deals in which the rule-of-thumb bot would have put as many cards above its STOP "
                "card as each player has.") if fitted else t.gettext(
                "The cards the others have put above their STOP cards do not fit the rule-of-thumb bot, so the "
                "chance leaves them aside."))
        if self.bots_pick.value == RandomBot.name:
            notes.append(t.gettext("Your opponents are random bots, not rule-of-thumb ones: read this chance as a "
                                   "guide only."))
        notes.append(t.gettext("It does not remember the cards revealed in earlier auctions or seen going to a "
                               "discard pile: they may be dealt to a hand."))
        return notes

    def _draw_log(self, t: Translator, v: PlayerView) -> None:
        """The moves since the learner's last one, as the table saw them, and the auctions revealed."""
        lines = [t.gettext("{player}: {move}").format(player=sentences.player_name(t, who, YOU, LEARNER), move=text)
                 for (who, _), text in zip(self.state.history[self.seen:], v.history[self.seen:])]
        for result in v.auctions[self.seen_auctions:]:
            if result.winner is None:
                lines.append(t.gettext("Nobody bid a card: the piece is not sold."))
            else:
                lines.append(t.gettext("{player} wins the auction with {bid}.").format(
                    player=sentences.player_name(t, result.winner, YOU, LEARNER),
                    bid=" ".join(map(str, result.bids[result.winner].cards))))
        for number, points in enumerate(v.round_scores[self.seen_scorings:], start=self.seen_scorings + 1):
            lines.append(t.gettext("Scoring of round {round}: {points}.").format(round=number, points=", ".join(
                f"{sentences.player_name(t, p, YOU, LEARNER)} {score}" for p, score in enumerate(points))))
        self.log.value = "<br>".join(escape(line) for line in lines[-40:])


class CapitolOptions(TypedDict, total=False):
    """``build_app``'s arguments, as a page's query gives them."""

    lang: str
    players: int
    seed: int
    bots: str


def options_from_query(query: str) -> CapitolOptions:
    """``build_app`` arguments from the page's query: ``?lang=fr&players=4&seed=7&bots=random``;
    anything missing or unreadable keeps its default."""
    found = parse_qs(query)
    options: CapitolOptions = {"lang": language_from_query(query)}
    players, seed, bots = (found.get(key, [""])[0] for key in ("players", "seed", "bots"))
    if players.isdigit() and 2 <= int(players) <= 4:
        options["players"] = int(players)
    if seed.isdigit() and int(seed) <= 10**9:
        options["seed"] = int(seed)
    if bots in BOT_KINDS:
        options["bots"] = bots
    return options


def page_script(lang: str) -> str:
    """The page's script (``keep.page_script``) with Capitol's own key for the kept token."""
    return keep.page_script(lang, "capitol", key=STORAGE_KEY)


def build_app(lang: str = "en", players: int = 3, seed: int | None = None, bots: str = "rule") -> W.VBox:
    """The page's root widget; ``root._capitol`` is the app."""
    app = CapitolApp(lang, players, seed, bots)
    app.root._capitol = app
    return app.root
