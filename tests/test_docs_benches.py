"""Smokes of the benchmarks behind the manual's figures of the guards and of a class's start
(``python -m capital_lux bench guards``, ``bench class_start``; ``serve.servebench``): the same
code on the smallest size, checking what it measured, never a time."""

from __future__ import annotations

import pytest

from capital_lux.cli.bench import BENCHMARKS
from capital_lux.serve import servebench

pytestmark = [pytest.mark.slow]
psutil = pytest.importorskip("psutil")


def test_the_benchmarks_are_listed() -> None:
    assert {"guards", "class_start"} <= set(BENCHMARKS)


def test_guards_measure_each_work_in_a_fresh_process() -> None:
    works = servebench.guard_works(kernels=("tutor",))
    assert {"jsonschema_import_guarded", "jsonschema_import_plain", "kernel_tutor_guarded",
            "kernel_tutor_plain"} <= set(works)
    samples = {name: [works[name]()] for name in ("jsonschema_import_guarded", "jsonschema_import_plain")}
    figures = servebench._medians(samples)
    for name in samples:
        assert figures[f"{name}_cpu_s_min"] <= figures[f"{name}_cpu_s"] <= figures[f"{name}_cpu_s_max"]
        assert figures[f"{name}_wall_s"] > 0


def test_a_kernel_starts_as_the_server_starts_it_and_runs_its_notebook() -> None:
    cpu, wall = servebench.kernel_start("tutorial.ipynb", guarded=True)  # a cell that fails raises
    assert cpu > 0 and wall > 0


def test_a_class_without_pools_is_measured_until_idle_and_stopped() -> None:
    cpu, wall, kernels = servebench.class_once(learners=1, pools=False)  # a class left running raises
    assert cpu > 0 and wall > 0
    assert kernels >= 1  # the teacher's page's warm kernel at least
