"""The teacher's page is warmed ahead, one kernel, before the learners' pool: its fill does not
wait behind the pool's, and a page being built still comes first. (The page's address reaching
that warm kernel is checked on a real server in ``test_teacher_key_clients``.)"""

from __future__ import annotations

import asyncio

import pytest
from traitlets import Dict

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

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
    started: list[str] = []

    async def start(self: object, *args: object, **kwargs: object) -> str:  # Jupyter's start, without a process
        started.append("teacher" if kwargs["env"].get(FIRST_VARIABLE) else "learner")  # type: ignore[attr-defined]
        return f"kernel-{len(started)}"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)
    kernels = ClassKernels(fill_spacing=2.0, first_lead=15.0, max_kernels=100)
    loop = asyncio.new_event_loop()
    pool: list[asyncio.Task[str]] = []
    monkeypatch.setattr(kernels, "_pools", {"page.ipynb": pool}, raising=False)

    def turn() -> None:  # let every waiting fill look at the clock (the loop's clock is the patched one)
        for _ in range(6):
            loop.run_until_complete(asyncio.sleep(0))

    def fill(env: dict[str, str]) -> asyncio.Task[str]:
        return loop.create_task(kernels.start_kernel(env={"VOILA_PREHEAT": "True", **env}))

    try:
        kernels.page_started()  # a page is being built: nothing starts, the teacher's neither
        pool += [fill({}) for _ in range(3)]
        pool.append(fill({FIRST_VARIABLE: "1"}))
        turn()
        assert started == []
        kernels.page_finished()
        now[0] = 100.3
        turn()
        assert started == ["teacher"]  # the teacher's first, though asked for last
        now[0] = 110.0
        turn()
        assert started == ["teacher"]  # the pool waits while the teacher's kernel imports its page
        now[0] = 115.5
        turn()
        assert started == ["teacher", "learner"]
        now[0] = 116.0
        turn()
        assert started == ["teacher", "learner"]  # then at the pool's own spacing
        now[0] = 117.6
        turn()
        assert started == ["teacher", "learner", "learner"]
    finally:
        for task in pool:
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
