"""One client cannot take the room: the class server's limits on websockets, against a real server.

A client with a script opened 300 v1 websockets on its own kernel: the server's ZeroMQ context
ran out of sockets and no other page could connect. Here the same client (from a loopback
address of its own, 127.0.0.3, so the learner's browser at 127.0.0.1 is another client) meets
the limits per kernel and per address while a learner's page loads and becomes interactive.
"""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator
from urllib.parse import urlparse

import psutil
import pytest
import websocket

import browser as B
from test_serve import V1, _frame, _kernel_of, _replies, _socket_url, served

pytestmark = pytest.mark.slow
ATTACKER = "127.0.0.3"


def _page_from(url: str, source: str) -> str:
    """A page's HTML, asked from the loopback address ``source``."""
    parts = urlparse(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120, source_address=(source, 0))
    try:
        connection.request("GET", parts.path or "/")
        answer = connection.getresponse()
        assert answer.status == 200, answer.status
        return answer.read().decode()
    finally:
        connection.close()


def _open_from(url: str, kernel: str, source: str) -> websocket.WebSocket | int:
    """A v1 websocket on ``kernel`` from ``source``, or the HTTP status that refused it."""
    parts = urlparse(url)
    raw = socket.create_connection((parts.hostname, parts.port), timeout=30, source_address=(source, 0))
    try:
        return websocket.create_connection(_socket_url(url, kernel), socket=raw, timeout=30, subprotocols=[V1])
    except websocket.WebSocketBadStatusException as refused:
        raw.close()
        return int(refused.status_code)


def _attack(url: str, kernels: list[str], attempts: int) -> tuple[list[websocket.WebSocket], list[int]]:
    held: list[websocket.WebSocket] = []
    refused: list[int] = []
    for n in range(attempts):
        opened = _open_from(url, kernels[n % len(kernels)], ATTACKER)
        (refused if isinstance(opened, int) else held).append(opened)  # type: ignore[arg-type]
    return held, refused


@pytest.fixture
def attacked(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with served(tmp_path, B.UNPACED, "--KernelSocket.sockets_per_address=6") as (url, _):
        yield url, tmp_path / "server.log"


@pytest.mark.browser
def test_a_client_holding_every_socket_it_can_leaves_the_room_to_a_new_learner(attacked: tuple[str, Path]) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    url, log = attacked
    kernels = [_kernel_of(_page_from(url, ATTACKER)) for _ in range(2)]  # two pages of its own
    held, refused = _attack(url, kernels, 300)
    try:
        assert len(held) == 6, "the address's limit: 6 websockets, whatever the kernels"
        assert set(refused) == {429} and len(refused) == 294
        # the sockets held still work: a real page is not refused what it needs
        held[0].send_binary(_frame("comm_info_request"))
        assert b"comm_info_reply" in b"".join(_replies(held[0], 4))
        with sync_api.sync_playwright() as p:  # a learner arrives while every socket is held
            browser = B.launch(p)
            try:
                page = browser.new_page()
                page.goto(url)
                page.wait_for_selector(".ready", timeout=120_000)
                page.click(".ready")
                assert page.query_selector(".ready")
            finally:
                browser.close()
    finally:
        for opened in held:
            opened.close()
    text = log.read_text()
    assert f"Refused a websocket from {ATTACKER}: 6 open from that address" in text
    assert "Too many open files" not in text


def test_one_kernel_takes_four_websockets_and_a_closed_one_frees_its_place(tmp_path: Path) -> None:
    with served(tmp_path, B.UNPACED) as (url, _):
        kernel = _kernel_of(_page_from(url, ATTACKER))
        held, refused = _attack(url, [kernel], 300)
        try:
            assert len(held) == 4 and set(refused) == {429}
            held.pop().close()  # a page that reconnects gets its place back
            again = None
            for _ in range(50):  # the server frees it once it has seen the close
                again = _open_from(url, kernel, ATTACKER)
                if not isinstance(again, int):
                    break
            assert not isinstance(again, int), "a closed websocket's place was not freed"
            held.append(again)
        finally:
            for opened in held:
                opened.close()


def test_before_the_file_budget_runs_out_a_websocket_is_refused_and_pages_still_load(tmp_path: Path) -> None:
    """A server left 300 descriptors more than it holds, every other limit off: websockets are
    refused (503) while there is still room to start a page's kernel, and the server answers."""
    options = ("--KernelSocket.sockets_per_address=0", "--KernelSocket.sockets_per_kernel=0")
    with served(tmp_path, B.UNPACED, *options) as (url, server):
        kernel = _kernel_of(_page_from(url, ATTACKER))
        budget = server.num_fds() + 300
        server.rlimit(psutil.RLIMIT_NOFILE, (budget, budget))
        held, refused = _attack(url, [kernel], 150)
        try:
            assert refused and set(refused) == {503}, refused[:5]
            assert 10 < len(held) < 150 and server.num_fds() < budget
            assert _kernel_of(_page_from(url, "127.0.0.1")) != kernel  # a page still loads, its kernel starts
        finally:
            for opened in held:
                opened.close()
    assert "file descriptors open" in (tmp_path / "server.log").read_text()


def test_the_file_limit_is_raised_to_the_hard_one_at_start() -> None:
    code = ("import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 512)); "
            "from capital_lux.serve.guards import raise_file_limit; print(raise_file_limit())")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "(512, 512)"


#: A page with an answer box and a button whose click fails (as a bug in a callback would).
FAILING_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{n}", "metadata": {}, "outputs": [],
               "source": source} for n, source in enumerate((
                   "import ipywidgets\nanswer = ipywidgets.Text(_dom_classes=['answer'])\nanswer",
                   "button = ipywidgets.Button(description='ready', _dom_classes=['ready'])\n"
                   "import sys\nbutton.on_click(lambda _: open(sys.prefix + '/no/such/file'))\nbutton"))],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def test_no_frame_tells_a_page_of_the_servers_inside_nor_echoes_an_oversized_answer(tmp_path: Path) -> None:
    import json
    import shutil
    import uuid

    (tmp_path / "failing.ipynb").write_text(json.dumps(FAILING_NOTEBOOK))
    shutil.copy(B.ROOT / "voila.json", tmp_path / "voila.json")
    with B.serving(tmp_path, "failing.ipynb", tmp_path / "server.log", options=(B.UNPACED,)) as (url, _):
        html = _page_from(url, "127.0.0.1")
        kernel = _kernel_of(html)
        answer, button = _model_ids(html)[:2]
        sent = "z" * 300_000
        socket = websocket.create_connection(_socket_url(url, kernel), timeout=30, subprotocols=[V1])
        try:
            socket.send_binary(_frame("comm_open", content={  # a made-up target
                "comm_id": uuid.uuid4().hex, "target_name": "no.such.target", "data": {}}))
            socket.send_binary(_frame("comm_msg", content={  # an answer of 300 KB
                "comm_id": answer, "data": {"method": "update", "state": {"value": sent}, "buffer_paths": []}}))
            socket.send_binary(_frame("comm_msg", content={  # a click whose callback fails
                "comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}))
            # until both answers came (6 s sufficed on a quiet machine, not at load 20), and 2 s more
            frames = _replies(socket, 120, until=lambda seen: b"comm_close" in seen and b'"error"' in seen)
        finally:
            socket.close()
    seen = b"".join(frames)
    assert b"comm_close" in seen and b'"error"' in seen  # the hostile comm closed, the click's error told
    for needle in (b"Traceback", b"site-packages", str(B.ROOT).encode(), sys.prefix.encode(), b"no/such/file"):
        assert needle not in seen, needle
    assert b"z" * 1024 not in seen and max(map(len, frames)) < 64 * 1024
    log = (tmp_path / "server.log").read_text()
    assert "Kept from kernel" in log and "No such file or directory" in log  # the server keeps what the page is not told


def _model_ids(html: str) -> list[str]:
    """The widgets' model ids, in the order the page shows them."""
    import re

    return re.findall(r'model_id\\?"?:\s*\\?"([0-9a-f]{32})', html.replace("&quot;", '"'))


def test_the_teachers_page_kernel_knows_the_address_of_the_browser_it_serves(tmp_path: Path) -> None:
    """The teacher's page limits wrong keys per address: its kernel, warmed ahead, is given the
    address of the browser that asked for the page with the request, which a kernel cannot see."""
    import json
    import shutil

    shown = {"cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {}, "outputs": [],
                        "source": "import os\nfrom voila.utils import get_query_string\nget_query_string()\n"
                                  "print('client=' + os.environ.get('CAPITAL_LUX_CLIENT', 'none'))"}],
             "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
             "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "teacher.ipynb").write_text(json.dumps(shown))
    shutil.copy(B.ROOT / "voila.json", tmp_path / "voila.json")
    with B.serving(tmp_path, ".", tmp_path / "server.log", options=(B.UNPACED,)) as (url, _):
        page = _page_from(url + "voila/render/teacher.ipynb", ATTACKER)
    assert f"client={ATTACKER}" in page
