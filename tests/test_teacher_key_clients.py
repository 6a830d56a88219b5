"""The teacher is never locked out, on a real class server: two learners' clients, each from a
loopback address of its own (127.0.0.2 and 127.0.0.3), open the teacher's page again and again and
type wrong keys through the widgets' own messages over the kernel's websocket, as many in all as
the old server-wide limit (20) that then refused the right key to everyone; then the teacher, in
Chromium at a third address (127.0.0.1), types the right key and the class's results open.

One server for the module; each page is a warm kernel of its own (5 here), as a learner
reloading the page to guess again gets. That the address of the browser reaches a warm
teacher's kernel is checked in ``test_serve_room``; the per-address limit in ``test_teacher_key``."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
import websocket
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1

import browser as B
from capital_lux.lessons.classroom import (KEY_FAILURES_VARIABLE, MAX_ADDRESS_KEY_FAILURES, TEACHER_KEY_VARIABLE)
from capital_lux.tutor.teacher_app import MAX_KEY_TRIES

pytestmark = pytest.mark.slow
KEY = "the teacher's own key, typed right"
LEARNER_A, LEARNER_B, TEACHER = "127.0.0.2", "127.0.0.3", "127.0.0.1"
V1 = "v1.kernel.websocket.jupyter.org"
PAGE = "voila/render/teacher.ipynb"
CONTROL = "jupyter.widget.control"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("teacher-key")
    shutil.copy(B.ROOT / "notebooks" / "teacher.ipynb", folder / "teacher.ipynb")
    shutil.copy(B.ROOT / "voila.json", folder / "voila.json")
    settings = {TEACHER_KEY_VARIABLE: KEY, KEY_FAILURES_VARIABLE: str(folder / "key-failures"),
                "CAPITAL_LUX_DB": str(folder / "class.sqlite3"), "XDG_DATA_HOME": str(folder / "data")}
    before = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)  # the server and its kernels take them
    try:
        with B.serving(folder, ".", folder / "server.log", options=(B.UNPACED,)) as (url, _):
            yield url
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Client:
    """A learner's script on the teacher's page: no browser, the widgets' messages sent by hand
    from its own address, as a page's front end would send them."""

    def __init__(self, url: str, source: str) -> None:
        parts = urlparse(url)
        connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=300,
                                                source_address=(source, 0))
        try:
            connection.request("GET", parts.path + PAGE)
            answer = connection.getresponse()
            assert answer.status == 200, answer.status
            html = answer.read().decode()
        finally:
            connection.close()
        kernel = re.search(r'kernelId": "([0-9a-f-]+)"', html)
        assert kernel, "the page names its kernel"
        raw = socket.create_connection((parts.hostname, parts.port), timeout=5, source_address=(source, 0))
        self.socket = websocket.create_connection(
            url.replace("http://", "ws://") + f"api/kernels/{kernel.group(1)}/channels?session_id={uuid.uuid4()}",
            socket=raw, timeout=5, subprotocols=[V1])
        self.session = uuid.uuid4().hex
        self._call("kernel_info_request", {})
        states = self.states()
        self.models = {name: next(model for model, state in states.items()
                                  if f"cl-teacher-{name}" in state["state"].get("_dom_classes", ()))
                       for name in ("key", "unlock", "lock-note")}

    def _send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        header = {"msg_id": uuid.uuid4().hex, "username": "learner", "session": self.session,
                  "msg_type": msg_type, "version": "5.3", "date": ""}
        parts = [json.dumps(part).encode() for part in (header, {}, metadata or {}, content)]
        self.socket.send_binary(serialize_msg_to_ws_v1(parts, "shell"))  # type: ignore[no-untyped-call]
        return str(header["msg_id"])

    def _messages(self) -> Iterator[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                frame = self.socket.recv()
            except websocket.WebSocketTimeoutException:
                continue
            if isinstance(frame, bytes):
                channel, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
                header, parent, _, content = (json.loads(part) for part in parts[:4])
                yield channel, header, parent, content
        raise TimeoutError("the kernel did not answer within 120 s")

    def _call(self, msg_type: str, content: dict[str, Any]) -> list[dict[str, Any]]:
        """Send a request; every iopub message content it caused, once the kernel is idle again."""
        sent = self._send(msg_type, content)
        caused: list[dict[str, Any]] = []
        for channel, header, parent, body in self._messages():
            if channel == "iopub" and parent.get("msg_id") == sent:
                if header["msg_type"] == "status" and body.get("execution_state") == "idle":
                    return caused
                caused.append({"msg_type": header["msg_type"], **body})
        raise AssertionError("unreachable")

    def states(self) -> dict[str, Any]:
        """Every widget's state, as the page's widget manager asks for it."""
        comm = uuid.uuid4().hex
        self._send("comm_open", {"comm_id": comm, "target_name": CONTROL, "data": {}}, {"version": "1.0.0"})
        sent = self._send("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}})
        for channel, header, parent, body in self._messages():
            if (channel == "iopub" and parent.get("msg_id") == sent and header["msg_type"] == "comm_msg"
                    and body["data"].get("method") == "update_states"):
                return dict(body["data"]["states"])
        raise AssertionError("unreachable")

    def guess(self, typed: str) -> str:
        """Type ``typed`` in the key's box, click Open; what the page's note then says."""
        self._call("comm_msg", {"comm_id": self.models["key"],
                                "data": {"method": "update", "state": {"value": typed}, "buffer_paths": []}})
        self._call("comm_msg", {"comm_id": self.models["unlock"],
                                "data": {"method": "custom", "content": {"event": "click"}}})
        return str(self.states()[self.models["lock-note"]]["state"]["value"])

    def close(self) -> None:
        self.socket.close()


def test_two_learners_wrong_keys_never_lock_the_teacher_out(server: str, chromium: Any) -> None:
    typed = 0
    for source in (LEARNER_A, LEARNER_B, LEARNER_A, LEARNER_B):  # each reloads the page to guess again
        client = Client(server, source)
        notes = [client.guess(f"guess number {typed + n}") for n in range(MAX_KEY_TRIES)]
        typed += MAX_KEY_TRIES
        client.close()
        assert all("That is not the key." in note for note in notes[:-1]), notes
        assert "Too many wrong keys: reload the page" in notes[-1]  # the page's own limit
    assert typed >= MAX_ADDRESS_KEY_FAILURES  # the old server-wide limit, which then locked everyone out
    assert urlparse(server).hostname == TEACHER  # the browser comes from the third address
    teacher = chromium.new_page()
    try:
        teacher.goto(server + PAGE, timeout=120_000)
        teacher.wait_for_selector(".cl-teacher-page.cl-ready .cl-teacher-key input:enabled", timeout=120_000)
        teacher.fill(".cl-teacher-key input", KEY)
        teacher.click(".cl-teacher-unlock")
        teacher.wait_for_selector(".cl-teacher-unlocked .cl-teacher-summary", timeout=60_000)  # the results
        assert "That is not the key" not in teacher.inner_text(".cl-teacher-page")
    finally:
        teacher.close()
