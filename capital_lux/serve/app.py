"""``python -m capital_lux.serve NOTEBOOK``: Voila, with a limit on how fast one client opens pages.

Every page Voila renders starts a kernel (about 130 MiB and 1.3 s of CPU). A person reloading
opens a few pages a minute; a script can open one every few seconds for as long as it
likes. ``ClassVoila`` gives each client address a small allowance of pages that refills at a
person's pace; past it the client gets a page (429) saying how long to wait, and no kernel.
Everything else is Voila's, configured by ``voila.json`` as plain ``voila`` is.

Behind a reverse proxy every learner has the proxy's address: set ``--ClassVoila.page_burst``
and ``pages_per_minute`` to fit the class, or 0 to switch the limit off.
"""

from __future__ import annotations

import ipaddress
import math
import time
from typing import Any

from tornado import web
from tornado.log import app_log
from traitlets import Float, Int
from voila import handler as voila_handler
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.tornado.handler import TornadoVoilaHandler

from ..lessons.pace import Pace
from . import manual
from .guards import CLIENT, CLIENT_VARIABLE, ClassKernels


class ClassRequestInfo(RequestInfoSocketHandler):  # type: ignore[misc]
    """Voila's hand-over of a page's request to a kernel it warmed ahead (``preheat_kernel``):
    the query (``?lang=fr``), and here also the browser's address, which Voila does not pass and
    a kernel cannot see. The teacher's page, warmed ahead so it opens at once, limits wrong keys
    per address with it (``voila.utils.wait_for_request`` puts every item in the environment).
    A kernel opening this socket has run its notebook up to the request: the class's kernels
    are told (the learners' pool waits for the teacher's kernel to be that far).

    Only a kernel asks, from this machine, and one socket a kernel: Voila keeps the last socket
    opened for a kernel id as its waiter, so a browser that opened one would read the hand-over
    meant for a kernel or take its place and leave its page waiting, and a script could hold
    sockets without end. Another address gets 403, a second socket for one kernel 409."""

    def prepare(self) -> None:
        address = self.request.remote_ip or ""
        try:
            local = ipaddress.ip_address(address.removeprefix("::ffff:")).is_loopback
        except ValueError:
            local = False
        if not local:
            app_log.warning("Refused a request-info socket from %s: only this machine's kernels ask", address)
            raise web.HTTPError(403, "only this machine's kernels ask for their request")
        if self.path_kwargs.get("kernel_id") in RequestInfoSocketHandler._waiters:
            app_log.warning("Refused a second request-info socket for kernel %s", self.path_kwargs.get("kernel_id"))
            raise web.HTTPError(409, "this kernel already waits for its request")

    def open(self, kernel_id: str) -> None:
        super().open(kernel_id)
        kernels = self.settings.get("kernel_manager")
        if isinstance(kernels, ClassKernels):
            kernels.asks_for_request(kernel_id)

    @classmethod
    def send_updates(cls, msg: dict[str, Any]) -> None:
        client = CLIENT.get()  # the page handler's own task: this request's browser
        if client:
            msg = {**msg, "payload": {**msg["payload"], CLIENT_VARIABLE: client}}
        RequestInfoSocketHandler.send_updates(msg)


# Voila's page handler names the class in its module; the request-info socket itself is Voila's.
voila_handler.RequestInfoSocketHandler = ClassRequestInfo

class PacedVoilaHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's page handler, refusing a client that opens pages faster than its pace, and
    any page once the class is full (before Voila hands it a kernel from its warm pool)."""

    _building: ClassKernels | None = None  # the kernels told this page is being built, until it is

    async def prepare(self) -> None:
        await super().prepare()  # first: the error page needs what it sets up (the user)
        CLIENT.set(self.request.remote_ip or "")  # for a kernel started for this page (its task's own)
        pace: Pace | None = self.settings.get("capital_lux_pace")
        if pace is not None and self.request.method == "GET":
            wait = pace.wait(self.request.remote_ip or "", time.monotonic())
            if wait:
                raise web.HTTPError(429, "%d", math.ceil(wait), reason="Too many pages")
        kernels = self.kernel_manager
        if isinstance(kernels, ClassKernels) and self.request.method == "GET":
            kernels.drop_refused_fills()
            if kernels.is_full():  # before Voila takes a warm kernel or starts one
                self.log.warning("The class is full: %d learners, ceiling %d", kernels.learners(), kernels.ceiling)
                raise web.HTTPError(503, "the class is full", reason="Class full")
            kernels.page_started()
            self._building = kernels

    def _built(self) -> None:
        if self._building is not None:  # the page's last cell has run, or its request ended otherwise
            self._building.page_finished()
            self._building = None

    def on_finish(self) -> None:
        self._built()
        super().on_finish()

    def on_connection_close(self) -> None:
        self._built()
        super().on_connection_close()

    def write_error(self, status_code: int, **kwargs: object) -> None:
        exc_info = kwargs.get("exc_info")  # sys.exc_info() of the error, when there is one
        error = exc_info[1] if isinstance(exc_info, tuple) else None
        if status_code == 429 and isinstance(error, web.HTTPError):  # set here: sending an error clears headers
            self.set_header("Retry-After", str(error.args[0]))
        super().write_error(status_code, **kwargs)


class ClassVoila(Voila):  # type: ignore[misc]
    """Voila for a class: its page handlers paced per client address, and its hand-over of a
    request to a warm kernel telling the class's kernels which kernels wait for theirs."""

    page_burst = Int(6, config=True, help="Pages one client may open at once (0: no limit).")
    pages_per_minute = Float(6.0, config=True, help="Pages a minute one client may open after that.")

    def init_handlers(self) -> list[tuple[object, ...]]:
        handlers: list[tuple[object, ...]] = super().init_handlers()  # (pattern, handler class, its settings)
        ours = {TornadoVoilaHandler: PacedVoilaHandler, RequestInfoSocketHandler: ClassRequestInfo}
        return [manual.route(self.server_url)] + [  # the manual first: a single notebook's page takes every path
            (rule[0], ours.get(rule[1], rule[1]), *rule[2:]) for rule in handlers]

    def start(self) -> None:
        settings: dict[str, object] = dict(self.tornado_settings)  # type: ignore[has-type]
        settings["capital_lux_pace"] = Pace(self.page_burst, self.pages_per_minute)
        self.tornado_settings = settings
        super().start()


main = ClassVoila.launch_instance
