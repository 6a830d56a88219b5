"""A classroom's smoke: 3 learners' pages on one Voila at once, each playing a whole game
(three, the fewest for which "no learner waits much longer than the others" can fail).

The classroom's figures (30 learners at once, and one page against a blank ipywidgets
page) are the ``load`` benchmark's: ``python -m capital_lux bench load``.
"""

from __future__ import annotations

import json
import statistics

import pytest

import browser as B
from load import arriving_class, classroom

pytestmark = pytest.mark.browser
SESSIONS = 3
#: Fewer widget models than any tutor page has (about 270 in November 2026, 100 of them layouts).
WIDGET_MODELS = 100


def test_concurrent_sessions_each_finish_a_game() -> None:
    (B.ROOT / "test-artifacts").mkdir(exist_ok=True)
    run = classroom(SESSIONS, players=2, log_path=B.ROOT / "test-artifacts" / "voila-load.log")
    sessions = run["sessions"]
    assert len(sessions) == SESSIONS and all(s["decisions"] >= 15 for s in sessions)  # whole games
    assert [s["outside_requests"] for s in sessions] == [[]] * SESSIONS  # nothing asked of the Internet
    # Fair shares: no learner waits much longer per decision than the others.
    per_decision = run["seconds_per_decision"]
    assert max(per_decision) <= 3 * statistics.median(per_decision), per_decision
    memory = run["kernel_memory_mib"]
    assert len(memory) >= SESSIONS, "every session had a kernel of its own"
    report = {"wall_seconds": run["wall_seconds"], "seconds_per_decision": per_decision, "kernel_memory_mib": memory}
    (B.ROOT / "test-artifacts" / "load.json").write_text(json.dumps(report, indent=1))
    print(f"\n{SESSIONS} sessions in {run['wall_seconds']:.0f} s; kernels {statistics.median(memory):.0f} MiB each")


def test_a_class_arriving_with_one_browser_among_them() -> None:
    """The harness of the bench's class served as a school serves it (the others' pages
    loaded without a browser while one page opens in Chromium): the browser's page becomes
    interactive and every other learner receives the widgets' full state over the kernel's
    websocket, the tutor's table among them (the page's HTML alone would not do)."""
    figures = arriving_class(3, browsers=1)
    assert figures["arriving_browser_interactive_seconds_median"] > 0
    assert figures["arriving_others_failed"] == 0
    assert figures["arriving_others_widget_models_min"] >= WIDGET_MODELS
    assert figures["arriving_others_showing_table"] == 2
    assert 0 < figures["arriving_others_page_seconds_max"] <= figures["arriving_others_state_seconds_max"]
