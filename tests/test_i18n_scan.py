"""No user-facing string is left outside the catalogue.

An AST scan of the modules that talk to the user (the tutor, the charts, the
command line, the exercises, the what-if explorer and the rule bot's hints)
for string literals that reach the user without a translation call around
them. A *sink* is a place whose text the user reads:

* widget text: ``description=``, ``placeholder=``, ``tooltip=``, ``title=``,
  ``label=``, ``text=``, ``help=`` keywords; the first argument and ``value=`` of
  ``HTML``, ``HTMLMath``, ``Label``, ``Button`` widgets; the same attributes set
  later (``button.description = ...``, ``html.value = ...``); the labels of
  ``options=`` (a string, or the first item of a ``(label, value)`` pair);
* matplotlib text: ``set_title``, ``set_xlabel``, ``set_ylabel``, ``suptitle``,
  ``annotate``, ``ax.text``, tick labels, ``legend`` labels;
* the command line: ``print(...)``, ``say(...)`` and ``parser.error(...)``;
* data that is translated when shown, so must be marked for extraction with
  ``N_``: a ``Hint``'s reason (bots), an ``Exercise``'s topic, title, question and
  solution, the gallery's titles; a tutor ``lambda t: ...`` that returns text;
* messages of exceptions raised by the what-if explorer and the exercises'
  progress files, which the apps show to the user;
* refusals: every ``raise`` of the engine's error family (``CapitalLuxError`` and
  its subclasses, found by importing the package) in any scanned module; the apps
  and the terminal show them with ``error.translated(t.gettext)``, so their message
  must be an ``N_`` msgid with its values passed as parameters.

A literal is *text* when, once its HTML tags, ``{placeholders}`` and entities
are removed, a word of two or more letters is left ("B5", "+4", "–", "75%",
"<b>{x}</b>" and CSS inside tags are not text). For ``value`` and ``options`` a
lone lower-case token ("round", "rule") is a programme value, not text.
Literals inside a translation call (``t.gettext``, ``t._``, ``t.ngettext``,
``t.pgettext``, ``t.npgettext``, ``t.term``, ``t.colour``, ``t.role``, ``N_``,
the ``*_noop`` markers) are in the catalogue; so are f-strings whose words all
come from such calls.

Texts found in other people's modules are not fixed here: they are listed in
``ALLOWLIST`` (untranslated, reported) so that the test passes today and fails on
any *new* untranslated text.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

import capital_lux.cli.main  # noqa: F401  (imports the modules whose errors are collected below)
import capital_lux.tutor.whatif_app  # noqa: F401
from capital_lux.engine.cards import CapitalLuxError
from capital_lux.i18n import LANGUAGE_NAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "capital_lux"


def scanned_files() -> list[Path]:
    """The modules whose strings reach the user."""
    names = ["analysis/charts.py", "cli/main.py", "lessons/exercises.py", "lessons/whatif.py", "players/bots.py",
             "analysis/simulate.py", "lessons/gallery/__init__.py"]
    files = sorted((PACKAGE / "tutor").glob("*.py")) + [PACKAGE / name for name in names]
    # the engine's refusals (rules.check, positions, notation) reach every screen
    files += sorted((PACKAGE / "engine").glob("*.py"))
    return files


#: Calls whose string arguments are catalogue entries (or glossary keys).
TRANSLATION_CALLS = frozenset({
    "gettext", "_", "ngettext", "pgettext", "npgettext", "term", "colour", "role",
    "N_", "gettext_noop", "pgettext_noop", "npgettext_noop", "colour_name", "role_name",
})
#: Calls that only wrap their argument (its text is still the argument's).
WRAPPERS = frozenset({"escape", "str", "Markup"})
#: Keyword arguments that always carry text for the user.
TEXT_KEYWORDS = frozenset({"description", "placeholder", "tooltip", "title", "label", "text", "help",
                           "xlabel", "ylabel", "prompt", "message"})
#: Widgets whose first argument / ``value`` is displayed text.
TEXT_WIDGETS = frozenset({"HTML", "HTMLMath", "Label", "Button", "ToggleButton"})
#: Attributes that are displayed text when set on a widget.
TEXT_ATTRIBUTES = frozenset({"description", "placeholder", "tooltip"})
#: Matplotlib methods: every string argument is displayed.
AXES_TEXT_METHODS = frozenset({"set_title", "set_xlabel", "set_ylabel", "suptitle", "supxlabel", "supylabel",
                               "set_text", "set_label", "set_xticklabels", "set_yticklabels"})
#: Command-line output.
OUTPUT_CALLS = frozenset({"print", "say"})
#: Data constructors whose arguments are msgids translated when shown: (positions, keywords).
MARKED_ARGUMENTS: dict[str, tuple[tuple[int, ...], frozenset[str]]] = {
    "Hint": ((1,), frozenset({"reason"})),
    "Exercise": ((1, 2, 5, 6), frozenset({"topic", "title", "question", "solution"})),
}
def _subclasses(cls: type) -> set[str]:
    return {cls.__name__}.union(*(_subclasses(sub) for sub in cls.__subclasses__()))


#: The engine's error family: their messages are shown to users wherever they are raised;
#: all but ``UsageError``, a caller's broken contract, whose message is for the programmer.
REFUSALS = frozenset(_subclasses(CapitalLuxError) - {"UsageError"})
#: Words that are names, not text to translate.
PROPER_NAMES = ("Capital Lux", *LANGUAGE_NAMES.values())

_TAG = re.compile(r"<[^<>]*>")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|\w+);")
_WORD = re.compile(r"[^\W\d_]{2,}")
_CODE = re.compile(r"[a-z][a-z0-9_:.\-]*")


def visible_words(text: str) -> list[str]:
    """The words a reader would see in ``text`` (tags, placeholders and entities removed)."""
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    text = _ENTITY.sub(" ", _PLACEHOLDER.sub(" ", _TAG.sub(" ", text)))
    return _WORD.findall(text)


def is_text(text: str, value_like: bool = False) -> bool:
    """Whether ``text`` has words for the user; ``value_like`` lets a lone code token pass."""
    if value_like and "<" not in text and _CODE.fullmatch(text.strip()):
        return False
    return bool(visible_words(text))


class Finding(NamedTuple):
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _template(node: ast.JoinedStr) -> str:
    """An f-string's literal text with ``{}`` where its expressions go."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value)
        else:
            parts.append("{}")
    return "".join(parts)


class Scanner:
    """Collects the untranslated texts of one module."""

    def __init__(self, source: str, path: str) -> None:
        self.tree = ast.parse(source)
        self.path = path
        self.findings: list[Finding] = []
        self.is_main = path.replace("\\", "/").endswith("cli/main.py")
        self.raises_are_shown = path.endswith(("whatif.py", "exercises.py"))
        self.in_tutor = "/tutor/" in path.replace("\\", "/") or path.startswith("tutor/")

    # -- expressions -----------------------------------------------------------------
    def texts(self, node: ast.expr | None, value_like: bool = False) -> Iterator[tuple[int, str]]:
        """Untranslated literal texts that ``node`` evaluates to (or builds from)."""
        if node is None:
            return
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and is_text(node.value, value_like):
                yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            template = _template(node)
            if is_text(template, value_like):
                yield node.lineno, template
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    yield from self.texts(value.value)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            yield from self.texts(node.left, value_like)
            if isinstance(node.op, ast.Add):
                yield from self.texts(node.right, value_like)
        elif isinstance(node, ast.IfExp):
            yield from self.texts(node.body, value_like)
            yield from self.texts(node.orelse, value_like)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                yield from self.texts(value, value_like)
        elif isinstance(node, (ast.List, ast.Tuple)):
            for element in node.elts:
                yield from self.texts(element, value_like)
        elif isinstance(node, ast.Call):
            name = _name(node.func)
            if name in TRANSLATION_CALLS:
                return
            if name == "format" and isinstance(node.func, ast.Attribute):
                yield from self.texts(node.func.value, value_like)
            elif name in WRAPPERS:
                for arg in node.args:
                    yield from self.texts(arg, value_like)

    def options(self, node: ast.expr) -> Iterator[tuple[int, str]]:
        """Labels of an ``options=`` list: plain strings, or the first item of pairs."""
        elements: Iterable[ast.expr] = ()
        if isinstance(node, (ast.List, ast.Tuple)):
            elements = node.elts
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            elements = (node.elt,)
        for element in elements:
            if isinstance(element, ast.Tuple) and element.elts:
                yield from self.texts(element.elts[0])
            else:
                yield from self.texts(element, value_like=True)

    def report(self, found: Iterable[tuple[int, str]]) -> None:
        self.findings += [Finding(self.path, line, text) for line, text in found]

    # -- sinks ---------------------------------------------------------------------------
    def scan(self) -> list[Finding]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                self.call(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                self.assignment(node)
            elif isinstance(node, ast.Lambda) and self.in_tutor:
                self.report(self.texts(node.body))
            elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and (
                    self.raises_are_shown or _name(node.exc.func) in REFUSALS):
                for arg in node.exc.args[:1]:
                    self.report(self.texts(arg))
        return sorted(set(self.findings), key=lambda f: (f.line, f.text))

    def call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if name in TRANSLATION_CALLS:
            return
        for keyword in node.keywords:
            if keyword.arg in TEXT_KEYWORDS:
                self.report(self.texts(keyword.value))
            elif keyword.arg == "value" and name in TEXT_WIDGETS:
                self.report(self.texts(keyword.value, value_like=True))
            elif keyword.arg == "options":
                self.report(self.options(keyword.value))
        if name in TEXT_WIDGETS and node.args:
            self.report(self.texts(node.args[0], value_like=True))
        elif name in AXES_TEXT_METHODS or name in OUTPUT_CALLS:
            for arg in node.args:
                self.report(self.texts(arg))
        elif name == "annotate" and node.args:
            self.report(self.texts(node.args[0]))
        elif name == "text" and len(node.args) >= 3:
            self.report(self.texts(node.args[2]))
        elif name in ("set_xticks", "set_yticks") and len(node.args) >= 2:
            self.report(self.texts(node.args[1]))
        elif name == "legend":
            for arg in node.args:
                if isinstance(arg, (ast.List, ast.Tuple)):
                    self.report(self.texts(arg))
        elif name == "error" and self.is_main and node.args:
            self.report(self.texts(node.args[0]))
        if name in MARKED_ARGUMENTS:
            positions, keywords = MARKED_ARGUMENTS[name]
            arguments = [node.args[i] for i in positions if i < len(node.args)]
            arguments += [k.value for k in node.keywords if k.arg in keywords]
            for argument in arguments:
                self.report(self.texts(argument))

    def assignment(self, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute):
                if target.attr in TEXT_ATTRIBUTES:
                    self.report(self.texts(node.value))
                elif target.attr == "value":
                    self.report(self.texts(node.value, value_like=True))
                elif target.attr == "options" and node.value is not None:
                    self.report(self.options(node.value))
            elif isinstance(target, ast.Name) and target.id == "TITLES" and isinstance(node.value, ast.Dict):
                for value in node.value.values:
                    self.report(self.texts(value))


def scan_source(source: str, path: str = "tutor/example.py") -> list[Finding]:
    return Scanner(source, path).scan()


def scan_file(path: Path) -> list[Finding]:
    return scan_source(path.read_text("utf-8"), path.relative_to(ROOT).as_posix())


# --------------------------------------------------------------------------- allowlist

#: Untranslated texts found in other engineers' modules: untranslated, reported.
#: Each entry is (file, text as the scan shows it); remove an entry once its text goes
#: through the translator. A *new* untranslated text makes the test fail.
ALLOWLIST: frozenset[tuple[str, str]] = frozenset({
})


# --------------------------------------------------------------------------- the scan


def test_every_user_facing_text_goes_through_the_catalogue() -> None:
    files = scanned_files()
    assert all(path.exists() for path in files)
    assert any(path.parent.name == "cli" for path in files) and any(p.parent.name == "tutor" for p in files)
    findings = [finding for path in files for finding in scan_file(path)]
    new = [f for f in findings if (f.path, f.text) not in ALLOWLIST]
    assert not new, (
        "user-facing text outside the catalogue; wrap it in t.gettext(...) (or N_ for data"
        " translated when shown):\n" + "\n".join(map(str, new))
    )
    stale = ALLOWLIST - {(f.path, f.text) for f in findings}
    if stale:
        warnings.warn(f"ALLOWLIST entries now translated, remove them: {sorted(stale)}", stacklevel=1)


# --------------------------------------------------------------------------- the scanner itself


@pytest.mark.parametrize(
    "source",
    [
        'button.description = "Play"',
        'W.Button(description="New game")',
        'W.Text(placeholder="Your answer")',
        'button.tooltip = f"Worth {n} points"',
        'html.value = "<b>Game over</b>"',
        'html.value = f\'<div class="cl-note">{x} cards left</div>\'',
        'W.HTML("<p>Welcome to the tutor</p>")',
        'W.HTML(value="Round end")',
        'W.Dropdown(options=[("Rule of thumb", "rule"), ("Random", "random")])',
        'tabs.set_title(0, "Free play")',
        'ax.set_xlabel("Samples")',
        'fig.suptitle(f"Moves over {n} deals")',
        'ax.annotate("exceeds", (1, 2))',
        'Patch(label="you exceed")',
        'print(f"{n} rows written to {path}")',
        'say("Game abandoned.")',
        'Hint(action, "Plays the card.", {})',
        'lambda t: "Who starts?"',
        'ax.set_ylabel(escape("Chance"))',
        'html.value = "<b>" + "Score" + "</b>"',
        'label.value = "Done" if ok else t.gettext("Not yet")',
    ],
)
def test_the_scan_finds_an_untranslated_label(source: str) -> None:
    assert scan_source(source), source


@pytest.mark.parametrize(
    "source",
    [
        'button.description = t.gettext("Play")',
        'W.Button(description=t._("New game"))',
        'button.tooltip = t.ngettext("{n} card", "{n} cards", n).format(n=n)',
        'html.value = f\'<div class="cl-note">{escape(t.gettext("Game over"))}</div>\'',
        'html.value = ""',
        'html.value = f"<b>{label}</b> {value}"',
        'W.HTML(CSS)',
        'W.Dropdown(options=[2, 3, 4], value=3)',
        'W.Dropdown(options=[(t.gettext("Rule of thumb"), "rule")], value="rule")',
        'W.ToggleButtons(options=[(LANGUAGE_NAMES[lang], lang) for lang in LANGUAGES])',
        'horizon.value = "round"',
        'button.description = "B5"',
        'button.description = "▶ " + label',
        'b.description = f"{SYMBOLS[c]} {t.role(c)} {value}"',
        'ax.set_title(colour_label(c, t))',
        'ax.set_ylabel("")',
        'ax.bar(labels, values, label=t.gettext("simulated estimate"))',
        'print(t.gettext("Capital Lux: you are player {seat}.").format(seat=s))',
        'print()',
        'say(f"{number:>4}  {who}: {action}")',
        'say("  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))',
        'Hint(action, N_("Plays the card."), {})',
        'lambda t: t.gettext("Who starts?")',
        'title = W.HTML("<h2>Capital Lux</h2>")',
        'pct = f"{p:.0%} [{low}–{high}]"',
        'cell = "<td>–</td>"',
    ],
)
def test_the_scan_passes_translated_or_wordless_text(source: str) -> None:
    assert not scan_source(source), scan_source(source)


def test_the_scan_reads_where_the_text_is() -> None:
    source = 'x = 1\nbutton.description = "Hello there"\n'
    assert scan_source(source, "tutor/demo.py") == [Finding("tutor/demo.py", 2, "Hello there")]
    # Exceptions count only where the apps show their messages to the user.
    refusal = 'raise ValueError(f"no such zone {name}")\n'
    assert scan_source(refusal, "capital_lux/lessons/whatif.py")
    assert not scan_source(refusal, "capital_lux/tutor/panel.py")
    # The engine's refusals count wherever they are raised (the apps show them translated).
    assert scan_source('raise PositionError(f"{x!r}: write one whole number per player")', "tutor/whatif_app.py")
    assert scan_source('raise IllegalActionError("not a legal move for you now")', "tutor/session.py")
    assert not scan_source('raise PositionError(N_("{x}: write one whole number per player"), x=x)',
                           "tutor/whatif_app.py")
    assert "PositionError" in REFUSALS and "IllegalActionError" in REFUSALS
    # The command line's errors count in cli/main.py only.
    assert scan_source('sub.error("give --workers or --dask")', "capital_lux/cli/main.py")


def test_visible_words() -> None:
    assert visible_words('<div class="cl-note" style="margin:4px">{text}</div>') == []
    assert visible_words("&nbsp;+4 · 75% · B5 –") == []
    assert visible_words("Capital Lux · Français") == []
    assert visible_words("<b>{n}</b> cards") == ["cards"]
