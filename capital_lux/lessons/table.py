"""The table as HTML, drawn from the learner's view only.

Opponents' hands show as counts and their face-down modifiers as "?": the view
has nothing else to give, so nothing else can reach the page. Widget-free, so the
tutor's pages and the printed worksheet (``lessons.problems.worksheet``) draw one table.
"""

from __future__ import annotations

from html import escape

from ..engine.cards import COLOURS, SYMBOLS, Card, format_modifier
from ..engine.html import BACKGROUNDS, BORDERS
from ..engine.state import AGENT, CLERIC, DEAL, DRAFT, GOLD, OVER, PLAY
from ..engine.views import PlayerView
from ..i18n import Translator
from ..i18n.sentences import player_name

CSS = """<style>
.cl-tutor .cl-card{display:inline-block;margin:1px;padding:1px 5px;border:2px solid;border-radius:4px;
 font:13px sans-serif;color:#111;white-space:nowrap}
.cl-tutor .cl-back{display:inline-block;margin:1px;padding:1px 5px;border:2px dashed #555;border-radius:4px;
 font:13px sans-serif;color:#111;white-space:nowrap}
.cl-tutor .cl-own{border-style:solid;background:#eee}
.cl-tutor table.cl-table{border-collapse:collapse;margin:4px 0}
.cl-tutor .cl-table td,.cl-tutor .cl-table th{padding:3px 6px;text-align:left;vertical-align:top;
 border-bottom:1px solid #ddd;line-height:1.35}
.cl-tutor .cl-table th{white-space:normal}
/* Nothing clipped at 1024 px or in a long language: boxes may shrink, wide content scrolls, */
/* tab labels keep their whole text and wrap onto a second row of tabs. */
.cl-tutor .widget-vbox>*,.cl-tutor .widget-hbox>*{min-width:0}
.cl-tutor .widget-html,.cl-tutor .widget-html-content{max-width:100%}
.cl-tutor .widget-html-content{overflow-x:auto}
.cl-tutor .lm-TabBar-content{flex-wrap:wrap}
.cl-tutor .lm-TabBar-tab{flex:0 0 auto !important;max-width:none !important}
.cl-tutor .widget-tab>.lm-TabBar{height:auto;overflow:visible}
/* A control's label is as wide as its words (ipywidgets cuts it at 80 px with "…"). */
.cl-tutor .widget-inline-hbox>.widget-label{width:auto;max-width:none;flex:0 0 auto}
/* A choice whose label and list do not fit on one line puts the list under its label. */
.cl-tutor .cl-wrap.widget-inline-hbox{flex-wrap:wrap;height:auto}
.cl-tutor .cl-wrap>select{flex:1 0 auto}
.cl-tutor .cl-ref{color:#555}
.cl-tutor .cl-table tr.cl-you{background:#fffbe6}
.cl-tutor .cl-total{color:#444;font-size:12px}
.cl-tutor .cl-log{max-height:260px;overflow-y:auto;font:13px sans-serif;border:1px solid #ccc;padding:4px}
.cl-tutor .cl-log p{margin:2px 0}
.cl-tutor .cl-note{font:14px sans-serif;margin:4px 0}
/* Free play's table: a card shows its symbol and value under its colour's heading (the role */
/* is in the heading and the tooltip), so a late round's table leaves the hand in view. */
.cl-tutor .cl-freeplay .cl-table-wrap .cl-role{display:none}
.cl-tutor .cl-freeplay .cl-table-wrap td,.cl-tutor .cl-freeplay .cl-table-wrap th{padding:2px 6px;line-height:1.2}
/* and four cards of a colour, or four bonus cards, share one line at 1280 px */
.cl-tutor .cl-freeplay .cl-table-wrap .cl-card{padding:1px 3px}
.cl-tutor .cl-risklines{font:13px sans-serif;margin:4px 0}
.cl-tutor .cl-risklines ul{list-style:none;margin:2px 0;padding:0}
.cl-tutor .cl-risklines li{margin:1px 0}
.cl-tutor .cl-error{color:#8a1c1c;font:14px sans-serif}
.cl-tutor .cl-exceed{color:#8a1c1c;font-weight:bold}
.cl-tutor .cl-safe{color:#1b5e20}
.cl-tutor .cl-selected{outline:3px solid #222;outline-offset:1px}
</style>"""


def phase_text(t: Translator, phase: str, to_move_is_you: bool, seat: int | None = None) -> str:
    """What is happening, for the learner. ``seat``: the player to move where nobody plays
    for them (an exercise's position); None in a game against bots."""
    if phase == OVER:
        return t.gettext("The game is over.")
    if phase == DEAL:
        return t.gettext("Cards are being dealt.")
    if not to_move_is_you and seat is not None:
        return t.gettext("Player {seat} is to move.").format(seat=seat)
    if not to_move_is_you:
        return t.gettext("The bots are playing.")
    if phase == DRAFT:
        return t.gettext("Choose cards: pick 2 of the cards you hold; the rest pass to the next player.")
    if phase == PLAY:
        return t.gettext("Play a card: click a card of your hand, then put it into your Hometown or into the Capital.")
    if phase == AGENT:
        return t.gettext("Agent: choose the Capital colour your modifier goes above (face down).")
    if phase == CLERIC:
        return t.gettext("Cleric: choose the colour whose lowest Capital card you take into your Hometown.")
    if phase == GOLD:
        return t.gettext("Round end: choose which exceeding colours you keep by paying gold.")
    return ""


def modifier_text(value: int | None) -> str:
    return "?" if value is None else format_modifier(value)


def card_html(t: Translator, card: Card) -> str:
    """One card: symbol, translated role and value on its colour; the colour named in the tooltip."""
    c = card.colour
    title = escape(f"{t.role(c)} {card.value} ({t.colour(c)})")
    return (
        f'<span class="cl-card cl-{c}" title="{title}" '
        f'style="background:{BACKGROUNDS[c]};border-color:{BORDERS[c]}">'
        f'{SYMBOLS[c]} <span class="cl-role">{escape(t.role(c))}</span> <b>{card.value}</b></span>'
    )


def cards_html(t: Translator, cards: list[Card] | tuple[Card, ...]) -> str:
    return "".join(card_html(t, c) for c in cards)


def back_html(label: str, own: bool = False) -> str:
    cls = "cl-back cl-own" if own else "cl-back"
    return f'<span class="{cls}">{escape(label)}</span>'


def colour_header(t: Translator, colour: str) -> str:
    """A colour's column heading, "◆ Agent (blue)" (the printed sheet names the colours once, in its legend)."""
    return (f"{escape(SYMBOLS[colour])} {escape(t.role(colour))} "
            f'<span class="cl-colour-name">({escape(t.colour(colour))})</span>')


def table_html(t: Translator, v: PlayerView, move: int, bots: bool = True, doing: bool = True) -> str:
    """The whole table as the learner sees it; ``move`` lets a browser wait for a redraw.
    ``bots=False``: nobody plays the other seats (an exercise), so they are "Player 1"…
    ``doing=False``: no line saying what to do next (a question, where nothing is played)."""
    me = v.viewer
    head = "".join(f"<th>{colour_header(t, c)}</th>" for c in COLOURS)
    capital_cells = []
    for c in COLOURS:
        mods = "".join(
            back_html(
                t.gettext("{player}: {value}").format(player=player_name(t, m.owner, me, bots=bots), value=modifier_text(m.value)),
                own=m.owner == me,
            )
            for m in v.modifiers_above[c]
        )
        total = v.capital_total(c)
        if total is None:
            total_text = t.gettext("limit: {known} + ?").format(known=sum(v.capital[c]) + v.known_modifiers(c))
        else:
            total_text = t.gettext("limit: {total}").format(total=total)
        cards = cards_html(t, [Card(c, x) for x in v.capital[c]])
        capital_cells.append(f'<td>{cards}{mods}<div class="cl-total">{escape(total_text)}</div></td>')
    rows = [f"<tr><th>{escape(t.term('Capital'))}</th>{''.join(capital_cells)}<td></td><td></td><td></td></tr>"]
    for p in range(v.players):
        name = escape(player_name(t, p, me, bots=bots))
        marks = []
        if p == v.starting_player:  # in the draft everyone picks at once: who starts plays first after it
            marks.append(escape(t.gettext("plays first after the draft") if v.phase in (DEAL, DRAFT)
                                else t.gettext("starts")))
        if v.to_move == p:
            marks.append("▶ " + escape(t.gettext("to move")))
        cells = []
        for c in COLOURS:
            values = v.hometowns[p][c]
            town_total = f'<div class="cl-total">= {sum(values)}</div>' if values else ""
            cells.append(f"<td>{cards_html(t, [Card(c, x) for x in values])}{town_total}</td>")
        if v.phase in (DEAL, DRAFT) and v.draft_pick_counts[p]:
            # "6 cards" after 2 were set aside read as if nothing had happened: say both
            held, aside = v.draft_hand_sizes[p], v.draft_pick_counts[p]
            hand = escape(t.ngettext("{n} card to choose from", "{n} cards to choose from", held).format(n=held)
                          + " · " + t.ngettext("{n} set aside", "{n} set aside", aside).format(n=aside))
        else:
            held = v.draft_hand_sizes[p] if v.phase in (DEAL, DRAFT) else v.hand_sizes[p]
            hand = escape(t.ngettext("{n} card", "{n} cards", held).format(n=held))
        gold = escape(t.term("gold disc", v.gold[p]))
        bonus = cards_html(t, v.bonus[p])
        cls = ' class="cl-you"' if p == me else ""
        rows.append(
            f'<tr{cls}><th>{name}<div class="cl-total">{" · ".join(marks)}</div></th>{"".join(cells)}'
            f"<td>{back_html(hand)}</td><td>{v.gold[p]} {gold}</td><td>{bonus}</td></tr>"
        )
    header = (
        f"<tr><th></th>{head}<th>{escape(t.term('hand'))}</th><th>{escape(t.term('gold disc', 2))}</th>"
        f"<th>{escape(t.term('bonus card'))}</th></tr>"
    )
    status = t.gettext(
        "Round {round} of 3 · deck: {deck} cards · gold pile: {pile} · modifier deck: {mods}"
    ).format(round=max(v.round, 1), deck=v.deck_size, pile=v.gold_pile, mods=v.modifier_deck_size)
    seat = None if bots or v.to_move < 0 else v.to_move  # < 0: chance or the game's end
    next_step = phase_text(t, v.phase, v.to_move == me, seat)
    return (
        f'<div class="cl-table-wrap" data-move="{move}" data-phase="{v.phase}">'
        f'<div class="cl-note">{escape(status)}</div>'
        f'<table class="cl-table">{header}{"".join(rows)}</table>'
        + (f'<div class="cl-note cl-doing"><b>{escape(next_step)}</b></div>' if doing else "")
        + "</div>"
    )


def position_html(t: Translator, v: PlayerView, move: int, doing: bool = True) -> str:
    """The tutor's table for ``v``, with the others called players (not bots: nobody plays
    them here) and the viewer's own hand and drawn modifier shown below it (``doing``: as
    ``table_html``'s)."""
    html = table_html(t, v, move, bots=False, doing=doing)
    own = list(v.hand) + list(v.draft_hand) + list(v.draft_picks)
    parts = [f'<b>{escape(t.gettext("Your cards:"))}</b> {cards_html(t, own) or "-"}']
    if v.pending_modifier is not None:
        parts.append(escape(t.gettext("The modifier you have just drawn: {value}").format(
            value=format_modifier(v.pending_modifier))))
    return html + f'<div class="cl-note cl-own-hand">{" · ".join(parts)}</div>' + discards_html(t, v)


def discards_html(t: Translator, v: PlayerView) -> str:
    """The discard pile and the deck's size: questions that count unseen cards need both."""
    pile = cards_html(t, list(v.discards)) or escape(t.gettext("empty"))
    deck = escape(t.gettext("Cards in the deck: {count}").format(count=v.deck_size))
    label = escape(t.gettext("Discard pile (out of the game, face up):"))
    return f'<div class="cl-note cl-discards"><b>{label}</b> {pile} · {deck}</div>'
