"""Printable worksheets: the session's exercises on paper, and a separate answer key.

``worksheet_html(instances, lang)`` is a whole HTML page, one exercise per block, each
with the table as its player sees it (discard pile included), the question, its
assumptions, the tolerance rule and a box for the answer: no answer anywhere.
``answer_key_html(instances, lang)`` gives, for the same instances, every exact answer,
its worked solution and the classic wrong answers to look out for. Both print cleanly
(print CSS: no block split across pages, colours kept, A4 margins).
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from . import assumptions_text, question_text, solution_text
from .checker import classic_values, decimal_text, format_number, tolerance_text
from .core import Exercise
from ...i18n import Translator, translator

PRINT_CSS = """<style>
body{font:14px/1.4 sans-serif;color:#111;margin:1.5em}
h1{font-size:22px;margin:0 0 .3em} h2{font-size:17px;margin:.2em 0}
.cl-sheet-head{display:flex;justify-content:space-between;border-bottom:2px solid #333;margin-bottom:1em}
.cl-ex{border:1px solid #999;border-radius:6px;padding:.6em .9em;margin:0 0 1em}
.cl-answer-box{border:1px dashed #555;min-height:2.2em;margin-top:.5em;padding:.3em}
.cl-note{font-size:13px;color:#333} .cl-tutor ul.cl-note{margin:.2em 0 .2em 1.2em;padding:0}
.cl-key-answer{font-size:16px;font-weight:bold}
@page{size:A4;margin:14mm}
@media print{
 body{margin:0} .cl-ex{break-inside:avoid;page-break-inside:avoid}
 *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 a{color:inherit;text-decoration:none}
}
</style>"""


def _page(t: Translator, title: str, blocks: list[str], name_line: bool) -> str:
    """A whole page. It names no seed: a seed regenerates every answer (see ``lessons.classroom``)."""
    from ..table import CSS  # the cards' and table's own style

    name = f"<div>{escape(t.gettext('Name:'))} ______________________</div>" if name_line else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{t.lang}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"{CSS}{PRINT_CSS}</head><body class=\"cl-tutor\">"
        f'<div class="cl-sheet-head"><h1>{escape(title)}</h1>{name}</div>' + "".join(blocks) + "</body></html>\n"
    )


def _heading(t: Translator, number: int, ex: Exercise) -> str:
    return escape(t.gettext("{number}. {topic}: {title}").format(
        number=number, topic=t.gettext(ex.topic), title=t.gettext(ex.title)))


def worksheet_html(instances: Sequence[Exercise], lang: str) -> str:
    """The learners' sheet: the questions and everything they need, no answers."""
    from ..table import position_html

    t = translator(lang)
    blocks = []
    for number, ex in enumerate(instances, 1):
        assumptions = "".join(f"<li>{escape(a)}</li>" for a in assumptions_text(ex, t))
        blocks.append(
            f'<section class="cl-ex" data-exercise="{ex.id}"><h2>{_heading(t, number, ex)}</h2>'
            f"{position_html(t, ex.view(), 0, doing=False)}<p>{question_text(ex, t)}</p>"
            + (f'<ul class="cl-note">{assumptions}</ul>' if assumptions else "")
            + f'<p class="cl-note">{escape(tolerance_text(ex, t))}</p>'
            f'<div class="cl-answer-box">{escape(t.gettext("Your answer:"))}</div></section>'
        )
    return _page(t, t.gettext("Probability worksheet"), blocks, name_line=True)


def answer_key_html(instances: Sequence[Exercise], lang: str) -> str:
    """The teacher's key: each exact answer, its worked solution and the classic mistakes."""
    t = translator(lang)
    blocks = []
    for number, ex in enumerate(instances, 1):
        exact = ex.exact()
        answer = format_number(exact) + ("" if exact.denominator == 1 else f" ≈ {decimal_text(exact, t)}")
        mistakes = "".join(
            f"<li><b>{escape(format_number(value))}</b> ({escape(decimal_text(value, t))}): "
            f"{escape(t.gettext(m.text))}</li>"
            for m, value in classic_values(ex)
        )
        blocks.append(
            f'<section class="cl-ex" data-exercise="{ex.id}"><h2>{_heading(t, number, ex)}</h2>'
            f"<p>{question_text(ex, t)}</p>"
            f'<p class="cl-key-answer">{escape(t.gettext("Answer"))}: <span class="cl-key-value">'
            f"{escape(answer)}</span></p>"
            f'<p><b>{escape(t.gettext("Worked solution"))}:</b> {solution_text(ex, t)}</p>'
            + (f'<p class="cl-note"><b>{escape(t.gettext("Classic wrong answers"))}:</b></p>'
               f'<ul class="cl-note">{mistakes}</ul>' if mistakes else "")
            + "</section>"
        )
    return _page(t, t.gettext("Answer key"), blocks, name_line=False)
