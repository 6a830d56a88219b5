"""The round end, step by step: what the learner may read once the modifiers are face up.

A ``RoundEndReport`` is made from public information only: the table after the
round end, the round-end events, and the modifiers as they were turned face up
(the reveal makes their values public).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape

from ..engine.cards import COLOURS, Card, format_modifier
from ..i18n import Translator
from ..engine.rules import over_limit
from ..engine.state import GOLD, Event, GameState
from ..engine.views import PlayerView
from ..lessons.table import cards_html
from ..i18n.editions import edition_notes
from .text import colour_text, event_line, player_name


@dataclass(frozen=True)
class RoundEndReport:
    round: int
    players: int
    modifiers: dict[str, tuple[tuple[int, int], ...]]  # as revealed: (owner, value)
    capital_totals: dict[str, int]  # limits at the reveal
    hometown_totals: tuple[dict[str, int], ...]  # at the reveal, hands included
    has_cards: tuple[dict[str, bool], ...]
    events: tuple[Event, ...]  # from the reveal to the next starting player (or the end)
    # The learner's table as the round end left it, before the next round's deal, and the
    # length of the learner's log at that moment: the page can pause there (see ``paused_table``).
    table: PlayerView | None = None
    log_end: int = 0


#: The log's kinds that the step-by-step report tells: while the page pauses on a round
#: end, the log and the "what followed" panel leave them to the report (each said once).
REPORTED = frozenset({"last_turns", "turn_skipped", "hand_to_hometown", "reveal", "gold_spent", "discard", "bonus",
                      "starting_player", "game_over"})


def paused_table(r: RoundEndReport) -> PlayerView | None:
    """The table to show while the page pauses on ``r``: the view after the round end, still
    numbered as the round that ended and in its round-end phase (no next round's draft yet)."""
    if r.table is None:
        return None
    return replace(r.table, round=r.round, phase=GOLD, legal_actions=())


def make_report(
    state: GameState, round_: int, revealed: dict[str, list[tuple[int, int]]], events: list[Event]
) -> RoundEndReport:
    """Rebuild the table at the reveal: put back the bonus cards taken and the cards discarded."""
    capital = {c: list(state.capital[c]) for c in COLOURS}
    towns = [{c: list(state.hometowns[p][c]) for c in COLOURS} for p in range(state.players)]
    for e in events:
        if e.kind == "bonus":
            for card in e.cards:
                capital[card.colour].append(card.value)
        elif e.kind == "discard":
            for card in e.cards:
                towns[e.player][card.colour].append(card.value)
    limits = {c: sum(capital[c]) + sum(v for _, v in revealed[c]) for c in COLOURS}
    return RoundEndReport(
        round=round_,
        players=state.players,
        modifiers={c: tuple(revealed[c]) for c in COLOURS},
        capital_totals=limits,
        hometown_totals=tuple({c: sum(t[c]) for c in COLOURS} for t in towns),
        has_cards=tuple({c: bool(t[c]) for c in COLOURS} for t in towns),
        events=tuple(events),
    )


def _step(title: str, body: str) -> str:
    """A step's heading, then what happened in sentences of their own (never glued after a colon)."""
    return f'<li><div class="cl-step"><b>{escape(title)}</b></div><div class="cl-step-body">{body}</div></li>'


def report_html(t: Translator, r: RoundEndReport, learner: int) -> str:
    """The round end as numbered steps, each with what happened at this table."""

    def lines(*kinds: str) -> str:
        texts = [escape(event_line(t, e, learner)) for e in r.events if e.kind in kinds]
        return "<br>".join(texts) if texts else escape(t.gettext("Nothing this time."))

    mods = []
    for c in COLOURS:
        for owner, value in r.modifiers[c]:
            mods.append(
                escape(
                    # TRANSLATORS: {colour} is a label such as "◆ Agent (blue)", not a noun taking an article.
                    t.gettext("{value} above {colour} (placed by you)").format(
                        value=format_modifier(value), colour=colour_text(t, c))
                    if owner == learner
                    else t.gettext("{value} above {colour} (placed by {player})").format(
                        value=format_modifier(value), colour=colour_text(t, c), player=player_name(t, owner, learner)
                    )
                )
            )
    reveal = "<br>".join(mods) if mods else escape(t.gettext("No modifier was placed this round."))
    head = "".join(f"<th>{escape(colour_text(t, c))}</th>" for c in COLOURS)
    limit_row = "".join(f"<td>{r.capital_totals[c]}</td>" for c in COLOURS)
    rows = [f"<tr><th>{escape(t.term('limit'))}</th>{limit_row}</tr>"]
    for p in range(r.players):
        cells = []
        for c in COLOURS:
            total = r.hometown_totals[p][c]
            if not r.has_cards[p][c]:
                cells.append("<td>–</td>")
            elif over_limit(1, total, r.capital_totals[c]):
                n = over_limit(1, total, r.capital_totals[c])
                over = escape(t.gettext("{total}: exceeds by {n}").format(total=total, n=n))
                cells.append(f'<td class="cl-exceed">{over}</td>')
            else:
                cells.append(f'<td class="cl-safe">{escape(t.gettext("{total}: safe").format(total=total))}</td>')
        rows.append(f"<tr><th>{escape(player_name(t, p, learner))}</th>{''.join(cells)}</tr>")
    limits = (
        escape(t.gettext("Each Hometown colour is compared with the Capital total of that colour, modifiers "
                         "included. Equal is safe (ruling R7)."))
        + f'<table class="cl-table"><tr><th></th>{head}</tr>{"".join(rows)}</table>'
    )
    steps = [
        _step(t.gettext("1. Last turns and hands"), lines("last_turns", "turn_skipped", "hand_to_hometown")),
        _step(t.gettext("2. Reveal"), reveal),
        _step(t.gettext("3. Check limits"), limits),
        _step(t.gettext("4. Gold and discards (decided in secret, then done at once, ruling R6)"),
              lines("gold_spent", "discard")
              + "".join(f'<div class="cl-note cl-edition">{escape(n)}</div>' for n in edition_notes(t, "R6"))),
        _step(t.gettext("5. Bonus cards (ties share out in turn order, rulings R3-R5)"), lines("bonus")),
        _step(t.gettext("6. Next round"), lines("starting_player", "game_over")),
    ]
    title = escape(t.gettext("Round {number} end, step by step").format(number=r.round))
    return f'<div class="cl-roundend"><h4>{title}</h4><ol style="list-style:none;padding-left:0">{"".join(steps)}</ol></div>'


def gold_decision_html(t: Translator, v: PlayerView) -> str:
    """While the learner decides on gold: each of their colours against its revealed limit."""
    me = v.viewer
    rows = []
    for c in COLOURS:
        cards = v.hometowns[me][c]
        limit = v.capital_total(c)
        if not cards or limit is None:
            continue
        total = sum(cards)
        over = over_limit(len(cards), total, limit)
        if over:
            note = t.ngettext(
                "exceeds by {n}: pay {n} gold disc to keep these cards, or discard them",
                "exceeds by {n}: pay {n} gold discs to keep these cards, or discard them",
                over,
            ).format(n=over)
            cls = "cl-exceed"
        else:
            note, cls = t.gettext("within the limit: safe"), "cl-safe"
        rows.append(
            f"<tr><th>{escape(colour_text(t, c))}</th><td>{cards_html(t, [Card(c, x) for x in cards])}</td>"
            f"<td>{total}</td><td>{limit}</td><td class=\"{cls}\">{escape(note)}</td></tr>"
        )
    head = (
        f"<tr><th></th><th>{escape(t.term('Hometown'))}</th><th>{escape(t.gettext('total'))}</th>"
        f"<th>{escape(t.term('limit'))}</th><th></th></tr>"
    )
    gold = t.ngettext("You have {n} gold disc.", "You have {n} gold discs.", v.gold[me]).format(n=v.gold[me])
    return (
        f'<div class="cl-roundend"><h4>{escape(t.gettext("Round end: your limits"))}</h4>'
        f'<table class="cl-table">{head}{"".join(rows)}</table><div class="cl-note">{escape(gold)} '
        f'{escape(t.gettext("The others decide in secret too; nobody sees a choice before all are made."))}</div></div>'
    )
