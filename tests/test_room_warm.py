"""The teacher's page is warmed ahead, one kernel, before the learners' pool: its fill does not
wait behind the pool's, and a page being built still comes first. (The page's address reaching
that warm kernel is checked on a real server in ``test_teacher_key_clients``.)"""

from __future__ import annotations

import asyncio

import pytest
from traitlets import Dict

from capital_lux.serve import guards
from capital_lux.serve.guards import FIRST_VARIABLE, ClassKernels


class WithPools(ClassKernels):  # as Voila's preheating manager is made: ClassKernels below it
    kernel_pools_config = Dict({"default": {"pool_size": 2, "kernel_env_variables": {"A": "1"}}})


def test_the_teachers_page_has_one_warm_kernel_marked_to_go_first() -> None:
    pools = WithPools(learners_expected=30).kernel_pools_config
    assert pools["teacher.ipynb"] == {"pool_size": 1, "kernel_env_variables": {"A": "1", FIRST_VARIABLE: "1"}}
    assert pools["probability_exercises.ipynb"]["pool_size"] == 30
    assert FIRST_VARIABLE not in pools["probability_exercises.ipynb"]["kernel_env_variables"]
    assert "teacher.ipynb" not in WithPools(first_notebook="").kernel_pools_config


def test_the_teachers_warm_kernel_starts_before_the_pool_but_after_a_page_being_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(guards.time, "monotonic", lambda: now[0])
    kernels = ClassKernels(fill_spacing=2.0)
    loop = asyncio.new_event_loop()
    pool: list[asyncio.Task[None]] = []
    monkeypatch.setattr(kernels, "_pools", {"page.ipynb": pool}, raising=False)

    def turn() -> None:  # let every waiting fill look at the clock
        for _ in range(3):
            loop.run_until_complete(asyncio.sleep(0))

    try:
        kernels.page_started()  # a page is being built: nothing starts, the teacher's neither
        learners = [loop.create_task(kernels._fill_when_quiet(step=0)) for _ in range(3)]
        teacher = loop.create_task(kernels._fill_when_quiet(first=True, step=0))
        pool += [*learners, teacher]
        turn()
        assert not any(task.done() for task in pool)
        kernels.page_finished()
        turn()
        assert teacher.done() and not any(task.done() for task in learners)  # the teacher's first
        now[0] = 101.0
        turn()
        assert not any(task.done() for task in learners)  # then the pool's, at its spacing
        now[0] = 102.5
        turn()
        assert [task.done() for task in learners].count(True) == 1
    finally:
        for task in pool:
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
