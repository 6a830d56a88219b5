"""The kernel websocket and the kernel manager a class server runs (see ``capital_lux.serve``).

Both are named in ``voila.json`` (``Voila.kernel_websocket_connection_class`` and
``VoilaConfiguration.multi_kernel_manager_class``), so plain ``voila`` from the repository
root gets them too, and Jupyter Server's settings take the websocket through the extension.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import math
import os
import resource
import sys
import sysconfig
import time
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar, Final, TypedDict

import zmq

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Int, Unicode

from .kernel import KERNEL_ARGUMENTS  # each kernel's command line (the extension keeps failing comms in the log)

#: The only websocket protocol the class's pages speak (Jupyter's binary v1 framing).
V1: Final = "v1.kernel.websocket.jupyter.org"
#: Memory kept for the server and the system when the ceiling is derived from the machine's.
RESERVED_MIB: Final = 1024
#: The address of the client whose page request is being served (set by the page handler, in
#: the request's own task): a kernel started for that page gets it as ``CLIENT_VARIABLE``, so
#: the teacher's page limits wrong keys per address (a kernel cannot see its browser's).
CLIENT: Final = contextvars.ContextVar[str]("capital_lux_client", default="")
#: ``lessons.classroom.CLIENT_VARIABLE`` (this module does not import the lessons).
CLIENT_VARIABLE: Final = "CAPITAL_LUX_CLIENT"
#: Set in the environment of the first notebook's warm kernel (the teacher's), so its fill goes first.
FIRST_VARIABLE: Final = "CAPITAL_LUX_WARM_FIRST"
#: File descriptors and ZeroMQ sockets kept, past the websockets' use, for kernels to start,
#: pages to load and the server's own files: a share of the budget, at least this many.
RESERVED_SOCKETS: Final = 128
RESERVED_SHARE: Final = 0.1


def raise_file_limit() -> tuple[int, int]:
    """The process's soft limit on open files raised to its hard limit (the most it may open
    without privilege); the limits ``(soft, hard)`` after. Each kernel websocket holds four
    ZeroMQ sockets and their descriptors: a soft limit of 1,024 ran out with a few hundred."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # a hard limit the system does not allow as soft (e.g. above fs.nr_open): keep the soft one
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def zmq_socket_ceiling(context: zmq.Context[Any], files: int) -> int:
    """The ZeroMQ context's socket ceiling raised to what the file budget allows (half of it:
    a socket holds a descriptor and its connection another), before its first socket is
    made; its ceiling after. libzmq's default, 1,023 sockets, is what 300 websockets on one
    kernel exhausted ("Too many open files"), whatever the file limit."""
    wanted = min(context.get(zmq.SOCKET_LIMIT), max(files // 2, 1))
    if wanted > context.get(zmq.MAX_SOCKETS):
        context.set(zmq.MAX_SOCKETS, wanted)
    return int(context.get(zmq.MAX_SOCKETS))


def open_files() -> int:
    """Descriptors this process holds (Linux's ``/proc``; 0 where it cannot tell)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


def reserve(budget: int) -> int:
    """What is kept of a budget of ``budget`` descriptors or sockets for everything but websockets.

    >>> reserve(20000), reserve(1023), reserve(100)
    (2000, 128, 50)
    """
    return min(max(RESERVED_SOCKETS, int(budget * RESERVED_SHARE)), budget // 2)


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


#: What tells of the server's inside in a message: a Python traceback, and the server's
#: folders (each has a character base64 has not, or is long enough never to occur in an
#: image's base64 by chance).
INSIDE: Final = tuple(dict.fromkeys(needle.encode() for needle in (
    "Traceback", "site-packages", "dist-packages", str(Path(__file__).resolve().parents[2]),
    sys.prefix, sys.exec_prefix, sysconfig.get_paths()["stdlib"], str(Path.home()) + "/") if len(needle) > 5))
#: An error message's header: its value and traceback are the server's business, always.
ERROR_HEADER: Final = b'"msg_type": "error"'


def _without(value: Any, inside: tuple[str, ...]) -> Any:
    """``value`` (a message's decoded content) with every text that tells of ``inside`` blanked,
    and dropped from lists (a traceback's lines)."""
    if isinstance(value, str):
        return "" if any(needle in value for needle in inside) else value
    if isinstance(value, list):
        return [_without(item, inside) for item in value
                if not (isinstance(item, str) and any(needle in item for needle in inside))]
    if isinstance(value, dict):
        return {key: _without(item, inside) for key, item in value.items()}
    return value


def outside_only(parts: list[bytes], inside: tuple[bytes, ...] = INSIDE) -> list[bytes] | None:
    """A kernel's message (``[header, parent header, metadata, content, *buffers]``) as a page
    may see it: with no traceback or server path in its content, or None when it is a stream
    (stderr, stdout) that tells of them, whose whole text is the server's business.

    >>> import json
    >>> error = [json.dumps({"msg_type": "error"}).encode(), b"{}", b"{}", json.dumps(
    ...     {"ename": "KeyError", "evalue": "x", "traceback": ["Traceback (most recent call last)", "KeyError"]}).encode()]
    >>> json.loads(outside_only(error)[3])
    {'ename': 'KeyError', 'evalue': '', 'traceback': []}
    >>> stream = [json.dumps({"msg_type": "stream"}).encode(), b"{}", b"{}", b'{"text": "Traceback ..."}']
    >>> outside_only(stream) is None
    True
    >>> outside_only(stream[:3] + [b'{"text": "3/8"}']) == stream[:3] + [b'{"text": "3/8"}']
    True
    """
    if len(parts) < 4 or not (ERROR_HEADER in parts[0] or any(needle in part for part in parts[:4]
                                                              for needle in inside)):
        return parts
    try:
        header = json.loads(parts[0])
        kind = header.get("msg_type") if isinstance(header, dict) else None
        if kind == "stream":
            return None
        texts = tuple(needle.decode() for needle in inside)
        body = json.loads(parts[3])
        if kind == "error" and isinstance(body, dict):  # what failed is said by its name only
            body = {**body, "evalue": "", "traceback": []}
        content = json.dumps(_without(body, texts)).encode()
        metadata = json.dumps(_without(json.loads(parts[2]), texts)).encode()
    except (ValueError, UnicodeDecodeError):
        return None
    return [parts[0], parts[1], metadata, content, *parts[4:]]


class KernelSocket(ZMQChannelsWebsocketConnection):
    """A page's kernel websocket: v1 framing only, and a page's shutdown request is final.

    - A handshake that does not offer the v1 subprotocol is refused (400) before the
      upgrade. Voila 0.5.13's handler parses every binary reply as v1 whatever the
      client speaks; for a legacy client it reads a length of ~10^18 and the server
      freezes while it fills its memory.
    - A frame whose framing does not hold is dropped, never parsed further.
    - ``shutdown_request`` shuts the kernel down through the kernel manager: sent to the
      kernel, it would only be restarted by the server's restarter.
    - A kernel holds at most ``sockets_per_kernel`` websockets and a client address
      ``sockets_per_address`` (429 past them), and none opens when the server's descriptors or
      ZeroMQ sockets would fall under what kernels and pages need (503): one client that
      opened 300 websockets on its own kernel exhausted the server's ZeroMQ context, and no
      other page could connect.
    - A kernel's message that tells of the server's inside (a traceback, the server's paths)
      reaches the page without it (``outside_only``), and the server's log keeps it.
    """

    sockets_per_kernel = Int(4, config=True, help=(
        "Websockets open at once on one kernel (a page opens one, two while it reconnects)."))
    sockets_per_address = Int(64, config=True, help=(
        "Websockets open at once from one client address, all kernels counted. Behind a "
        "proxy or a school's NAT every learner has one address: allow two a learner."))

    #: Websockets open (or being opened) on each kernel and from each address, the server's all.
    _by_kernel: ClassVar[Counter[str]] = Counter()
    _by_address: ClassVar[Counter[str]] = Counter()
    _held: tuple[str, str] | None = None

    async def prepare(self) -> None:
        request = self.websocket_handler.request
        address = request.remote_ip or ""
        if V1 not in offered_protocols(request.headers.get("Sec-WebSocket-Protocol")):
            self.log.warning("Refused a kernel websocket without the %s subprotocol from %s", V1, address)
            raise web.HTTPError(400, f"kernel websockets here speak only the {V1} subprotocol")
        # Counted before anything is opened for it: past a limit, the socket costs the server nothing.
        if self._by_kernel[self.kernel_id] >= self.sockets_per_kernel > 0:
            self.log.warning("Refused a websocket from %s: kernel %s has %d open", address, self.kernel_id,
                             self._by_kernel[self.kernel_id])
            raise web.HTTPError(429, "too many websockets on this kernel")
        if self._by_address[address] >= self.sockets_per_address > 0:
            self.log.warning("Refused a websocket from %s: %d open from that address", address,
                             self._by_address[address])
            raise web.HTTPError(429, "too many websockets from this address")
        short = self._short_of()
        if short:
            self.log.warning("Refused a websocket from %s: %s", address, short)
            raise web.HTTPError(503, "the server has no room for another websocket")
        self._held = (self.kernel_id, address)
        self._by_kernel[self.kernel_id] += 1
        self._by_address[address] += 1
        try:
            await super().prepare()  # type: ignore[no-untyped-call]
        except BaseException:
            self._release()
            raise

    def _short_of(self) -> str | None:
        """What the server is short of to open another websocket (its four ZeroMQ sockets and
        their descriptors) and still start kernels and serve pages, or None."""
        files, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        held = open_files()
        if files != resource.RLIM_INFINITY and held + reserve(files) >= files:
            return f"{held} of {files} file descriptors open"
        context = self.multi_kernel_manager.context
        sockets = int(context.get(zmq.MAX_SOCKETS))
        used = len(getattr(context, "_sockets", ()))
        if used + reserve(sockets) >= sockets:
            return f"{used} of {sockets} ZeroMQ sockets open"
        return None

    def _release(self) -> None:
        if self._held is None:
            return
        kernel, address = self._held
        self._held = None
        for counts, key in ((self._by_kernel, kernel), (self._by_address, address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]

    def disconnect(self) -> None:  # type: ignore[override]  # a coroutine in the base only
        try:
            super().disconnect()  # type: ignore[no-untyped-call]
        finally:
            self._release()

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

    def _on_zmq_reply(self, stream: Any, msg_list: list[Any]) -> None:
        if self.subprotocol == V1:  # the only one this socket speaks: the message's parts, unparsed
            parts = [bytes(part) for part in msg_list]
            kept = outside_only(parts)
            if kept is not parts:
                self.log.warning("Kept from kernel %s's page: %s", self.kernel_id,
                                 b" ".join(parts[:4]).decode("utf-8", "replace")[:4000])
            if kept is None:
                return
            msg_list = kept
        super()._on_zmq_reply(stream, msg_list)  # type: ignore[no-untyped-call]

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
    task: asyncio.Task[object]  # running the notebook in the kernel, up to the request and past it


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
    between them, as before; the pool's first filling, before any page, goes the same way,
    around the pages that come meanwhile (the teacher's first).
    ``learners`` warms that many kernels of ``pool_notebook`` before the class arrives.

    The teacher's page (``first_notebook``) is warmed too, one kernel, ahead of every other
    fill: its page is opened as ``make class`` returns, and a kernel started then, under the
    pool's filling, took 8-14 s to show the key's field. Its kernel learns the browser's address
    (for the wrong-key limits) with the request's query, once a page takes it (``ClassVoila``).
    The learners' pool waits until that kernel is ready: it has run what its notebook runs before
    the request (imported and built its page) and asks for the request (``asks_for_request``), or
    its notebook has run to its end; ``first_lead`` seconds after its start at most. A fixed wait
    cost every class start 15 s, and still fell short on a loaded machine.
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
    first_notebook = Unicode("teacher.ipynb", config=True, help=(
        "A notebook whose one warm kernel is started before any other ('' for none)."))
    first_lead = Float(60.0, config=True, help=(
        "Most seconds the other warm kernels wait after first_notebook's has started, while it "
        "imports what its page needs (about 1 s of CPU; a loaded 2-core machine takes many times "
        "that); they start as soon as it is ready."))
    connect_grace = Float(300.0, config=True, help=(
        "Seconds a page's kernel waits for the page's browser to connect before the idle cull may "
        "stop it (30 pages opening at once on a loaded 2-core server took up to 166 s)."))

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        files, _ = raise_file_limit()
        sockets = zmq_socket_ceiling(self.context, files)
        self.log.info("The server may open %d files and %d ZeroMQ sockets", files, sockets)
        self._started: set[str] = set()  # a kernel joins once its start has returned (Jupyter lists it earlier)
        self._warm: set[str] = set()  # kernels started for the warm pool that no cull has seen out of it
        self._starting = 0
        self._filling = 0
        self.building = 0  # pages between their request and their last cell
        self._connected: set[str] = set()  # kernels a page's browser has connected to, once at least
        self._given: dict[str, float] = {}  # when a page took each kernel (monotonic seconds)
        self._last_fill = -math.inf
        pools = getattr(self, "kernel_pools_config", None)  # Voila's, with preheat; it fills them after this
        if self.learners_expected and isinstance(pools, dict):
            self.kernel_pools_config = {**pools, self.pool_notebook: {**pools.get("default", {}),
                                                                     "pool_size": self.learners_expected}}
            pools = self.kernel_pools_config
        if self.first_notebook and isinstance(pools, dict):
            default = pools.get("default", {})
            self.kernel_pools_config = {**pools, self.first_notebook: {
                **default, "pool_size": 1,
                "kernel_env_variables": {**default.get("kernel_env_variables", {}), FIRST_VARIABLE: "1"}}}
        self._first_waiting = 0  # fills of the first notebook not started yet: the others wait for them
        self._first_started = -math.inf  # (monotonic) when the first notebook's warm kernel last started
        self._first_kernel = ""  # that kernel, until it is ready (then "")

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
        self.building += 1

    def page_finished(self) -> None:
        self.building = max(0, self.building - 1)

    def _awaited(self) -> bool:
        """Whether the refill running now has been taken by a page (it is no longer in a pool)."""
        task = asyncio.current_task()
        return not any(task in pool for pool in self._warm_pools())

    async def _fill_when_quiet(self, first: bool = False, step: float = 0.25) -> None:
        """Until no page is being built and the refill before has had its time, or a page waits for this one.
        The pool's first filling too: 30 kernels started at once held both cores of the machine
        for half a minute, and the teacher's page, opened as ``make class`` returned, for 76 s."""
        self._first_waiting += first
        try:
            while not self._awaited():
                if first and not self.building:
                    break  # the teacher's kernel: ahead of the pool, still not while a page is built
                if not self.building and not self._first_waiting and self._first_ready() and \
                        time.monotonic() - self._last_fill >= self.fill_spacing:
                    break  # checked and taken between two awaits: one refill at a time
                await asyncio.sleep(step)
        finally:
            self._first_waiting -= first
        self._last_fill = time.monotonic()

    def asks_for_request(self, kernel_id: str) -> None:
        """A warm kernel has run its notebook up to the request and waits for it (``ClassRequestInfo``)."""
        if kernel_id and kernel_id == self._first_kernel:
            self.log.info("Warm kernel %s of %s ready after %.1f s: the pool follows",
                          kernel_id, self.first_notebook, time.monotonic() - self._first_started)
            self._first_kernel = ""

    def _first_ready(self) -> bool:
        """Whether the first notebook's warm kernel is ready, or has had ``first_lead`` seconds."""
        pools: dict[str, list[asyncio.Task[_Warm]]] = getattr(self, "_pools", {})
        pool = pools.get(self.first_notebook, [])
        if any(not task.done() for task in pool):
            return False  # its kernel is yet to start, or Voila to set its notebook running
        kernel = self._first_kernel
        if not kernel:
            return True
        if time.monotonic() - self._first_started >= self.first_lead:
            self.log.warning("The warm kernel of %s is not ready after %.0f s: the pool starts anyway",
                             self.first_notebook, self.first_lead)
        elif any(_succeeded(task) and task.result()["kernel_id"] == kernel and not task.result()["task"].done()
                 for task in pool):
            return False  # running its notebook, not yet waiting for the request
        # (or its notebook ended without waiting, or failed; or a page took it)
        self._first_kernel = ""
        return True

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]  # async, as the base's
        filling = kwargs.get("env", {}).get("VOILA_PREHEAT") == "True"
        if kwargs.get("kernel_id") is None:
            if filling and len(self._running()) + self._starting >= self.ceiling:
                raise web.HTTPError(503, "no room to keep a kernel warm", reason="Class full")
            if not filling and self.is_full():
                self.log.warning("The class is full: %d learners, ceiling %d", self.learners(), self.ceiling)
                raise web.HTTPError(503, "the class is full", reason="Class full")
        first = filling and kwargs.get("env", {}).get(FIRST_VARIABLE) == "1"
        if filling:
            await self._fill_when_quiet(first=first)
            self._first_waiting += first  # until its start has returned
        kwargs["extra_arguments"] = [*kwargs.get("extra_arguments", []), *KERNEL_ARGUMENTS]
        if not filling and CLIENT.get():
            kwargs["env"] = {**kwargs.get("env", os.environ), CLIENT_VARIABLE: CLIENT.get()}
        self._starting += 1
        self._filling += filling
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
            self._filling -= filling
            if first:
                self._first_waiting -= 1
                self._first_started = time.monotonic()
        if first:
            self._first_kernel = kernel_id
        self._started.add(kernel_id)
        if filling:
            self._warm.add(kernel_id)
        else:
            self._given[kernel_id] = time.monotonic()
        return kernel_id

    def notify_connect(self, kernel_id: str) -> None:
        self._connected.add(kernel_id)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    def remove_kernel(self, kernel_id: str) -> Any:
        self._connected.discard(kernel_id)
        self._given.pop(kernel_id, None)
        self._warm.discard(kernel_id)
        return super().remove_kernel(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Jupyter's idle cull, for the kernels Voila's pool does not keep. A kernel a page took
        from the pool is idle from then, not from its time in the pool: Voila keeps the pool's
        kernels from the cull, but one taken by a page kept all the time it had waited there,
        and the next round of the cull stopped it before the learner's browser had connected
        (an upstream bug; the page then never became interactive). The cull's first round
        after a page took it starts its idle time afresh. And a kernel whose page's browser has
        never connected is kept ``connect_grace`` seconds from when the page took it, however
        idle: with 30 pages opening at once on a loaded server, 7 browsers connected after the
        cull's 90 s had stopped their kernels, and their pages never loaded."""
        if kernel_id in self._warm:  # Voila's cull sends only kernels outside its pool here
            self._warm.discard(kernel_id)
            self._given[kernel_id] = time.monotonic()
            kernel = self._kernels.get(kernel_id)
            if kernel is not None:
                kernel.last_activity = utcnow()
            return
        if kernel_id not in self._connected and \
                time.monotonic() - self._given.setdefault(kernel_id, time.monotonic()) < self.connect_grace:
            return  # its browser is still on its way: a loaded server's pages took minutes to connect
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]


def _succeeded(task: asyncio.Task[object]) -> bool:
    return not task.cancelled() and task.exception() is None
