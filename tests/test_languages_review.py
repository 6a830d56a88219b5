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
                                 "rulebook's picture (Capital 9, 3, 9, 12 against Hometown 11, 4, 6, 13) blue and yellow "
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
#: The form each language's readers expect for 0, 1 and 2, from CLDR's plural rules (Babel's
#: ``Locale.plural_form``): French and Brazilian Portuguese count 0 as "one" (pt: one = i in 0..1),
#: Spanish counts it as "other".
PLURALS = {"fr": ("one", "one", "other"), "es": ("other", "one", "other"), "pt": ("one", "one", "other")}
DISCS = {"fr": ("disque d'or", "disques d'or"), "es": ("disco de oro", "discos de oro"),
         "pt": ("moeda de ouro", "moedas de ouro")}
CARDS = {"fr": ("carte", "cartes"), "es": ("carta", "cartas"), "pt": ("carta", "cartas")}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_for_0_1_and_2_follow_cldr(lang: str) -> None:
    cldr = Locale.parse(babel_locale(lang)).plural_form
    assert tuple(cldr(n) for n in (0, 1, 2)) == PLURALS[lang]
    assert load_catalogue(lang).num_plurals == 2
    t = translator(lang)
    shown = {n: t.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2)}
    assert shown == {n: f"{n} {CARDS[lang][form != 'one']}" for n, form in zip((0, 1, 2), PLURALS[lang])}
    # the catalogue's Plural-Forms expression picks CLDR's form for every whole count
    for n in range(201):
        assert t.term("gold disc", n) == DISCS[lang][cldr(n) != "one"], (lang, n)
