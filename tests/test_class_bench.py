"""The smoke of ``bench load``'s class figures: a class of two opened as ``make class`` opens it,
the teacher's page at once, both learners arriving, then again beside a client holding every
websocket it may. The 30-learner figures are ``python -m capital_lux bench load``'s."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_a_class_of_two_opens_and_arrives_whole_beside_a_hostile_client() -> None:
    pytest.importorskip("playwright.async_api")
    from load import class_figures

    figures = class_figures(learners=2, hostile=True)
    for name in ("class", "class_hostile"):
        assert figures[f"{name}_failed"] == 0, figures
        assert figures[f"{name}_interactive_seconds_median"] > 0 and figures[f"{name}_kernels"] >= 2
        assert figures[f"{name}_teacher_page_seconds"] > 0 and figures[f"{name}_server_cpu_seconds"] > 0
    assert 1 <= figures["class_hostile_sockets_held"] <= 4  # the kernel's limit: the other 296+ refused
