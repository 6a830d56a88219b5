"""Directives that read the manual's lists from the package itself, in the build's language
through the project's catalogues, so that a list in the guides is never a second copy:

- ``{chapters}``: the tutor's chapters and their lessons (``capital_lux.lessons.chapters``);
- ``{exercises}``: each exercise kind, its topic and its classic mistakes
  (``capital_lux.lessons.problems``).

The nodes carry no source, so Sphinx's gettext builder leaves them out of the guides'
``.pot``: their translations are the package's catalogues'.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from capital_lux.i18n import LANGUAGES, translator


def _translator(directive: SphinxDirective) -> Any:
    language = (directive.config.language or "en").split("_")[0]
    return translator(language if language in LANGUAGES else "en")


def _item(*parts: nodes.Node) -> nodes.list_item:
    return nodes.list_item("", nodes.paragraph("", "", *parts))


class Chapters(SphinxDirective):
    """The chapters of the tutor, each with its lessons."""

    def run(self) -> list[nodes.Node]:
        from capital_lux.lessons.chapters import CHAPTERS

        t = _translator(self)
        listing = nodes.bullet_list()
        for chapter in CHAPTERS:
            lessons = "; ".join(t.gettext(lesson.title) for lesson in chapter.lessons)
            listing += _item(nodes.strong("", t.gettext(chapter.title)), nodes.Text(f": {lessons}."))
        return [listing]


class Exercises(SphinxDirective):
    """Every exercise kind: its number and title, what it practises, and its classic mistakes."""

    def run(self) -> list[nodes.Node]:
        from capital_lux.lessons.problems import EXERCISES
        from capital_lux.lessons.problems.core import COMPLEMENT

        t = _translator(self)
        listing = nodes.enumerated_list(enumtype="arabic")
        for ex in EXERCISES:
            mistakes = [t.gettext(m.text) for m in ex.mistakes]
            if ex.probability:
                mistakes.append(t.gettext(COMPLEMENT.text))
            item = _item(nodes.strong("", t.gettext(ex.title)), nodes.Text(" ("),
                         nodes.emphasis("", t.gettext(ex.topic)), nodes.Text(")"))
            if mistakes:
                item += nodes.bullet_list("", *(_item(nodes.Text(text)) for text in mistakes))
            listing += item
        return [listing]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("chapters", Chapters)
    app.add_directive("exercises", Exercises)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
