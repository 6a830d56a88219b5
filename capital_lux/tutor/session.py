"""A game between the learner and bots, with no widgets in it.

The session owns the ``Game`` (whose seeded generator resolves chance), lets the
bots move until the learner must decide, keeps a log of what the learner may
know, and undoes back to the learner's previous decision with ``Game.undo``.
Everything the tutor shows comes from ``view()``, the learner's view.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ..engine.cards import COLOURS, N_
from ..engine.game import Game
from ..engine.notation import Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.state import Event, GameState, new_game
from ..engine.views import PlayerView, view, visible_events
from .roundend import RoundEndReport, make_report

#: A bot: decides from its own seat's view only.
BotChoice = Callable[[PlayerView, random.Random], Action]

BOT_KINDS: tuple[str, ...] = ("random", "rule", "search")

#: Bits of a seed drawn for a game against hidden hands: too many to find by trying seeds
#: until the cards one sees match (a million seeds took seconds).
SEED_BITS = 64


def new_seed() -> int:
    """A seed for a game whose hands are hidden from the learner, from a secure source."""
    return secrets.randbits(SEED_BITS)


class _Bot(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def random_choice(v: PlayerView, rng: random.Random) -> Action:
    """Uniform over the legal actions of the bot's own view (used until ``bots`` lands)."""
    return rng.choice(v.legal_actions)


def available_bot_kinds() -> tuple[str, ...]:
    """Bot strengths this installation offers (only "random" without ``capital_lux.players.bots``)."""
    try:
        from ..players import bots  # noqa: F401
    except ImportError:
        return ("random",)
    return BOT_KINDS


def make_bot_choice(kind: str) -> BotChoice:
    if kind == "random":
        return random_choice
    try:
        from ..players.bots import make_bot
    except ImportError:
        return random_choice
    bot: _Bot = make_bot(kind)
    return bot.choose


@dataclass(frozen=True)
class LogEntry:
    """One line of the learner's game log; turned into text in the current language."""

    kind: str  # "play", "pick", "place", "take", "save", or an Event kind
    player: int = -1
    action: Action | None = None
    event: Event | None = None
    round: int = 0


@dataclass
class _UndoPoint:
    decisions: int  # how many decisions this session had played before the learner's
    log_length: int
    bot_rng: Any
    reports: int
    reveal: Any


@dataclass
class Session:
    """The learner at ``seat`` against bots in a seeded ``Game``."""

    game: Game
    seat: int = 0
    bot_kind: str = "random"
    bot_seed: int = 0
    seed_chosen: bool = False  # the learner named the seed, so the page may show it at once
    log: list[LogEntry] = field(default_factory=list)
    moves: int = 0  # learner decisions applied (a counter the page can wait on)
    reports: list[RoundEndReport] = field(default_factory=list)  # one per finished round end
    _bot_rng: random.Random = field(init=False, repr=False)
    _choose: BotChoice = field(init=False, repr=False)
    _undo: list[_UndoPoint] = field(init=False, repr=False, default_factory=list)
    _seen_events: int = field(init=False, repr=False, default=0)
    _decisions: int = field(init=False, repr=False, default=0)  # Game.play calls made here
    _reveal: tuple[int, dict[str, list[tuple[int, int]]], int] | None = field(init=False, repr=False, default=None)
    # For each position the learner undid a decision at: the generators' states each decision
    # tried there met. The same decision meets the same chance again (undo cannot fish for a
    # better card); a different one meets fresh chance, not the draws the learner has seen.
    _tried: dict[tuple[Action, ...], dict[Action, tuple[Any, Any]]] = field(init=False, repr=False,
                                                                           default_factory=dict)

    def __post_init__(self) -> None:
        self._bot_rng = random.Random(self.bot_seed)
        self._choose = make_bot_choice(self.bot_kind)
        # A game that did not start here (a prepared position): its story so far, as the
        # learner saw it, is read by replaying the record from the start.
        state = new_game(self.game.players)
        for action in self.game.state.history:
            seat = state.current_player()
            before = self._before(state, action)
            state.apply_action(action)
            self._after(seat, action, before, state)
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
        return self.seed_chosen or self.is_over()

    # -- what the learner sees ------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.game.state

    def view(self) -> PlayerView:
        return view(self.game.state, self.seat)

    def learner_to_move(self) -> bool:
        return self.game.state.current_player() == self.seat

    def is_over(self) -> bool:
        return self.game.state.is_terminal()

    def can_undo(self) -> bool:
        return bool(self._undo)

    # -- moving ---------------------------------------------------------------------
    def play(self, action: Action) -> None:
        """The learner's decision (refused if not among the view's legal actions), then the bots'."""
        if not self.learner_to_move() or action not in self.view().legal_actions:
            from ..engine.state import IllegalActionError

            raise IllegalActionError(N_("{action} is not a legal move for you now"), action=str(action))
        self._meet_chance(action)
        self._undo.append(
            _UndoPoint(
                self._decisions, len(self.log), self._bot_rng.getstate(), len(self.reports), self._reveal
            )
        )
        self._apply(self.seat, action)
        self.moves += 1
        self.advance()

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
        the same decision draws the same cards again.
        """
        if not self._undo:
            raise IndexError("there is no move of yours to undo")
        point = self._undo.pop()
        undone: Action | None = None
        while self._decisions > point.decisions:
            undone = self.game.undo()
            self._decisions -= 1
        del self.log[point.log_length :]
        del self.reports[point.reports :]
        self._reveal = point.reveal
        self._bot_rng.setstate(point.bot_rng)
        assert undone is not None
        node = tuple(self.game.state.history)
        self._tried.setdefault(node, {})[undone] = (self.game.rng.getstate(), point.bot_rng)
        self._seen_events = len(self.game.state.log)
        self.moves += 1  # the table changed: the page waits on this counter too
        return undone

    def _meet_chance(self, action: Action) -> None:
        """Set the generators for the learner's ``action`` at a position where a decision was undone."""
        node = tuple(self.game.state.history)
        tried = self._tried.get(node)
        if tried is None:
            return
        if action in tried:
            game_state, bot_state = tried[action]
            self.game.rng.setstate(game_state)
            self._bot_rng.setstate(bot_state)
            return
        # Derived from the secret seed, so still reproducible from the record and the seed.
        digest = hashlib.sha256(repr((self.game.seed, node, action)).encode()).digest()
        self.game.rng.seed(digest)
        self._bot_rng.seed(digest[::-1])

    def _apply(self, seat: int, action: Action) -> None:
        before = self._before(self.game.state, action)
        self.game.play(action)
        self._decisions += 1
        self._after(seat, action, before, self.game.state)

    @staticmethod
    def _before(state: GameState, action: Action) -> tuple[int, dict[str, list[tuple[int, int]]]]:
        """The round, and the modifiers as they will be turned face up if ``action`` ends it;
        kept out of every widget until the reveal event makes them public."""
        mods = {c: list(state.modifiers_above[c]) for c in COLOURS}
        if isinstance(action, PlaceModifier) and state.pending_modifier is not None:
            mods[action.colour].append((state.current, state.pending_modifier))
        return state.round, mods

    def _after(
        self, seat: int, action: Action, before: tuple[int, dict[str, list[tuple[int, int]]]], state: GameState
    ) -> None:
        round_, mods = before
        entry = _describe(seat, action, self.seat, round_) if seat >= 0 else None
        if entry is not None:
            self.log.append(entry)
        start = self._seen_events
        self._seen_events = len(state.log)
        for i, event in enumerate(state.log[start:], start):
            if event.private_to in (-1, self.seat):
                self.log.append(LogEntry(event.kind, event.player, event=event, round=state.round))
            if event.kind == "reveal":
                self._reveal = (round_, mods, i)
            if event.kind in ("starting_player", "game_over") and self._reveal is not None:
                r, revealed, at = self._reveal
                first = at
                while first > 0 and state.log[first - 1].kind not in ("round_start", "reveal"):
                    first -= 1  # back to the round's start: the last turns and hands come first
                events = [e for e in state.log[first : i + 1] if e.private_to in (-1, self.seat)]
                self.reports.append(make_report(state, r, revealed, events))
                self._reveal = None

    def visible_events(self) -> list[Event]:
        return visible_events(self.game.state, self.seat)


def _describe(seat: int, action: Action, learner: int, round_: int) -> LogEntry | None:
    """A log line for a decision, keeping hidden what the learner may not know."""
    if isinstance(action, Play):
        return LogEntry("play", seat, action, round=round_)
    if isinstance(action, Pick):  # picks are face down: others only see that one was made
        return LogEntry("pick", seat, action if seat == learner else None, round=round_)
    if isinstance(action, (PlaceModifier, TakeLowest)):
        return None  # the engine's own events (modifier_placed, cleric_take) say it
    if isinstance(action, SaveWithGold):  # secret until everyone has decided (ruling R6)
        return LogEntry("save", seat, action if seat == learner else None, round=round_)
    return None
