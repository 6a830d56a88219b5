"""The score sheet: hometown cards, bonus cards and gold, then the tie-breaks (ruling R17).

Drawn from the learner's view; at the end of the game every number on it is public.
"""

from __future__ import annotations

from html import escape

from ..engine.cards import COLOURS, VALUES
from ..i18n import Translator
from ..engine.state import OVER
from ..engine.views import PlayerView
from .text import player_name


def _values(v: PlayerView, p: int) -> list[int]:
    return [x for c in COLOURS for x in v.hometowns[p][c]] + [card.value for card in v.bonus[p]]


def score_rows(v: PlayerView) -> list[tuple[int, int, int, int, int]]:
    """(seat, hometown, bonus, gold, total) for each seat."""
    rows = []
    for p in range(v.players):
        town = sum(v.hometown_total(p, c) for c in COLOURS)
        bonus = sum(card.value for card in v.bonus[p])
        rows.append((p, town, bonus, v.gold[p], town + bonus + v.gold[p]))
    return rows


def score_sheet_html(t: Translator, v: PlayerView, winners: list[int] | None = None, tie_breaks: bool = True) -> str:
    """The running count during the game, the final sheet (with winners) once it is over.

    ``tie_breaks=False`` leaves out the "6s 5s 4s 3s 2s" columns: a chapter before the one
    that explains them shows only what it has taught."""
    final = v.phase == OVER
    breaks = VALUES[::-1] if tie_breaks else ()
    title = t.gettext("Final score sheet") if final else t.gettext("Points so far")
    head = (
        f"<tr><th></th><th>{escape(t.term('Hometown'))}</th><th>{escape(t.term('bonus card', 2))}</th>"
        f"<th>{escape(t.term('gold disc', 2))}</th><th>{escape(t.term('score'))}</th>"
        + "".join(f"<th>{escape(t.gettext('{value}s').format(value=x))}</th>" for x in breaks)
        + "</tr>"
    )
    rows = []
    for p, town, bonus, gold, total in score_rows(v):
        values = _values(v, p)
        counts = "".join(f"<td>{values.count(x)}</td>" for x in breaks)
        name = escape(player_name(t, p, v.viewer))
        if final and winners and p in winners:
            name = "★ " + name
        rows.append(f"<tr><th>{name}</th><td>{town}</td><td>{bonus}</td><td>{gold}</td><td><b>{total}</b></td>{counts}</tr>")
    note = ""
    if final and winners is not None:
        names = ", ".join(player_name(t, p, v.viewer) for p in winners)
        if len(winners) > 1:
            note = t.gettext("A shared win: {players}.").format(players=names)
        elif winners[0] == v.viewer:
            note = t.gettext("You win!")
        else:
            note = t.gettext("{player} wins.").format(player=names)
        note += " " + t.gettext(
            "Ties are broken by the most 6s among Hometown and bonus cards, then 5s, 4s, 3s and 2s (ruling R17)."
        )
    return (
        f'<div class="cl-scores" data-final="{int(final)}"><h4>{escape(title)}</h4>'
        f'<table class="cl-table">{head}{"".join(rows)}</table><div class="cl-note">{escape(note)}</div></div>'
    )
