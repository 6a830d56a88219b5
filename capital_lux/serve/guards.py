"""The kernel websocket and the kernel manager a class server runs (see ``capital_lux.serve``).

Both are named in ``voila.json`` (``Voila.kernel_websocket_connection_class`` and
``VoilaConfiguration.multi_kernel_manager_class``), so plain ``voila`` from the repository
root gets them too, and Jupyter Server's settings take the websocket through the extension.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import time
from typing import Any, Final, TypedDict

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Int, Unicode

#: The only websocket protocol the class's pages speak (Jupyter's binary v1 framing).
V1: Final = "v1.kernel.websocket.jupyter.org"
#: Every kernel of a class wrote the same IPython history file, and under load its thread
#: printed "database is locked" into learners' pages: a served page keeps no history. The
#: extension keeps a page's failing comm messages in the server's log (``serve.kernel``).
KERNEL_ARGUMENTS: Final = ("--HistoryManager.enabled=False", "--IPKernelApp.extensions=capital_lux.serve.kernel")
#: Memory kept for the server and the system when the ceiling is derived from the machine's.
RESERVED_MIB: Final = 1024


def offered_protocols(header: str | None) -> set[str]:
    """The subprotocols a websocket handshake's ``Sec-WebSocket-Protocol`` header offers.

    >>> sorted(offered_protocols("v1.kernel.websocket.jupyter.org, other"))
    ['other', 'v1.kernel.websocket.jupyter.org']
    >>> offered_protocols(None)
    set()
    """
    return {part.strip() for part in (header or "").split(",") if part.strip()}


def v1_message_type(message: object) -> str | None:
    """The ``msg_type`` of a v1-framed websocket message, or ``None`` if it is not one.

    The frame starts with a count of offsets (8 bytes, little-endian) and the offsets: a
    count that does not fit the frame is refused before anything is read, since
    Jupyter Server's own reader would build that many offsets first.

    >>> import json
    >>> from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
    >>> header = json.dumps({"msg_type": "comm_msg"}).encode()
    >>> frame = serialize_msg_to_ws_v1([header, b"{}", b"{}", b"{}"], "shell")
    >>> v1_message_type(frame)
    'comm_msg'
    >>> v1_message_type((2**60).to_bytes(8, "little") + frame) is None
    True
    """
    if not isinstance(message, bytes) or len(message) < 8:
        return None
    count = int.from_bytes(message[:8], "little")
    if count < 3 or 8 * (count + 1) > len(message):
        return None
    offsets = [int.from_bytes(message[8 * i:8 * (i + 1)], "little") for i in range(1, 4)]
    if not offsets[0] <= offsets[1] <= offsets[2] <= len(message):
        return None
    try:
        header = json.loads(message[offsets[1]:offsets[2]])
    except ValueError:
        return None
    kind = header.get("msg_type") if isinstance(header, dict) else None
    return kind if isinstance(kind, str) else None


class KernelSocket(ZMQChannelsWebsocketConnection):
    """A page's kernel websocket: v1 framing only, and a page's shutdown request is final.

    - A handshake that does not offer the v1 subprotocol is refused (400) before the
      upgrade. Voila 0.5.13's handler parses every binary reply as v1 whatever the
      client speaks; for a legacy client it reads a length of ~10^18 and the server
      freezes while it fills its memory.
    - A frame whose framing does not hold is dropped, never parsed further.
    - ``shutdown_request`` shuts the kernel down through the kernel manager: sent to the
      kernel, it would only be restarted by the server's restarter.
    """

    async def prepare(self) -> None:
        request = self.websocket_handler.request
        if V1 not in offered_protocols(request.headers.get("Sec-WebSocket-Protocol")):
            self.log.warning("Refused a kernel websocket without the %s subprotocol from %s",
                             V1, request.remote_ip)
            raise web.HTTPError(400, f"kernel websockets here speak only the {V1} subprotocol")
        await super().prepare()  # type: ignore[no-untyped-call]

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        kind = v1_message_type(incoming_msg)
        if kind is None:
            self.log.warning("Dropped a kernel websocket frame that is not v1-framed")
            return
        if kind == "shutdown_request":
            self.log.info("Kernel %s: shut down at its page's request", self.kernel_id)
            asyncio.ensure_future(self._shut_down())
            return
        super().handle_incoming_message(incoming_msg)

    async def _shut_down(self) -> None:
        kernels = self.multi_kernel_manager
        if self.kernel_id in kernels:
            await kernels.shutdown_kernel(self.kernel_id)


def memory_ceiling(total_bytes: int, kernel_mib: int) -> int:
    """How many kernels of ``kernel_mib`` fit a machine's memory, less what the server keeps.

    >>> memory_ceiling(24 * 2**30, 160)
    147
    >>> memory_ceiling(512 * 2**20, 160)
    1
    """
    return max(1, (total_bytes // 2**20 - RESERVED_MIB) // kernel_mib)


def machine_memory() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


class _Warm(TypedDict):
    """What this module reads of a kernel in Voila's warm pool (the result of a fill's task)."""

    kernel_id: str


class ClassKernels(AsyncMappingKernelManager):
    """The server's kernels, with a ceiling on learners': past it a page is answered 503.

    A learner's kernel is one a page has, or is starting for a page. Kernels Voila keeps
    warm in its pool (``preheat_kernel``) are not a learner's until a page takes one, and the
    pool is refilled only while the machine has room: a class therefore holds at most
    ``ceiling`` learners and ``ceiling`` plus the pool's size kernels. A page that arrives
    while the pool's first kernels are still starting is a learner like any other, not a
    full class. Starting kernels are counted, so a class arriving at once cannot overshoot
    the ceiling between two checks (by more than the pool it takes at the same moment).

    A class arrives at once: each page it takes from the pool asks Voila for a new warm
    kernel, and 30 kernels starting together (about 2 s of CPU each) slowed every page of
    the class that was still being built. A refill therefore waits while any page is being
    built (``building``: from the page's request to its last cell), and starts alone,
    ``fill_spacing`` seconds after the one before; a page that has come to take that very
    kernel does not wait. Learners arriving one after another find the pool refilled
    between them, as before; the pool's first filling, before any page, starts at once.
    ``learners`` warms that many kernels of ``pool_notebook`` before the class arrives.
    """

    max_kernels = Int(0, config=True, help=(
        "Most learners' kernels at once; 0 (the default) derives it from the machine's "
        "memory and kernel_memory_mib."))
    kernel_memory_mib = Int(160, config=True, help=(
        "Memory one learner's kernel is allowed for when the ceiling is derived (MiB)."))
    fill_spacing = Float(2.0, config=True, help="Seconds between two refills of the warm pool.")
    learners_expected = Int(0, config=True, help=(
        "Kernels of pool_notebook kept warm before the class arrives (0: Voila's pool size)."))
    pool_notebook = Unicode("probability_exercises.ipynb", config=True, help=(
        "The notebook the class opens, relative to the served folder."))

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._started: set[str] = set()  # a kernel joins once its start has returned (Jupyter lists it earlier)
        self._warm: set[str] = set()  # kernels started for the warm pool that no cull has seen out of it
        self._starting = 0
        self._filling = 0
        self.building = 0  # pages between their request and their last cell
        self._asked = False  # a page has been asked for since the server started
        self._last_fill = -math.inf
        pools = getattr(self, "kernel_pools_config", None)  # Voila's, with preheat; it fills them after this
        if self.learners_expected and isinstance(pools, dict):
            self.kernel_pools_config = {**pools, self.pool_notebook: {**pools.get("default", {}),
                                                                     "pool_size": self.learners_expected}}

    @property
    def ceiling(self) -> int:
        return self.max_kernels or memory_ceiling(machine_memory(), self.kernel_memory_mib)

    def _warm_pools(self) -> list[list[asyncio.Task[_Warm]]]:
        pools: dict[str, list[asyncio.Task[_Warm]]] = getattr(self, "_pools", {})  # Voila's, with preheat
        return list(pools.values())

    def drop_refused_fills(self) -> None:
        """Forget the pool's fills that failed (the ceiling refused them), so no page inherits one."""
        for pool in self._warm_pools():
            pool[:] = [task for task in pool if not task.done() or _succeeded(task)]

    def _running(self) -> set[str]:
        self._started &= set(self.list_kernel_ids())
        return self._started

    def learners(self) -> int:
        """Kernels running or starting for a page: all of them but those waiting in the pool."""
        waiting = {task.result()["kernel_id"] for pool in self._warm_pools() for task in pool
                   if task.done() and _succeeded(task)}
        return len(self._running() - waiting) + self._starting - self._filling

    def is_full(self) -> bool:
        return self.learners() >= self.ceiling

    def page_started(self) -> None:
        """A page is being built: the pool's refills wait until it is."""
        self._asked = True
        self.building += 1

    def page_finished(self) -> None:
        self.building = max(0, self.building - 1)

    def _awaited(self) -> bool:
        """Whether the refill running now has been taken by a page (it is no longer in a pool)."""
        task = asyncio.current_task()
        return not any(task in pool for pool in self._warm_pools())

    async def _fill_when_quiet(self, step: float = 0.25) -> None:
        """Until no page is being built and the refill before has had its time, or a page waits for this one."""
        if not self._asked:
            return  # the pool's first filling, before any learner: all at once, as Voila does
        while not self._awaited():
            if not self.building and time.monotonic() - self._last_fill >= self.fill_spacing:
                break  # checked and taken between two awaits: one refill at a time
            await asyncio.sleep(step)
        self._last_fill = time.monotonic()

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]  # async, as the base's
        filling = kwargs.get("env", {}).get("VOILA_PREHEAT") == "True"
        if kwargs.get("kernel_id") is None:
            if filling and len(self._running()) + self._starting >= self.ceiling:
                raise web.HTTPError(503, "no room to keep a kernel warm", reason="Class full")
            if not filling and self.is_full():
                self.log.warning("The class is full: %d learners, ceiling %d", self.learners(), self.ceiling)
                raise web.HTTPError(503, "the class is full", reason="Class full")
        if filling:
            await self._fill_when_quiet()
        kwargs["extra_arguments"] = [*kwargs.get("extra_arguments", []), *KERNEL_ARGUMENTS]
        self._starting += 1
        self._filling += filling
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
            self._filling -= filling
        self._started.add(kernel_id)
        if filling:
            self._warm.add(kernel_id)
        return kernel_id

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Jupyter's idle cull, for the kernels Voila's pool does not keep. A kernel a page took
        from the pool is idle from then, not from its time in the pool: Voila keeps the pool's
        kernels from the cull, but one taken by a page kept all the time it had waited there,
        and the next round of the cull stopped it before the learner's browser had connected
        (an upstream bug; the page then never became interactive). The cull's first round
        after a page took it starts its idle time afresh."""
        if kernel_id in self._warm:  # Voila's cull sends only kernels outside its pool here
            self._warm.discard(kernel_id)
            kernel = self._kernels.get(kernel_id)
            if kernel is not None:
                kernel.last_activity = utcnow()
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]


def _succeeded(task: asyncio.Task[object]) -> bool:
    return not task.cancelled() and task.exception() is None
