"""The served tutor runs no code sent by a browser, shows no source and no traceback.

As in Voila's own tests: take the page's kernel id, open the kernel's websocket,
send an ``execute_request`` and check that Voila drops it (no reply, no output, a
warning in its log).
"""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
import websocket
from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

import browser as B

pytestmark = pytest.mark.browser
ARTIFACTS = B.ROOT / "test-artifacts"
V1 = "v1.kernel.websocket.jupyter.org"


def _page(url: str) -> str:
    return urllib.request.urlopen(url, timeout=120).read().decode()


def _execute_request(code: str) -> dict[str, object]:
    return {
        "header": {"msg_id": uuid.uuid4().hex, "username": "learner", "session": uuid.uuid4().hex,
                   "msg_type": "execute_request", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "buffers": [], "channel": "shell",
        "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True},
    }


def test_execute_requests_are_refused_and_sources_stripped(tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / "voila-security.log"
    marker = tmp_path / "executed"
    with B.voila_server(log) as url:
        html = _page(url)
        assert "build_app(" not in html and "options_from_query" not in html, "sources are stripped"
        kernel = re.search(r'kernelId": "([0-9a-f-]+)"', html)
        assert kernel, "the page names its kernel"
        ws_url = url.replace("http://", "ws://") + f"api/kernels/{kernel.group(1)}/channels?session_id={uuid.uuid4()}"
        conn = websocket.create_connection(ws_url, timeout=5, subprotocols=[V1])  # the only one served
        try:
            request = _execute_request(f"open({str(marker)!r}, 'w').write('ran')")
            conn.send_binary(serialize_msg_to_ws_v1(
                [json.dumps(request[part]).encode() for part in ("header", "parent_header", "metadata", "content")],
                "shell"))
            replies = []
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:  # listen a while for anything answering our request
                try:
                    message = conn.recv()
                except websocket.WebSocketTimeoutException:
                    break
                if request["header"]["msg_id"].encode() in message:  # type: ignore[index]
                    replies.append(message)
        finally:
            conn.close()
        for _ in range(50):  # Voila logs the refusal as it drops the message
            if "not allowed" in log.read_text():
                break
            time.sleep(0.1)
    assert replies == [], f"the kernel answered an execute request: {replies}"
    assert not marker.exists(), "code sent from the browser ran"
    assert 'Received message of type "execute_request", which is not allowed' in log.read_text()


def test_a_failing_cell_shows_no_traceback(tmp_path: Path) -> None:
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "boom", "metadata": {}, "outputs": [],
                   "source": "secret_name = 1\nraise ZeroDivisionError('boom in ' + str(secret_name))"}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    (tmp_path / "failing.ipynb").write_text(json.dumps(notebook))
    shutil.copy(B.ROOT / "voila.json", tmp_path / "voila.json")
    with B.serving(tmp_path, "failing.ipynb") as (url, _):
        html = _page(url)
        assert "There was an error when executing cell" in html  # the cell did fail
        assert "Traceback" not in html and "secret_name" not in html and "boom in" not in html
