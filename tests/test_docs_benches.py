"""Smokes of the benchmarks behind the manual's figures of the guards and of a class's start
(``python -m capital_lux bench guards``, ``bench class_start``; ``serve.servebench``): the same
code on the smallest size, checking what it measured, never a time."""

from __future__ import annotations

import os
import time

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


def test_the_hub_bench_finds_a_persons_server_and_its_kernel() -> None:
    """``bench hub``'s own pieces (the hub itself is ``tests/test_hub.py``'s, which starts one;
    a learner more on a hub here would cost about 19 s of CPU): the person's server found among
    the hub's processes by its user, with its kernel, and the start read from the hub's log."""
    import subprocess
    import sys

    wait = "import time; time.sleep(60)"
    server_code = ("import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', "
                   f"{wait!r}, 'ipykernel']); time.sleep(60)  # capital_lux.serve.singleuser")
    people = {user: subprocess.Popen([sys.executable, "-c", server_code], env={**os.environ, "JUPYTERHUB_USER": user})
              for user in ("ana", "bea")}
    try:
        for _ in range(100):  # until each server has started its kernel
            if all(psutil.Process(person.pid).children() for person in people.values()):
                break
            time.sleep(0.1)
        server, *kernels = servebench._person_server(psutil, os.getpid(), "bea")
        assert server.pid == people["bea"].pid
        assert [" ".join(kernel.cmdline()).endswith("ipykernel") for kernel in kernels] == [True]
        assert servebench._person_server(psutil, os.getpid(), "carl") == []
    finally:
        for person in people.values():
            for child in psutil.Process(person.pid).children(recursive=True):
                child.kill()
            person.kill()
            person.wait()
    log = "[I 2026 base:1193] User ana took 7.812 seconds to start\n[I 2026 base:1193] User bea took 4.1 seconds to start"
    assert servebench.start_seconds(log) == [7.812, 4.1]
