"""The vocabulary shared by the state and the rules: phases, events, the refusal error.

It lives apart from ``state`` (the data) and ``rules`` (the transitions) so that
``state`` can call ``rules`` and ``rules`` can name phases without either module
importing the other half-built.

>>> hand_size(4), ROUNDS, DRAFT in PHASES
(5, 3, True)
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card
from .errors import IllegalActionError as IllegalActionError  # re-exported: callers import it here

CHANCE = -1
TERMINAL = -4

SETUP_CAPITAL = "setup_capital"  # chance: the first card goes into the capital
SETUP_MODIFIERS = "setup_modifiers"  # chance: one modifier to each seat picks the starter
DEAL = "deal"  # chance: profession cards dealt for the draft
DRAFT = "draft"  # decision: pick cards from those being chosen from
PLAY = "play"  # decision: a card into the hometown or the capital
SCHOLAR = "scholar"  # chance: a Scholar's draw
AGENT_DRAW = "agent_draw"  # chance: an Agent's modifier
AGENT = "agent"  # decision: where the Agent puts the modifier
CLERIC = "cleric"  # decision: which colour the Cleric takes from
GOLD = "gold"  # decision: which exceeding colours to keep with gold
OVER = "over"

PHASES = (SETUP_CAPITAL, SETUP_MODIFIERS, DEAL, DRAFT, PLAY, SCHOLAR, AGENT_DRAW, AGENT, CLERIC, GOLD, OVER)
CARD_CHANCE_PHASES = frozenset({SETUP_CAPITAL, DEAL, SCHOLAR})
MODIFIER_CHANCE_PHASES = frozenset({SETUP_MODIFIERS, AGENT_DRAW})
CHANCE_PHASES = CARD_CHANCE_PHASES | MODIFIER_CHANCE_PHASES
ROUNDS = 3


class Event(NamedTuple):
    """Something that happened, for the game log. ``private_to`` is -1 when public."""

    kind: str
    player: int = -1
    cards: tuple[Card, ...] = ()
    colours: tuple[str, ...] = ()
    amount: int = 0
    private_to: int = -1


def hand_size(players: int) -> int:
    """Cards dealt to each player for the draft: 6 with 2-3 players, 5 with 4 (ruling R19:
    two players use the standard rules, with 6-card hands and no variant)."""
    return 5 if players == 4 else 6
