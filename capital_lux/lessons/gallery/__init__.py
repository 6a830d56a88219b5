"""Positions to explore and to teach from: the rulebook's examples and a few
instructive moments. Each is a position file (``<name>.json``) written by
``python -m capital_lux.lessons.gallery.build``.

>>> state = load("rulebook-bonus")
>>> state.players, state.round
(3, 1)
>>> all(name in NAMES for name in ("first-deal", "last-turn"))
True
"""

from __future__ import annotations

from importlib import resources

from ...engine.cards import N_
from ...engine.position import loads_position
from ...engine.state import GameState


#: Gallery names and their titles (English msgids: show them with ``t.gettext``).
TITLES: dict[str, str] = {
    # the rulebook's Bob and Mary are named as the page names their seats
    "rulebook-agent": N_("Rulebook: Player 2's Agent looks at a modifier and places it"),
    "rulebook-cleric": N_("Rulebook: Player 1's Cleric takes the lowest card of a colour"),
    "rulebook-bonus": N_("Rulebook: three players tie for the yellow bonus cards"),
    "rulebook-round-end": N_("Rulebook: gold discs keep two colours, the third is discarded"),
    "first-deal": N_("The first deal of a seeded game"),
    "modifiers-round-2": N_("Two face-down modifiers above the Merchant"),
    "agent-drew": N_("An Agent has just drawn a modifier"),
    "last-turn": N_("The very last turn of round 2"),
    "short-deck": N_("One Scholar draw away from a short deck in round 3"),
}
NAMES: tuple[str, ...] = tuple(TITLES)


def text(name: str) -> str:
    """The position file of a gallery entry, as JSON text."""
    if name not in TITLES:
        raise KeyError(f"{name!r} is not in the gallery; choose from {', '.join(NAMES)}")
    return resources.files(__name__).joinpath(f"{name}.json").read_text("utf-8")


def load(name: str) -> GameState:
    """The position of a gallery entry (checked like any position file)."""
    return loads_position(text(name))
