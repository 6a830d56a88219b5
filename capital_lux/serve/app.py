"""``python -m capital_lux.serve NOTEBOOK``: Voila, with a limit on how fast one client opens pages.

Every page Voila renders starts a kernel (about 120 MiB and 3 s of CPU). A person reloading
opens a few pages a minute; a script can open one every few seconds for as long as it
likes. ``ClassVoila`` gives each client address a small allowance of pages that refills at a
person's pace; past it the client gets a page (429) saying how long to wait, and no kernel.
Everything else is Voila's, configured by ``voila.json`` as plain ``voila`` is.

Behind a reverse proxy every learner has the proxy's address: set ``--ClassVoila.page_burst``
and ``pages_per_minute`` to fit the class, or 0 to switch the limit off.
"""

from __future__ import annotations

import math
import time
from typing import Any, Final

from tornado import web
from traitlets import Float, Int
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

#: Addresses remembered at most (the oldest are forgotten first); a class is far fewer.
MAX_CLIENTS: Final = 4096


class Pace:
    """A token bucket per client: ``burst`` pages at once, then ``per_minute`` more a minute.

    >>> pace = Pace(burst=2, per_minute=6)
    >>> [pace.wait("a", now) for now in (0.0, 0.0, 0.0)]
    [0.0, 0.0, 10.0]
    >>> pace.wait("a", 10.0), pace.wait("b", 10.0)
    (0.0, 0.0)
    """

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst, self.per_second = burst, per_minute / 60
        self._tokens: dict[str, tuple[float, float]] = {}

    def wait(self, client: str, now: float) -> float:
        """Seconds ``client`` must wait before its next page (0: take it now, and it is counted)."""
        if self.burst <= 0 or self.per_second <= 0:
            return 0.0
        tokens, then = self._tokens.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        if tokens >= 1:
            tokens -= 1
            wait = 0.0
        else:
            wait = (1 - tokens) / self.per_second
        self._tokens[client] = (tokens, now)  # re-inserted: the dict stays oldest-first
        while len(self._tokens) > MAX_CLIENTS:
            del self._tokens[next(iter(self._tokens))]
        return wait


class PacedVoilaHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's page handler, refusing a client that opens pages faster than its pace."""

    async def prepare(self) -> None:
        await super().prepare()  # first: the error page needs what it sets up (the user)
        pace: Pace | None = self.settings.get("capital_lux_pace")
        if pace is not None and self.request.method == "GET":
            wait = pace.wait(self.request.remote_ip or "", time.monotonic())
            if wait:
                raise web.HTTPError(429, "%d", math.ceil(wait), reason="Too many pages")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None))[1]
        if status_code == 429 and isinstance(error, web.HTTPError):  # set here: sending an error clears headers
            self.set_header("Retry-After", str(error.args[0]))
        super().write_error(status_code, **kwargs)


class ClassVoila(Voila):  # type: ignore[misc]
    """Voila for a class: its page handlers paced per client address."""

    page_burst = Int(6, config=True, help="Pages one client may open at once (0: no limit).")
    pages_per_minute = Float(6.0, config=True, help="Pages a minute one client may open after that.")

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = super().init_handlers()
        return [(rule[0], PacedVoilaHandler, *rule[2:]) if rule[1] is TornadoVoilaHandler else rule
                for rule in handlers]

    def start(self) -> None:
        settings: dict[str, Any] = dict(self.tornado_settings)  # type: ignore[has-type]
        settings["capital_lux_pace"] = Pace(self.page_burst, self.pages_per_minute)
        self.tornado_settings = settings
        super().start()


main = ClassVoila.launch_instance
