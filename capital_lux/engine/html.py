"""HTML for notebooks: a state or a player's view shows itself as a table.

Cards carry their colour, their role's name and their value, and a symbol, so
colour is never the only signal.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .cards import COLOUR_NAMES, COLOURS, ROLES, SYMBOLS, Card, format_modifier

if TYPE_CHECKING:
    from .state import GameState
    from .views import PlayerView

BACKGROUNDS = {"B": "#cfe0f7", "G": "#d3efd0", "P": "#f7d3e6", "Y": "#f7ecb5"}
BORDERS = {"B": "#2b5ca8", "G": "#2e7d32", "P": "#ad1457", "Y": "#8d6e00"}
STYLE = (
    "<style>.cl-card{display:inline-block;margin:1px;padding:1px 4px;border:2px solid;"
    "border-radius:4px;font:13px sans-serif;color:#111}.cl-back{display:inline-block;margin:1px;"
    "padding:1px 4px;border:2px dashed #555;border-radius:4px;font:13px sans-serif}"
    ".cl-table td,.cl-table th{padding:2px 6px;text-align:left;vertical-align:top}</style>"
)


def card_html(card: Card, role: str | None = None) -> str:
    """One card: symbol, role name and value on its colour, with the code in a tooltip."""
    c = card.colour
    name = escape(role or ROLES[c])
    return (
        f'<span class="cl-card cl-{c}" title="{card} ({COLOUR_NAMES[c]})" '
        f'style="background:{BACKGROUNDS[c]};border-color:{BORDERS[c]}">'
        f"{SYMBOLS[c]} {name} <b>{card.value}</b></span>"
    )


def back_html(label: str) -> str:
    """Something face down: a dashed box with a label such as '?' or '3 cards'."""
    return f'<span class="cl-back">{escape(label)}</span>'


def _cards(colour: str, values: tuple[int, ...] | list[int]) -> str:
    return "".join(card_html(Card(colour, v)) for v in values)


def _modifiers(slots: list[tuple[int, int | None]]) -> str:
    return "".join(back_html(f"P{o}: " + ("?" if v is None else format_modifier(v))) for o, v in slots)


def _table(
    players: int,
    capital: dict[str, tuple[int, ...]],
    mods: dict[str, list[tuple[int, int | None]]],
    towns: list[dict[str, tuple[int, ...]]],
    hands: list[str],
    gold: list[int],
    bonus: list[str],
    caption: str,
) -> str:
    head = "".join(f"<th>{SYMBOLS[c]} {ROLES[c]} ({COLOUR_NAMES[c]})</th>" for c in COLOURS)
    rows = [f"<tr><th>Capital</th>{''.join(f'<td>{_cards(c, capital[c])}{_modifiers(mods[c])}</td>' for c in COLOURS)}"
            "<td></td><td></td><td></td></tr>"]
    for p in range(players):
        cells = "".join(f"<td>{_cards(c, towns[p][c])}</td>" for c in COLOURS)
        rows.append(f"<tr><th>Player {p}</th>{cells}<td>{hands[p]}</td><td>{gold[p]}</td><td>{bonus[p]}</td></tr>")
    return (
        f'{STYLE}<table class="cl-table"><caption>{escape(caption)}</caption>'
        f"<tr><th></th>{head}<th>Hand</th><th>Gold</th><th>Bonus</th></tr>{''.join(rows)}</table>"
    )


def state_html(s: GameState) -> str:
    """The whole table, hidden information included (an umpire's view)."""
    mods = {c: [(o, v) for o, v in s.modifiers_above[c]] for c in COLOURS}
    return _table(
        s.players,
        {c: tuple(s.capital[c]) for c in COLOURS},
        mods,  # type: ignore[arg-type]
        [{c: tuple(t[c]) for c in COLOURS} for t in s.hometowns],
        ["".join(card_html(c) for c in s.hands[p] + s.draft_hands[p] + s.draft_picks[p]) for p in range(s.players)],
        s.gold,
        ["".join(card_html(c) for c in b) for b in s.bonus],
        f"Round {s.round}, phase {s.phase}, deck {s.deck_size()} cards, gold pile {s.gold_pile}",
    )


def view_html(v: PlayerView) -> str:
    """The table as player ``v.viewer`` sees it: others' hands as counts, unknown modifiers as '?'."""
    mods = {c: [(m.owner, m.value) for m in v.modifiers_above[c]] for c in COLOURS}
    hands = []
    for p in range(v.players):
        if p == v.viewer:
            hands.append("".join(card_html(c) for c in v.hand + v.draft_hand + v.draft_picks))
        else:
            count = v.hand_sizes[p] + v.draft_hand_sizes[p] + v.draft_pick_counts[p]
            hands.append(back_html(f"{count} card" + ("" if count == 1 else "s")))
    return _table(
        v.players,
        v.capital,
        mods,
        list(v.hometowns),
        hands,
        list(v.gold),
        ["".join(card_html(c) for c in b) for b in v.bonus],
        f"Player {v.viewer}'s view: round {v.round}, phase {v.phase}, deck {v.deck_size} cards",
    )
