"""Every number a user reads is written in the reader's locale, by one formatter."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest

from capital_lux.analysis.forward import ForwardRisk, MoveRisk, Ranking
from capital_lux.analysis.risk import Estimate
from capital_lux.analysis.simulate import simulate
from capital_lux.engine.notation import parse_action
from capital_lux.i18n import format_chance, format_interval, format_number, format_percent, format_range, translator
from capital_lux.lessons.exercises import EXERCISES, solution_text

NBSP = "\u00a0"
ROOT = Path(__file__).resolve().parents[1] / "capital_lux"

#: (language, 0.68544 to 4 places, 12.3 % to 0 places, 1234.5 to 1 place)
EXPECTED = [
    ("en", "0.6854", "12%", "1,234.5"),
    ("fr", "0,6854", f"12{NBSP}%", "1\u202f234,5"),
    ("es", "0,6854", f"12{NBSP}%", "1.234,5"),
    ("pt", "0,6854", "12%", "1.234,5"),
]


@pytest.mark.parametrize(("lang", "decimal", "pct", "thousands"), EXPECTED)
def test_numbers_and_percentages_per_language(lang: str, decimal: str, pct: str, thousands: str) -> None:
    assert format_number(0.68544, lang, 4) == decimal
    assert format_number(Fraction(6854, 10000), lang, 4) == decimal  # a Fraction keeps exact digits
    assert format_percent(0.123, lang) == pct
    assert format_number(1234.5, lang, 1) == thousands
    assert format_number(2, lang) == "2"
    assert format_chance(0.12, lang) == pct  # the charts and the risk panel: the same formatter (up to 1 decimal)
    assert format_chance(0.123, lang) == format_percent(0.123, lang, 1)


@pytest.mark.parametrize(
    ("lang", "score", "chance"),
    [("en", "9.4 [8.1–10.7]", "12% [8–15]"), ("fr", "9,4 [8,1–10,7]", f"12{NBSP}% [8–15]"),
     ("es", "9,4 [8,1–10,7]", f"12{NBSP}% [8–15]"), ("pt", "9,4 [8,1–10,7]", "12% [8–15]")],
)
def test_intervals_per_language(lang: str, score: str, chance: str) -> None:
    assert format_interval(9.43, 8.06, 10.72, lang) == score
    assert format_interval(0.123, 0.081, 0.151, lang, percent=True) == chance
    assert format_range(0.5, 0.612, lang, percent=True, digits=1) == ("50.0–61.2" if lang == "en" else "50,0–61,2")


def test_rounding_is_exact_half_even_on_the_decimal_value() -> None:
    # 0.125 as a Fraction is exactly half way: half-even gives 0.12, never float noise
    assert format_number(Fraction(1, 8), "en", 2) == "0.12"
    assert format_number(Fraction(3, 8), "fr", 3) == "0,375"
    assert format_percent(Fraction(1, 3), "fr", 1) == f"33,3{NBSP}%"


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_exercise_answers_use_the_locale_decimal_mark(lang: str) -> None:
    t = translator(lang)
    for ex in EXERCISES:
        exact = ex.exact()
        if exact.denominator == 1:
            continue
        text = solution_text(ex, t, html=False)
        shown = format_number(exact, lang, 4, trim=True)  # as the answer key writes it: "0,681", not "0,6810"
        assert f"≈ {shown}" in text, (ex.id, text)
        if lang != "en":
            assert f"≈ {float(exact):.4f}" not in text, ex.id


def _ranking(score: tuple[float, float, float], chance: tuple[float, float, float]) -> Ranking:
    """One move's ranking with these simulated figures (score change and chances)."""
    risk = ForwardRisk(model="quick", placement="random", exact=False, samples=100, colours={},
                       p_exceed_any=Estimate(*chance, 100), p_gold_keeps_all=Estimate(1, 1, 1, 100),
                       score_change=Estimate(*score, 100), p_ahead=Estimate(*chance, 100))
    return Ranking([MoveRisk(parse_action("home B5"), risk)], 1, risk, 100)


@pytest.mark.parametrize("lang", ["fr", "es", "pt"])
def test_what_if_table_in_the_readers_locale(lang: str) -> None:
    from capital_lux.tutor.whatif_app import moves_table_html

    html = moves_table_html(translator(lang), _ranking((9.43, 8.06, 10.72), (0.123, 0.081, 0.151)))
    assert "9,4 [8,1–10,7]" in html and "9.4" not in html
    assert format_percent(0.123, lang) + " [8–15]" in html


def test_simulate_summary_in_french() -> None:
    results = simulate(2, ["rule", "random"], 4, 1, progress=False)
    table = results.summary_table(translator("fr"))
    assert f"50{NBSP}%" in table  # an equal share of wins, French pattern
    assert f",0{NBSP}%" in table and "." not in table.replace("...", "")
    english = results.summary_table(translator("en"))
    assert "50%" in english and ".0%" in english


def test_risk_panel_numbers_in_french() -> None:
    from capital_lux.tutor.riskpanel import points, signed

    assert format_chance(Fraction(1, 4), "fr") == f"25{NBSP}%"
    assert format_chance(0.25, "en") == "25%"
    assert points(0.123, translator("fr")) == "12,3" and points(0.123, translator("en")) == "12.3"
    assert signed(-1.25, translator("pt")) == "\u22121,2"


def _format_specs(path: Path) -> list[tuple[int, str]]:
    """f-string number formats (``{x:.1f}``, ``{p:.0%}``) in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.FormattedValue) and isinstance(node.format_spec, ast.JoinedStr):
            spec = "".join(v.value for v in node.format_spec.values if isinstance(v, ast.Constant))
            if spec.rstrip("0123456789").endswith(("f", "%", "e", "g")) or "%" in spec:
                found.append((node.lineno, spec))
    return found


def test_no_module_a_user_reads_formats_numbers_by_hand() -> None:
    """The number formatting of user-facing modules goes through ``capital_lux.i18n``."""
    modules = sorted((ROOT / "tutor").glob("*.py")) + [
        ROOT / "analysis" / "charts.py", ROOT / "analysis" / "simulate.py", ROOT / "cli" / "main.py",
        ROOT / "lessons" / "exercises.py", ROOT / "lessons" / "whatif.py",
    ]
    found = {p.relative_to(ROOT).as_posix(): _format_specs(p) for p in modules if p.name not in ("load.py", "browser.py")}
    assert not {k: v for k, v in found.items() if v}
