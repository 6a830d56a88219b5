"""A game between the learner and bots, with no widgets in it.

The session owns the ``Game`` (whose seeded generator resolves chance), lets the
bots move until the learner must decide, keeps a log of what the learner may
know, and undoes back to the learner's previous decision with ``Game.undo``.
Everything the tutor shows comes from ``view()``, the learner's view.

Undo never works as a peek: once the learner has seen a card or modifier that was
hidden (a draw, the next hand of the draft, the round end's reveal, a bot's hand put
down), the decisions before it can no longer be taken back (``_seals``). Going back
there would leave that knowledge in the learner's head while the same hidden cards
stay where they are; drawing again would fish for a better card. What the bots
openly play stays known, as at a real table where a move is taken back.

Each of the session's jobs has its home: ``Session`` plays (the learner's decisions, the
bots', the record of both); a ``Narrator`` tells the log and writes the round-end
reports; an ``UndoLedger`` keeps what may be taken back and the chance each undone
decision met; a ``PlacementMemory`` keeps the table as the learner saw it before each
face-down modifier went down.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable

from ..engine.cards import KIND, N_, Card
from ..engine.game import Game
from ..engine.notation import Action, PlaceModifier, Play
from ..engine.state import AGENT, Event, GameState, new_game
from ..engine.views import LogItem, PlayerView, public_step, view, visible_events
from ..i18n import Translator
from ..players.bots import BOT_KINDS, make_bot
from .roundend import RoundEndReport, make_report

#: A bot: decides from its own seat's view only.
BotChoice = Callable[[PlayerView, random.Random], Action]

#: One line of the learner's log (the engine's ``public_step`` decides what it may say).
LogEntry = LogItem

#: Bits of a seed drawn for a game against hidden hands: too many to find by trying seeds
#: until the cards one sees match (a million seeds took seconds).
SEED_BITS = 64
#: The word ``Session.script`` keeps for an undo (a move is kept in notation).
UNDO = "undo"


def new_seed() -> int:
    """A seed for a game whose hands are hidden from the learner, from a secure source."""
    return secrets.randbits(SEED_BITS)


def available_bot_kinds() -> tuple[str, ...]:
    """Bot strengths the tutor offers (the players' one list)."""
    return tuple(BOT_KINDS)


def bot_kind_label(t: Translator, kind: str) -> str:
    """A bot's strength as the player picks it (the tutor's and the tables' pages)."""
    if kind == "rule":
        return t.gettext("Rule of thumb (a sensible beginner)")
    if kind == "search":
        return t.gettext("Search (strong, slower)")
    return t.gettext("Random (plays any legal move)")


def make_bot_choice(kind: str) -> BotChoice:
    return make_bot(kind).choose


def _unseen(state: GameState, seat: int) -> tuple[Counter[int], Counter[int]]:
    """The cards (by kind) and modifiers (by value) ``seat`` cannot see in ``state``."""
    v = view(state, seat)
    return Counter(dict(enumerate(v.unseen_cards()))), Counter(v.unseen_modifiers())


def _seals(before: tuple[Counter[int], Counter[int]], after: tuple[Counter[int], Counter[int]],
           open_play: Card | None) -> bool:
    """Whether a step showed the learner something hidden: a card or modifier unseen before it
    and seen after it, other than the card a bot openly played (``open_play``)."""
    cards = before[0] - after[0]
    if open_play is not None:
        cards -= Counter({KIND[open_play]: 1})
    return bool(+cards or +(before[1] - after[1]))


#: A generator's state (``random.Random.getstate``), kept to meet the same chance again.
RngState = tuple[object, ...]


@dataclass
class _Mark:
    """Where the narration stood before a learner's decision (an undo goes back to it)."""

    log_length: int
    reports: int
    reveal: LogItem | None
    round_events: list[Event]


@dataclass
class Narrator:
    """The log the learner reads, told from the table one action at a time, and each round
    end's report once the round end is over."""

    seat: int
    told: GameState  # the table as far as the log has told it
    log: list[LogEntry] = field(default_factory=list)
    reports: list[RoundEndReport] = field(default_factory=list)  # one per finished round end
    _reveal: LogItem | None = field(default=None, repr=False)  # until its round-end report
    _round_events: list[Event] = field(default_factory=list, repr=False)  # visible, this round

    def mark(self) -> _Mark:
        return _Mark(len(self.log), len(self.reports), self._reveal, list(self._round_events))

    def rewind(self, mark: _Mark, state: GameState) -> None:
        """Back to ``mark``, the table being ``state`` again."""
        del self.log[mark.log_length :]
        del self.reports[mark.reports :]
        self._reveal = mark.reveal
        self._round_events = mark.round_events
        self.told = state.clone()

    def tell(self, state: GameState, watch: bool) -> bool:
        """Log what the learner may read of the actions ``state`` played since the last telling.
        ``watch``: also say whether one of them showed the learner something hidden (``_seals``)."""
        told = self.told
        sealed = False
        for action in state.history[len(told.history):]:
            mover = told.current_player()
            open_play = action.card if isinstance(action, Play) and mover != self.seat else None
            unseen = _unseen(told, self.seat) if watch and not sealed else None  # nothing to seal otherwise
            items = public_step(told, action, self.seat)
            if unseen is not None and _seals(unseen, _unseen(told, self.seat), open_play):
                sealed = True
            for item in items:
                self._read(told, item)
        return sealed

    def _read(self, told: GameState, item: LogItem) -> None:
        self.log.append(item)
        if item.kind == "round_start":
            self._round_events = []
        elif item.event is not None:
            self._round_events.append(item.event)
        if item.kind == "reveal":
            self._reveal = item
        if item.kind in ("starting_player", "game_over") and self._reveal is not None:
            revealed = {c: list(v) for c, v in (self._reveal.revealed or {}).items()}
            report = make_report(told, self._reveal.round, revealed, self._round_events)
            # the table as the round end left it (``told`` has not dealt the next round yet)
            self.reports.append(replace(report, table=view(told, self.seat), log_end=len(self.log)))
            self._reveal = None


@dataclass
class _UndoPoint:
    decisions: int  # how many decisions this session had played before the learner's
    bot_rng: RngState
    narration: _Mark


@dataclass
class UndoLedger:
    """The learner's decisions that may still be taken back, and the chance each decision met
    at a position where one was undone: the same decision meets the same chance again (undo
    cannot fish for a better card); a different one meets fresh chance, not the draws the
    learner has seen."""

    points: list[_UndoPoint] = field(default_factory=list)
    tried: dict[tuple[Action, ...], dict[Action, tuple[RngState, RngState]]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        """Whether a decision can be taken back."""
        return bool(self.points)

    def seal(self) -> None:
        """What was hidden has been seen: no going back before it."""
        self.points.clear()

    def remember(self, node: tuple[Action, ...], undone: Action, game_rng: RngState, bot_rng: RngState) -> None:
        self.tried.setdefault(node, {})[undone] = (game_rng, bot_rng)

    def meet_chance(self, game: Game, bot_rng: random.Random, action: Action) -> None:
        """Set the generators for the learner's ``action`` at a position where a decision was undone."""
        node = tuple(game.state.history)
        tried = self.tried.get(node)
        if tried is None:
            return
        if action in tried:
            game_state, bot_state = tried[action]
            game.rng.setstate(game_state)
            bot_rng.setstate(bot_state)
            return
        # Derived from the secret seed, so still reproducible from the record and the seed.
        digest = hashlib.sha256(repr((game.seed, node, action)).encode()).digest()
        game.rng.seed(digest)
        bot_rng.seed(digest[::-1])


@dataclass
class PlacementMemory:
    """The learner's view just before each other player's face-down modifier went down, by
    (round, colour, index): where it lies says something about its value (analysis.modifiers)."""

    seat: int
    before: dict[tuple[int, str, int], PlayerView] = field(default_factory=dict)

    def note(self, s: GameState, seat: int, action: Action) -> None:
        """Before ``seat`` plays ``action`` on ``s``."""
        if s.phase == AGENT and seat != self.seat and isinstance(action, PlaceModifier):
            key = (s.round, action.colour, len(s.modifiers_above[action.colour]))
            self.before[key] = view(s, self.seat)  # replaces what an undone line of play left here

    def views(self, s: GameState) -> dict[tuple[str, int], PlayerView]:
        """For each face-down modifier of another player on ``s``'s table, by (colour, index):
        the learner's view just before it was placed (none for those placed before this session)."""
        views = {}
        for (rnd, colour, index), before in self.before.items():
            if rnd == s.round and index < len(s.modifiers_above[colour]) and \
                    s.modifiers_above[colour][index][0] == before.current:
                views[(colour, index)] = before
        return views


class GameSeat:
    """One seat of a ``Game``: what the seat sees and whether it decides now (a learner's
    session against bots, a pass-and-play seat)."""

    game: Game
    seat: int

    @property
    def state(self) -> GameState:
        return self.game.state

    def view(self) -> PlayerView:
        return view(self.game.state, self.seat)

    def learner_to_move(self) -> bool:
        return self.game.state.current_player() == self.seat

    def is_over(self) -> bool:
        return self.game.state.is_terminal()


@dataclass
class Session(GameSeat):
    """The learner at ``seat`` against bots in a seeded ``Game``: play, with the log told by a
    ``Narrator``, undo kept by an ``UndoLedger`` and placements by a ``PlacementMemory``."""

    game: Game
    seat: int = 0
    bot_kind: str = "random"
    bot_seed: int = 0
    seed_chosen: bool = False  # the learner named the seed, so the page may show it at once
    seed_shown: bool = False  # the game reached its end once, which shows the seed: an undo keeps it shown
    moves: int = 0  # learner decisions applied (a counter the page can wait on)
    #: The learner's decisions and undos, in order ("undo" for an undo): replaying them on
    #: a new session of the same seed gives this game, chance met after an undo included.
    script: list[str] = field(init=False, default_factory=list)
    _bot_rng: random.Random = field(init=False, repr=False)
    _choose: BotChoice = field(init=False, repr=False)
    _decisions: int = field(init=False, repr=False, default=0)  # Game.play calls made here
    narrator: Narrator = field(init=False, repr=False)
    ledger: UndoLedger = field(init=False, repr=False, default_factory=UndoLedger)
    placements: PlacementMemory = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._bot_rng = random.Random(self.bot_seed)
        self._choose = make_bot_choice(self.bot_kind)
        # A game that did not start here (a prepared position): its story so far, as the
        # learner saw it, is read by replaying the record from the start.
        self.narrator = Narrator(self.seat, new_game(self.game.players))
        self.placements = PlacementMemory(self.seat)
        self._tell()
        self.advance()

    @classmethod
    def new(cls, players: int, seed: int | None = None, bot_kind: str = "random", seat: int = 0) -> Session:
        """A new game; ``seed=None`` draws a secret one (see ``new_seed``), otherwise the
        learner chose it."""
        chosen = seed is not None
        seed = new_seed() if seed is None else seed
        return cls(Game(players, seed), seat=seat, bot_kind=bot_kind, bot_seed=seed + 1, seed_chosen=chosen)

    @property
    def seed(self) -> int:
        return self.game.seed

    def seed_visible(self) -> bool:
        """The seed replays every hidden card: shown only when the game is over or was chosen."""
        return self.seed_chosen or self.seed_shown or self.is_over()

    # -- what the learner sees ------------------------------------------------------
    @property
    def log(self) -> list[LogEntry]:
        return self.narrator.log

    @property
    def reports(self) -> list[RoundEndReport]:
        return self.narrator.reports

    def can_undo(self) -> bool:
        return bool(self.ledger)

    # -- moving ---------------------------------------------------------------------
    def play(self, action: Action) -> None:
        """The learner's decision (refused if not among the view's legal actions), then the bots'."""
        if not self.learner_to_move() or action not in self.view().legal_actions:
            from ..engine.state import IllegalActionError

            raise IllegalActionError(N_("{action} is not a legal move for you now"), action=str(action))
        self.ledger.meet_chance(self.game, self._bot_rng, action)
        self.ledger.points.append(_UndoPoint(self._decisions, self._bot_rng.getstate(), self.narrator.mark()))
        self._apply(self.seat, action)
        self.script.append(str(action))
        self.moves += 1
        self.advance()
        self.seed_shown = self.seed_shown or self.is_over()

    def advance(self) -> None:
        """Let the bots decide (each from its own view) until the learner must, or the end."""
        state = self.game.state
        while not state.is_terminal() and state.current_player() != self.seat:
            seat = state.current_player()
            self._apply(seat, self._choose(view(state, seat), self._bot_rng))
            state = self.game.state

    def undo(self) -> Action:
        """Take back the learner's last decision and every bot move after it.

        ``Game.undo`` replays the record, and the chance generator goes back with it:
        the same decision draws the same cards again. Only decisions since the learner last
        saw something hidden can be taken back (see the module's docstring).
        """
        if not self.ledger:
            raise IndexError("there is no move of yours to undo")
        point = self.ledger.points.pop()
        undone: Action | None = None
        while self._decisions > point.decisions:
            undone = self.game.undo()
            self._decisions -= 1
        self.narrator.rewind(point.narration, self.game.state)
        self._bot_rng.setstate(point.bot_rng)
        assert undone is not None
        self.ledger.remember(tuple(self.game.state.history), undone, self.game.rng.getstate(), point.bot_rng)
        self.script.append(UNDO)
        self.moves += 1  # the table changed: the page waits on this counter too
        return undone

    def _apply(self, seat: int, action: Action) -> None:
        self.placements.note(self.game.state, seat, action)
        self.game.play(action)
        self._decisions += 1
        self._tell()

    def _tell(self) -> None:
        if self.narrator.tell(self.game.state, watch=bool(self.ledger)):
            self.ledger.seal()

    def placement_views(self) -> dict[tuple[str, int], PlayerView]:
        """For each face-down modifier of another player on the table now, by (colour, index):
        the learner's view just before it was placed (none for those placed before this session)."""
        return self.placements.views(self.game.state)

    def visible_events(self) -> list[Event]:
        return visible_events(self.game.state, self.seat)
