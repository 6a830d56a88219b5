"""The teacher's page is warmed ahead, one kernel, before the learners' pool: its fill does not
wait behind the pool's, and a page being built still comes first. The pool waits until that kernel
is ready (it asks for its request, its notebook ends, or a page takes it), ``first_lead`` at most.
(The page's address reaching that warm kernel is checked on a real server in ``test_teacher_key_clients``.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from traitlets import Dict

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from voila.app import Voila as VoilaApp
from voila.request_info_handler import RequestInfoSocketHandler
from voila.tornado.handler import TornadoVoilaHandler

from capital_lux.serve import app as serve_app
from capital_lux.serve.guards import FIRST_VARIABLE, ClassKernels


class WithPools(ClassKernels):  # as Voila's preheating manager is made: ClassKernels below it
    kernel_pools_config = Dict({"default": {"pool_size": 2, "kernel_env_variables": {"A": "1"}}})


def test_the_teachers_page_has_one_warm_kernel_marked_to_go_first() -> None:
    pools = WithPools(learners_expected=30).kernel_pools_config
    assert pools["teacher.ipynb"] == {"pool_size": 1, "kernel_env_variables": {"A": "1", FIRST_VARIABLE: "1"}}
    assert pools["probability_exercises.ipynb"]["pool_size"] == 30
    assert FIRST_VARIABLE not in pools["probability_exercises.ipynb"]["kernel_env_variables"]
    assert "teacher.ipynb" not in WithPools(first_notebook="").kernel_pools_config


class Voila:
    """The class's kernels as Voila's preheating manager drives them, without processes: each fill
    starts a kernel, then sets its notebook running (``task``, left running until the test ends it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, first_lead: float) -> None:
        self.now = 100.0
        monkeypatch.setattr(time, "monotonic", lambda: self.now)  # the loop's clock too
        self.started: list[str] = []
        self.notebooks: dict[str, asyncio.Future[object]] = {}

        async def start(_: object, *args: object, **kwargs: object) -> str:  # Jupyter's start, without a process
            env: dict[str, str] = kwargs["env"]  # type: ignore[assignment]
            self.started.append("teacher" if env.get(FIRST_VARIABLE) else "learner")
            return f"kernel-{len(self.started)}"

        monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)
        self.kernels = ClassKernels(fill_spacing=2.0, first_lead=first_lead, max_kernels=100)
        self.loop = asyncio.new_event_loop()
        self.pools: dict[str, list[asyncio.Task[object]]] = {"teacher.ipynb": [], "page.ipynb": []}
        monkeypatch.setattr(self.kernels, "_pools", self.pools, raising=False)

    async def _initialize(self, env: dict[str, str]) -> dict[str, object]:  # as Voila's _initialize
        kernel_id = await self.kernels.start_kernel(env={"VOILA_PREHEAT": "True", **env})
        self.notebooks[kernel_id] = self.loop.create_future()
        return {"kernel_id": kernel_id, "task": self.notebooks[kernel_id]}

    def fill(self, notebook: str, env: dict[str, str]) -> None:
        self.pools[notebook].append(self.loop.create_task(self._initialize(env)))

    def at(self, now: float) -> list[str]:
        """The kernels started once every waiting fill has looked at the clock at ``now``."""
        self.now = now
        for _ in range(6):
            self.loop.run_until_complete(asyncio.sleep(0))
        return self.started

    def close(self) -> None:
        for task in [*self.pools["teacher.ipynb"], *self.pools["page.ipynb"], *self.notebooks.values()]:
            task.cancel()
        self.loop.run_until_complete(asyncio.sleep(0))
        self.loop.close()


@pytest.fixture
def voila(monkeypatch: pytest.MonkeyPatch) -> Iterator[Voila]:
    made = Voila(monkeypatch, first_lead=15.0)
    yield made
    made.close()


def test_the_teachers_warm_kernel_starts_before_the_pool_but_after_a_page_being_built(voila: Voila) -> None:
    voila.kernels.page_started()  # a page is being built: nothing starts, the teacher's neither
    for _ in range(3):
        voila.fill("page.ipynb", {})
    voila.fill("teacher.ipynb", {FIRST_VARIABLE: "1"})
    assert voila.at(100.0) == []
    voila.kernels.page_finished()
    assert voila.at(100.3) == ["teacher"]  # the teacher's first, though asked for last
    assert voila.at(114.0) == ["teacher"]  # the pool waits while the teacher's kernel runs its notebook
    assert voila.at(115.5) == ["teacher", "learner"]  # first_lead is the bound of that wait
    assert voila.at(116.0) == ["teacher", "learner"]  # then at the pool's own spacing
    assert voila.at(117.6) == ["teacher", "learner", "learner"]


@pytest.mark.parametrize("ready", ["asks for its request", "ends its notebook", "is taken by a page"])
def test_the_pool_starts_as_soon_as_the_teachers_kernel_is_ready(voila: Voila, ready: str) -> None:
    voila.fill("page.ipynb", {})
    voila.fill("teacher.ipynb", {FIRST_VARIABLE: "1"})
    assert voila.at(100.3) == ["teacher"]
    assert voila.at(103.0) == ["teacher"]  # imports and builds its page: not ready yet
    if ready == "asks for its request":
        voila.kernels.asks_for_request("kernel-9")  # another kernel's asking is not the teacher's
        assert voila.at(103.5) == ["teacher"]
        voila.kernels.asks_for_request("kernel-1")  # as ClassRequestInfo tells it
    elif ready == "ends its notebook":  # a notebook that does not wait for the request, or that failed
        voila.notebooks["kernel-1"].set_result(None)
    else:  # Voila hands the pool's kernel to a page (which the pool then waits for while it is built)
        voila.pools["teacher.ipynb"].pop()
    assert voila.at(104.0) == ["teacher", "learner"]  # then at once, not at the bound (115.3)


def test_a_kernel_asking_for_its_request_tells_the_class_kernels(
        voila: Voila, monkeypatch: pytest.MonkeyPatch) -> None:
    """The request-info socket a warm kernel opens is the class's own (``ClassVoila``), and its
    opening is the readiness the pool waits for."""
    voilas: list[tuple[object, ...]] = [("/voila/query/(?P<kernel_id>.+)", RequestInfoSocketHandler),
                                        ("/voila/render/(.*)", TornadoVoilaHandler, {})]
    monkeypatch.setattr(VoilaApp, "init_handlers", lambda self: voilas)
    rules = [rule[1] for rule in serve_app.ClassVoila(server_url="/").init_handlers()]
    assert rules[1:] == [serve_app.ClassRequestInfo, serve_app.PacedVoilaHandler]  # after the manual's
    voila.fill("page.ipynb", {})
    voila.fill("teacher.ipynb", {FIRST_VARIABLE: "1"})
    assert voila.at(100.3) == ["teacher"]
    assert voila.at(103.0) == ["teacher"]
    socket = serve_app.ClassRequestInfo.__new__(serve_app.ClassRequestInfo)
    socket.application = type("Application", (), {"settings": {"kernel_manager": voila.kernels}})()
    socket.write_message = lambda message: None
    try:
        socket.open("kernel-1")
    finally:
        RequestInfoSocketHandler._waiters.pop("kernel-1", None)
    assert voila.at(103.5) == ["teacher", "learner"]
