"""A game's review in the reader's language: the table, the summaries and the key moments,
as plain text (the command line) or as a page a teacher can hand out (``review_html``).

Every text is a whole sentence or a label of the catalogue; numbers are written in the
reader's locale. The tutor's page reads the same functions.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from ..engine.notation import parse_action
from ..i18n import Translator
from ..i18n.formatting import format_interval, format_number, format_percent
from ..engine.cards import Card
from ..engine.notation import Pick
from ..i18n.sentences import TERMINAL, Style, action_label, cards_text, colour_label, player_name
from .review import GAME_HORIZON, HORIZON, THRESHOLDS, VERDICTS, Decision, Review, Summary

__all__ = [
    "verdict_name", "verdict_label", "decision_kind", "move_text", "points_text", "loss_text", "moment_title", "moment_sentence",
    "reason_sentence",
    "method_sentences", "table_headers", "table_rows", "summary_headers", "summary_rows", "review_text",
    "review_html", "chart_sentences", "chart_svg",
]


def verdict_name(t: Translator, verdict: str) -> str:
    names = {
        "best": t.pgettext("verdict", "best"),
        "good": t.pgettext("verdict", "good"),
        "inaccuracy": t.pgettext("verdict", "inaccuracy"),
        "mistake": t.pgettext("verdict", "mistake"),
        "blunder": t.pgettext("verdict", "blunder"),
    }
    return names[verdict]


def verdict_label(t: Translator, d: Decision, review: Review | None = None) -> str:
    """The verdict; when the loss's interval reaches into a worse band, that it cannot tell and
    the worst the interval allows; and when ``d`` was judged to the round's end in a review to
    the game's end (its budget did not reach), that too."""
    name, worst = verdict_name(t, d.verdict), verdict_name(t, d.worst)
    short = review is not None and review.horizon == GAME_HORIZON and review.depth_of(d) == HORIZON
    if short and not d.sure:
        # TRANSLATORS: a verdict (good, inaccuracy...) whose interval reaches a worse one, judged to the round's end
        return t.pgettext("verdict", "{verdict} (cannot tell: up to {worst}; judged to the round's end)").format(
            verdict=name, worst=worst)
    if short:
        # TRANSLATORS: a verdict judged to the round's end where the game's end did not fit in the review's time
        return t.pgettext("verdict", "{verdict} (judged to the round's end)").format(verdict=name)
    if d.sure:
        return name
    # TRANSLATORS: a verdict on a move (good, inaccuracy...) whose interval of lost points reaches a worse verdict
    return t.pgettext("verdict", "{verdict} (cannot tell: up to {worst})").format(verdict=name, worst=worst)


def decision_kind(t: Translator, phase: str) -> str:
    kinds = {
        "draft": t.pgettext("decision", "draft pick"),
        "play": t.pgettext("decision", "card played"),
        "agent": t.pgettext("decision", "Agent's modifier"),
        "cleric": t.pgettext("decision", "Cleric's card"),
        "gold": t.pgettext("decision", "gold"),
    }
    return kinds.get(phase, phase)


def move_text(t: Translator, notation: str) -> str:
    """A move of the review ("home B5") as the learner's own move's label."""
    return action_label(t, parse_action(notation))


def _number(t: Translator, value: float) -> str:
    return format_number(value, t.lang, 1)


def points_text(t: Translator, mean: float, half: float) -> str:
    """Expected points: exact, or with their 95% interval."""
    if half == 0:
        return _number(t, mean)
    return format_interval(mean, mean - half, mean + half, t.lang)


def loss_text(t: Translator, d: Decision) -> str:
    if d.verdict == "best":
        return _number(t, 0.0)
    return points_text(t, d.loss, d.loss_half)


def moment_title(t: Translator, d: Decision) -> str:
    return t.gettext("Round {round}, action {number}: {kind}").format(
        round=d.round, number=d.index + 1, kind=decision_kind(t, d.phase))


def moment_sentence(t: Translator, d: Decision, horizon: str = HORIZON) -> str:
    """Why the best move was better, in one sentence (``horizon``: the review's)."""
    values = {
        "played": move_text(t, d.played), "best": move_text(t, d.best), "loss": _number(t, d.loss),
        "hometown": t.term("Hometown"), "capital": t.term("Capital"),
        "played_risk": format_percent(d.played_risk or 0.0, t.lang),
        "best_risk": format_percent(d.best_risk or 0.0, t.lang),
    }
    reason = d.reason
    if horizon == GAME_HORIZON:
        return _moment_sentence_to_the_end(t, reason).format(**values)
    if reason == "gold":
        text = t.gettext("Your gold choice “{played}” left you {loss} points fewer at the end of the round than "
                         "“{best}”.")
    elif reason == "risk":
        text = t.gettext("“{played}” made it more likely that a colour of your {hometown} exceeds the {capital} at "
                         "the reveal ({played_risk} against {best_risk} with “{best}”), and cost {loss} expected "
                         "points by the end of the round.")
    elif reason == "riskier_best":
        text = t.gettext("“{best}” was worth {loss} more expected points by the end of the round than “{played}”, "
                         "even though it left a colour more likely to exceed ({best_risk} against {played_risk}).")
    else:
        text = t.gettext("“{best}” was worth {loss} more expected points by the end of the round than “{played}”, "
                         "for about the same risk.")
    return text.format(**values)


#: A colour's chance of exceeding must differ by this much between two moves for the reason to name it.
COLOUR_REASON = 0.05


def _passed_cards(d: Decision) -> list[Card]:
    """Draft: the cards the best pick kept that the pick played passed on to the next player."""
    played, best = parse_action(d.played), parse_action(d.best)
    if not isinstance(played, Pick) or not isinstance(best, Pick):
        return []
    passed = list(best.cards)
    for card in played.cards:
        if card in passed:
            passed.remove(card)
    return passed


def reason_sentence(t: Translator, d: Decision) -> str:
    """Why the best move was better, in the tutor's words and the review's own figures: the gold
    each choice paid; the colour whose chance of exceeding changed most; the card the pick played
    passed on to the next player; else that the difference is in the points the cards bring."""
    values = {"played": move_text(t, d.played), "best": move_text(t, d.best)}
    if d.played_gold is not None and d.best_gold is not None:
        gold = {**values, "played_gold": d.played_gold, "best_gold": d.best_gold}
        if d.played_gold > d.best_gold:
            return t.gettext("“{played}” paid {played_gold} in gold and “{best}” {best_gold}: the gold you spent was "
                             "worth more than the cards it kept.").format(**gold)
        if d.played_gold < d.best_gold:
            return t.gettext("“{played}” paid {played_gold} in gold and “{best}” {best_gold}: the cards that gold "
                             "would have kept were worth more than the gold.").format(**gold)
        return t.gettext("Both choices paid {played_gold} in gold: the difference is in which colours are kept, "
                         "and the bonus cards they win.").format(**gold)
    if d.colour is not None and d.played_colour_risk is not None and d.best_colour_risk is not None \
            and abs(d.played_colour_risk - d.best_colour_risk) >= COLOUR_REASON:
        risk = {**values, "colour": colour_label(t, d.colour),
                "played_risk": format_percent(d.played_colour_risk, t.lang),
                "best_risk": format_percent(d.best_colour_risk, t.lang)}
        if d.played_colour_risk > d.best_colour_risk:
            return t.gettext("After “{played}” your colour {colour} had a chance of {played_risk} to exceed its limit "
                             "at the reveal, against {best_risk} after “{best}”.").format(**risk)
        return t.gettext("“{best}” took more risk with your colour {colour} ({best_risk} to exceed its limit at the "
                         "reveal, against {played_risk} after “{played}”), and its points were worth it.").format(**risk)
    passed = _passed_cards(d)
    if passed:
        return t.ngettext("“{played}” passed {cards} on to the next player, who could take it; “{best}” would have "
                          "kept it.",
                          "“{played}” passed {cards} on to the next player, who could take them; “{best}” would have "
                          "kept them.", len(passed)).format(cards=cards_text(t, passed), **values)
    return t.gettext("Neither move changed a colour's chance of exceeding by much: the difference is in the points "
                     "the cards bring.")


def _moment_sentence_to_the_end(t: Translator, reason: str) -> str:
    if reason == "gold":
        return t.gettext("Your gold choice “{played}” cost {loss} points of expected final margin over the best "
                         "other player against “{best}”.")
    if reason == "risk":
        return t.gettext("“{played}” made it more likely that a colour of your {hometown} exceeds the {capital} at "
                         "the reveal ({played_risk} against {best_risk} with “{best}”), and cost {loss} points of "
                         "expected final margin over the best other player.")
    if reason == "riskier_best":
        return t.gettext("“{best}” was worth {loss} more points of expected final margin over the best other player "
                         "than “{played}”, even though it left a colour more likely to exceed ({best_risk} against "
                         "{played_risk}).")
    return t.gettext("“{best}” was worth {loss} more points of expected final margin over the best other player "
                     "than “{played}”, for about the same risk.")


def _method_to_the_end(t: Translator, model: str) -> str:
    if model == "random":
        return t.gettext("Each move is judged from what its player could see at that moment, by its effect on the "
                         "final result: the expected margin of its player's final score over the best other "
                         "player's, every game played on to the end with every player then choosing at random.")
    if model == "search":
        return t.gettext("Each move is judged from what its player could see at that moment, by its effect on the "
                         "final result: the expected margin of its player's final score over the best other "
                         "player's, every game played on to the end with every player then playing like the search "
                         "bot.")
    return t.gettext("Each move is judged from what its player could see at that moment, by its effect on the "
                     "final result: the expected margin of its player's final score over the best other "
                     "player's, every game played on to the end with every player then playing like the rule of "
                     "thumb.")


def method_sentences(t: Translator, review: Review) -> list[str]:
    """How the review judged: the horizon, the opponent model, the thresholds, luck and accuracy."""
    if review.horizon == GAME_HORIZON:
        model = _method_to_the_end(t, review.model)
    elif review.model == "random":
        model = t.gettext("Each move is judged from what its player could see at that moment, by the points it "
                          "could be expected to bring by the end of its round (not of the game), every player "
                          "then choosing at random.")
    elif review.model == "search":
        model = t.gettext("Each move is judged from what its player could see at that moment, by the points it "
                          "could be expected to bring by the end of its round (not of the game), every player "
                          "then playing like the search bot.")
    else:
        model = t.gettext("Each move is judged from what its player could see at that moment, by the points it "
                          "could be expected to bring by the end of its round (not of the game), every player "
                          "then playing like the rule of thumb.")
    thresholds = t.gettext(
        "A move is good when it loses less than {good} expected points against the best, an inaccuracy under "
        "{inaccuracy}, a mistake under {mistake} and a blunder from {mistake} up. A simulated loss is the "
        "difference between the two moves played again on the same fresh games, and it is judged by the low end of "
        "its 95% interval, so a move is called a mistake only when chance cannot explain the loss; where the "
        "interval reaches a worse verdict, the review says it cannot tell.").format(good=_number(t, THRESHOLDS["good"]), inaccuracy=_number(t, THRESHOLDS["inaccuracy"]),
                        mistake=_number(t, THRESHOLDS["mistake"]))
    luck = t.gettext("A good move that met bad luck is not a mistake: the cards that came afterwards play no part "
                     "in the verdict. Accuracy is the share of decisions judged best or good.")
    sentences = [model, thresholds, luck]
    short = sum(review.depth_of(d) != review.horizon for d in review.decisions)
    if short:
        sentences.append(t.ngettext(
            "The review's time did not reach the game's end for {count} decision: it is judged to the round's end "
            "instead, and its verdict says so.",
            "The review's time did not reach the game's end for {count} decisions: they are judged to the round's "
            "end instead, and their verdicts say so.", short).format(count=short))
    fewer = [d.games for d in review.cut_short()]
    if fewer:  # the budget paid for fewer games than the review's own (a loaded server, a page's clock)
        sentences.append(t.ngettext(
            "The review's time paid for fewer than its {games} games a move for {count} decision (as few as "
            "{fewest}): its interval is wider, so it says “cannot tell” more often.",
            "The review's time paid for fewer than its {games} games a move for {count} decisions (as few as "
            "{fewest}): their intervals are wider, so they say “cannot tell” more often.", len(fewer)).format(
            games=review.games, count=len(fewer), fewest=min(fewer)))
    if review.horizon != GAME_HORIZON:
        sentences.append(t.gettext(
            "The round's end is where a move's consequences land, at the reveal: there two moves' points can be told "
            "apart, often exactly. Judged by its effect on the final result instead (“to the game's end”), the same "
            "difference is lost in the spread of the games still to play, and many more moves are left as “cannot "
            "tell”."))
    sentences.append(t.gettext(
        "The two horizons can disagree: to the round's end a move counts only the points of its round, to the "
        "game's end also what it leaves for later rounds (a bonus card that lowers a colour's limit, a card kept "
        "in hand, gold) and how it stands against the leading player. A move can win a round and lose the "
        "game."))
    if not review.complete:
        sentences.append(t.gettext("The record stops before the end of the game: only the decisions it holds are "
                                   "reviewed."))
    return sentences


def chart_sentences(t: Translator, review: Review) -> list[str]:
    """The game chart in words: what the reviewed seat's decisions cost in all, and how far
    luck and the other players moved the expectation (the chart's solid and dashed steps)."""
    steps = review.steps()
    if not steps:
        return []
    lost = sum(a.value - b.value for a, b, kind in steps if kind == "decision")
    luck = sum(b.value - a.value for a, b, kind in steps if kind == "luck")
    if lost > 0:
        decisions = t.gettext("On the chart, your decisions cost you {lost} expected points in all against the best "
                              "moves.").format(lost=_number(t, lost))
    else:
        decisions = t.gettext("On the chart, your decisions lost no expected points in all against the best moves.")
    if luck >= 0:
        chance = t.gettext("Luck (the cards drawn, the modifiers revealed) and the other players' moves added {luck} "
                           "points to your expectation.").format(luck=_number(t, luck))
    else:
        chance = t.gettext("Luck (the cards drawn, the modifiers revealed) and the other players' moves took {luck} "
                           "points away from your expectation.").format(luck=_number(t, -luck))
    return [decisions, chance]


def chart_svg(t: Translator, review: Review) -> str:
    """The game chart as an SVG element to put in a page (its texts kept as text)."""
    import io

    from matplotlib import rc_context

    from .charts import review_chart

    figure = review_chart(review, t)
    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # no XML prolog or doctype inside the page


def table_headers(t: Translator) -> list[str]:
    return [t.pgettext("review", "Action"), t.pgettext("review", "Round"), t.pgettext("review", "Decision"),
            t.pgettext("review", "Played"), t.pgettext("review", "Best"),
            t.pgettext("review", "Points lost [95% interval]"), t.pgettext("review", "Verdict")]


def table_rows(t: Translator, decisions: Sequence[Decision], review: Review | None = None) -> list[list[str]]:
    return [[str(d.index + 1), str(d.round), decision_kind(t, d.phase), move_text(t, d.played), move_text(t, d.best),
             loss_text(t, d), verdict_label(t, d, review)] for d in decisions]


def summary_headers(t: Translator) -> list[str]:
    return [t.pgettext("review", "Player"), t.pgettext("review", "Round"), t.pgettext("review", "Decisions"),
            t.pgettext("review", "Accuracy"), t.pgettext("review", "Mean points lost"),
            *(verdict_name(t, v) for v in VERDICTS)]


def _seat_name(t: Translator, seat: int, you: int, style: Style, bots: bool) -> str:
    """The seat as every other page calls it (``player_name``): on a page, the reviewed seat is
    "You" and the others "Bot 1" (or "Player 1" where people play them, ``bots=False``); on a
    terminal, "Player 1" and "Player 0 (reviewed)"."""
    if style == TERMINAL and seat == you:
        return t.gettext("{player} (reviewed)").format(player=player_name(t, seat, None, TERMINAL))
    return player_name(t, seat, you, style, bots)


def _summary_row(t: Translator, s: Summary, name: str) -> list[str]:
    return [name,
            t.pgettext("review", "game") if s.round is None else str(s.round), str(s.decisions),
            "–" if s.accuracy is None else format_percent(s.accuracy, t.lang),
            "–" if s.mean_loss is None else _number(t, s.mean_loss), *(str(s.counts[v]) for v in VERDICTS)]


def summary_rows(t: Translator, review: Review, style: Style = TERMINAL, bots: bool = True) -> list[list[str]]:
    """Per seat (the reviewed one first): each round, then the whole game; each seat named as
    the game's page (``style=LEARNER``) or the terminal names it."""
    seats = [review.seat] + [p for p in range(review.players) if p != review.seat]
    rows = []
    for seat in seats:
        name = _seat_name(t, seat, review.seat, style, bots)
        for round_ in review.rounds():
            rows.append(_summary_row(t, review.summary(seat, round_), name))
        rows.append(_summary_row(t, review.summary(seat), name))
    return rows


def _columns(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [headers, *rows]]


def title(t: Translator, review: Review) -> str:
    return t.gettext("{player}: review of a {players}-player game (seed {seed})").format(
        players=review.players, seed=review.seed, player=player_name(t, review.seat, None, TERMINAL))


def review_text(t: Translator, review: Review) -> str:
    """The review as plain text: title, method, the seat's table, the summaries, the key moments."""
    lines = [title(t, review), "", *method_sentences(t, review), ""]
    lines += _columns(table_headers(t), table_rows(t, review.of_seat(review.seat), review))
    lines += ["", t.gettext("Summary per player and round"), *_columns(summary_headers(t), summary_rows(t, review))]
    lines += ["", t.gettext("Key moments")]
    moments = review.key_moments()
    if not moments:
        lines.append(t.gettext("No decision lost more than a good move may."))
    for d in moments:
        lines += [moment_title(t, d), "  " + moment_sentence(t, d, review.depth_of(d)), "  " + reason_sentence(t, d)]
    return "\n".join(lines)


_PAGE_STYLE = (
    "body{font:15px/1.4 sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#111}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #999;padding:3px 7px;text-align:left;"
    "vertical-align:top}th{background:#eee}.v-mistake,.v-blunder{font-weight:bold}.v-blunder{background:#f6d5d5}"
    ".v-mistake{background:#f8e6cc}.v-inaccuracy{background:#fbf3d0}.v-best,.v-good{background:#e3f1e0}"
    ".chart svg{max-width:100%;height:auto}@media print{body{max-width:none}}"
)


def _table_html(headers: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        f'<tr class="{escape(classes[i]) if classes else ""}">' + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
        for i, row in enumerate(rows))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def review_html(t: Translator, review: Review) -> str:
    """The review as a self-contained page (no script, no outside file); every text escaped.
    A verdict is written out and also shaded: the colour is never the only signal."""
    mine = review.of_seat(review.seat)
    parts = [f'<!DOCTYPE html><html lang="{escape(t.lang)}"><head><meta charset="utf-8">',
             f"<title>{escape(title(t, review))}</title><style>{_PAGE_STYLE}</style></head><body>",
             f"<h1>{escape(title(t, review))}</h1>"]
    parts += [f"<p>{escape(s)}</p>" for s in method_sentences(t, review)]
    parts.append(f"<h2>{escape(t.gettext('Key moments'))}</h2>")
    moments = review.key_moments()
    if not moments:
        parts.append(f"<p>{escape(t.gettext('No decision lost more than a good move may.'))}</p>")
    parts += [f"<h3>{escape(moment_title(t, d))}</h3><p>{escape(moment_sentence(t, d, review.depth_of(d)))} "
              f"{escape(reason_sentence(t, d))}</p>"
              for d in moments]
    if review.of_seat(review.seat):
        parts.append(f"<h2>{escape(t.gettext('Your game on a chart'))}</h2>")
        parts.append(f'<figure class="chart">{chart_svg(t, review)}<figcaption>'
                     + " ".join(escape(s) for s in chart_sentences(t, review)) + "</figcaption></figure>")
    parts.append(f"<h2>{escape(t.gettext('Every decision'))}</h2>")
    parts.append(_table_html(table_headers(t), table_rows(t, mine, review), [f"v-{d.verdict}" for d in mine]))
    parts.append(f"<h2>{escape(t.gettext('Summary per player and round'))}</h2>")
    parts.append(_table_html(summary_headers(t), summary_rows(t, review)))
    parts.append("</body></html>")
    return "".join(parts)
