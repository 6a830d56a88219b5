"""Players that decide from what their seat may know.

A bot's ``choose(view, rng)`` gets a ``PlayerView`` and a seeded
``random.Random`` and returns one of ``view.legal_actions``. It never receives
the ``GameState``: ``as_policy`` makes the view for it, and the search bot draws
the hidden cards with ``views.determinize``. Three kinds:

* ``RandomBot``: uniform over the legal actions.
* ``RuleOfThumbBot``: a sensible beginner. It estimates each capital colour's
  limit from what it can see, and scores every option by the points it keeps;
  ``advise(view)`` returns the choice with a one-sentence reason (a ``Hint``).
* ``SearchBot``: information-set Monte Carlo tree search (``capital_lux.players.search``).

>>> from capital_lux.engine.game import Game
>>> from capital_lux.engine.views import view
>>> game = Game(players=3, seed=1)
>>> bot = make_bot("rule")
>>> bot.choose(view(game.state, game.state.current), random.Random(0)) in game.state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from ..engine.errors import UsageError
from ..engine.cards import ALL_CARDS, COLOURS, KIND, N_, CapitalLuxError, Card, format_modifier
from ..engine.notation import HOME, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.state import AGENT, CLERIC, DRAFT, GOLD, PLAY, GameState
from ..engine.views import PlayerView, view
from ..i18n.sentences import card_text
from .rule_of_thumb import (  # how the rule of thumb judges a table, shared with the kernel's policy
    Table, _gold_costs, cleric_take, leader, rule_choice, table_of,
)

if TYPE_CHECKING:
    from ..i18n import Translator

__all__ = [
    "Bot", "Hint", "RandomBot", "RuleOfThumbBot", "SearchBot", "BOT_KINDS", "line_up", "make_bot", "parse_bot",
    "as_policy", "N_",
]


class Bot(Protocol):
    """Anything that picks a legal action from a player's view."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


@dataclass(frozen=True)
class Hint:
    """A suggested action with its reason, an English msgid with ``{named}`` placeholders.

    Parameters named ``colour``/``colour2`` hold a colour letter, ``card``/``card2`` a
    card such as ``B5``, ``modifier`` a modifier value; they are shown in the reader's
    language. ``{hometown}`` and ``{capital}`` are always available.

    >>> from capital_lux.i18n import translator
    >>> hint = Hint(Play(Card("B", 5), "home"), N_("Plays {card} into your {hometown}."), {"card": "B5"})
    >>> hint.text(translator("en"))
    'Plays ◆ Agent 5 (blue) into your Hometown.'
    """

    action: Action
    reason: str
    params: dict[str, str | int] = field(default_factory=dict)

    def text(self, t: Translator) -> str:
        values: dict[str, str | int] = {"hometown": t.term("Hometown"), "capital": t.term("Capital")}
        for key, value in self.params.items():
            if key.startswith("colour"):
                values[key] = t.colour(str(value))
            elif key.startswith("role"):
                values[key] = t.role(str(value))
            elif key.startswith("card"):
                values[key] = card_text(t, Card.parse(str(value)))  # as the table shows it
            elif key.startswith("modifier"):
                values[key] = format_modifier(int(value))
            else:
                values[key] = value
        return t.gettext(self.reason).format(**values)


def _legal(view: PlayerView) -> tuple[Action, ...]:
    if not view.legal_actions:
        raise UsageError(f"player {view.viewer} has no decision to make now (phase {view.phase})")
    return view.legal_actions


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(_legal(view))


class RuleOfThumbBot:
    """A sensible beginner whose every move has a one-sentence reason (see ``advise``)."""

    name = "rule"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rule_choice(table_of(view), view.phase, _legal(view), view.pending_modifier)

    def advise(self, view: PlayerView) -> Hint:
        """The move this bot would make, with its reason."""
        t = table_of(view)
        best = rule_choice(t, view.phase, _legal(view), view.pending_modifier)
        if view.phase == DRAFT:
            assert isinstance(best, Pick)
            return self._draft(t, best)
        if view.phase == PLAY:
            assert isinstance(best, Play)
            return self._explain_play(t, best)
        if view.phase == AGENT:
            assert isinstance(best, PlaceModifier) and view.pending_modifier is not None
            return self._agent(t, view.pending_modifier, best)
        if view.phase == CLERIC:
            assert isinstance(best, TakeLowest)
            value = min(t.capital[COLOURS.index(best.colour)])
            return Hint(best, N_("Takes {card}: it scores in your {hometown} and costs you the least room."),
                        {"card": f"{best.colour}{value}", "colour": best.colour})
        if view.phase == GOLD:
            assert isinstance(best, SaveWithGold)
            return self._gold(t, best)
        return Hint(best, N_("This is the only move."), {})

    def _draft(self, t: Table, best: Pick) -> Hint:
        cards = best.cards
        if len(cards) == 1:
            return Hint(best, N_("Keeps {card}, the only card left to choose."), {"card": str(cards[0])})
        mine = t.home[t.me]
        params: dict[str, str | int] = {"card": str(cards[0]), "card2": str(cards[1])}
        if all(k.value <= t.limit[COLOURS.index(k.colour)] - mine[COLOURS.index(k.colour)] for k in cards):
            return Hint(best, N_("Keeps {card} and {card2}, the highest values on offer: both fit within the "
                                 "{capital}'s limits."), params)
        return Hint(best, N_("Keeps {card} and {card2}, the highest values on offer: the {capital}'s limits "
                             "are low now, and rise as the round's cards are played there."), params)

    def _explain_play(self, t: Table, play: Play) -> Hint:
        card, colour, me = play.card, play.card.colour, t.me
        c = COLOURS.index(colour)
        total = t.home[me][c]
        limit = t.limit[c]
        hand = [ALL_CARDS[kind] for kind in t.hand]
        params: dict[str, str | int] = {"card": str(card), "colour": colour}
        if play.to == HOME:
            params.update(total=total + card.value, limit=math.floor(limit))
            if total + card.value <= limit:
                return Hint(play, N_("Plays {card} into your {hometown}: {colour} reaches {total}, "
                                     "within the {capital}'s {limit}."), params)
            if any(k.colour == colour and k != card for k in hand):
                return Hint(play, N_("Plays {card} into your {hometown}: {colour} reaches {total}, over the "
                                     "{capital}'s {limit} for now, but your other {colour} cards can raise it."),
                            params)
            return Hint(play, N_("Plays {card} into your {hometown}: {colour} reaches {total}, over the "
                                 "{capital}'s {limit}, but every other card costs more."), params)
        params.update(limit=math.floor(limit + card.value))
        if colour == "Y":
            at_risk = any(t.home[me][i] > t.limit[i] for i in range(len(COLOURS)))
            if at_risk and t.gold_pile:
                return Hint(play, N_("Plays {card} into the {capital} for a gold disc: you may need gold "
                                     "to keep a colour over its limit."), params)
        if total > limit or any(k.colour == colour and k != card and k.value > limit - total for k in hand):
            return Hint(play, N_("Plays {card} into the {capital} to make room: {colour}'s limit rises to "
                                 "{limit}."), params)
        if total + card.value <= limit and any(t.known[c] + added < total + card.value for added, _ in t.chances[c]):
            params.update(total=total + card.value, limit=math.floor(limit))
            return Hint(play, N_("Plays {card} into the {capital}: in your {hometown}, {colour} would reach {total}, "
                                 "within the {capital}'s {limit} as estimated, but a face-down modifier may put "
                                 "that limit lower."), params)
        if colour == "Y":
            return Hint(play, N_("Plays {card} into the {capital} for a gold disc, worth a point at the end."),
                        params)
        if colour == "G":
            return Hint(play, N_("Plays {card} into the {capital} to draw a card: it does not fit your "
                                 "{hometown} as well as the others."), params)
        if colour == "B":
            return Hint(play, N_("Plays {card} into the {capital} to place a modifier where it hurts the "
                                 "leader or helps you."), params)
        take = cleric_take(t, KIND[card])
        if take is not None:
            params["colour2"] = COLOURS[take]
            return Hint(play, N_("Plays {card} into the {capital}: the Cleric brings the lowest {colour2} "
                                 "card to your {hometown}."), params)
        return Hint(play, N_("Plays {card} into the {capital}: it would not fit your {hometown}."), params)

    def _agent(self, t: Table, modifier: int, best: PlaceModifier) -> Hint:
        colour = best.colour
        c = COLOURS.index(colour)
        params: dict[str, str | int] = {"modifier": modifier, "colour": colour}
        mine, theirs = t.home[t.me][c], t.home[leader(t)][c]
        if modifier < 0 and theirs > mine:
            return Hint(best, N_("Puts the {modifier} above {colour}: it lowers that limit where the leader "
                                 "has more at stake than you."), params)
        if modifier > 0 and mine > theirs:
            return Hint(best, N_("Puts the {modifier} above {colour}: it raises that limit where you have more "
                                 "at stake than the leader."), params)
        return Hint(best, N_("Puts the {modifier} above {colour}, where it does you the least harm."), params)

    def _gold(self, t: Table, best: SaveWithGold) -> Hint:
        if not best.colours:
            return Hint(best, N_("Keeps the gold: the cards over the limit are not worth more than it."), {})
        totals, costs = _gold_costs(t)
        spent = sum(costs[COLOURS.index(c)] for c in best.colours)
        saved = sum(totals[COLOURS.index(c)] for c in best.colours)
        return Hint(best, N_("Spends {gold} gold to keep {saved} points of cards."), {"gold": spent, "saved": saved})


class SearchBot:
    """Information-set Monte Carlo tree search within a budget of iterations or seconds."""

    name = "search"

    def __init__(self, iterations: int | None = None, seconds: float | None = None, **options: float) -> None:
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations = iterations
        self.seconds = seconds
        self.options = options  # the search's other settings (``exploration``)
        self.last_iterations = 0  # iterations of the last search (0 when the move was forced)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        from .search import ismcts

        legal = _legal(view)
        stats = {"iterations": 0.0}
        if len(legal) > 1:
            action = ismcts(view, rng, iterations=self.iterations, seconds=self.seconds, stats=stats, **self.options)
        else:
            action = legal[0]
        self.last_iterations = int(stats["iterations"])
        return action

    def __repr__(self) -> str:
        return f"SearchBot(iterations={self.iterations}, seconds={self.seconds})"


BOT_KINDS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "rule": RuleOfThumbBot, "search": SearchBot}


def make_bot(kind: str, **options: float) -> Bot:
    """A bot of a kind named in ``BOT_KINDS``; options go to its constructor."""
    if kind not in BOT_KINDS:
        raise CapitalLuxError(N_("unknown bot kind {kind}: choose from {kinds}"), kind=repr(kind),
                              kinds=", ".join(BOT_KINDS))
    if options and kind != "search":
        raise CapitalLuxError(N_("the {kind} bot takes no options (got {options})"), kind=kind,
                              options=", ".join(options))
    return BOT_KINDS[kind](**options)


def line_up(bots: str | Sequence[str], seats: int) -> list[str]:
    """One bot spec per seat, from ``"rule,random"`` or a list: the last one given fills
    the remaining seats (so one bot fills them all). Refuses more bots than seats and
    unknown bots.

    >>> line_up("rule,random", 4)
    ['rule', 'random', 'random', 'random']
    """
    given = bots.split(",") if isinstance(bots, str) else list(bots)
    specs = [spec.strip() for spec in given if spec.strip()]
    if not specs:
        raise CapitalLuxError(N_("no bot given: choose from {kinds}"), kinds=", ".join(BOT_KINDS))
    if len(specs) > seats:
        raise CapitalLuxError(N_("{given} bots for {seats} seats"), given=len(specs), seats=seats)
    specs += [specs[-1]] * (seats - len(specs))
    for spec in specs:
        parse_bot(spec)
    return specs


def parse_bot(spec: str) -> Bot:
    """A bot from text: ``random``, ``rule``, ``search``, ``search:iterations=500``, ``search:seconds=1``."""
    kind, *settings = spec.strip().split(":")
    options: dict[str, float] = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or key not in ("iterations", "seconds"):
            raise CapitalLuxError(N_("bad bot option {setting} in {spec}: expected iterations=N or seconds=S"),
                                  setting=repr(setting), spec=repr(spec))
        try:
            options[key] = int(value) if key == "iterations" else float(value)
        except ValueError:
            raise CapitalLuxError(N_("bad bot option {setting} in {spec}: {value} is not a number"),
                                  setting=repr(setting), spec=repr(spec), value=repr(value)) from None
        if not math.isfinite(options[key]) or options[key] <= 0:  # nan would never end a search
            raise CapitalLuxError(N_("bad bot option {setting} in {spec}: must be positive"),
                                  setting=repr(setting), spec=repr(spec))
    return make_bot(kind, **options)


def as_policy(bot: Bot) -> Callable[[GameState, random.Random], Action]:
    """A ``game.Policy`` for ``play_game``: the bot decides from the current seat's view only."""

    def policy(state: GameState, rng: random.Random) -> Action:
        return bot.choose(view(state, state.current), rng)

    return policy
