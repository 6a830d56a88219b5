"""The per-session work runner: one job at a time, a budget, a new request replacing the old."""

from __future__ import annotations

import threading

import pytest

from capital_lux.tutor.work import Job, WorkRunner, WorkStopped


class Clock:
    """A clock the test moves by hand, so budgets are checked without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_job_over_its_budget_stops_with_its_progress_known() -> None:
    clock = Clock()
    runner = WorkRunner(budget_seconds=10, clock=clock)
    seen: list[float] = []

    def work(job: Job[int]) -> int:
        for step in range(100):
            clock.now += 1  # each step "takes" a second
            job.check(step / 100)
        return 100

    job = runner.submit(work, on_progress=seen.append)
    with pytest.raises(WorkStopped) as stopped:
        job.result(timeout=10)
    assert stopped.value.reason == "budget" and 0.09 <= job.progress <= 0.11 and seen[-1] == job.progress
    runner.close()


def test_a_new_request_cancels_the_running_one_and_runs_alone() -> None:
    runner = WorkRunner(budget_seconds=60)
    started, release = threading.Event(), threading.Event()
    running = []

    def slow(job: Job[str]) -> str:
        running.append(1)
        started.set()
        while True:
            release.wait(0.01)
            job.check(0.5)  # stops here once cancelled

    def quick(job: Job[str]) -> str:
        assert len(running) == 1  # the slow one's thread is the only worker: never two at once
        return "quick"

    first = runner.submit(slow)
    started.wait(5)
    waiting = runner.submit(quick)
    latest = runner.submit(quick)
    with pytest.raises(WorkStopped) as stopped:
        first.result(timeout=5)
    assert stopped.value.reason == "cancelled"
    assert waiting.future.cancelled()  # replaced before it started
    assert latest.result(timeout=5) == "quick"
    runner.close()


def test_the_server_sets_the_budget_and_a_bad_setting_keeps_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.tutor.work import BUDGET_VARIABLE, DEFAULT_BUDGET_SECONDS, budget_from_env

    monkeypatch.setenv(BUDGET_VARIABLE, "40")
    runner = WorkRunner()
    assert runner.budget_seconds == 40.0
    runner.close()
    for bad in ("0", "-5", "inf", "nan", "1e9", "fifteen", ""):
        assert budget_from_env({BUDGET_VARIABLE: bad}) == DEFAULT_BUDGET_SECONDS, bad
    assert budget_from_env({}) == DEFAULT_BUDGET_SECONDS


def test_a_page_runs_one_analysis_at_a_time_whichever_panel_asks() -> None:
    """The tutor shows the risk panel and the what-if explorer on one page (one kernel):
    both submit to the same runner, so a new request in one cancels the other's."""
    from capital_lux.tutor.riskpanel import RiskPanel
    from capital_lux.tutor.whatif_app import WhatIfApp
    from capital_lux.tutor.work import page_runner

    panel, explorer = RiskPanel(), WhatIfApp()
    assert panel.comparison.runner is page_runner() is explorer.runner
    started = threading.Event()

    def slow(job: Job[None]) -> None:
        started.set()
        while True:
            job.check(0.0)

    first = page_runner().submit(slow)
    assert started.wait(5)
    page_runner().submit(lambda job: None).result(timeout=5)
    assert first.cancelled
