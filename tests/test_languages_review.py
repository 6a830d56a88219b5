"""The printed worksheet and answer key, and the catalogues behind them, read right in French,
Spanish and Brazilian Portuguese (the language review of issue 28).

The worksheet and the answer key are rendered for several classes' seeds and read as a
teacher reads the paper: French colour adjectives agree with "carte(s)", a draw is a
"tirage", Spanish says "tú", Portuguese says "moedas de ouro" and "Jogador Inicial".
The same rules are checked over every catalogue entry, so a text that is not on today's
worksheet cannot bring a slip back. Plural forms are checked for 0, 1 and 2.
"""

from __future__ import annotations

import functools
import os
import re
from html import unescape

import pytest
from babel import Locale

from capital_lux.i18n import babel_locale, load_catalogue, translator
from capital_lux.lessons.exercises import EXERCISES, Exercise, instance, question_text, solution_text
from capital_lux.lessons.problems import assumptions_text
from capital_lux.lessons.problems.checker import tolerance_text
from capital_lux.lessons.problems.worksheet import answer_key_html, worksheet_html
from test_catalogue_fixes import _entries as catalogue_texts, _message, french_typography_faults
from test_cli import run as run_cli

TRANSLATED = ("fr", "es", "pt")
#: Classes' seeds: each deals other cards, so other numbers and plural forms.
SEEDS = (7, 1, 2, 3)
#: What each colour placeholder of the exercises holds in French (``t.colour``).
FRENCH_COLOURS = {"{green}": "vert", "{yellow}": "jaune", "{blue}": "bleu", "{pink}": "rose"}


def page_text(html: str) -> str:
    """The text a reader sees on a page: no style, no tags, entities read."""
    html = re.sub(r"<style.*?</style>", "", html, flags=re.S)
    html = re.sub(r"<(p|li|h1|h2|div|section|tr|td|th)\b", r"\n<\1", html)
    return unescape(re.sub(r"<[^>]+>", "", html))


def _instances(seed: int) -> list[Exercise]:
    return [instance(ex.id, seed) for ex in EXERCISES]


@functools.cache
def printed(lang: str) -> str:
    """The worksheet and the answer key of every seed, as text."""
    pages = []
    for seed in SEEDS:
        pages += [page_text(worksheet_html(_instances(seed), lang)), page_text(answer_key_html(_instances(seed), lang))]
    return "\n".join(pages)


@functools.cache
def translated_pieces(lang: str) -> tuple[str, ...]:
    """Every text of the worksheet and answer key that comes from the catalogue, filled in."""
    t = translator(lang)
    pieces: list[str] = []
    for seed in SEEDS:
        for ex in _instances(seed):
            pieces += [t.gettext(ex.topic), t.gettext(ex.title), tolerance_text(ex, t)]
            pieces += [page_text(question_text(ex, t)), page_text(solution_text(ex, t)), *assumptions_text(ex, t)]
            pieces += [t.gettext(m.text) for m in ex.mistakes]
    return tuple(pieces)


def translation(lang: str, msgid: str) -> str:
    text = _message(lang, msgid).string
    assert isinstance(text, str), msgid
    return text


# -- French ------------------------------------------------------------------------------------
#: A colour noun where French needs an adjective agreeing with "carte(s)" (or "couleur", "limite(s)").
FRENCH_AGREEMENT = (
    r"\bcartes (?:jaune|verte?|bleue?|rose)\b",  # "vos cartes jaune": plural adjective wanted
    r"\bcarte (?:vert|bleu)\b",  # "la première carte vert"
    r"\b(?:soient|sont) (?:jaune|verte?|bleue?|rose)\b",  # "les deux cartes piochées soient vert"
    r"\b(?:est|soit) (?:vert|bleu)\b",  # "chacune de ses cartes est vert"
    r"\bde couleur (?:vert|bleu)\b",  # "dont 12 de couleur vert"
    r"\blimites? (?:vert|bleu)\b|\blimites (?:jaune|rose|verte|bleue) et (?:vert|bleu)\b",  # "les limites jaune et vert"
)


def french_agreement_faults(text: str) -> list[str]:
    return [found.group(0) for pattern in FRENCH_AGREEMENT for found in re.finditer(pattern, text)]


def test_the_agreement_check_itself() -> None:
    for wrong in ("vos cartes jaune font 8", "soient vert ?", "Les 12 cartes vert coupent", "dont 12 de couleur vert",
                  "les limites jaune et vert montent", "la première carte vert comprise", "chacune est vert"):
        assert french_agreement_faults(wrong), wrong
    for right in ("vos cartes jaunes font 8", "soient des cartes du Savant (vert)", "Les 12 cartes vertes coupent",
                  "la plus faible carte jaune", "les limites du jaune et du vert", "une carte bonus jaune",
                  "la limite du jaune", "Savant (vert)"):
        assert not french_agreement_faults(right), right


def test_french_colours_agree_on_the_worksheet_and_the_answer_key() -> None:
    assert not french_agreement_faults(printed("fr"))


def test_french_colours_agree_in_every_catalogue_entry() -> None:
    faults = {}
    for msgid, text in catalogue_texts("fr"):
        for placeholder, colour in FRENCH_COLOURS.items():
            text = text.replace(placeholder, colour)
        if french_agreement_faults(text):
            faults[msgid] = french_agreement_faults(text)
    assert not faults


def test_french_draws_are_tirages_and_the_modifier_deck_a_pioche() -> None:
    assert translation("fr", "Two Scholar draws") == "Deux tirages de Savant"  # exercise 19's title
    assert not re.search(r"\b(?:deux|vos|ses|des) pioches\b", printed("fr"))
    texts = [text for _, text in catalogue_texts("fr")]
    assert not [text for text in texts if re.search(r"\b(?:deux|vos|ses|des) pioches\b|\bpile des modificateurs", text)]
    assert "pioche des modificateurs" in translation(
        "fr", "{action} cannot happen: that modifier is not in the modifier deck")


def test_french_no_space_before_a_comma_or_a_full_stop() -> None:
    assert not re.findall(r"\S+[ \u00a0\u202f][,.]", printed("fr"))
    assert not [msgid for msgid, text in catalogue_texts("fr") if re.search(r"[ \u00a0\u202f][,.](?!\d)", text)]


def test_french_printed_texts_put_a_no_break_space_before_double_punctuation() -> None:
    """What the catalogue puts on the worksheet and answer key, filled in (colons glued in code aside)."""
    assert french_typography_faults(f"pas{chr(0xa0)}? Réponse: 2") and not french_typography_faults("1:2 à 12:30")
    faults = {piece: french_typography_faults(piece) for piece in translated_pieces("fr")}
    assert not {piece: found for piece, found in faults.items() if found}


# -- Spanish -----------------------------------------------------------------------------------
#: "usted" and its imperatives, in an app that says "tú".
USTED = r"\b(?:usted|ustedes|indique|elija|escriba|deje|añada|pulse|introduzca|seleccione|utilice|compruebe)\b"


def test_spanish_says_tu() -> None:
    assert not [(msgid, text) for msgid, text in catalogue_texts("es") if re.search(USTED, text, re.IGNORECASE)]


def test_spanish_asks_which_colours_and_names_the_discard_pile() -> None:
    rulebook = translation("es", "Like the rulebook's example: three of your colours exceed and you have 3 gold discs, "
                                 "too few to keep them all. Here you exceed blue by 1, yellow by 2 and pink by 5; in the "
                                 "rulebook's picture (Capital: blue 9, yellow 3, green 9, pink 12; Hometown: blue 11, "
                                 "yellow 4, green 6, pink 13) blue and yellow "
                                 "exceed by 3 together and pink by 1. What would you pay for? The rulebook's player pays "
                                 "3 discs to keep blue and yellow, and discards only the pink card.")
    assert "¿Por qué pagarías?" not in rulebook and "colores pagarías?" in rulebook
    # "vacía" follows the label: a feminine singular pile, as the solutions call it
    assert translation("es", "Discard pile (out of the game, face up):").startswith("Pila de descarte")
    assert "Pila de descarte (fuera del juego, boca arriba)" in printed("es") and "Descartes" not in printed("es")


# -- Brazilian Portuguese ----------------------------------------------------------------------
PORTUGUESE_SLIPS = r"\bdiscos? de ouro\b|\bprimeiro jogador\b"


def test_portuguese_says_moedas_de_ouro_and_jogador_inicial() -> None:
    assert not re.search(PORTUGUESE_SLIPS, printed("pt"), re.IGNORECASE)
    assert not [(msgid, text) for msgid, text in catalogue_texts("pt") if re.search(PORTUGUESE_SLIPS, text, re.IGNORECASE)]
    assert "Jogador Inicial" in translation("pt", "Round {number} begins; {player} starts.")


def test_portuguese_another_players_things_are_dele_and_suppose_takes_the_subjunctive() -> None:
    agent = translation("pt", "Player {seat} drew a modifier with their {Agent} and put it face down above the "
                              "{Merchant}. You hold the {drawn} modifier you have just drawn with your own {Agent}, so "
                              "theirs is another one. Under the placement model below, what is the probability that "
                              "their modifier is negative?")
    assert "com o seu {Agent} e" not in agent and "{Agent} dele" in agent
    assert "(suas cartas" not in printed("pt") and "com o seu Agente" not in printed("pt")
    assert not re.search(r"\bSuponha que [^.:;]*\b(?:dizem|diz|revelam|mostram|contam)\b", printed("pt"))
    assert "não revelem nada" in printed("pt")


# -- one name per thing ------------------------------------------------------------------------
#: Each opponent in the free-play menu, and the name the "others play like" menu, tables and charts give it.
BOT_NAMES = (("Rule of thumb (a sensible beginner)", "rule-of-thumb bot"), ("Rule of thumb (slower)", "rule-of-thumb bot"),
             ("Search (strong, slower)", "search bot"), ("Random (plays any legal move)", "random bot"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_bot_has_one_name(lang: str) -> None:
    """The opponent menu and the "others play like" menu sit side by side on the free-play screen."""
    for label, bot in BOT_NAMES:
        menu_name, name = translation(lang, label).split(" (")[0].lower(), translation(lang, bot).lower()
        assert menu_name in name, (label, menu_name, name)
    assert translation(lang, "rule-of-thumb bot").lower() in translation(
        lang, "The rule of thumb the beginner bots follow would choose {move} instead; it looks only at the table now, "
              "while the comparison plays every move on to the round end.")


#: A player's name after a preposition that wants an article: "vont à Robot 1", "vienen de Bot 2",
#: "colocado por Robô 2" (the lessons say "le Robot 1", "el Bot 1", "o Robô 1").
NAME_AFTER_PREPOSITION = {"fr": r"\b(?:à|de) \{(?:player|giver|taker)\}", "es": r"\b(?:a|de) \{(?:player|giver|taker)\}",
                          "pt": r"\b(?:a|para|de|por) \{(?:player|giver|taker)\}"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_players_name_does_not_follow_a_preposition(lang: str) -> None:
    found = [(msgid, text) for msgid, text in catalogue_texts(lang) if re.search(NAME_AFTER_PREPOSITION[lang], text)]
    assert not found


# -- plural forms ------------------------------------------------------------------------------
#: The form each language's readers expect for 0, 1 and 2. French counts 0 as "one" and Spanish
#: as "other", as CLDR's rules say. Brazilian Portuguese follows the review of the catalogue:
#: "0 cartas", not "0 carta" (CLDR's pt rule, one = i in 0..1, would give the singular, which a
#: reader of a count of cards takes for a slip).
PLURALS = {"fr": ("one", "one", "other"), "es": ("other", "one", "other"), "pt": ("other", "one", "other")}
DISCS = {"fr": ("disque d'or", "disques d'or"), "es": ("disco de oro", "discos de oro"),
         "pt": ("moeda de ouro", "moedas de ouro")}
CARDS = {"fr": ("carte", "cartes"), "es": ("carta", "cartas"), "pt": ("carta", "cartas")}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_for_0_1_and_2(lang: str) -> None:
    if lang != "pt":  # French and Spanish as CLDR says
        cldr = Locale.parse(babel_locale(lang)).plural_form
        assert tuple(cldr(n) for n in (0, 1, 2)) == PLURALS[lang]
    assert load_catalogue(lang).num_plurals == 2
    t = translator(lang)
    shown = {n: t.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2)}
    assert shown == {n: f"{n} {CARDS[lang][form != 'one']}" for n, form in zip((0, 1, 2), PLURALS[lang])}
    # the catalogue's Plural-Forms expression picks the same form for every whole count
    for n in range(201):
        singular = n == 1 or (n == 0 and PLURALS[lang][0] == "one")
        assert t.term("gold disc", n) == DISCS[lang][not singular], (lang, n)


# -- no colon glued in code ----------------------------------------------------------------------
def french_colon_faults(text: str) -> list[str]:
    """Colons without the no-break space French puts before them. A time or a ratio (12:30), an
    address (https://) and a code token (search:iterations, B:0:+4) are not punctuation."""
    faults = []
    for found in re.finditer(r"(?<!\u00a0):", text):
        before, after = text[found.start() - 1:found.start()], text[found.end():found.end() + 2]
        if (before.isdigit() and after[:1].isdigit()) or after.startswith("//") or re.match(r"[\w+-]", after):
            continue
        faults.append(text[max(0, found.start() - 20):found.end() + 8])
    return faults


def test_the_colon_check_itself() -> None:
    for wrong in ("Vos cartes: -", "Réponse: 2/3", "Défausse (hors du jeu, face visible): vide",
                  "Joueur 2: pick B2", "Erreurs classiques :"):
        assert french_colon_faults(wrong), wrong
    for right in ("Vos cartes\u00a0: -", "à 12:30", "https://exemple.fr", "search:iterations=N", "B:0:+4",
                  "Joueur 1\u00a0: ?"):
        assert not french_colon_faults(right), right


def test_french_worksheet_and_key_have_no_colon_without_its_no_break_space() -> None:
    """The whole printed pages: the catalogue's texts and every label the code puts around them."""
    assert not french_colon_faults(printed("fr"))


def test_french_replay_lines_and_round_end_steps_read_as_french() -> None:
    from capital_lux.cli.main import replay_terminal
    from capital_lux.engine.game import Game
    from capital_lux.tutor.roundend import report_html
    import io

    game = Game(2, 5)
    for _ in range(12):
        game.play(game.state.legal_actions()[0])
    out = io.StringIO()
    replay_terminal(game.record(), translator("fr"), io.StringIO(), out)
    replayed = out.getvalue()
    assert re.search(r"Joueur \d\u00a0: pick ", replayed) and not french_colon_faults(replayed)
    # the round end: each step a heading over its own sentences, never "… en main : Vous n'avez plus…"
    from capital_lux.tutor.roundend import RoundEndReport

    empty = RoundEndReport(round=1, players=2, modifiers={c: () for c in "BGPY"}, capital_totals={c: 0 for c in "BGPY"},
                           hometown_totals=({c: 0 for c in "BGPY"},) * 2, has_cards=({c: False for c in "BGPY"},) * 2,
                           events=())
    steps = re.findall(r'<div class="cl-step"><b>([^<]*)</b></div>', report_html(translator("fr"), empty, 0))
    assert len(steps) == 6 and not [step for step in steps if step.rstrip().endswith(":")]


# -- one precision, and a modifier that cannot read as a minus ----------------------------------
@pytest.mark.parametrize("lang", ("en", *TRANSLATED))
def test_the_key_writes_an_answers_decimal_once_the_same_way(lang: str) -> None:
    t = translator(lang)
    for seed in SEEDS:
        for ex in _instances(seed):
            answer = re.search(r'<span class="cl-key-value">([^<]*)</span>', answer_key_html([ex], lang))
            assert answer is not None
            if "≈" in answer.group(1):  # "≈ 0,681" in the answer and the same in the solution, not "≈ 0,6810"
                assert answer.group(1).split("≈ ")[1] in re.findall(r"≈ ([\d.,\u00a0\u202f-]+\d)",
                                                                      page_text(solution_text(ex, t))), (ex.id, seed)


@pytest.mark.parametrize("lang", ("en", *TRANSLATED))
def test_a_turned_modifier_is_added_in_brackets(lang: str) -> None:
    """"8 -3 plus ce modificateur" read as a subtraction: the sum is written 8 + (-3) + the other one."""
    for seed in SEEDS:
        ex = instance("reveal-conditional", seed)
        facts = ex.facts(ex.view())
        solution = page_text(solution_text(ex, translator(lang)))
        assert f"{facts['cards']} + ({facts['first']}) +" in solution
        assert f"{facts['cards']} {facts['first']}" not in solution


# -- one name per seat on the what-if page -------------------------------------------------------
@pytest.mark.parametrize("lang", ("en", *TRANSLATED))
def test_the_what_if_page_names_each_seat_once(lang: str) -> None:
    from capital_lux.tutor.whatif_app import build_app

    app = build_app(lang=lang, name="rulebook-bonus")._whatif
    for _ in range(2):
        app.move.value = app.move.options[0][1]
        app.play()
    t = translator(lang)
    player, bot = t.gettext("Player {seat}").split("{")[0].strip(), t.gettext("Bot {seat}").split("{")[0].strip()
    table, log = page_text(app.table.value), page_text(app.log.value)
    assert re.search(rf"\b{player} \d", log) and re.search(rf"\b{player} \d", table)
    assert not re.search(rf"\b{bot} \d", log + table)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_what_if_log_follows_a_language_switch(lang: str) -> None:
    from capital_lux.tutor.whatif_app import build_app

    app = build_app(lang="en", name="rulebook-bonus")._whatif
    app.move.value = app.move.options[0][1]
    app.play()
    english = page_text(app.log.value)
    assert "Player 1 decides on gold in secret." in english
    app.set_language(lang)
    log = page_text(app.log.value)
    player = translator(lang).gettext("Player {seat}").split("{")[0].strip()
    assert re.search(rf"\b{player} 1 ", log) and not re.search(r"\b(?:Player|decides|You|play)\b", log)


# -- the command line in the reader's language -------------------------------------------------
def cli_help(lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The help of the command and of every subcommand."""
    pages = []
    for command in ([], ["play"], ["simulate"], ["replay"], ["bench"], ["worksheet"]):
        status, out, _ = run_cli([*command, "--help", "--lang", lang], capsys)
        assert status == 0
        pages.append(out)
    return "\n".join(pages)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_argparse_help_and_errors_speak_the_readers_language(lang: str, capsys: pytest.CaptureFixture[str],
                                                             tmp_path: object) -> None:
    t = translator(lang)
    help_text = cli_help(lang, capsys)
    assert help_text.startswith(t.gettext("usage: ") + "capital-lux")
    assert t.gettext("show this help message and exit") in help_text and t.gettext("options:") in help_text
    for english in ("usage:", "options:", "positional arguments:", "show this help message and exit"):
        assert english not in help_text, english
    status, _, err = run_cli(["play", "--players", "5", "--lang", lang], capsys)
    choice = t.gettext("invalid choice: %(value)r (choose from %(choices)s)") % {"value": 5, "choices": "2, 3, 4"}
    message = t.gettext("argument %(argument_name)s: %(message)s") % {"argument_name": "--players", "message": choice}
    assert status == 2 and t.gettext("{prog}: error: {message}").format(prog="capital-lux play", message=message) in err
    assert err.startswith(t.gettext("usage: ")) and "invalid choice" not in err
    status, _, err = run_cli(["simulate", "--games", "many", "--lang", lang], capsys)
    assert status == 2 and t.gettext("{text} is not a whole number").format(text="'many'") in err
    status, _, err = run_cli(["--lang", lang], capsys)  # no command: argparse's "required" message
    assert status == 2 and t.gettext("the following arguments are required: %s") % t.gettext("COMMAND") in err
    import argparse
    import gettext

    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]  # nothing else in the process sees a change


@pytest.mark.parametrize("lang", TRANSLATED)
def test_file_errors_are_our_sentences_not_the_systems(lang: str, capsys: pytest.CaptureFixture[str],
                                                       tmp_path: object) -> None:
    import errno
    from pathlib import Path

    from capital_lux.cli.localised import file_error

    t, folder = translator(lang), Path(str(tmp_path))
    status, _, err = run_cli(["worksheet", "--seed", "7", "--out", str(folder), "--lang", lang], capsys)
    assert status == 1 and err.strip() == t.gettext("{path} is a folder: give the name of a file").format(path=folder)
    status, _, err = run_cli(["replay", str(folder / "missing.json"), "--lang", lang], capsys)
    assert status == 2 and t.gettext("cannot read {path}: there is no such file").format(
        path=folder / "missing.json") in err
    for code in (errno.ENOENT, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EROFS, errno.ENOTDIR, errno.EIO):
        for writing in (True, False):
            error = OSError(code, os.strerror(code))
            text = file_error(t, "x.csv", error, writing)
            assert os.strerror(code) not in text and "x.csv" in text, (code, text)
    assert "EIO" in file_error(t, "x.csv", OSError(errno.EIO, "I/O error"), True)  # the rest by their system code


def test_the_environments_language_reaches_argparse() -> None:
    import subprocess
    import sys

    env = {**os.environ, "LANGUAGE": "fr"}
    done = subprocess.run([sys.executable, "-m", "capital_lux", "play", "--players", "9"], capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 2 and done.stderr.startswith("utilisation\u00a0: capital-lux play")
    assert "choix impossible\u00a0: 9" in done.stderr


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_move_that_is_not_an_action_lists_the_forms_in_the_readers_words(lang: str) -> None:
    """The verbs are typed as they are; CARD and COLOUR are the reader's words, and the chance
    outcomes a player cannot type (card CARD, modifier VALUE) are not offered."""
    from capital_lux.engine.cards import CapitalLuxError
    from capital_lux.engine.notation import parse_action

    for text in ("foo", " "):
        with pytest.raises(CapitalLuxError) as refused:
            parse_action(text)
        said = translator(lang).refusal(refused.value)
        assert "pick" in said and "save none" in said and "VALUE" not in str(refused.value)
        assert not re.search(r"\b(?:CARD|COLOUR|VALUE|modifier|card)\b", said), said


# -- no English word left ---------------------------------------------------------------------
#: The project's own English words, as they would show if a text escaped the catalogue. Command
#: and option names (play, --seed), bot kinds (rule, random) and file formats are typed as they are.
ENGLISH_TERMS = (
    "Player", "Bot", "You", "Hometown", "Scholar", "Merchant", "Cleric", "green", "yellow", "blue", "pink",
    "Your cards", "Discard pile", "Answer", "Worked solution", "Classic wrong answers", "Your answer", "Name",
    "usage", "options", "positional arguments", "show this help", "error", "invalid choice", "required",
    "whole number", "Is a directory", "No such file", "Permission denied", "samples", "Samples", "Expected value",
    "Probability", "exact value", "simulated estimate", "interval", "deck", "gold disc", "limit", "round",
    "BOTS", "SEAT", "SEED", "FILE", "COMMAND", "GAMES", "WORKERS", "ADDRESS", "DATABASE", "NAME",
)
#: The same word in the language too: "options" in French, "error" and "bot" in Spanish.
SAME_WORD = {"fr": {"options"}, "es": {"error", "Bot", "BOTS"}, "pt": set()}
LITERAL = re.compile(r"--[\w-]+|\{[^}]*\}|\b(?:capital-lux|play|simulate|replay|bench|worksheet|random|rule|search|"
                     r"iterations|seconds|dumps_record|postgresql|JSON|CSV|HTML)\b")


def english_left(lang: str, text: str) -> list[str]:
    text = LITERAL.sub(" ", text)
    return [term for term in ENGLISH_TERMS
            if term not in SAME_WORD[lang] and re.search(rf"\b{re.escape(term)}\b", text)]


def tooltips(html: str) -> str:
    return "\n".join(unescape(title) for title in re.findall(r'title="([^"]*)"', html))


def chart_texts(lang: str) -> list[str]:
    """Every text of the expected-value exercise's chart, of the risk timeline and of the simulated
    move comparison to the round's end and to the game's, ticks included."""
    from fractions import Fraction

    from capital_lux.analysis import forward, risk
    from capital_lux.analysis.charts import convergence_chart, forward_move_chart, timeline_chart
    from capital_lux.analysis.risk import Estimate
    from matplotlib.artist import Artist

    t = translator(lang)
    estimates = [(n, Estimate(3.2 + 1 / n, 2.9, 3.6, n)) for n in (100, 1000, 5000)]
    v = risk.example_view()
    figures = [convergence_chart(Fraction(10, 3), estimates, t, probability=False),
               timeline_chart([("1", forward.forward_risk(v, "quick", "random", samples=200, seed=1, exact_ms=0))], t)]
    for horizon, games in (("round", 1000), ("game", 20)):  # 1,000 games: a thousands separator in the title
        figures.append(forward_move_chart(forward.rank_moves(v, "quick", "random", seed=1, min_games=games,
                                                             games=games * len(v.legal_actions),
                                                             horizon=horizon).moves, t))
    found = []
    for figure in figures:
        figure.canvas.draw()
        found += [a.get_text() for a in figure.findobj(lambda a: isinstance(a, Artist) and hasattr(a, "get_text"))]
        for ax in figure.axes:
            found += [label.get_text() for label in ax.get_xticklabels() + ax.get_yticklabels()]
    return [text for text in found if text]


def test_the_english_scan_itself() -> None:
    assert english_left("fr", "Savant 3 (green)") == ["green"]
    assert english_left("fr", "usage: capital-lux play [--seed SEED]") == ["usage", "SEED"]
    assert english_left("es", "capital-lux: error: --players") == [] and english_left("fr", "--seed GRAINE") == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_word_on_paper_in_the_cli_in_tooltips_or_on_chart_axes(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    sheet, key = worksheet_html(_instances(7), lang), answer_key_html(_instances(7), lang)
    places = {"worksheet and key": printed(lang), "tooltips": tooltips(sheet + key), "CLI help": cli_help(lang, capsys),
              "charts": "\n".join(chart_texts(lang))}
    assert places["tooltips"].count("(") > 50  # every card carries one
    found = {place: english_left(lang, text) for place, text in places.items()}
    assert not {place: words for place, words in found.items() if words}


def test_the_exercises_simulation_counts_its_deals_in_the_readers_locale() -> None:
    from test_exercises import _app

    app = _app(lang="fr")
    app.picker.value = "modifier-variance"  # an expected value: its chart has no percentage axis
    app.answer.value = "1/2"
    app.check()  # the simulation opens after an attempt
    app.samples.value = 5000
    app.run_simulation()
    text = page_text(app.simulation.value)
    assert "5\u202f000 donnes" in text and "5000" not in text, text


@pytest.mark.parametrize("lang", TRANSLATED)
def test_chart_numbers_are_in_the_readers_locale(lang: str) -> None:
    texts = chart_texts(lang)
    decimals = [text for text in texts if re.fullmatch(r"-?\d[.,]\d\d?", text)]  # 2,9 or 3,25 (not 1.000)
    assert decimals and all("," in text for text in decimals), decimals  # matplotlib's own "3.25" nowhere
    title = next(text for text in texts if "%" in text and "95" in text and "1" in text)
    assert babel_number(1000, lang) in title  # "1 000 échantillons", "1.000 amostras", not "1000"


def babel_number(n: int, lang: str) -> str:
    from capital_lux.i18n import format_number

    return format_number(n, lang)
