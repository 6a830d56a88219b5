"""The smoke of ``bench load``'s class figures: a class of two opened as ``make class`` opens it,
the teacher's page at once, both learners arriving beside a client holding every websocket it
may. The bench's first class, the same without that client, goes through no step this one
skips: the smoke opens one class, not two. The 30-learner figures, both classes, are
``python -m capital_lux bench load``'s."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_a_class_of_two_opens_and_arrives_whole_beside_a_hostile_client() -> None:
    pytest.importorskip("playwright.async_api")
    from load import class_figures

    # The learners' pages kept warm, and no other notebook's (Voila's pools of the tutorial, the
    # tables and pass-and-play: six kernels more, none opened by this class; the bench keeps them).
    figures = class_figures(learners=2, hostile=True, plain=False,
                            settings=("--VoilaConfiguration.default_pool_size=0",))
    name = "class_hostile"
    assert figures[f"{name}_failed"] == 0, figures
    assert figures[f"{name}_interactive_seconds_median"] > 0 and figures[f"{name}_kernels"] >= 2
    assert figures[f"{name}_teacher_page_seconds"] > 0 and figures[f"{name}_server_cpu_seconds"] > 0
    assert 1 <= figures["class_hostile_sockets_held"] <= 4  # the kernel's limit: the other 296+ refused
