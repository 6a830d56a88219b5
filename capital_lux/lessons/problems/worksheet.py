"""Printable worksheets: the session's exercises on paper, and a separate answer key.

``worksheet_html(instances, lang)`` is a whole HTML page, one exercise per block, each
with the table as its player sees it (discard pile included), the question, its
assumptions, the form of answer asked (never the screen's marking rule) and a box for the
answer: no answer anywhere.
``answer_key_html(instances, lang)`` gives, for the same instances, every exact answer,
its worked solution and the classic wrong answers to look out for. Both print cleanly
(print CSS: no block split across pages, colours kept, A4 margins).
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from . import assumptions_text, question_text, solution_text
from .checker import classic_values, decimal_text, format_number, paper_rule
from .core import Exercise
from ...engine.cards import COLOURS
from ...i18n import Translator, translator

PRINT_CSS = """<style>
body{font:11.5px/1.3 sans-serif;color:#111;margin:1.5em}
h1{font-size:18px;margin:0 0 .2em} h2{font-size:12.5px;margin:0 0 .2em}
.cl-sheet-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;
 border-bottom:2px solid #333;margin-bottom:.5em}
.cl-legend{font-size:11px;width:100%;margin:.1em 0 .3em}
.cl-ex{border-top:1px solid #777;padding:.3em 0 .1em;margin:0 0 .35em;break-inside:avoid;page-break-inside:avoid}
.cl-ex>p{margin:0 0 .2em}
.cl-ex-grid{display:grid;grid-template-columns:minmax(0,1fr) 40mm;gap:0 .8em;align-items:stretch}
.cl-note{font-size:11px;color:#333} .cl-tutor ul.cl-note{margin:.1em 0 .2em 1.1em;padding:0}
.cl-sheet .cl-tutor .cl-note,.cl-sheet .cl-note{font-size:10px;line-height:1.25;margin:1px 0}
.cl-sheet .cl-card,.cl-sheet .cl-back{font-size:10px;padding:0 2px;margin:0 1px 1px 0;border-width:1px;
 border-radius:3px}
.cl-sheet .cl-table{margin:1px 0;width:100%}
.cl-sheet .cl-table td,.cl-sheet .cl-table th{padding:1px 3px;line-height:1.2;font-size:10px}
.cl-sheet .cl-table th{white-space:normal}
.cl-sheet .cl-table td:nth-last-child(2){white-space:nowrap} .cl-sheet .cl-table th>.cl-total{display:block;margin:0}
.cl-sheet .cl-table tr>th:first-child{min-width:6.5em}
/* On paper a card in the table, a hand or the discard pile is its symbol and value (the legend and the
   columns name the roles); cards in a question keep their role's name. */
.cl-sheet .cl-table-wrap .cl-role,.cl-sheet .cl-own-hand .cl-role,.cl-sheet .cl-discards .cl-role{display:none}
.cl-sheet .cl-table .cl-colour-name{display:none}
/* The hand and the discard pile on one line when they fit. */
.cl-sheet .cl-own-hand,.cl-sheet .cl-discards{display:inline} .cl-sheet .cl-discards::before{content:" · "}
.cl-sheet .cl-total{font-size:9px;display:inline-block;margin-left:2px}
/* Working space beside the table, as tall as it (at least 4 ruled lines), the answer's line at its foot. */
.cl-work{display:flex;flex-direction:column;min-height:36mm;border:1px solid #888;border-radius:3px;padding:0 .5em;
 background:repeating-linear-gradient(to bottom,transparent 0,transparent calc(7mm - 1px),
  #ccc calc(7mm - 1px),#ccc 7mm)}
.cl-answer-line{margin-top:auto;padding:.2em 0 .1em;font-weight:bold;border-top:1px solid #555;background:#fff}
.cl-key-answer{font-size:14px;font-weight:bold;margin:.2em 0}
@page{size:A4;margin:10mm 11mm}
@media print{
 body{margin:0}
 *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 a{color:inherit;text-decoration:none}
}
</style>"""


def _page(t: Translator, title: str, blocks: list[str], name_line: bool, legend: str = "") -> str:
    """A whole page. It names no seed: a seed regenerates every answer (see ``lessons.classroom``)."""
    from ..table import CSS  # the cards' and table's own style

    name = f"<div>{escape(t.gettext('Name:'))} ______________________</div>" if name_line else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{t.lang}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"{CSS}{PRINT_CSS}</head><body class=\"cl-tutor cl-sheet\">"
        f'<div class="cl-sheet-head"><h1>{escape(title)}</h1>{name}{legend}</div>' + "".join(blocks)
        + "</body></html>\n"
    )


def _heading(t: Translator, number: int, ex: Exercise) -> str:
    return escape(t.gettext("{number}. {topic}: {title}").format(
        number=number, topic=t.gettext(ex.topic), title=t.gettext(ex.title)))


def _legend(t: Translator) -> str:
    """What each symbol stands for, once per sheet: the hands and the discard pile show cards
    outside the table's columns."""
    from ..table import colour_header

    return f'<div class="cl-legend">{" · ".join(colour_header(t, c) for c in COLOURS)}</div>'


def worksheet_html(instances: Sequence[Exercise], lang: str) -> str:
    """The learners' sheet: the questions and everything they need, no answers. Each exercise
    keeps to one page (never split) but several share a page; ruled working space beside each table."""
    from ..table import position_html

    t = translator(lang)
    answer = escape(t.gettext("Your answer:"))
    blocks = []
    for number, ex in enumerate(instances, 1):
        assumptions = "".join(f"<li>{escape(a)}</li>" for a in assumptions_text(ex, t))
        blocks.append(
            f'<section class="cl-ex" data-exercise="{ex.id}"><h2>{_heading(t, number, ex)}</h2>'
            f"<p>{question_text(ex, t)}</p>"
            + (f'<ul class="cl-note">{assumptions}</ul>' if assumptions else "")
            + f'<p class="cl-note">{escape(paper_rule(ex, t))}</p>'
            f'<div class="cl-ex-grid"><div>{position_html(t, ex.view(), 0, doing=False)}</div>'
            f'<div class="cl-work"><div class="cl-answer-line">{answer}</div></div></div></section>'
        )
    return _page(t, t.gettext("Probability worksheet"), blocks, name_line=True, legend=_legend(t))


def answer_key_html(instances: Sequence[Exercise], lang: str) -> str:
    """The teacher's key: each exact answer, its worked solution and the classic mistakes."""
    t = translator(lang)
    blocks = []
    for number, ex in enumerate(instances, 1):
        exact = ex.exact()
        answer = format_number(exact) + ("" if exact.denominator == 1 else f" ≈ {decimal_text(exact, t)}")
        mistakes = "".join(
            "<li>" + escape(t.gettext("{value} ({decimal}): {mistake}")).format(
                value=f"<b>{escape(format_number(value))}</b>", decimal=escape(decimal_text(value, t)),
                mistake=escape(t.gettext(m.text))) + "</li>"
            for m, value in classic_values(ex)
        )
        blocks.append(
            f'<section class="cl-ex" data-exercise="{ex.id}"><h2>{_heading(t, number, ex)}</h2>'
            f"<p>{question_text(ex, t)}</p>"
            f'<p class="cl-key-answer">{escape(t.gettext("Answer:"))} '
            f'<span class="cl-key-value">{escape(answer)}</span></p>'
            f'<p><b>{escape(t.gettext("Worked solution:"))}</b> {solution_text(ex, t)}</p>'
            + (f'<p class="cl-note"><b>{escape(t.gettext("Classic wrong answers:"))}</b></p>'
               f'<ul class="cl-note">{mistakes}</ul>' if mistakes else "")
            + "</section>"
        )
    return _page(t, t.gettext("Answer key"), blocks, name_line=False)
