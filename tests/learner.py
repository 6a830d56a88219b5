"""A learner's page without a browser: what Voila's front end asks of the server as a page loads.

A browser draws the page on the learner's own machine, but what it asks of the server is
the same with or without the drawing: the page's HTML (Voila runs the notebook while it
streams it), then, once the page's script has arrived at its end, the kernel's websocket
(Jupyter's v1 framing, the only one the class server accepts), the kernel's info (the
front end sends nothing else before its answer), and the widgets' full state, which
@jupyter-widgets/base's manager asks of the kernel through the ``jupyter.widget.control``
comm (``request_states``, answered by one ``update_states`` message). A learner has
arrived once that state has come back whole. Used by ``load.arriving_class``.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

from browser import TABLE
from capital_lux.serve.guards import V1

#: Where Voila's page names its kernel and base URL, for the front end's script.
PAGE_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
CONTROL = "jupyter.widget.control"
CONTROL_VERSION = "1.0.0"  # ipywidgets 8's control protocol


@dataclass
class Arrival:
    """One learner's page as the server served it: seconds from the request to the HTML whole
    and to the widgets' state back, that state (model id to model name, module and state),
    and the kernel's websocket, left open as a learner's page keeps it."""

    page_seconds: float
    state_seconds: float
    states: dict[str, dict[str, Any]]
    socket: WebSocketClientConnection = field(repr=False)


def _send(socket: WebSocketClientConnection, session: Session, msg_type: str, content: dict[str, Any],
          metadata: dict[str, Any] | None = None) -> None:
    """A request on the shell channel, v1-framed as the front end frames it."""
    message = session.msg(msg_type, content, metadata=metadata)
    frame = serialize_msg_to_ws_v1(message, "shell", pack=session.pack)  # type: ignore[no-untyped-call]
    socket.write_message(frame, binary=True)


async def _until(socket: WebSocketClientConnection, msg_type: str,
                 comm_id: str | None = None) -> dict[str, Any]:
    """The content of the next message of ``msg_type`` (on comm ``comm_id``, if given)."""
    while True:
        frame = await socket.read_message()
        if frame is None:
            raise ConnectionError(f"the kernel's websocket closed before a {msg_type}")
        if not isinstance(frame, bytes):
            continue
        _, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
        header, content = json.loads(parts[0]), json.loads(parts[3])
        if header["msg_type"] == msg_type and comm_id in (None, content.get("comm_id")):
            return dict(content)


async def arrive(url: str, timeout: float = 600) -> Arrival:
    """Load the page at ``url`` as a browser's Voila page would, without drawing it."""
    start = time.perf_counter()
    http = AsyncHTTPClient(force_instance=True)  # a client of its own: the shared one holds 10 requests at a time
    try:
        page = await http.fetch(url, request_timeout=timeout)
    finally:
        http.close()
    page_seconds = time.perf_counter() - start
    found = PAGE_CONFIG.search(page.body.decode())
    if not found:
        raise ValueError(f"{url}: the page names no kernel")
    config = json.loads(found.group(1))
    session = Session()
    where = urlsplit(url)
    channels = (f"ws://{where.netloc}{config['baseUrl']}api/kernels/{config['kernelId']}/channels"
                f"?session_id={session.session}")
    socket = await websocket_connect(HTTPRequest(channels, request_timeout=timeout), subprotocols=[V1])
    _send(socket, session, "kernel_info_request", {})
    await _until(socket, "kernel_info_reply")
    comm_id = uuid.uuid4().hex
    _send(socket, session, "comm_open", {"comm_id": comm_id, "target_name": CONTROL, "data": {}},
          {"version": CONTROL_VERSION})
    _send(socket, session, "comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
    while (reply := await _until(socket, "comm_msg", comm_id))["data"].get("method") != "update_states":
        pass
    state_seconds = time.perf_counter() - start
    _send(socket, session, "comm_close", {"comm_id": comm_id, "data": {}})
    return Arrival(page_seconds, state_seconds, reply["data"]["states"], socket)


def shows_table(arrival: Arrival) -> bool:
    """Whether the widgets' state holds the tutor's table (an HTML widget's value)."""
    return any(f'class="{TABLE[1:]}"' in str(model["state"].get("value", "")) for model in arrival.states.values())
